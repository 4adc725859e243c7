package metrics

import (
	"errors"
	"fmt"
	"slices"
)

// SetGroups splits the set into groups of DBMS, each compared with its own
// base (its first DBMS), as the groups of a DBMS list ("-" or BREAK lines)
// do for the insert benchmark. Each group lists DBMS names of the set; a
// name may be in more than one group (a base repeated at the start of
// every group). One group, or none, leaves the set whole.
func (s *SysbenchSet) SetGroups(groups [][]string) error {
	if s == nil {
		return errors.New("nil sysbench set")
	}
	s.groups = nil
	if len(groups) < 2 {
		return nil
	}
	byName := map[string]*SysbenchDBMS{}
	for _, d := range s.DBMS {
		byName[d.Name] = d
	}
	for _, g := range groups {
		var ds []*SysbenchDBMS
		for _, n := range g {
			d := byName[n]
			if d == nil {
				return fmt.Errorf("group of %s: no sysbench DBMS %s", g[0], n)
			}
			if !slices.Contains(ds, d) {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			s.groups = append(s.groups, ds)
		}
	}
	if len(s.groups) < 2 {
		s.groups = nil
	}
	return nil
}

// Grouped reports whether the set has more than one group.
func (s *SysbenchSet) Grouped() bool {
	if s == nil {
		return false
	}
	return len(s.groups) > 1
}

// Split returns one set per group, whose first DBMS is its base and whose
// tests and thread counts are those its DBMS ran; an ungrouped set is its
// own only group. The sets share the computed DBMS of s.
func (s *SysbenchSet) Split() []*SysbenchSet {
	if s == nil {
		return nil
	}
	if !s.Grouped() {
		return []*SysbenchSet{s}
	}
	var out []*SysbenchSet
	for _, g := range s.groups {
		sub := &SysbenchSet{DBMS: g, Options: s.Options}
		seenT := map[string]bool{}
		seenN := map[int]bool{}
		for _, d := range g {
			for _, r := range d.Results {
				seenT[r.Test.Sfx] = true
				seenN[r.Threads] = true
			}
			if d.Dir != nil {
				for _, t := range d.Dir.Tests {
					seenT[t.Sfx] = true
				}
			}
		}
		// The whole set's order of tests and thread counts.
		for _, t := range s.Tests {
			if seenT[t.Sfx] {
				sub.Tests = append(sub.Tests, t)
			}
		}
		for _, n := range s.Threads {
			if seenN[n] {
				sub.Threads = append(sub.Threads, n)
			}
		}
		out = append(out, sub)
	}
	return out
}

// Bases are the base DBMS of the groups, in group order: the set's base
// alone when it is not grouped.
func (s *SysbenchSet) Bases() []*SysbenchDBMS {
	var out []*SysbenchDBMS
	for _, g := range s.Split() {
		if b := g.Base(); b != nil {
			out = append(out, b)
		}
	}
	return out
}

// SysbenchPair is a DBMS compared with the base of its group: Group is the
// group (a set whose first DBMS is the base), DBMS one of its others.
type SysbenchPair struct {
	Group *SysbenchSet
	DBMS  *SysbenchDBMS
}

// Base is the base DBMS of the pair's group.
func (p SysbenchPair) Base() *SysbenchDBMS { return p.Group.Base() }

// Pairs lists every DBMS that is not the base of its group, group by
// group: the columns of the relative tables.
func (s *SysbenchSet) Pairs() []SysbenchPair {
	var out []SysbenchPair
	for _, g := range s.Split() {
		for _, d := range g.DBMS[min(1, len(g.DBMS)):] {
			out = append(out, SysbenchPair{g, d})
		}
	}
	return out
}

// BaseOf is the base of the first group that has d (the set's base when
// it is not grouped).
func (s *SysbenchSet) BaseOf(d *SysbenchDBMS) *SysbenchDBMS {
	for _, g := range s.Split() {
		if slices.Contains(g.DBMS, d) {
			return g.Base()
		}
	}
	return s.Base()
}
