package report

import (
	"strings"

	"github.com/ibreport/ibreport/internal/metrics"
)

// sbPair is a DBMS compared with the base of its group: g is the group (a
// set whose first DBMS is the base), d one of its other DBMS.
type sbPair struct {
	g *SysbenchSet
	d *metrics.SysbenchDBMS
}

// base is the base DBMS of the pair's group.
func (p sbPair) base() *metrics.SysbenchDBMS { return p.g.Base() }

// sbPairs lists every DBMS that is not the base of its group, group by
// group: the columns of the relative tables.
func sbPairs(set *SysbenchSet) []sbPair {
	var out []sbPair
	for _, g := range set.Split() {
		for _, d := range g.DBMS[min(1, len(g.DBMS)):] {
			out = append(out, sbPair{g, d})
		}
	}
	return out
}

// sbPairNames are the column names of the pairs: the DBMS names, with the
// base added ("x / base") when a DBMS is compared with more than one base.
func sbPairNames(pairs []sbPair) []string {
	n := map[string]int{}
	for _, p := range pairs {
		n[p.d.Name]++
	}
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.d.Name
		if n[p.d.Name] > 1 {
			out[i] += " / " + p.base().Name
		}
	}
	return out
}

// sbBaseText names the base in captions: the base DBMS, or each group's
// when the list has groups.
func sbBaseText(set *SysbenchSet) string {
	bs := set.Bases()
	if len(bs) == 1 {
		return bs[0].Name
	}
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	return "of its group (" + strings.Join(names, ", ") + ")"
}

// sbBaseSuffix is " of its group" for a grouped set, "" otherwise: the
// captions that say "the base" without naming it.
func sbBaseSuffix(set *SysbenchSet) string {
	if set.Grouped() {
		return " of its group"
	}
	return ""
}

// sbBaseOf is the base of the first group that has d (the set's base when
// it is not grouped).
func sbBaseOf(set *SysbenchSet, d *metrics.SysbenchDBMS) *metrics.SysbenchDBMS {
	for _, g := range set.Split() {
		for _, x := range g.DBMS {
			if x == d {
				return g.Base()
			}
		}
	}
	return set.Base()
}
