package report

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// BuildOptions control Build. The zero value builds the default report.
type BuildOptions struct {
	Title string // default: "<N>M docs and <C> clients" ("1 client"; the original wrote "client(s)")
	// Intro is the report's introduction in Markdown (server, DBMS versions,
	// configs). Empty means a generated description of the steps and DBMS.
	Intro string
	// Clients is the number of benchmark clients; 0 means the dop of the raw
	// trees. Archives need it for the insert-rate targets.
	Clients int
	// Layout adds per-step tables in another layout: "" none, LayoutStudy
	// the tables of the published studies.
	Layout string
	// Series takes the DBMS list as ordered series (releases, nightly
	// runs; each group a series) and adds the series part: per test or
	// step, where the level shifted.
	Series bool
	// Some chooses the insert-benchmark steps the report shows, by name
	// ("l.i0", "q100.2"), as the mrg.some pages its authors publish do;
	// the report keeps the steps' own order. Empty means the steps of an
	// archive's mrg.some (else rel.some), when it has one, else every
	// step. A name that is no step of the results is an error.
	Some []string
}

// Build computes the report of loaded results from their typed model. It
// reads nothing and renders no file: raw trees were read by Load, and the
// tables of the report come from the same merged model as the mrg/rel files
// of Tables, so both show exactly the same numbers.
func Build(res *Results, opt BuildOptions) (*Report, error) {
	if res == nil {
		return nil, errNilResults
	}
	b, err := build(res, opt)
	if err != nil {
		return nil, err
	}
	return b.rep, nil
}

// build is Build, returning the builder with its report: BuildSeries takes
// the series of each result set from it.
func build(res *Results, opt BuildOptions) (*builder, error) {
	if opt.Layout != "" && opt.Layout != LayoutStudy {
		return nil, inputerr.Errorf("layout %q: want %q", opt.Layout, LayoutStudy)
	}
	if opt.Clients < 0 {
		// Taken as a count, it would set negative insert-rate targets.
		return nil, inputerr.Errorf("clients %d: want a positive number (0: the dop of the raw trees)", opt.Clients)
	}
	b := &builder{
		res:    res,
		some:   opt.Some,
		compat: res.Options.Compat,
		rep: &Report{
			Schema: SchemaVersion,
			Compat: res.Options.Compat,
			Source: "raw",
			Bands:  modeBands(res.Options.Compat),
		},
	}
	b.rep.Notes = append(b.rep.Notes, res.settingsWarnings...)
	// The device and scan generation chosen, named in the notes.
	b.rep.Notes = append(b.rep.Notes, res.setupNotes...)
	hasIbench := res.Archived() || len(res.Trees) > 0
	if hasIbench {
		if err := b.model(); err != nil {
			return nil, err
		}
	}
	if res.Sysbench != nil {
		b.rep.Notes = append(b.rep.Notes, sysbenchWarnings(res)...)
	}
	if hasIbench {
		if len(b.shown) == 0 {
			return nil, inputerr.Errorf("%s: no DBMS rows in the merged tables", parse.Quoted(res.Dir))
		}
		b.clients(opt.Clients)
		b.stepInfos()
	}
	b.rep.Title = opt.Title
	if b.rep.Title == "" {
		b.rep.Title = b.defaultTitle()
	}
	setup := setupOf(res)
	b.rep.Setup = setup.sentence()
	if opt.Title == "" && len(b.steps) == 0 && !b.compat {
		b.rep.Title = setup.sysbenchTitle()
	}
	if hasIbench {
		b.summary()
		b.relative()
		b.insertRate()
		if !b.res.Archived() {
			b.sweep()
		}
		if opt.Layout == LayoutStudy {
			b.study()
		}
		b.ibPerf = b.ibenchPerf()
		b.bullets()
		b.comparability()
		b.sweepPlausibility()
		b.ibenchPlausibility()
		for i, st := range b.steps {
			b.section(st, b.rep.Steps[i])
		}
		for i, st := range b.steps {
			b.allMetrics(st, b.rep.Steps[i])
			b.responseTimes(st, b.rep.Steps[i])
		}
		b.dropRepeats()
		b.rep.Legend = legend()
		if b.rep.Counters = b.ibenchCounters(); b.rep.Counters != nil {
			b.rep.Legend = append(b.rep.Legend, LegendItem{"perf stat", ibenchPerfLegend})
		}
	}
	if res.Sysbench != nil && len(res.Sysbench.DBMS) > 0 {
		b.sysbench(res.Sysbench, res.SysbenchOptions)
		if !hasIbench {
			b.rep.Legend = append(b.rep.Legend, LegendItem{"findings", bulletLegend})
		}
		b.rep.Legend = append(b.rep.Legend, sysbenchLegend()...)
		if !opt.Series && !hasIbench {
			host := ""
			if len(setup.CPUs) > 0 {
				host = ints(setup.CPUs, strconv.Itoa) + " CPUs"
			}
			if b.rep.Story = b.releaseStory(res.Sysbench, b.sbParts, host); b.rep.Story != nil {
				b.rep.Legend = append(b.rep.Legend, LegendItem{"release story", storyLegend})
			}
		}
	}
	if opt.Series {
		// The change points sum a series up; the bullets comparing each
		// member with the first would only repeat the heat table.
		b.rep.Bullets = nil
		b.rep.Series = b.series()
		b.rep.Plausibility = append(b.rep.Plausibility, seriesPlausibility(b.rep.Series)...)
		b.rep.Legend = append(b.rep.Legend, LegendItem{"series", seriesLegend})
	}
	b.rep.Intro = opt.Intro
	b.rep.IntroGiven = strings.TrimSpace(opt.Intro) != ""
	if !b.rep.IntroGiven {
		b.rep.Intro = b.defaultIntro()
	} else if n := textfmt.RawHTMLLine(b.rep.Intro); n > 0 {
		b.rep.Notes = append(b.rep.Notes, metrics.Warnf("The introduction holds raw HTML (its line %d): the HTML report leaves raw HTML out, as it renders no markup from its input; write it in Markdown.", n))
	}
	if n := textfmt.ImageLine(b.rep.Intro); b.rep.IntroGiven && n > 0 {
		b.rep.Notes = append(b.rep.Notes, metrics.Warnf("The introduction holds an image (its line %d): the HTML report leaves images out, showing their alt text, as the page loads nothing from outside itself.", n))
	}
	if !b.compat && b.rep.Source == "raw" {
		b.rep.ModeNote = correctedNote
	}
	return b, nil
}

// correctedNote opens the notes of a report in the default mode.
const correctedNote = "The numbers are computed correctly where the original scripts were wrong " +
	"(for example, repeated vmstat headers are not counted as samples), so a few differ from what the scripts printed; " +
	"ibreport build --compat reproduces the scripts' numbers exactly. docs/compat.md lists every difference."

// dropRepeats leaves out "Metrics of all DBMS" and "Response times" when
// every table in them repeats a table of the step sections: they exist for
// DBMS of the list that the summary does not show.
func (b *builder) dropRepeats() {
	same := len(b.rep.AllMetrics) == len(b.rep.Sections)
	for i := 0; same && i < len(b.rep.AllMetrics); i++ {
		same = sameRows(b.rep.AllMetrics[i], b.rep.Sections[i].Metrics)
	}
	if same {
		b.rep.AllMetrics = nil
	}
	same = len(b.rep.ResponseTimes) == len(b.rep.Sections)
	for i := 0; same && i < len(b.rep.ResponseTimes); i++ {
		rt, sec := b.rep.ResponseTimes[i].Tables, b.rep.Sections[i].Histograms
		same = len(rt) == len(sec)
		for j := 0; same && j < len(rt); j++ {
			same = sameRows(rt[j], sec[j])
		}
	}
	if same {
		b.rep.ResponseTimes = nil
	}
}

// sameRows reports whether two tables hold the same header and cells:
// the same values, or the same texts where a cell has no value.
func sameRows(a, b *Table) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !slices.Equal(a.Header, b.Header) || len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		if len(a.Rows[i].Cells) != len(b.Rows[i].Cells) || a.Rows[i].GroupStart != b.Rows[i].GroupStart {
			return false // other cells, or the same cells grouped otherwise
		}
		for j := range a.Rows[i].Cells {
			x, y := a.Rows[i].Cells[j], b.Rows[i].Cells[j]
			switch {
			case x.Value != nil && y.Value != nil:
				// A banded histogram leaves a 0 share blank; the value is
				// what must agree.
				if *x.Value != *y.Value && !(math.IsNaN(*x.Value) && math.IsNaN(*y.Value)) {
					return false
				}
			case x.Text != y.Text:
				return false
			}
		}
	}
	return true
}

type builder struct {
	res    *Results
	compat bool
	rep    *Report
	steps  []parse.Step
	// some is BuildOptions.Some.
	some []string
	// merged holds each step's merged table; rts its histogram merges.
	merged map[string]*mergedTable
	rts    map[string][]*rtMerge
	// baseNoted are the relative values already noted as NA for their
	// base (step, DBMS, column): several tables show them.
	baseNoted map[[3]string]bool
	// list is the DBMS list by display tag (prefix removed), with breaks.
	list []Entry
	// shown are the display tags the summary shows; tree maps a tag to its
	// raw tree (none for an archive).
	shown []string
	tree  map[string]*metrics.TreeResult
	// missed[step][tag]: the DBMS missed the step's insert-rate target.
	missed   map[string]map[string]bool
	nClients int
	// sbPerf holds the sysbench perf stat counters per operation.
	sbPerf *sbPerfOps
	// sbParts are the sysbench test groups of the findings and tables.
	sbParts []metrics.SysbenchGroup
	// ibPerf holds the insert benchmark's perf stat counters per operation.
	ibPerf *ibPerfOps
	// treeClients is the client count of each raw tree, by display tag.
	treeClients map[string]int
}

// model takes the merged tables of the results and the notes of their
// computation: missing steps and NA values, lines of an archive that are
// not rows, DBMS without a histogram.
func (b *builder) model() error {
	res := b.res
	b.merged = map[string]*mergedTable{}
	b.rts = map[string][]*rtMerge{}
	b.tree = map[string]*metrics.TreeResult{}
	var tables []*mergedTable
	if res.Archived() {
		b.rep.Source = "archive"
		b.steps = res.archive.Steps
		tables = res.archive.tables
		b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(res.archive.Warnings)...)
	} else {
		var warns []metrics.Warning
		var err error
		b.steps, tables, warns, err = mergeResults(res.Trees, res.List, res.Options)
		if err != nil {
			return inputerr.Wrap(err)
		}
		b.rep.Notes = append(b.rep.Notes, warns...)
	}
	for _, mt := range tables {
		b.merged[mt.step.MergeName] = mt
		if !b.compat {
			b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(mt.skipped())...)
		}
	}
	b.names()
	if err := b.chooseSteps(); err != nil {
		return err
	}
	if !res.Archived() {
		byName := map[string]*metrics.TreeResult{}
		for _, t := range res.Trees {
			byName[t.Name()] = t
		}
		prefix := parse.RowPrefix(firstName(res.List))
		var warns []string
		for _, st := range b.steps {
			b.rts[st.MergeName] = rtMerges(byName, res.List, st, prefix, b.compat, &warns)
		}
		b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(warns)...)
	}
	return nil
}

// chooseSteps keeps the steps of opt.Some, or of the archived mrg.some,
// and says which in a note. It runs after names, so that the DBMS list
// stays that of the whole results.
func (b *builder) chooseSteps() error {
	some, from := b.some, "--some"
	if len(some) == 0 && b.res.Archived() && len(b.res.archive.Some) > 0 {
		some, from = b.res.archive.Some, "the archived "+b.res.archive.SomeFile+" (--some overrides)"
	}
	if len(some) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, name := range some {
		want[strings.TrimSpace(name)] = true
	}
	var kept []parse.Step
	var names []string
	for _, st := range b.steps {
		if want[st.MergeName] {
			kept = append(kept, st)
			names = append(names, st.MergeName)
			delete(want, st.MergeName)
		}
	}
	if len(want) > 0 {
		var all, missing []string
		for _, st := range b.steps {
			all = append(all, st.MergeName)
		}
		for _, name := range some {
			if want[strings.TrimSpace(name)] {
				missing = append(missing, strings.TrimSpace(name))
			}
		}
		return inputerr.Errorf("%s: no step %s in the results (their steps: %s)", from, strings.Join(missing, ", "), strings.Join(all, " "))
	}
	if len(kept) < len(b.steps) {
		b.note("steps: the %d steps %s of %s; the other %d steps are left out", len(kept), strings.Join(names, " "), from, len(b.steps)-len(kept))
	}
	b.steps = kept
	return nil
}

func (b *builder) note(format string, args ...any) {
	b.rep.Notes = append(b.rep.Notes, metrics.Warnf(format, args...))
}

// names sets the DBMS list by display tag. Raw trees use the --dbms list;
// an archive has its list in the mrg files: the first step's rows and
// breaks, then any DBMS only later steps have.
func (b *builder) names() {
	if !b.res.Archived() {
		byName := map[string]*metrics.TreeResult{}
		for _, t := range b.res.Trees {
			byName[t.Name()] = t
		}
		prefix := parse.RowPrefix(firstName(b.res.List))
		for _, e := range b.res.List {
			if e.Break {
				b.list = append(b.list, e)
				continue
			}
			tag := displayTag(e.Name, prefix, b.compat)
			b.tree[tag] = byName[e.Name]
			b.list = append(b.list, Entry{Name: tag})
		}
	} else {
		seen := map[string]bool{}
		for i, st := range b.steps {
			for _, r := range b.merged[st.MergeName].rows {
				switch {
				case r.kind == breakRow && i == 0:
					b.list = append(b.list, Entry{Break: true})
				case r.kind == dataRow:
					if i == 0 || !seen[r.tag] {
						b.list = append(b.list, Entry{Name: r.tag})
					}
					seen[r.tag] = true
				}
			}
		}
	}
	b.shown = shown(b.list)
	b.rep.DBMS = b.shown
}

// clients takes the client count from the flag or the raw trees' dop.
func (b *builder) clients(flag int) {
	b.nClients = flag
	if flag > 0 || b.res.Archived() {
		if flag == 0 && b.hasReadWrite() {
			b.note("the client count is unknown for archived results (use --clients): no insert-rate targets")
		}
		b.rep.Clients = flag
		return
	}
	// Each tree's targets use its own client count: a sweep has trees of
	// several counts. A step that ran with another count than its tree's
	// first step is noted.
	b.treeClients = map[string]int{}
	for _, t := range b.res.Trees {
		first := t.Dop()
		if b.nClients == 0 {
			b.nClients = first
		}
		b.treeClients[displayTag(t.Name(), parse.RowPrefix(firstName(b.res.List)), b.compat)] = first
		for _, sr := range t.Steps {
			if d := sr.Dop; d != 0 && d != first {
				b.note("%s %s ran with %s, the first step with %d; targets use %d", t.Name(), sr.Step.Name, metrics.Plural(d, "client"), first, first)
			}
		}
	}
	b.rep.Clients = b.nClients
}

// clientsOf is the client count of a DBMS's targets: its tree's, else the
// report's.
func (b *builder) clientsOf(tag string) int {
	if n := b.treeClients[tag]; n > 0 {
		return n
	}
	return b.nClients
}

// clientCounts lists the distinct client counts of the shown DBMS, in
// order of appearance.
func (b *builder) clientCounts() []int {
	var out []int
	for _, tag := range b.shown {
		if n := b.clientsOf(tag); n > 0 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (b *builder) hasReadWrite() bool {
	for _, st := range b.steps {
		if st.Kind.ReadWrite() {
			return true
		}
	}
	return false
}

var reRWColumn = regexp.MustCompile(`^(q[rp]?[0-9]+)\.(L)?[0-9]+$`)

// stepInfos describes the steps; a read+write step's summary column drops
// the ".L<k>" as the original did, unless two steps would then share it.
func (b *builder) stepInfos() {
	count := map[string]int{}
	short := func(st parse.Step) string {
		if m := reRWColumn.FindStringSubmatch(st.MergeName); m != nil && m[2] == "L" {
			return m[1]
		}
		return st.MergeName
	}
	for _, st := range b.steps {
		count[short(st)]++
	}
	for _, st := range b.steps {
		info := StepInfo{
			Name:      st.MergeName,
			Column:    st.MergeName,
			Kind:      st.Kind.String(),
			ReadWrite: st.Kind.ReadWrite(),
			Rate:      st.Rate,
		}
		if count[short(st)] == 1 {
			info.Column = short(st)
		}
		switch {
		case st.Kind == parse.CreateIndex:
			info.Unit = "indexed rows/s"
		case st.Kind.ReadWrite():
			info.Unit = "queries/s"
		default:
			info.Unit = "inserts/s"
			info.Kind = "load"
		}
		info.Description = b.describe(st)
		b.rep.Steps = append(b.rep.Steps, info)
	}
}

// describe is the step description of the original contents list,
// generalized to any step of the naming scheme.
func (b *builder) describe(st parse.Step) string {
	name := st.MergeName + ": "
	switch {
	case st.Kind == parse.CreateIndex:
		return name + "create secondary indexes"
	case st.Kind.ReadWrite():
		q := "range"
		if st.Kind == parse.ReadWritePoint {
			q = "point"
		}
		return fmt.Sprintf("%s%s queries with %d insert/s per client", name, q, st.Rate)
	case st.Seq == 0:
		return name + "load without secondary indexes"
	}
	d := name + "continue load after secondary indexes created"
	if rpc := b.rowsPerCommit(st); rpc > 0 {
		d += fmt.Sprintf(" with %d inserts per transaction", rpc)
	}
	return d
}

func (b *builder) rowsPerCommit(st parse.Step) int {
	for _, t := range b.res.Trees {
		if sr := t.Step(st.MergeName); sr != nil && sr.Clients > 0 {
			return sr.RowsPerCommit
		}
	}
	switch st.Name { // archives: the values the original text hard-codes
	case "l.i1":
		return 50
	case "l.i2":
		return 5
	}
	return 0
}

func (b *builder) defaultTitle() string {
	if len(b.steps) == 0 {
		return "sysbench"
	}
	var p string
	if !b.res.Archived() {
		p = parse.RowPrefix(firstName(b.res.List))
	}
	if counts := b.clientCounts(); len(counts) > 1 {
		slices.Sort(counts)
		return fmt.Sprintf("Insert benchmark with %d to %d clients", counts[0], counts[len(counts)-1])
	}
	switch {
	case p != "" && b.nClients > 0:
		return fmt.Sprintf("%sM docs and %s", strings.TrimSuffix(p, "m"), metrics.Plural(b.nClients, "client"))
	case b.nClients > 0:
		return "Insert benchmark with " + metrics.Plural(b.nClients, "client")
	}
	return "Insert benchmark"
}

func (b *builder) defaultIntro() string {
	var s strings.Builder
	if len(b.steps) > 0 {
		b.ibenchIntro(&s)
	}
	if sb := b.rep.Sysbench; sb != nil {
		if s.Len() > 0 {
			s.WriteString("\n")
		}
		fmt.Fprintf(&s, "The sysbench results compare %d DBMS", len(sb.DBMS))
		if len(sb.DBMS) > 1 {
			fmt.Fprintf(&s, " with the base %s", textfmt.MarkdownEscape(sb.Base))
		}
		s.WriteString(":\n\n")
		for _, d := range sb.DBMS {
			fmt.Fprintf(&s, "- %s\n", textfmt.MarkdownEscape(d))
		}
	}
	return s.String()
}

func (b *builder) ibenchIntro(s *strings.Builder) {
	if b.rep.Source == "archive" {
		s.WriteString("This report was built from archived merged tables, so the parts that need raw logs are left out.\n\n")
	}
	s.WriteString("The steps are:\n\n")
	for _, st := range b.rep.Steps {
		name, desc, _ := strings.Cut(st.Description, ": ")
		fmt.Fprintf(s, "- **%s**: %s\n", textfmt.MarkdownEscape(name), textfmt.MarkdownEscape(desc))
	}
	s.WriteString("\nThe DBMS are listed below; the first DBMS of each group is the base of the relative tables.\n\n")
	groups := [][]string{nil}
	for _, e := range b.list {
		switch {
		case e.Break && len(groups[len(groups)-1]) > 0:
			groups = append(groups, nil)
		case !e.Break:
			groups[len(groups)-1] = append(groups[len(groups)-1], e.Name)
		}
	}
	for gi, g := range groups {
		for i, name := range g {
			s.WriteString("- ")
			if len(groups) > 1 {
				fmt.Fprintf(s, "group %d: ", gi+1)
			}
			s.WriteString(textfmt.MarkdownEscape(name))
			if i == 0 {
				s.WriteString(" (base)")
			}
			s.WriteString("\n")
		}
	}
}

// row returns the merged row of a DBMS in a step: the first row of its tag.
func (b *builder) row(step, tag string) (*mergedTable, *mergedRow) {
	mt := b.merged[step]
	if mt == nil {
		return nil, nil
	}
	return mt, mt.find(tag, false)
}

// cell returns the merged value of a DBMS in a step for a column. A DBMS
// without a row is NA (compat: the text "NA", which the original read as 0).
func (b *builder) cell(step, tag, col string) metrics.Value {
	mt, r := b.row(step, tag)
	if r == nil {
		why := "no row in mrg." + step
		if b.compat {
			v := compat.CellValue("NA", metrics.NoUnit)
			v.Why = why
			return v
		}
		return metrics.NA(metrics.NoUnit, why)
	}
	return mt.value(r, col)
}

// throughputCol is the column of a step's throughput: queries per second for
// read+write steps, inserts per second otherwise.
func throughputCol(st parse.Step) string {
	if st.Kind.ReadWrite() {
		return metrics.QPS.Name()
	}
	return metrics.IPS.Name()
}

// number is a value as the colour rules read it: compat reads every cell as
// awk did (a text that is not a number is 0); the default mode only takes
// known values.
func (b *builder) number(v metrics.Value) (float64, bool) {
	if b.compat {
		return v.V, true
	}
	return v.V, v.OK()
}

// valueCell is the cell of a value printed with the given decimals: the
// text, and the number with its unit or why it is NA. A cell whose text is
// "NA" gets the NA band.
func valueCell(v metrics.Value, digits int) Cell {
	return valueCellText(v, v.Format(digits))
}

// valueCellText is valueCell with the text already printed.
func valueCellText(v metrics.Value, text string) Cell {
	c := Cell{Text: text, Unit: string(v.Unit)}
	switch {
	case !v.OK():
		c.NA = v.Why
	case !math.IsInf(v.V, 0) && !math.IsNaN(v.V):
		x := v.V
		c.Value = &x
	}
	if text == "NA" {
		c.Band = NotANumber
	}
	return c
}

// textCell is a cell of text that is not a number of the model (a user's
// column); "NA" gets the NA band.
func textCell(s string) Cell {
	c := Cell{Text: s}
	if s == "NA" {
		c.Band = NotANumber
	}
	return c
}

// nameCell is a cell that names something.
func nameCell(s string) Cell { return Cell{Text: s} }

func header(cols ...string) []string { return append([]string{"dbms"}, cols...) }

func (b *builder) columns() []string {
	var out []string
	for _, s := range b.rep.Steps {
		out = append(out, s.Column)
	}
	return out
}

// summary is the absolute-throughput table (tput.tab) with quartile bands.
func (b *builder) summary() {
	b.missed = map[string]map[string]bool{}
	for _, st := range b.steps {
		b.missed[st.MergeName] = b.missedTargets(st)
	}
	t := &Table{
		ID:     "throughput",
		Title:  "Average throughput",
		Header: header(b.columns()...),
		Caption: "Inserts/s for load steps, indexed rows/s for create index and queries/s for read+write steps, " +
			"averaged over the step. Per column, values in the bottom 25% of the range are red (▼), values in the top 25% green (▲). " +
			"Red is not used when the minimum is at least 80% of the maximum. " +
			"Gray (○) marks a DBMS that missed the step's insert-rate target: ignore that value.",
	}
	for _, tag := range b.shown {
		t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: []Cell{nameCell(tag)}})
	}
	for _, st := range b.steps {
		col := throughputCol(st)
		vals := make([]metrics.Value, len(b.shown))
		ignored := make([]bool, len(b.shown))
		for i, tag := range b.shown {
			vals[i] = b.cell(st.MergeName, tag, col)
			ignored[i] = b.missed[st.MergeName][tag]
			if cellText(col, vals[i]) == "NA" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s %s: NA: %s", tag, st.MergeName, whyNA(vals[i])))
			}
		}
		for i, c := range quartileBands(col, vals, ignored, b.compat) {
			t.Rows[i].Cells = append(t.Rows[i].Cells, c)
		}
	}
	b.rep.Summary = t
}

// whyNA explains a value that is not available.
func whyNA(v metrics.Value) string {
	if v.Why != "" {
		return v.Why
	}
	return "the merged table has no number there"
}

// quartileBands applies the summary table's colour rules to one column
// (FORMATS.md §6.3). Compat mode keeps the original's order: the minimum
// is over all rows, the maximum skips ignored rows and red wins over gray.
// The default mode leaves ignored rows out of the range entirely, and gray
// wins, so a value to ignore never decides or gets a colour.
func quartileBands(col string, vals []metrics.Value, ignored []bool, compatMode bool) []Cell {
	out := make([]Cell, len(vals))
	nums := make([]float64, len(vals))
	ok := make([]bool, len(vals))
	// The original started the minimum at 999999999; the default mode has
	// no such ceiling.
	minv, maxv := 999999999.0, 0.0
	if !compatMode {
		minv = math.Inf(1)
	}
	inRange := false
	for i, v := range vals {
		nums[i], ok[i] = v.V, compatMode || v.OK()
		if !ok[i] {
			continue
		}
		if nums[i] < minv && (compatMode || !ignored[i]) {
			minv = nums[i]
		}
		if nums[i] > maxv && !ignored[i] {
			maxv = nums[i]
		}
		inRange = inRange || !ignored[i]
	}
	g4 := math.Trunc(0.25 * (maxv - minv))
	topq, botq := maxv-g4, minv+g4
	if math.RoundToEven(minv*1000) >= math.RoundToEven(maxv*0.8*1000) {
		botq = 0
	}
	for i, v := range vals {
		c := valueCellText(v, cellText(col, v))
		x := nums[i]
		switch {
		case !ok[i]:
			c.Band = NotANumber
		case !compatMode && ignored[i]:
			c.Band = Ignored
		case !compatMode && !inRange:
		case x <= botq:
			c.Band = Bottom
		case ignored[i]:
			c.Band = Ignored
		case x >= topq:
			c.Band = Top
		}
		out[i] = c
	}
	return out
}

// missedTargets flags the DBMS whose insert rate in a read+write step was
// below 95% of the target (clients × rate): in compat mode, and for
// archived mrg files, the step's average; in the default mode, from raw
// logs, the rate of the clients' full intervals (sustained).
func (b *builder) missedTargets(st parse.Step) map[string]bool {
	out := map[string]bool{}
	if !st.Kind.ReadWrite() || b.nClients == 0 {
		return out
	}
	for _, tag := range b.shown {
		t95 := math.RoundToEven(0.95 * float64(b.clientsOf(tag)*st.Rate))
		v, ok := b.number(b.cell(st.MergeName, tag, metrics.IPS.Name()))
		if full, known := b.sustained(st, tag); known {
			v, ok = full, true
		}
		if ok && v < t95 {
			out[tag] = true
		}
	}
	return out
}

// relative is the table of throughput relative to the base DBMS of each
// group (tputr.tab). The default mode divides the unrounded values; compat
// divides the printed ones as the original did.
func (b *builder) relative() {
	t := &Table{
		ID:     "relative",
		Title:  "Relative throughput",
		Header: header(b.columns()...),
		Caption: "Throughput relative to the base DBMS, the first DBMS of each group (shown as 1.00). " +
			"Values below 0.95 are yellow (▽), values above 1.05 blue (△).",
	}
	if !b.compat {
		t.Caption = "Throughput relative to the base DBMS, the first DBMS of each group (shown as 1.00). " + ratioBandsCaption +
			fmt.Sprintf(" ~ marks a difference smaller than the noise of the two runs: their 95%% intervals (all clients' intervals) and a run-to-run "+
				"noise of %g%% per run, added in quadrature; no ~ where either interval is low-confidence (the noise table says why): that noise is unknown.", 100*b.runNoise())
	}
	var base string
	started := false
	groupStart := false
	for _, e := range b.list {
		if e.Break {
			base = ""
			groupStart = started
			continue
		}
		started = true
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: []Cell{nameCell(e.Name)}}
		groupStart = false
		isBase := base == ""
		if isBase {
			base = e.Name
			row.Cells[0].Band = Base
		}
		for _, st := range b.steps {
			col := throughputCol(st)
			v := b.cell(st.MergeName, e.Name, col)
			if isBase {
				c := valueCellText(v, cellText(col, v))
				if _, ok := b.number(v); ok {
					one := 1.0
					c = Cell{Text: "1.00", Value: &one, Unit: string(metrics.RatioUnit)}
				}
				row.Cells = append(row.Cells, c)
				continue
			}
			c := b.ratioCell(st.MergeName, col, e.Name, base)
			if c.Value != nil {
				c.setWithinNoise(b.withinNoise(st, e.Name, base, *c.Value))
			}
			row.Cells = append(row.Cells, c)
		}
		t.Rows = append(t.Rows, row)
	}
	b.rep.Relative = t
}

// relCell bands a ratio to a base by the better direction d of its metric
// (ratioBand), with the ratio as the cell prints it (two decimals).
func relCell(r metrics.Value, d metrics.Direction) Cell {
	c := valueCell(r, 2)
	if r.OK() {
		c.Band = ratioBand(r.V, d)
	}
	return c
}

// ratioBandsCaption says how the default mode colours a ratio, for the
// caption of every table that bands ratios.
const ratioBandsCaption = "Better or worse than the base by the metric's direction: " +
	"light blue (△) better by more than 5%, blue (▲) by more than 20%; light orange (▽) worse by more than 5%, red (▼) by more than 20%; " +
	"none within ±5% or within noise (~)."

// relTextCell bands a ratio printed by the compat edge ("1" for 0/0, "inf",
// "NA", "-nan" or %.2f) as the original report did.
func relTextCell(s string) Cell {
	c := Cell{Text: s}
	r, err := strconv.ParseFloat(s, 64)
	switch {
	case s == "1":
		c.Text = "1.00"
	case err != nil && s != "inf":
		c.Band = NotANumber
	case s == "inf" || math.RoundToEven(r*100) > 105:
		c.Band = Above
	case math.RoundToEven(r*100) < 95:
		c.Band = Below
	}
	if err == nil && !math.IsInf(r, 0) {
		c.Value = &r
		c.Unit = string(metrics.RatioUnit)
	}
	return c
}

// insertRate is the table of achieved insert rates during the read+write
// steps against their targets (iput.tab).
func (b *builder) insertRate() {
	var rw []parse.Step
	for _, st := range b.steps {
		if st.Kind.ReadWrite() {
			rw = append(rw, st)
		}
	}
	if len(rw) == 0 || b.nClients == 0 {
		return
	}
	counts := b.clientCounts()
	who := metrics.Plural(b.nClients, "client")
	if len(counts) > 1 {
		who = "the DBMS's client count"
	}
	t := &Table{
		ID:    "insert-rate",
		Title: "Insert rate during read+write steps",
		Caption: fmt.Sprintf("Average inserts/s during the read+write steps. The target is %s × the per-client rate; "+
			"values below 95%% of the target are red (✗): that DBMS did not sustain the target.", who),
	}
	if !b.compat && !b.res.Archived() {
		t.Caption = fmt.Sprintf("Average inserts/s during the read+write steps. The target is %s × the per-client rate; "+
			"values are red (✗) where the clients inserted less than 95%% of the target over their full intervals "+
			"(the partial first and last, in which they start and stop, left out): that DBMS did not sustain the target. "+
			"The notes say where the average, or client 1's SLA, seems to say otherwise, and why.", who)
	}
	t.Header = append(t.Header, "dbms")
	for _, st := range rw {
		t.Header = append(t.Header, st.MergeName)
	}
	for _, tag := range b.shown {
		row := Row{Kind: DataRow, Cells: []Cell{nameCell(tag)}}
		for _, st := range rw {
			v := b.cell(st.MergeName, tag, metrics.IPS.Name())
			c := valueCellText(v, cellText(metrics.IPS.Name(), v))
			if b.missed[st.MergeName][tag] {
				c.Band = Missed
			}
			row.Cells = append(row.Cells, c)
		}
		t.Rows = append(t.Rows, row)
	}
	if len(counts) == 0 {
		counts = []int{b.nClients}
	}
	slices.Sort(counts)
	for _, n := range counts {
		name := "target"
		if len(counts) > 1 {
			name = "target, " + metrics.Plural(n, "client")
		}
		target := Row{Kind: TargetRow, Cells: []Cell{{Text: name}}}
		for _, st := range rw {
			x := float64(n * st.Rate)
			target.Cells = append(target.Cells, Cell{Text: strconv.Itoa(n * st.Rate), Value: &x, Unit: string(metrics.InsertsPerSec), Band: TargetValue})
		}
		t.Rows = append(t.Rows, target)
	}
	t.Notes = append(t.Notes, b.targetNotes(rw)...)
	b.rep.InsertRate = t
}

// mergedRows turns rows of a merged table into a table with the DBMS first;
// a row with fewer values than columns is padded with NA.
func mergedRows(id, title string, mt *mergedTable, rows []*mergedRow) *Table {
	cols := mt.cols[:len(mt.cols)-1]
	t := &Table{ID: id, Title: title, Header: header(cols...)}
	groupStart := false
	for _, r := range rows {
		switch r.kind {
		case breakRow:
			groupStart = len(t.Rows) > 0
			continue
		case headerRow, otherRow:
			continue
		}
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: []Cell{nameCell(r.tag)}}
		groupStart = false
		for i, col := range cols {
			v := metrics.NAf(metrics.NoUnit, "no %s value", col)
			if i < len(r.cells) {
				v = r.cells[i]
			}
			row.Cells = append(row.Cells, valueCellText(v, cellText(col, v)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (b *builder) section(st parse.Step, info StepInfo) {
	sec := &StepSection{Step: info}
	sec.Throughput = b.throughputChart(st)
	if b.res.Archived() {
		sec.Notes = append(sec.Notes, "Per-interval charts, response-time histograms and iostat averages need the raw logs; this report was built from archived mrg files.")
	} else {
		sec.Intervals = b.intervalCharts(st)
		if note := fewIntervals(sec.Intervals); note != "" {
			sec.Intervals = nil
			sec.Notes = append(sec.Notes, note)
		}
		for _, k := range histKinds(st) {
			for _, m := range b.rts[st.MergeName] {
				if m.kind == k {
					sec.Histograms = append(sec.Histograms, b.histogramTable(m))
				}
			}
		}
		if st.Kind == parse.CreateIndex {
			sec.Notes = append(sec.Notes, "There are no response-time histograms for creating the indexes.")
		}
		sec.IostatAll = b.iostatTable(st)
		sec.Iostat = curatedIostat(sec.IostatAll)
		if sec.Iostat == sec.IostatAll {
			sec.IostatAll = nil
		}
	}
	if mt := b.merged[st.MergeName]; mt != nil && mt.cols != nil {
		var some []*mergedRow
		for _, tag := range b.shown {
			// An archive's rows are matched by their tag in both modes.
			if r := mt.find(tag, b.compat && !b.res.Archived()); r != nil {
				some = append(some, r)
			}
		}
		sec.Metrics = mergedRows(st.MergeName+".some", st.MergeName+": metrics", mt, some)
		sec.Metrics.Caption = "Performance metrics of the DBMS listed above; the legend at the end explains each column."
	}
	sec.Efficiency = b.efficiencyTable(st)
	if !b.res.Archived() {
		sec.Noise = b.noiseTable(st)
		for _, c := range sec.Intervals {
			b.markStalls(st, c)
		}
	}
	b.rep.Sections = append(b.rep.Sections, sec)
}

// efficiencyCols are the columns of a step's relative efficiency table:
// the throughput, then what each operation cost the host.
var efficiencyCols = []metrics.Metric{metrics.CPUPQ, metrics.CSPQ, metrics.RPQ, metrics.RKBPQ, metrics.WPI, metrics.WKBPI, metrics.DBGB1, metrics.RSS, metrics.MaxOp, metrics.P99}

// efficiencyTable is the rel.<step> view of the hardware metrics: each DBMS
// divided by the base of its group, banded as the relative throughput. It
// says why throughput changed: more CPU, more reads, more bytes written per
// row. Nil with a single DBMS.
func (b *builder) efficiencyTable(st parse.Step) *Table {
	cols := []string{metrics.IPS.Name()}
	if st.Kind.ReadWrite() {
		cols = []string{metrics.QPS.Name(), metrics.IPS.Name()}
	}
	for _, m := range efficiencyCols {
		cols = append(cols, m.Name())
	}
	t := &Table{
		ID: st.MergeName + ".efficiency", Title: st.MergeName + ": relative efficiency", Header: header(cols...),
		Caption: "Each DBMS divided by the base DBMS of its group (1 for 0/0, inf for x/0): throughput, then CPU, context switches, " +
			"reads and KiB read per operation, writes and KiB written per inserted row, database size, RSS, the largest response time " +
			"and the p99 rate. Values below 0.95 are yellow (▽), values above 1.05 blue (△); for the costs (cpupq … maxop) less is better.",
	}
	if !b.compat {
		t.Caption = "Each DBMS divided by the base DBMS of its group (1 for 0/0, inf for x/0): throughput, then CPU, context switches, " +
			"reads and KiB read per operation, writes and KiB written per inserted row, database size, RSS, the largest response time " +
			"and the p99 rate. For throughput and the p99 rate more is better, for the costs (cpupq … maxop) less. " + ratioBandsCaption
	}
	for _, p := range b.basePairs() {
		row := Row{Kind: DataRow, GroupStart: p.groupStart, Cells: []Cell{nameCell(p.tag)}}
		for _, col := range cols {
			row.Cells = append(row.Cells, b.ratioCell(st.MergeName, col, p.tag, p.base))
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// ratioCell is the banded ratio of a DBMS's value to its base's in a step.
func (b *builder) ratioCell(step, col, tag, base string) Cell {
	v, bv := b.cell(step, tag, col), b.cell(step, base, col)
	if b.compat {
		c := relTextCell(compat.RatioText(cellText(col, v), cellText(col, bv)))
		// The original printed any quotient; the report shows none that
		// no plausible pair of values gives (a base of 1e-300).
		if c.Value != nil {
			if err := parse.Plausible(parse.Ratio, *c.Value); err != nil {
				return valueCell(metrics.NAf(metrics.RatioUnit, "%s relative to its base: %v", col, err), 2)
			}
		}
		return c
	}
	r := metrics.RelativeTo(v, bv, col)
	if key := [3]string{step, tag, col}; !r.OK() && v.OK() && bv.OK() && !b.baseNoted[key] {
		if b.baseNoted == nil {
			b.baseNoted = map[[3]string]bool{}
		}
		b.baseNoted[key] = true
		b.note("%s: %s %s relative to %s is NA: %s", step, tag, col, base, r.Why)
	}
	return relCell(r, betterOf(col))
}

// histKinds are the histograms a step's section shows, queries first for
// read+write steps as the original did.
func histKinds(st parse.Step) []parse.HistKind {
	if st.Kind.ReadWrite() {
		return []parse.HistKind{parse.Query, parse.Insert, parse.Delete}
	}
	return []parse.HistKind{parse.Insert, parse.Delete}
}

// rtTable is a histogram merge as a table with the DBMS first: rows holds
// the DBMS of the merge (breaks start groups).
func rtTable(id, title string, m *rtMerge, rows []*rtRow) *Table {
	hdr := m.header
	if n := len(hdr); n > 0 && hdr[n-1] == "tag" {
		hdr = hdr[:n-1]
	}
	t := &Table{ID: id, Title: title, Header: header(hdr...)}
	groupStart := false
	for _, r := range rows {
		if r.brk {
			groupStart = len(t.Rows) > 0
			continue
		}
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: []Cell{nameCell(r.tag)}}
		groupStart = false
		vals := make([]metrics.Value, 0, len(r.share)+1)
		texts := make([]string, 0, len(r.share)+1)
		for _, v := range r.share {
			vals, texts = append(vals, v), append(texts, shareText(v))
		}
		vals, texts = append(vals, r.max), append(texts, r.max.Format(3))
		for i := range hdr {
			if i < len(vals) {
				row.Cells = append(row.Cells, valueCellText(vals[i], texts[i]))
			} else {
				row.Cells = append(row.Cells, valueCell(metrics.NA(metrics.NoUnit, "no value"), 0))
			}
		}
		if len(vals) != len(hdr) {
			t.Notes = append(t.Notes, fmt.Sprintf("%s has %d values for %d columns", r.tag, len(vals), len(hdr)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// histogramTable shades the percentages and bands the max column of the
// shown DBMS' histograms (FORMATS.md §6.6).
func (b *builder) histogramTable(m *rtMerge) *Table {
	var rows []*rtRow
	for _, tag := range displayTags(shown(b.res.List), parse.RowPrefix(firstName(b.res.List)), b.compat) {
		if i := m.find(tag, b.compat); i >= 1 && !m.rows[i-1].brk {
			rows = append(rows, m.rows[i-1])
		}
	}
	t := rtTable(m.step.MergeName+".hist."+m.kind.String(), m.step.MergeName+": "+strings.ToLower(kindTitle(m.kind))+" response time histogram", m, rows)
	t.Caption = "Each cell is the percentage of responses in the bucket (at most the bucket's time, more than the previous one). max is the largest response time in seconds: the slowest 25% of its range are red (▼), the fastest 25% green (▲); " +
		"green is not used when the minimum is at least 80% of the maximum."
	last := len(t.Header) - 1
	if last < 1 || t.Header[last] != "max" {
		return t
	}
	// The original compared the printed values, in thousandths.
	printed := func(c Cell) (float64, bool) {
		if c.Value == nil {
			return 0, false
		}
		return metrics.Round(*c.Value, 3), true
	}
	minv, maxv := math.Inf(1), math.Inf(-1)
	for _, r := range t.Rows {
		if v, ok := printed(r.Cells[last]); ok {
			minv, maxv = math.Min(minv, v), math.Max(maxv, v)
		}
	}
	g4 := metrics.Round((maxv-minv)/4, 3)
	topq := math.RoundToEven((maxv - g4) * 1000)
	botq := math.RoundToEven((minv + g4) * 1000)
	if math.RoundToEven(minv*1000) >= math.RoundToEven(maxv*0.8*1000) {
		botq = 0
	}
	for ri := range t.Rows {
		cells := t.Rows[ri].Cells
		for ci := 1; ci < len(cells); ci++ {
			c := &cells[ci]
			v, ok := printed(*c)
			if !ok {
				continue
			}
			if ci == last {
				m := math.RoundToEven(v * 1000)
				if m >= topq {
					c.Band = Slowest
				} else if m <= botq {
					c.Band = Fastest
				}
				continue
			}
			if c.Text == "0.000" {
				c.Text = "" // the original leaves empty buckets blank
				continue
			}
			c.Shade = int(math.RoundToEven(v / 5))
		}
	}
	return t
}

// iostatTable is the step's iostat averages per shown DBMS. DBMS whose
// iostat printed other columns (another sysstat version, or a truncated
// header) have their values placed by column name, never by position.
func (b *builder) iostatTable(st parse.Step) *Table {
	type row struct {
		tag  string
		hdr  []string
		vals []metrics.Value
	}
	var rows []row
	var hdr []string
	same := true // every DBMS with iostat has the first one's columns
	for _, tag := range b.shown {
		sr := rowOf(b.tree[tag], st)
		if sr == nil {
			continue
		}
		h := sr.IostatAvg.Header
		switch {
		case h == nil:
		case hdr == nil:
			hdr = h
		case !slices.Equal(h, hdr):
			same = false
		}
		rows = append(rows, row{tag, h, sr.IostatAvg.Values})
	}
	if hdr == nil || len(rows) == 0 {
		return nil
	}
	if !same {
		hdr = nil
		for _, r := range rows {
			for _, h := range r.hdr {
				if !slices.Contains(hdr, h) {
					hdr = append(hdr, h)
				}
			}
		}
	}
	t := &Table{ID: st.MergeName + ".iostat", Title: st.MergeName + ": iostat averages", Header: header(hdr...),
		Caption: "Average values from iostat for the database device."}
	for _, r := range rows {
		tr := Row{Kind: DataRow, Cells: []Cell{nameCell(r.tag)}}
		for i, h := range hdr {
			v := metrics.NA(metrics.NoUnit, "fewer than 2 iostat samples of the device")
			j := i
			if !same && r.hdr != nil {
				j = slices.Index(r.hdr, h)
				if j < 0 {
					v = metrics.NAf(metrics.NoUnit, "its iostat has no %s column", h)
				}
			}
			if j >= 0 && j < len(r.vals) {
				v = r.vals[j]
			}
			tr.Cells = append(tr.Cells, valueCell(v, metrics.IostatDigits(v.V)))
		}
		own := hdr
		if !same && r.hdr != nil {
			own = r.hdr
		}
		if len(r.vals) != len(own) {
			t.Notes = append(t.Notes, fmt.Sprintf("%s has %d values for %d columns", r.tag, len(r.vals), len(own)))
		}
		t.Rows = append(t.Rows, tr)
	}
	if !same {
		t.Notes = append(t.Notes, "The DBMS's iostat files have different columns; each value is under its own column's name.")
	}
	return t
}

// iostatAliases are the columns of the short iostat table, each by the
// names iostat versions give it.
var iostatAliases = [][]string{
	{"r/s"}, {"rkB/s", "rMB/s"}, {"r_await", "await"}, {"w/s"}, {"wkB/s", "wMB/s"}, {"w_await"}, {"aqu-sz", "avgqu-sz"}, {"%util"},
}

// curatedIostat keeps the iostat columns a reader compares first, so that
// the table fits a laptop's screen; the whole table is still in the report.
// It returns all itself when it has no more columns than those.
func curatedIostat(all *Table) *Table {
	if all == nil {
		return nil
	}
	idx := map[string]int{}
	for i, h := range all.Header {
		idx[h] = i
	}
	keep := []int{0}
	for _, names := range iostatAliases {
		for _, n := range names {
			if i, ok := idx[n]; ok {
				keep = append(keep, i)
				break
			}
		}
	}
	if len(keep) >= len(all.Header) || len(keep) < 3 {
		return all
	}
	t := &Table{ID: all.ID + ".short", Title: all.Title, Notes: all.Notes,
		Caption: "Average values from iostat for the database device: requests, KB and wait per request for reads and writes, queue size and utilization. All columns are in the table below."}
	for _, i := range keep {
		t.Header = append(t.Header, all.Header[i])
	}
	for _, r := range all.Rows {
		nr := Row{Kind: r.Kind, GroupStart: r.GroupStart}
		for _, i := range keep {
			if i < len(r.Cells) {
				nr.Cells = append(nr.Cells, r.Cells[i])
			}
		}
		t.Rows = append(t.Rows, nr)
	}
	all.Title = all.Title + ", all columns"
	return t
}

func (b *builder) allMetrics(st parse.Step, info StepInfo) {
	mt := b.merged[st.MergeName]
	var tab *Table
	if mt != nil && mt.cols != nil {
		tab = mergedRows(st.MergeName+".metrics", info.Description+", all DBMS", mt, mt.rows)
	} else {
		tab = &Table{ID: st.MergeName + ".metrics", Title: info.Description + ", all DBMS", Header: header(), Notes: []string{"no merged table for this step"}}
	}
	tab.Caption = "Metrics of every DBMS of the list, not only those in the summary; each group starts with its base DBMS."
	b.rep.AllMetrics = append(b.rep.AllMetrics, tab)
}

func (b *builder) responseTimes(st parse.Step, info StepInfo) {
	sec := &StepTables{Step: info}
	switch {
	case b.res.Archived():
		sec.Notes = append(sec.Notes, "Response-time histograms need the raw logs.")
	case st.Kind == parse.CreateIndex:
		sec.Notes = append(sec.Notes, "There are no response-time histograms for creating the indexes.")
	default:
		for _, k := range histKinds(st) {
			for _, m := range b.rts[st.MergeName] {
				if m.kind == k {
					t := rtTable(st.MergeName+".rt."+k.String(), st.MergeName+": "+strings.ToLower(kindTitle(k))+" response time histogram, all DBMS", m, m.rows)
					t.Caption = "Percentage of responses per bucket for every DBMS of the list; max is in seconds."
					sec.Tables = append(sec.Tables, t)
				}
			}
		}
	}
	b.rep.ResponseTimes = append(b.rep.ResponseTimes, sec)
}

func legend() []LegendItem {
	return []LegendItem{
		{"findings", bulletLegend},
		{"±95%", "noise: the half-width of the 95% interval of the mean per-interval rate of all clients together (inserts/s for load steps, queries/s for read+write steps; sysbench: QPS), as a percent of the mean: " +
			"the variance of an AR(1) process with the lag-1 autocorrelation φ corrected for its small-sample bias and raised by two standard errors, Student's t with the effective sample size less one degrees of freedom; " +
			"low confidence, with the reason, when the effective sample size is below 10, when intervals lie beyond 6 robust standard deviations of the median (stalls) or when batches of n/8 intervals vary 2.5× more than φ explains or, from 200 intervals on, overlapping batches of n/16 or n/4 vary 1.5× or 2.5× more (long memory or a drift)"},
		{"~", "within noise: the difference from 1 is smaller than the 95% noise of the two runs plus run-to-run noise: their ±95% and 1.96·√2 times the run-to-run relative standard deviation (--run-noise, settings key run-noise, default 1% per run), added in quadrature; never from a low-confidence interval"},
		{"stalls", "runs of client 1's intervals (the first and last, partial, left out) whose rate is below --stall-rate (default 0.5) of the reference, the upper quartile of the step's rates, with a count too low for chance (Poisson), or whose largest response time is over --stall-rt (default 10) times its median; stalled s is their total length, the worst the one with the lowest rate; charts mark where each began with a dashed line"},
		{"decline", "a steady fall of client 1's rate over the step (a straight line to 75% of its start or less that fits better than one step between two levels), shown with the line's rates at both ends; not a stall, and stalls are then measured against the line"},
		{"SLA", "read+write steps: client 1's mean insert rate over its full intervals as a share of the per-client target, the share of intervals at --sla (default 0.95) of it, the longest run below that in seconds; pass when the mean reaches --sla of the target and no 10 consecutive intervals stay below it"},
		metricLegend(metrics.IPS),
		metricLegend(metrics.QPS),
		{"rps, wps", "storage read and write requests per second (iostat r/s, w/s)"},
		{"rmbps, wmbps", "storage MiB read and written per second"},
		{"rpq, rkbpq", "storage reads and KiB read per operation"},
		{"wpi, wkbpi", "storage writes and KiB written per inserted row"},
		{"csps, cspq", "context switches per second and per operation (vmstat cs)"},
		metricLegend(metrics.CPUPS),
		metricLegend(metrics.CPUPQ),
		metricLegend(metrics.DBGB1),
		metricLegend(metrics.DBGB2),
		metricLegend(metrics.RSS),
		metricLegend(metrics.MaxOp),
		{"p50, p99", "50th and 99th percentile of client 1's per-interval rates from the descending list: p99 is the rate 99% of the intervals reached (inserts for load steps, queries for read+write steps); the first and last intervals, partial, are left out (--compat: kept, as the scripts did)"},
		{"operation", "an inserted row for load steps (l.x: an indexed row), a query for read+write steps; wpi and wkbpi are always per inserted row"},
		{"256us … gt", "histogram buckets: the percentage of responses of at most 256 µs, more than 256 µs up to 1 ms, …, more than 16 s"},
		{"max", "in histograms, the largest response time in seconds"},
	}
}

// metricLegend is a metric's legend item, its meaning in the properties
// table.
func metricLegend(m metrics.Metric) LegendItem { return LegendItem{m.Name(), m.Meaning()} }

func sysbenchLegend() []LegendItem {
	return []LegendItem{
		{"QPS", "sysbench queries per second (scan tests: thousands of rows per second)"},
		{"cpu/o", "vmstat us + sy (percent of all CPUs, averaged over the run) divided by operations per second: not CPU seconds; × CPU count × 10⁴ gives CPU µs per operation (µs/o); compares runs on the same host only (sysbench)"},
		{"µs/o", "CPU microseconds per operation, when the CPU count is known (sysbench)"},
		{"cs/o", "context switches per operation (sysbench)"},
		{"r/o, rKB/o, wKB/o", "storage reads, KB read and KB written per operation (sysbench)"},
		{"o/s", "operations per second, the rate the per-operation values divide by (sysbench)"},
		{"Average … Stddev", "statistics over a test group of the QPS relative to the base DBMS; Stddev is the sample standard deviation"},
	}
}
