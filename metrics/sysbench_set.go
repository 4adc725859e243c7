package metrics

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"

	"github.com/ibreport/ibreport/parse"
)

// SysbenchSet is the sysbench results of several DBMS configurations, the
// model every sysbench table and report is built from.
type SysbenchSet struct {
	DBMS    []*SysbenchDBMS      // report order; DBMS[0] is the base of relative values
	Tests   []parse.SysbenchTest // every test of any DBMS, in run order
	Threads []int                // every thread count, ascending
	Options Options
	// groups are the DBMS of each group of a grouped DBMS list, the first
	// of each its base (SetGroups); nil for one group.
	groups [][]*SysbenchDBMS
}

// ComputeSysbench computes every folder, in the given order (the first is
// the base), in the default mode.
func ComputeSysbench(fsys fs.FS, dirs []*parse.SysbenchDir, opt Options) (*SysbenchSet, error) {
	return ComputeSysbenchWith(fsys, dirs, opt, defaultSysbenchRules)
}

// ComputeSysbenchWith is ComputeSysbench with the given rules for each run
// and prepare step.
func ComputeSysbenchWith(fsys fs.FS, dirs []*parse.SysbenchDir, opt Options, rules SysbenchRules) (*SysbenchSet, error) {
	s := &SysbenchSet{Options: opt}
	seenT := map[string]bool{}
	seenN := map[int]bool{}
	dbms, err := computeSysbenchDirs(fsys, dirs, opt, rules)
	if err != nil {
		return nil, err
	}
	for i, d := range dirs {
		s.DBMS = append(s.DBMS, dbms[i])
		s.addDir(d, seenT, seenN)
	}
	parse.SortSysbenchTests(s.Tests)
	for n := range seenN {
		s.Threads = append(s.Threads, n)
	}
	sortInts(s.Threads)
	return s, nil
}

func sortInts(l []int) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j] < l[j-1]; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

// Names are the DBMS names in column order, the base first.
func (s *SysbenchSet) Names() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.DBMS))
	for i, d := range s.DBMS {
		out[i] = d.Name
	}
	return out
}

// Base returns the base DBMS, or nil for an empty set.
func (s *SysbenchSet) Base() *SysbenchDBMS {
	if s == nil {
		return nil
	}
	if len(s.DBMS) == 0 {
		return nil
	}
	return s.DBMS[0]
}

// Warnings are the texts of Notes.
func (s *SysbenchSet) Warnings() []string {
	return WarningTexts(s.Notes())
}

// Notes lists every warning of the set: folder problems, then each run's
// in DBMS, test and thread order.
func (s *SysbenchSet) Notes() []Warning {
	if s == nil {
		return nil
	}
	var out []Warning
	for _, d := range s.DBMS {
		out = append(out, d.Warnings...)
		if d.Load != nil {
			out = append(out, d.Load.Warnings...)
		}
		for _, r := range d.Results {
			out = append(out, r.Warnings...)
		}
	}
	return out
}

// SysbenchRel compares one DBMS with the base for one test at one thread
// count. Result or Base is nil when that run does not exist; every value is
// then NA with the reason.
type SysbenchRel struct {
	DBMS    string
	Test    parse.SysbenchTest
	Threads int
	Result  *SysbenchResult
	Base    *SysbenchResult

	QPS, TPS, LatAvg, LatPct, LatMax                Value
	CPUPerOp, CsPerOp, ReadsPerOp, ReadKBPerOp      Value
	WriteKBPerOp, CPUMicrosPerOp, OpsPerSecFromRate Value
}

// Relative compares d with the base DBMS. Ratios use the unrounded values,
// so that two per-operation values both printed as 0.000 still compare.
func (s *SysbenchSet) Relative(d *SysbenchDBMS, t parse.SysbenchTest, nt int) SysbenchRel {
	if s == nil || d == nil {
		return SysbenchRel{Test: t, Threads: nt}
	}
	rel := SysbenchRel{DBMS: d.Name, Test: t, Threads: nt, Result: d.Result(t.Sfx, nt)}
	if b := s.Base(); b != nil {
		rel.Base = b.Result(t.Sfx, nt)
	}
	pairs := []struct {
		dst *Value
		get func(*SysbenchResult) Value
	}{
		{&rel.QPS, func(r *SysbenchResult) Value { return r.QPS }},
		{&rel.TPS, func(r *SysbenchResult) Value { return r.TPS }},
		{&rel.LatAvg, func(r *SysbenchResult) Value { return r.LatAvg }},
		{&rel.LatPct, func(r *SysbenchResult) Value { return r.LatPct }},
		{&rel.LatMax, func(r *SysbenchResult) Value { return r.LatMax }},
		{&rel.CPUPerOp, func(r *SysbenchResult) Value { return r.HW.CPUPerOp }},
		{&rel.CsPerOp, func(r *SysbenchResult) Value { return r.HW.CsPerOp }},
		{&rel.ReadsPerOp, func(r *SysbenchResult) Value { return r.HW.ReadsPerOp }},
		{&rel.ReadKBPerOp, func(r *SysbenchResult) Value { return r.HW.ReadKBPerOp }},
		{&rel.WriteKBPerOp, func(r *SysbenchResult) Value { return r.HW.WriteKBPerOp }},
		{&rel.CPUMicrosPerOp, func(r *SysbenchResult) Value { return r.HW.CPUMicrosPerOp }},
		{&rel.OpsPerSecFromRate, func(r *SysbenchResult) Value { return r.QPS }},
	}
	for _, p := range pairs {
		switch {
		case rel.Result == nil:
			*p.dst = NAf(RatioUnit, "%s has no %s run with %s", d.Name, t.Sfx, Plural(nt, "thread"))
		case rel.Base == nil:
			*p.dst = NAf(RatioUnit, "the base DBMS has no %s run with %s", t.Sfx, Plural(nt, "thread"))
		default:
			*p.dst = Ratio(p.get(rel.Result), p.get(rel.Base))
		}
	}
	return rel
}

// addDir notes the tests and thread counts of a folder, each once.
func (s *SysbenchSet) addDir(d *parse.SysbenchDir, seenT map[string]bool, seenN map[int]bool) {
	for _, t := range d.Tests {
		if !seenT[t.Sfx] {
			seenT[t.Sfx] = true
			s.Tests = append(s.Tests, t)
		}
	}
	for _, n := range d.AllThreads() {
		seenN[n] = true
	}
}

// NewSysbenchSet puts results that were read rather than computed from
// run files (the summary tables of a published study) into a set: one
// SysbenchDBMS per folder of dirs, in that order (the first is the base),
// holding the results of runs whose DBMS is its name, in test and thread
// order. A result of a DBMS not in dirs, or a second result of the same
// test and thread count, is left out with a warning of the set's base.
func NewSysbenchSet(dirs []*parse.SysbenchDir, runs []*SysbenchResult, opt Options) *SysbenchSet {
	s := &SysbenchSet{Options: opt}
	byName := map[string]*SysbenchDBMS{}
	seenT := map[string]bool{}
	seenN := map[int]bool{}
	for _, dir := range dirs {
		if dir == nil || byName[dir.Name] != nil {
			continue
		}
		d := &SysbenchDBMS{Dir: dir, Name: dir.Name, byKey: map[string]*SysbenchResult{}, engine: opt.Engine}
		byName[dir.Name] = d
		s.DBMS = append(s.DBMS, d)
		s.addDir(dir, seenT, seenN)
	}
	var dropped []Warning
	for _, r := range runs {
		if r == nil {
			continue
		}
		d := byName[r.DBMS]
		key := r.Test.Sfx + "\x00" + strconv.Itoa(r.Threads)
		switch {
		case d == nil:
			dropped = append(dropped, Warning{DBMS: r.DBMS, Step: r.Test.Sfx, Text: fmt.Sprintf("%s: a result of %s, which is not in the set; left out", r.DBMS, r.Test.Sfx)})
			continue
		case d.byKey[key] != nil:
			dropped = append(dropped, Warning{DBMS: r.DBMS, Step: r.Test.Sfx, Text: fmt.Sprintf("%s: a second result of %s at %s; the first is kept", r.DBMS, r.Test.Sfx, Plural(r.Threads, "thread"))})
			continue
		}
		d.byKey[key] = r
		d.Results = append(d.Results, r)
		if !seenT[r.Test.Sfx] {
			seenT[r.Test.Sfx] = true
			s.Tests = append(s.Tests, r.Test)
		}
		seenN[r.Threads] = true
	}
	parse.SortSysbenchTests(s.Tests)
	rank := make(map[string]int, len(s.Tests))
	for i, t := range s.Tests {
		rank[t.Sfx] = i
	}
	for _, d := range s.DBMS {
		slices.SortStableFunc(d.Results, func(a, b *SysbenchResult) int {
			if c := rank[a.Test.Sfx] - rank[b.Test.Sfx]; c != 0 {
				return c
			}
			return a.Threads - b.Threads
		})
	}
	if len(dropped) > 0 && len(s.DBMS) > 0 {
		s.DBMS[0].Warnings = append(s.DBMS[0].Warnings, dropped...)
	}
	for n := range seenN {
		s.Threads = append(s.Threads, n)
	}
	sortInts(s.Threads)
	return s
}
