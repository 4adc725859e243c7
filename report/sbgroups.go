package report

import (
	"strconv"
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
// with the count of columns it is the base of, in column order, when the
// list has groups (or the configs of a release archive make them): "of
// its group (10.2.30 z12a: 15 columns, 10.2.44 z12b: 18)".
func sbBaseText(set *metrics.SysbenchSet) string {
	bs := set.Bases()
	if len(bs) == 1 {
		return bs[0].Name
	}
	var names []string
	for _, g := range set.Split() {
		b := g.Base()
		if b == nil {
			continue
		}
		n := strconv.Itoa(len(g.DBMS) - 1)
		if len(names) == 0 {
			n = metrics.Plural(len(g.DBMS)-1, "column")
		}
		names = append(names, b.Name+": "+n)
	}
	return "of its group (" + strings.Join(names, ", ") + ")"
}

// sbBaseOf names the base after "relative to": "the base 10.2.30", or
// for a grouped set "its group's base (10.2.30 z12a: 15 columns, 10.2.44
// z12b: 18)".
func sbBaseOf(set *metrics.SysbenchSet) string {
	if !set.Grouped() {
		return "the base " + sbBaseText(set)
	}
	return "its group's base " + strings.TrimPrefix(sbBaseText(set), "of its group ")
}

// sbChartBase names the base in a chart's title: the base DBMS, or each
// group's.
func sbChartBase(set *metrics.SysbenchSet) string {
	if !set.Grouped() {
		return sbBaseText(set)
	}
	return sbBaseOf(set)
}

// sbBaseSuffix is " of its group" for a grouped set, "" otherwise: the
// captions that say "the base" without naming it.
func sbBaseSuffix(set *metrics.SysbenchSet) string {
	if set.Grouped() {
		return " of its group"
	}
	return ""
}
