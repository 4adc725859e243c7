package render

import (
	"strings"

	"github.com/ibreport/ibreport/report"
)

// counterParts adds perf stat counters to a Markdown or text document,
// under title: the caption, notes and compact tables, the flame graphs as
// links (never inlined: they carry scripts), and every counter per step or
// test in a part of its own titled detail. It returns both parts (the
// second nil without details), for the caller to file them.
func counterParts(c *report.PerfPart, title, detail string, add func(string) *docPart, para func(*docPart, string), table func(*docPart, *report.Table)) (*docPart, *docPart) {
	p := add(title)
	para(p, c.Caption)
	for _, note := range c.Notes {
		para(p, note)
	}
	for _, t := range c.Tables {
		table(p, t)
	}
	if len(c.FlameGraphs) > 0 {
		para(p, "Flame graphs, linked (they carry scripts), paths relative to the results folder:")
		var l []string
		for _, fg := range c.FlameGraphs {
			l = append(l, strings.TrimSuffix(fg.DBMS+": "+fg.Test, ": ")+": "+fg.Href)
		}
		p.Items = append(p.Items, &docItem{Bullets: l})
	}
	if len(c.Details) == 0 {
		return p, nil
	}
	d := add(detail)
	for _, t := range c.Details {
		table(d, t)
	}
	return p, d
}
