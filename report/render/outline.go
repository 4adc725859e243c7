package render

import (
	"slices"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// outline lays out the parts of the report in the order both formats print
// them: the summary, the introduction, the contents, the steps, the
// sysbench part, the legend and the notes.
func outline(r *report.Report) *doc {
	o := &outliner{n: newHeadingNamer()}
	d := o.head(r)
	o.series(r.Series)
	o.hosts(r.Hosts)
	o.summary(r)
	o.sweep(r.Sweep)
	o.study(r.Study)
	o.names(r.Names)
	o.intro(r)
	contents := o.add("Contents")
	contents.IsContents = true
	first := len(o.parts)

	// Markdown and text cannot fold: the findings in full, with their
	// spread and causes, come first after the contents.
	if full := bulletLines(r.Bullets); len(full) > 0 {
		p := o.add("Findings with spread and causes")
		o.para(p, bulletKey(r.Bullets))
		p.Items = append(p.Items, &docItem{Bullets: full})
	}
	o.steps(r)
	if c := r.Counters; c != nil {
		counterParts(c, "perf stat counters", "perf stat counters per step", o.add, o.para, o.table)
	}
	if sb := r.Sysbench; sb != nil {
		o.sysbench(sb)
	}
	o.legend(r)
	o.notes(r)
	o.contents(contents, o.parts[first:])
	if hasCharts(r) {
		o.para(contents, "The charts are only in the HTML report.")
	}
	metrics.Parallel(len(o.pending), func(i int) { fillDocTable(o.pending[i]) })
	d.Parts = o.parts
	return d
}

// outliner collects the parts of an outline in order, naming their
// headings uniquely; the tables are filled in at the end.
type outliner struct {
	n       *headingNamer
	parts   []*docPart
	pending []*docTable
}

// add starts a part under a unique heading.
func (o *outliner) add(heading string) *docPart {
	h, a := o.n.name(heading)
	p := &docPart{Heading: h, Anchor: a}
	o.parts = append(o.parts, p)
	return p
}

// table adds a table, if any, to a part. The headings are named in order;
// the rest of each table is filled in at the end, the tables on all cores.
func (o *outliner) table(p *docPart, t *report.Table) {
	if t == nil {
		return
	}
	dt := &docTable{Table: t}
	if title := oneLine(t.Title); title != "" {
		dt.Heading, dt.Anchor = o.n.name(title)
	}
	o.pending = append(o.pending, dt)
	p.Items = append(p.Items, &docItem{Table: dt})
}

// para adds a paragraph, if not empty, to a part.
func (o *outliner) para(p *docPart, s string) {
	if s = withoutColours(oneLine(s)); s != "" {
		p.Items = append(p.Items, &docItem{Para: s})
	}
}

// head is the document's title, setup, warnings and lead: the findings,
// the series' findings and what to check.
func (o *outliner) head(r *report.Report) *doc {
	d := &doc{Title: oneLine(r.Title)}
	if d.Title != "" {
		o.n.take(d.Title)
	}
	if s := oneLine(r.Setup); s != "" {
		d.Setup = "Setup: " + s + "."
	}
	for _, w := range r.Comparability {
		d.Warnings = append(d.Warnings, "Not comparable: "+oneLine(w))
	}
	rest := untold(r)
	if st := r.Story; st != nil {
		// A release archive leads with its story in release order; the
		// DBMS it does not tell follow with their headlines.
		d.HeadLead = oneLine(st.Lead)
		d.Lead = append(d.Lead, st.Lines...)
		if len(rest) > 0 {
			d.Lead = append(d.Lead, untoldLead(r, rest))
		}
	} else {
		d.HeadLead = headlineLead(rest)
	}
	d.Lead = append(d.Lead, headlines(rest)...)
	if r.Series != nil {
		d.Lead = append(d.Lead, r.Series.Findings...)
	}
	if h := r.Hosts; h != nil {
		d.HeadLead = report.HostsLead(h)
		d.Lead = append(d.Lead, h.Findings...)
	}
	// What to check comes after the findings it qualifies.
	for _, w := range r.Plausibility {
		d.Lead = append(d.Lead, "Check: "+oneLine(w))
	}
	return d
}

func (o *outliner) series(sr *report.SeriesPart) {
	if sr == nil {
		return
	}
	p := o.add("Series: where each level shifted")
	o.para(p, sr.Caption)
	for _, note := range sr.Notes {
		o.para(p, note)
	}
	for _, g := range sr.Groups {
		for _, note := range g.Notes {
			o.para(p, note)
		}
		o.table(p, g.History)
		o.table(p, g.ChangeTable)
		o.table(p, g.Heat)
	}
}

// hosts is the comparison across hosts: each host's findings, then the
// counts and the tables per build.
func (o *outliner) hosts(h *report.HostsPart) {
	if h == nil {
		return
	}
	p := o.add("Across " + h.Kind + "s")
	o.table(p, h.Overview)
	for _, t := range h.Tests {
		o.table(p, t)
	}
	if len(h.Stories) > 0 {
		p := o.add("Each " + h.Kind + "'s findings")
		for _, st := range h.Stories {
			o.para(p, st.Host+": "+st.Lead)
			p.Items = append(p.Items, &docItem{Bullets: withoutColoursAll(st.Lines)})
		}
	}
}

func (o *outliner) summary(r *report.Report) {
	if r.Summary == nil {
		return
	}
	p := o.add("Summary")
	o.table(p, r.Summary)
	o.table(p, r.Relative)
	o.table(p, r.InsertRate)
}

func (o *outliner) sweep(sw *report.SweepPart) {
	if sw == nil {
		return
	}
	// The answer first: how well each DBMS scales, then the rates.
	p := o.add("Scaling with the number of clients")
	if len(sw.Findings) > 0 {
		p.Items = append(p.Items, &docItem{Bullets: withoutColoursAll(sw.Findings)})
	}
	o.table(p, sw.Efficiency)
	o.para(p, sw.Caption)
	for _, s := range sw.Steps {
		o.table(p, s.Rates)
		o.table(p, s.Scaling)
	}
}

func (o *outliner) study(study []*report.StudyStep) {
	if len(study) == 0 {
		return
	}
	p := o.add("Per-step tables as in the published studies")
	for _, s := range study {
		o.table(p, s.Table)
		item := &docItem{}
		item.Bullets = append(item.Bullets, s.Legend...)
		p.Items = append(p.Items, item)
	}
}

// names is the key of the short names the report gives the DBMS.
func (o *outliner) names(names []report.NameKey) {
	if len(names) == 0 {
		return
	}
	p := o.add("Short names")
	words := slices.ContainsFunc(names, func(k report.NameKey) bool { return k.Words != "" })
	kt := &report.Table{Header: []string{"short", "DBMS"}}
	if words {
		// Release names: the version, and what the folder name holds.
		o.para(p, "The report names each build by its release:")
		kt.Header = []string{"short", "build", "folder"}
	} else {
		o.para(p, "The report names each DBMS without the parts all of them share:")
	}
	for _, k := range names {
		cells := []report.Cell{{Text: k.Short}, {Text: k.Full}}
		if words {
			cells = []report.Cell{{Text: k.Short}, {Text: k.Words}, {Text: k.Full}}
		}
		kt.Rows = append(kt.Rows, report.Row{Kind: report.DataRow, Cells: cells})
	}
	dt := newDocTable(kt)
	dt.names = []bool{true, true, true}[:len(kt.Header)]
	p.Items = append(p.Items, &docItem{Table: dt})
}

func (o *outliner) intro(r *report.Report) {
	if strings.TrimSpace(r.Intro) == "" {
		return
	}
	heading := "DBMS"
	switch {
	case r.IntroGiven:
		heading = "About these results"
	case r.Summary != nil:
		heading = "Steps and DBMS"
	}
	p := o.add(heading)
	p.Intro = strings.TrimSpace(r.Intro)
	for _, h := range markdownHeadings(p.Intro) {
		o.n.take(h)
	}
}

// steps are the insert benchmark's step sections, then the tables of all
// DBMS and the response times.
func (o *outliner) steps(r *report.Report) {
	for _, s := range r.Sections {
		desc := oneLine(s.Step.Description)
		if desc == "" {
			desc = s.Step.Name
		}
		p := o.add("Step " + desc)
		p.Group, p.Short = "Steps", s.Step.Name
		for _, note := range s.Notes {
			o.para(p, note)
		}
		o.table(p, s.Metrics)
		o.table(p, s.Efficiency)
		o.table(p, s.Noise)
		for _, h := range s.Histograms {
			o.table(p, h)
		}
		o.table(p, s.Iostat)
		o.table(p, s.IostatAll)
	}
	if len(r.AllMetrics) > 0 {
		p := o.add("Metrics of all DBMS")
		for _, t := range r.AllMetrics {
			o.table(p, t)
		}
	}
	if len(r.ResponseTimes) > 0 {
		p := o.add("Response times")
		for _, s := range r.ResponseTimes {
			for _, note := range s.Notes {
				o.para(p, s.Step.Name+": "+note)
			}
			for _, t := range s.Tables {
				o.table(p, t)
			}
		}
	}
}

func (o *outliner) sysbench(sb *report.SysbenchPart) {
	// A thread sweep leads with how the DBMS scale.
	if len(sb.Sweep) > 0 {
		p := o.add("Sysbench scaling with the thread count")
		p.Group, p.Short = "Sysbench", "scaling"
		if len(sb.SweepFindings) > 0 {
			p.Items = append(p.Items, &docItem{Bullets: withoutColoursAll(sb.SweepFindings)})
		}
		o.table(p, sb.SweepSummary)
		for _, t := range sb.Sweep {
			o.table(p, t)
		}
	}
	for i, th := range sb.Threads {
		p := o.add("Sysbench, " + report.ThreadCount(th.Threads))
		p.Group, p.Short = "Sysbench", report.ThreadCount(th.Threads)
		if i == 0 {
			for _, note := range sb.Notes {
				o.para(p, note)
			}
		}
		for _, note := range th.Notes {
			o.para(p, note)
		}
		o.table(p, th.Groups)
		o.table(p, th.Relative)
		for _, group := range [][]*report.Table{th.Absolute, {th.Noise}, th.Efficiency, th.PerQuery} {
			for _, t := range group {
				o.table(p, t)
			}
		}
	}
	if c := sb.Counters; c != nil {
		p, d := counterParts(c, "Sysbench perf stat counters", "Sysbench perf stat counters per test", o.add, o.para, o.table)
		p.Group, p.Short = "Sysbench", "perf stat"
		if d != nil {
			d.Group, d.Short = "Sysbench", "perf stat per test"
		}
	}
	if sb.Load != nil || len(sb.PrePost) > 0 || len(sb.Threads) == 0 {
		p := o.add("Sysbench load and before/after the writes")
		p.Group, p.Short = "Sysbench", "load and before/after"
		if len(sb.Threads) == 0 {
			for _, note := range sb.Notes {
				o.para(p, note)
			}
		}
		o.table(p, sb.Load)
		for _, t := range sb.PrePost {
			o.table(p, t)
		}
	}
}

// legend is the report's legend and its bands, as tables of words.
func (o *outliner) legend(r *report.Report) {
	legend := o.add("Legend")
	lt := &report.Table{Header: []string{"metric", "meaning"}}
	for _, l := range r.Legend {
		lt.Rows = append(lt.Rows, report.Row{Kind: report.DataRow, Cells: []report.Cell{{Text: l.Name}, {Text: l.Meaning}}})
	}
	bt := &report.Table{Header: []string{"band", "marker", "meaning"}}
	for _, b := range r.Bands {
		bt.Rows = append(bt.Rows, report.Row{Kind: report.DataRow, Cells: []report.Cell{{Text: string(b.Band)}, {Text: b.Marker}, {Text: withoutColours(b.Meaning)}}})
	}
	for _, t := range []*report.Table{lt, bt} {
		dt := newDocTable(t)
		for i := range dt.names {
			dt.names[i] = true // words, not numbers
		}
		legend.Items = append(legend.Items, &docItem{Table: dt})
	}
}

func (o *outliner) notes(r *report.Report) {
	if len(r.Notes) == 0 && r.ModeNote == "" {
		return
	}
	p := o.add("Notes")
	if r.ModeNote != "" {
		p.Items = append(p.Items, &docItem{Para: r.ModeNote})
	}
	item := &docItem{}
	for _, note := range r.Notes {
		item.Bullets = append(item.Bullets, withoutColours(oneLine(note.Text)))
	}
	p.Items = append(p.Items, item)
}

// contents lists the parts after it, a group of parts on one line.
func (o *outliner) contents(contents *docPart, after []*docPart) {
	for _, p := range after {
		link := docLink{Text: p.Heading, Anchor: p.Anchor}
		if p.Group == "" {
			contents.Contents = append(contents.Contents, docEntry{Links: []docLink{link}})
			continue
		}
		link.Text = p.Short
		if last := len(contents.Contents) - 1; last >= 0 && contents.Contents[last].Label == p.Group {
			contents.Contents[last].Links = append(contents.Contents[last].Links, link)
			continue
		}
		contents.Contents = append(contents.Contents, docEntry{Label: p.Group, Links: []docLink{link}})
	}
}
