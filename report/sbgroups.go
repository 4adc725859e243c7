package report

import (
	"strings"

	"github.com/ibreport/ibreport/metrics"
)

// sbPairNames are the column names of the pairs: the DBMS names, with the
// base added ("x / base") when a DBMS is compared with more than one base.
func sbPairNames(pairs []metrics.SysbenchPair) []string {
	n := map[string]int{}
	for _, p := range pairs {
		n[p.DBMS.Name]++
	}
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.DBMS.Name
		if n[p.DBMS.Name] > 1 {
			out[i] += " / " + p.Base().Name
		}
	}
	return out
}

// sbBaseText names the base in captions: the base DBMS, or each group's
// when the list has groups.
func sbBaseText(set *metrics.SysbenchSet) string {
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
func sbBaseSuffix(set *metrics.SysbenchSet) string {
	if set.Grouped() {
		return " of its group"
	}
	return ""
}
