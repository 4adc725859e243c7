package report

import (
	"fmt"
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
// with the columns it is the base of when the list has groups (or the
// configs of a release archive make them): "of its group (10.2.30 z12a
// for the first 15 columns, 10.2.44 z12b for the next 18)".
func sbBaseText(set *metrics.SysbenchSet) string {
	bs := set.Bases()
	if len(bs) == 1 {
		return bs[0].Name
	}
	var names []string
	for i, g := range set.Split() {
		b := g.Base()
		if b == nil {
			continue
		}
		which := "the next"
		if i == 0 {
			which = "the first"
		}
		names = append(names, fmt.Sprintf("%s for %s %s", b.Name, which, metrics.Plural(len(g.DBMS)-1, "column")))
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
