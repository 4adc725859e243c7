package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// SysbenchPart is the sysbench half of a report.
type SysbenchPart struct {
	Base string `json:"base"` // the DBMS the relative values compare with
	// Bases are the bases of the groups of a grouped DBMS list (--dbms
	// with "-" or BREAK lines), each DBMS compared with its group's.
	Bases   []string           `json:"bases,omitempty"`
	DBMS    []string           `json:"dbms"`
	Load    *Table             `json:"load,omitempty"` // the prepare step
	Threads []*SysbenchThreads `json:"threads"`        // one per thread count
	PrePost []*Table           `json:"pre_vs_post,omitempty"`
	// Sweep has, per DBMS, the QPS of each test at every thread count and
	// relative to the smallest count; nil with one thread count.
	Sweep []*Table `json:"sweep,omitempty"`
	// SweepFindings, SweepSummary and SweepChart lead the sweep: per DBMS
	// the median scaling efficiency at each thread count.
	SweepFindings []string `json:"sweep_findings,omitempty"`
	SweepSummary  *Table   `json:"sweep_summary,omitempty"`
	SweepChart    *Chart   `json:"sweep_chart,omitempty"`
	// Counters are the perf stat counters per operation; nil without
	// sb.perf.hw samples (and in compat mode).
	Counters *PerfPart `json:"counters,omitempty"`
	Notes    []string  `json:"notes,omitempty"`
	// Summary says which set of the folder's summary tables the part
	// shows, and the other sets; nil when no set chose the DBMS.
	Summary *SummaryChoice `json:"summary,omitempty"`
}

// SysbenchThreads is everything measured at one thread count.
type SysbenchThreads struct {
	Threads int `json:"threads"`
	// Groups has, per test group and DBMS, the statistics of the QPS
	// relative to the base; GroupCharts one chart per group: bars, or past
	// ten compared DBMS (a series of releases) a line per test over the
	// DBMS in order.
	Groups      *Table   `json:"groups,omitempty"`
	GroupCharts []*Chart `json:"group_charts,omitempty"`
	Relative    *Table   `json:"relative,omitempty"` // relative QPS per test
	// Absolute has one table per measure (QPS, TPS, latencies): a row per
	// test, a column per DBMS.
	Absolute []*Table `json:"absolute"`
	// Efficiency has, per test, the HW metrics per operation of every DBMS
	// and their ratios to the base (the original o.met blocks).
	Efficiency []*Table `json:"efficiency"`
	// PerQuery is the engine table: per test, QPS and latency of each DBMS
	// with the user's extra columns.
	PerQuery []*Table `json:"per_query"`
	// Intervals are per-test charts of sysbench's interval lines.
	Intervals []*Chart `json:"intervals,omitempty"`
	Notes     []string `json:"notes,omitempty"` // e.g. why charts are left out
	// Noise has, per test and DBMS, the 95% interval of the QPS from
	// sysbench's interval lines (default mode).
	Noise *Table `json:"noise,omitempty"`
}

// sbBuild builds the sysbench part of a report from the typed set. Its
// text (sbText), chosen once by build, holds every compat difference of
// the part; the findings get the test groups and perf counters it found.
type sbBuild struct {
	res  *Results
	rep  *Report
	text sbText
	set  *metrics.SysbenchSet
	opt  SysbenchOptions
	// groups are the test groups of the group tables and charts, parts
	// those of the findings.
	groups, parts []metrics.SysbenchGroup
	// perf holds the perf stat counters per operation.
	perf *sbPerfOps
}

// plan chooses the test groups and reads the perf stat samples: what the
// findings need before the tables are built.
func (b *sbBuild) plan() {
	set, opt := b.set, b.opt
	groups, _ := sbsum.Groups(set, opt.sum()) // its warnings are in the notes
	// The findings sum up the parts readers group these tests in; a user's
	// group file replaces them as it replaces the summaries' groups.
	parts := metrics.SysbenchParts(set.Tests)
	if opt.groups != nil {
		parts = groups
	} else {
		groups = b.text.tableGroups(groups, parts)
	}
	b.groups, b.parts = groups, parts
	b.perf = b.sysbenchPerf(set)
}

// tables builds the sysbench part of the report.
func (b *sbBuild) tables() {
	set, opt, f, groups := b.set, b.opt, b.text, b.groups
	p := &SysbenchPart{}
	for _, d := range set.DBMS {
		p.DBMS = append(p.DBMS, d.Name)
	}
	if base := set.Base(); base != nil {
		p.Base = base.Name
	}
	if set.Grouped() {
		for _, b := range set.Bases() {
			p.Bases = append(p.Bases, b.Name)
		}
	}
	p.Load = f.loadTable(set)
	// The interval charts hold a point per interval line of every run,
	// the largest part of the model, and read nothing the tables write:
	// they are drawn on another core meanwhile.
	type ivCharts struct {
		charts []*Chart
		note   string
	}
	ivs := make([]ivCharts, len(set.Threads))
	ivDone := make(chan struct{})
	go func() {
		defer close(ivDone)
		for i, nt := range set.Threads {
			ivs[i].charts, ivs[i].note = sbIntervalCharts(set, nt, "sb.dop"+strconv.Itoa(nt))
		}
	}()
	for _, nt := range set.Threads {
		st := &SysbenchThreads{Threads: nt}
		id := "sb.dop" + strconv.Itoa(nt)
		if len(set.DBMS) > 1 {
			st.Groups = f.groupTable(set, groups, nt, id)
			st.GroupCharts = sbGroupCharts(set, groups, nt, id)
			st.Relative = f.relativeTable(set, nt, id, b.res)
		}
		st.Absolute = f.absoluteTables(set, nt, id)
		st.Noise = f.noiseTable(set, nt, id)
		st.Efficiency = f.efficiencyTables(set, nt, id)
		st.PerQuery = f.perQueryTables(set, nt, id, opt.extra)
		p.Threads = append(p.Threads, st)
	}
	<-ivDone
	for i, st := range p.Threads {
		st.Intervals = ivs[i].charts
		if ivs[i].note != "" {
			st.Notes = append(st.Notes, ivs[i].note)
		}
	}
	p.PrePost = f.prePost(set)
	p.Sweep = f.threadSweep(set)
	p.SweepSummary, p.SweepChart, p.SweepFindings = f.sweepSummary(set)
	p.Counters = f.perfPart(set, b.perf, metrics.SysbenchParts(set.Tests), "sb", b.res.FS)
	if len(set.DBMS) < 2 {
		p.Notes = append(p.Notes, "Only one DBMS: there are no relative values.")
	}
	p.Summary = b.res.Summary
	if c := b.res.Summary; c != nil && c.Tables {
		n := "The values are those of the summary tables (" + strings.Join(c.Files, ", ") + "), which keep the QPS"
		if !c.Relative {
			n += " and o.met's HW use per operation"
		}
		p.Notes = append(p.Notes, n+": no TPS, latency, error rate or per-interval lines.")
	}
	if n := sbHWSources(set); n != "" {
		p.Notes = append(p.Notes, n)
	}
	b.rep.Sysbench = p
}

// sbHWSources says which runs have their HW values (iostat, vmstat, per
// operation) from the archived sb.met files an.sh wrote, because their
// sb.vm or sb.io file is missing; "" when none has.
func sbHWSources(set *metrics.SysbenchSet) string {
	var parts []string
	all, met := 0, 0
	for _, d := range set.DBMS {
		runs := make([]*metrics.SysbenchHW, 0, len(d.Results)+1)
		for _, r := range d.Results {
			runs = append(runs, &r.HW)
		}
		if d.Load != nil {
			runs = append(runs, &d.Load.HW)
		}
		n := 0
		for _, h := range runs {
			if h.FromMet() {
				n++
			}
		}
		all, met = all+len(runs), met+n
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d of %s)", d.Name, n, metrics.Plural(len(runs), "run")))
		}
	}
	const what = "HW values (cpu/o, cs/o, r/o, rKB/o, wKB/o and the rates per second) come from the archived sb.met files, as an.sh printed them"
	switch {
	case met == 0:
		return ""
	case met == all:
		return what + ": the folders have no sb.vm or sb.io files."
	}
	return what + ", for the runs without sb.vm or sb.io files: " + strings.Join(parts, ", ") + "; the others are computed from sb.vm and sb.io."
}

// Decimals of the values of the sysbench part.
const (
	sbCPUDigits    = 6 // cpu/o
	sbPerOpDigits  = 3 // cs/o, r/o, rKB/o, wKB/o; the group statistics' deviation
	sbMicrosDigits = 1 // µs/o
)

func sbTestName(t parse.SysbenchTest) string { return t.Label() }

func (f sbText) loadTable(set *metrics.SysbenchSet) *Table {
	t := &Table{ID: "sb.load", Title: "Load (prepare)", Header: []string{"dbms", "seconds", "inserts/s", "cpu/o", "cs/o", "wKB/o"},
		Caption: "The prepare step: load time, rows inserted per second and HW use per inserted row."}
	for _, d := range set.DBMS {
		if d.Load == nil {
			continue
		}
		l := d.Load
		t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: []Cell{{Text: d.Name}, f.sbValueCell(l.Seconds, 0), f.sbValueCell(l.IPS, sbsum.RateDigits),
			f.sbValueCell(l.HW.CPUPerOp, sbCPUDigits), f.sbValueCell(l.HW.CsPerOp, sbPerOpDigits), f.sbValueCell(l.HW.WriteKBPerOp, sbPerOpDigits)}})
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

func (f sbText) groupTable(set *metrics.SysbenchSet, groups []metrics.SysbenchGroup, nt int, id string) *Table {
	pairs := set.Pairs()
	t := &Table{ID: id + ".groups", Title: "Relative QPS by test group, " + ThreadCount(nt),
		Caption: "Each DBMS's QPS relative to " + sbBaseOf(set) +
			" over the tests of a group. " + f.sbBandsShort()}
	if g := f.groupsNote(groups); g != "" {
		// Under the table, not in its caption: the definitions are long,
		// and the first screen is for the story and the table.
		t.Notes = append(t.Notes, g)
	}
	t.Header = []string{"group", "statistic"}
	t.Header = append(t.Header, sbPairNames(pairs)...)
	// The statistics of each group of DBMS, test group by test group.
	var perSet [][]metrics.GroupStats
	for _, g := range set.Split() {
		perSet = append(perSet, g.GroupStats(groups, nt))
	}
	for gi, g := range groups {
		var row []metrics.GroupStats
		for si, sub := range set.Split() {
			n := len(sub.DBMS) - min(1, len(sub.DBMS))
			row = append(row, perSet[si][gi*n:(gi+1)*n]...)
		}
		for si, name := range []string{"Average", "Median", "Min", "Max", "Stddev", "Tests"} {
			r := Row{Kind: DataRow, GroupStart: si == 0 && gi > 0, Cells: []Cell{{Text: g.Name}, {Text: name}}}
			for _, s := range row {
				var c Cell
				switch name {
				case "Average":
					c = f.relValueCell(s.Average)
				case "Median":
					c = f.relValueCell(s.Median)
				case "Min":
					c = f.relValueCell(s.Min)
				case "Max":
					c = f.relValueCell(s.Max)
				case "Stddev":
					c = f.sbValueCell(s.Stddev, sbPerOpDigits)
				case "Tests":
					c = Cell{Text: strconv.Itoa(len(s.Ratios))}
				}
				r.Cells = append(r.Cells, c)
			}
			t.Rows = append(t.Rows, r)
		}
		for _, s := range row {
			t.Notes = append(t.Notes, s.Warnings...)
		}
	}
	return t
}

// sbGroupCharts draws a chart per test group of the QPS relative to the
// base.
func sbGroupCharts(set *metrics.SysbenchSet, groups []metrics.SysbenchGroup, nt int, id string) []*Chart {
	var out []*Chart
	for _, g := range groups {
		c := &Chart{ID: fmt.Sprintf("%s.chart.group.%s", id, g.Name), Kind: "bar",
			Title: fmt.Sprintf("%s: QPS relative to %s, %s", g.Name, sbChartBase(set), ThreadCount(nt)), YLabel: "relative QPS", Reference: 1}
		for _, t := range g.Tests {
			c.Categories = append(c.Categories, sbTestName(t))
		}
		pairs := set.Pairs()
		if len(pairs) > maxBarSeries {
			if !set.Grouped() {
				out = append(out, sbReleaseChart(c, g, set, nt))
				continue
			}
			// One chart per group (a config of a release archive): a
			// line never joins builds of two bases.
			for k, sub := range set.Split() {
				sp := sub.Pairs()
				if len(sp) == 0 {
					continue
				}
				gc := *c
				gc.ID = fmt.Sprintf("%s.%d", c.ID, k+1)
				gc.Title = fmt.Sprintf("%s: QPS of %s relative to their group's base %s, %s", g.Name, metrics.Plural(len(sp), "build"), sub.Base().Name, ThreadCount(nt))
				rc := sbReleaseChart(&gc, g, sub, nt)
				if r, ok := parseRelease(sub.Base().Name); ok && rc.XLabel == "release" && r.Config != "" {
					// The axis holds the config's releases, the base among
					// them; the title stays within the chart's width.
					rc.Title = fmt.Sprintf("%s, %s releases vs %s, %s", g.Name, r.Config, sub.Base().Name, ThreadCount(nt))
				}
				out = append(out, rc)
			}
			continue
		}
		for i, name := range sbPairNames(pairs) {
			p := pairs[i]
			s := Series{Name: name}
			for _, t := range g.Tests {
				v := p.Group.Relative(p.DBMS, t, nt).QPS
				f := v.V
				if !v.OK() {
					f = math.NaN()
				}
				s.Values = append(s.Values, Num(f))
			}
			c.Series = append(c.Series, s)
		}
		out = append(out, c)
	}
	return out
}

// maxBarSeries is the most DBMS a group chart draws as bars: past it (a
// series of releases) a bar per DBMS and test is taller than a screen, and
// the release axis reads better.
const maxBarSeries = 10

// sbReleaseChart draws a group chart of many DBMS on the release axis: the
// DBMS of group set sub in order on x, the QPS relative to its base on y, a
// line per test and its levels between change points. When the names read
// as releases (releaseAxis), x holds the plain builds of the base's config
// in version order, the base first at 1, each named by its version alone;
// the variants and other configs' builds are left off and named in a note
// under the chart. Otherwise x holds every DBMS after the base, by name.
func sbReleaseChart(c *Chart, g metrics.SysbenchGroup, sub *metrics.SysbenchSet, nt int) *Chart {
	c.Kind, c.Categories, c.XLabel = "line", nil, "DBMS"
	var names []string
	for _, d := range sub.DBMS {
		names = append(names, d.Name)
	}
	members, labels, note := releaseAxis(names)
	if members == nil {
		members = make([]int, 0, len(names))
		for i := range names[min(1, len(names)):] {
			members = append(members, i+1)
		}
		labels = names[min(1, len(names)):]
	} else {
		c.XLabel = "release"
		if note != "" {
			c.Notes = append(c.Notes, note)
		}
	}
	for i, name := range labels {
		c.XTicks = append(c.XTicks, float64(i+1))
		c.XLabels = append(c.XLabels, name)
	}
	var opt stats.ChangePointOptions
	for _, t := range g.Tests {
		s := Series{Name: sbTestName(t)}
		y := make([]float64, len(members))
		for i, m := range members {
			y[i] = math.NaN()
			v := sub.Relative(sub.DBMS[m], t, nt).QPS
			if v.OK() && !math.IsInf(v.V, 0) && v.V > 0 {
				s.Points = append(s.Points, Point{X: Num(i + 1), Y: Num(v.V)})
				y[i] = v.V
			}
		}
		c.Series = append(c.Series, s)
		// The level of each test between its change points, as on the
		// charts of a series of reports.
		if len(y) >= opt.MinMembers() {
			c.Levels = append(c.Levels, seriesLevels(s.Points, stats.ChangePoints(y, opt))...)
		}
	}
	return c
}

// releaseAxis lays out the release axis of a group of builds whose first is
// the base: members are the indexes of the plain builds (no extra flavour)
// of the base's config in version order, labels their versions, and note
// names the builds left off (variants, other configs), with the plain
// build of their release they are compared with in the story. Nil members
// when the names are not releases, when the base's config has fewer than
// two plain builds, or when two of them share a version (the versions
// would not tell them apart).
func releaseAxis(names []string) (members []int, labels []string, note string) {
	rs := releasesOf(names)
	if rs == nil {
		return nil, nil, ""
	}
	cfg := rs.Rels[0].Config
	plain := func(r release) bool { return r.Config == cfg && len(rs.Extra(r)) == 0 }
	for i, r := range rs.Rels {
		if plain(r) {
			members = append(members, i)
		}
	}
	slices.SortStableFunc(members, func(a, b int) int { return rs.Rels[a].Version.Compare(rs.Rels[b].Version) })
	for k, m := range members {
		if k > 0 && rs.Rels[m].Version.Compare(rs.Rels[members[k-1]].Version) == 0 {
			return nil, nil, ""
		}
		labels = append(labels, rs.Rels[m].Version.String())
	}
	if len(members) < 2 {
		return nil, nil, ""
	}
	// The builds left off, by the plain build of their release: the
	// variants of one release, or the configs run at it, share a clause.
	type off struct {
		of              string // the plain build of the release, "" none
		variants, other []string
	}
	var offs []*off
	find := func(of string) *off {
		for _, o := range offs {
			if o.of == of {
				return o
			}
		}
		offs = append(offs, &off{of: of})
		return offs[len(offs)-1]
	}
	for _, r := range rs.Rels {
		if plain(r) {
			continue
		}
		of := ""
		if k := slices.IndexFunc(members, func(m int) bool { return rs.Rels[m].Version.Compare(r.Version) == 0 }); k >= 0 {
			of = rs.Rels[members[k]].Name
		}
		o := find(of)
		if r.Config == cfg {
			o.variants = append(o.variants, r.Name)
		} else {
			o.other = append(o.other, r.Name)
		}
	}
	var parts []string
	for _, o := range offs {
		var p []string
		switch len(o.variants) {
		case 0:
		case 1:
			p = append(p, "the variant "+o.variants[0])
		default:
			p = append(p, "the variants "+andList(o.variants))
		}
		switch len(o.other) {
		case 0:
		case 1:
			p = append(p, o.other[0]+" of another config")
		default:
			p = append(p, andList(o.other)+" of other configs")
		}
		s := strings.Join(p, " and ")
		if o.of != "" {
			s += ", compared with " + o.of + " in the story"
		}
		parts = append(parts, s)
	}
	if len(parts) > 0 {
		note = fmt.Sprintf("The release axis holds the plain builds of config %s; not on it: %s.", cfg, strings.Join(parts, "; "))
	}
	return members, labels, note
}

// relativeTable is the QPS of each DBMS over the base's; run is the
// run-to-run term of the within-noise rule.
// sbNoiseKey names a test's QPS at nt threads as diff names its cell and
// the settings its run-noise key: "point-query.range100.dop1.qps".
func sbNoiseKey(t parse.SysbenchTest, nt int) string {
	return t.Key() + ".dop" + strconv.Itoa(nt) + "." + metrics.QPS.Name()
}

func (f sbText) relativeTable(set *metrics.SysbenchSet, nt int, id string, res *Results) *Table {
	t := &Table{ID: id + ".relative", Title: "Relative QPS, " + ThreadCount(nt),
		Caption: "QPS of each DBMS divided by the QPS of the base DBMS " + sbBaseText(set) +
			" (1 for 0/0, inf for x/0). " + f.sbBands()}
	var keys []string
	for _, test := range sbsum.Tests(set) {
		keys = append(keys, sbNoiseKey(test, nt))
	}
	if !f.scripts {
		t.Caption += testNoiseText(res, keys)
	}
	t.Header = []string{"test"}
	pairs := set.Pairs()
	t.Header = append(t.Header, sbPairNames(pairs)...)
	for _, test := range sbsum.Tests(set) {
		r := Row{Kind: DataRow, Cells: []Cell{{Text: sbTestName(test)}}}
		for _, p := range pairs {
			d := p.DBMS
			rel := p.Group.Relative(d, test, nt)
			c := f.relValueCell(rel.QPS)
			f.markNoise(&c, rel, testRunNoise(res, sbNoiseKey(test, nt)))
			r.Cells = append(r.Cells, c)
			if !rel.QPS.OK() {
				t.Notes = append(t.Notes, fmt.Sprintf("%s %s: NA: %s", d.Name, test.Sfx, rel.QPS.Why))
			}
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

func (f sbText) absoluteTables(set *metrics.SysbenchSet, nt int, id string) []*Table {
	measures := []struct {
		key, title string
		get        func(*metrics.SysbenchResult) metrics.Value
		digits     int
	}{
		{"qps", "QPS", func(r *metrics.SysbenchResult) metrics.Value { return r.QPS }, sbsum.RateDigits},
		{"tps", "Transactions per second", func(r *metrics.SysbenchResult) metrics.Value { return r.TPS }, sbsum.RateDigits},
		{"lat-avg", "Average latency (ms)", func(r *metrics.SysbenchResult) metrics.Value { return r.LatAvg }, sbsum.LatDigits},
		{"lat-pct", "Latency percentile (ms)", func(r *metrics.SysbenchResult) metrics.Value { return r.LatPct }, sbsum.LatDigits},
		{"lat-max", "Max latency (ms)", func(r *metrics.SysbenchResult) metrics.Value { return r.LatMax }, sbsum.LatDigits},
	}
	var out []*Table
	for _, m := range measures {
		if m.key != "qps" && !anyKnown(set, nt, m.get) {
			// The summary tables of a study keep no TPS or latency:
			// a table of NA cells says nothing the part's note does not.
			continue
		}
		t := &Table{ID: id + ".abs." + m.key, Title: m.title + ", " + ThreadCount(nt)}
		t.Header = []string{"test"}
		for _, d := range set.DBMS {
			t.Header = append(t.Header, d.Name)
		}
		for _, test := range sbsum.Tests(set) {
			r := Row{Kind: DataRow, Cells: []Cell{{Text: sbTestName(test)}}}
			for _, d := range set.DBMS {
				res := d.Result(test.Sfx, nt)
				if res == nil {
					r.Cells = append(r.Cells, Cell{Text: "NA", Band: NotANumber})
					t.Notes = append(t.Notes, fmt.Sprintf("%s %s: NA: no run with %s", d.Name, test.Sfx, ThreadCount(nt)))
					continue
				}
				v := m.get(res)
				r.Cells = append(r.Cells, f.sbValueCell(v, m.digits))
				if !v.OK() {
					t.Notes = append(t.Notes, fmt.Sprintf("%s %s: NA: %s", d.Name, test.Sfx, v.Why))
				}
			}
			t.Rows = append(t.Rows, r)
		}
		if m.key == "qps" {
			t.Caption = "Queries per second; for scan tests the row rate in thousands of rows per second."
		}
		out = append(out, t)
	}
	return out
}

// sbHWColumn is a column of the efficiency tables after the DBMS: its
// properties (name, decimals, direction) and its value.
type sbHWColumn struct {
	metrics.Props
	get func(*metrics.SysbenchResult) metrics.Value
}

// sbHWColumns are the columns of the efficiency tables after the DBMS, the
// sysbench columns of the properties table.
var sbHWColumns = func() []sbHWColumn {
	get := map[string]func(*metrics.SysbenchResult) metrics.Value{}
	hw := func(name string, f func(*metrics.SysbenchHW) metrics.Value) {
		get[name] = func(r *metrics.SysbenchResult) metrics.Value { return f(&r.HW) }
	}
	hw("cpu/o", func(h *metrics.SysbenchHW) metrics.Value { return h.CPUPerOp })
	hw("µs/o", func(h *metrics.SysbenchHW) metrics.Value { return h.CPUMicrosPerOp })
	hw("cs/o", func(h *metrics.SysbenchHW) metrics.Value { return h.CsPerOp })
	hw("r/o", func(h *metrics.SysbenchHW) metrics.Value { return h.ReadsPerOp })
	hw("rKB/o", func(h *metrics.SysbenchHW) metrics.Value { return h.ReadKBPerOp })
	hw("wKB/o", func(h *metrics.SysbenchHW) metrics.Value { return h.WriteKBPerOp })
	get["o/s"] = func(r *metrics.SysbenchResult) metrics.Value { return r.QPS }
	var out []sbHWColumn
	for _, p := range metrics.SysbenchColumns(false) {
		if get[p.Name] != nil {
			out = append(out, sbHWColumn{p, get[p.Name]})
		}
	}
	return out
}()

func (f sbText) efficiencyTables(set *metrics.SysbenchSet, nt int, id string) []*Table {
	var out []*Table
	for _, test := range sbsum.Tests(set) {
		t := &Table{ID: fmt.Sprintf("%s.hw.%s", id, test.Sfx), Label: sbTestName(test), Title: fmt.Sprintf("HW use per operation: %s, %s", sbTestName(test), ThreadCount(nt)),
			Header: []string{"dbms"}}
		for _, c := range sbHWColumns {
			t.Header = append(t.Header, c.Name)
		}
		ran := false
		for _, d := range set.DBMS {
			r := d.Result(test.Sfx, nt)
			if r == nil {
				t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: append([]Cell{{Text: d.Name}}, naCells(len(sbHWColumns))...)})
				continue
			}
			ran = true
			row := Row{Kind: DataRow, Cells: []Cell{{Text: d.Name}}}
			for _, c := range sbHWColumns {
				row.Cells = append(row.Cells, f.sbValueCell(c.get(r), c.Digits))
			}
			t.Rows = append(t.Rows, row)
		}
		pairs := set.Pairs()
		for i, p := range pairs {
			d := p.DBMS
			r := d.Result(test.Sfx, nt)
			base := p.Base().Result(test.Sfx, nt)
			label := d.Name + " / base"
			if set.Grouped() {
				label = d.Name + " / " + p.Base().Name
			}
			row := Row{Kind: DataRow, GroupStart: i == 0, Cells: []Cell{{Text: label}}}
			if r == nil || base == nil {
				row.Cells = append(row.Cells, naCells(len(sbHWColumns))...)
			} else {
				for _, c := range sbHWColumns {
					row.Cells = append(row.Cells, f.ratioCell(c.get(r), c.get(base), c.Better))
				}
			}
			t.Rows = append(t.Rows, row)
		}
		if !ran {
			continue
		}
		t.Caption = "CPU per operation as vmstat us + sy percent divided by operations per second (cpu/o: not seconds) and as CPU microseconds (µs/o = cpu/o × CPUs × 10⁴, needs the CPU count), context switches, storage reads, KB read and KB written per operation, and operations per second. The rows after the line divide each DBMS by the base" + sbBaseSuffix(set) + "."
		t.Caption += f.efficiencyBands()
		out = append(out, t)
	}
	return out
}

func naCells(n int) []Cell {
	out := make([]Cell, n)
	for i := range out {
		out[i] = Cell{Text: "NA", Band: NotANumber}
	}
	return out
}

func (f sbText) perQueryTables(set *metrics.SysbenchSet, nt int, id string, extra *parse.SysbenchExtra) []*Table {
	et, _ := set.EngineTable(nt, extra) // warned by the tables
	var out []*Table
	for _, blk := range et.Blocks {
		t := &Table{ID: fmt.Sprintf("%s.query.%s", id, blk.Test.Sfx), Label: sbTestName(blk.Test), Title: sbTestName(blk.Test) + ", " + ThreadCount(nt),
			Header: append([]string{"dbms", "QPS", "latency avg (ms)", "latency " + blk.PercentileLabel() + " (ms)"}, et.Extra...)}
		for _, r := range blk.Rows {
			row := Row{Kind: DataRow, Cells: []Cell{{Text: r.DBMS}, f.sbValueCell(r.QPS, sbsum.RateDigits), f.sbValueCell(r.LatAvg, sbsum.LatDigits), f.sbValueCell(r.LatPct, sbsum.LatDigits)}}
			for _, x := range r.Extra {
				row.Cells = append(row.Cells, textCell(x))
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return out
}

// sbIntervalCharts draws, per test, QPS and the latency percentile of each
// interval, one line per DBMS.
func sbIntervalCharts(set *metrics.SysbenchSet, nt int, id string) (out []*Chart, note string) {
	var few []string
	for _, test := range sbsum.Tests(set) {
		qps := &Chart{ID: fmt.Sprintf("%s.chart.qps.%s", id, test.Sfx), Kind: "line",
			Title: fmt.Sprintf("QPS per interval: %s, %s", sbTestName(test), ThreadCount(nt)), XLabel: "time (s)", YLabel: "queries/s"}
		lat := &Chart{ID: fmt.Sprintf("%s.chart.lat.%s", id, test.Sfx), Kind: "line", XLabel: "time (s)", YLabel: "ms"}
		pct := 0
		for _, d := range set.DBMS {
			r := d.Result(test.Sfx, nt)
			qs, ls := Series{Name: d.Name}, Series{Name: d.Name}
			if r != nil {
				qs.Points = make([]Point, 0, len(r.Intervals))
				ls.Points = make([]Point, 0, len(r.Intervals))
				for _, iv := range r.Intervals {
					y := iv.QPS
					if y == 0 && iv.EPS != 0 {
						y = iv.EPS
					}
					qs.Points = append(qs.Points, Point{X: Num(iv.Sec), Y: Num(y)})
					ls.Points = append(ls.Points, Point{X: Num(iv.Sec), Y: Num(iv.LatPct)})
					if iv.Percentile > 0 {
						pct = iv.Percentile
					}
				}
			}
			qps.Series = append(qps.Series, qs)
			lat.Series = append(lat.Series, ls)
		}
		if pct == 0 {
			pct = 95
		}
		lat.Title = fmt.Sprintf("Latency p%d per interval: %s, %s", pct, sbTestName(test), ThreadCount(nt))
		switch {
		case !qps.HasData():
		case fewIntervals([]*Chart{qps}) != "":
			few = append(few, sbTestName(test))
		default:
			out = append(out, qps, lat)
		}
	}
	if len(few) > 0 {
		note = fmt.Sprintf("Per-interval charts are left out for %s: fewer than %d intervals (%s).",
			metrics.Plural(len(few), "test"), minIntervals, strings.Join(few, ", "))
	}
	return out, note
}

// sbPrePost compares each test run before the write-heavy tests (.pre)
// with the same test after them, per DBMS, at the first thread count.
func (f sbText) prePost(set *metrics.SysbenchSet) []*Table {
	if len(set.Threads) == 0 {
		return nil
	}
	nt := set.Threads[0]
	var out []*Table
	for _, d := range set.DBMS {
		t := &Table{ID: "sb.prepost." + d.Name, Title: fmt.Sprintf("Before and after the writes: %s, %s", d.Name, ThreadCount(nt)),
			Header:  []string{"test", "QPS pre", "QPS post", "post / pre"},
			Caption: "QPS of a test run before the write-heavy tests and of the same test after them. " + f.sbBands()}
		for _, test := range d.Dir.Tests {
			if test.Phase != parse.Pre {
				continue
			}
			postSfx := fmt.Sprintf("%s.range%d.pk%d", test.Base, test.Range, test.PK)
			pre, post := sbsum.QPSAt(d, test.Sfx, nt), sbsum.QPSAt(d, postSfx, nt)
			t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: []Cell{{Text: fmt.Sprintf("%s range=%d", test.Base, test.Range)},
				f.sbValueCell(pre, sbsum.RateDigits), f.sbValueCell(post, sbsum.RateDigits), f.relValueCell(metrics.Ratio(post, pre))}})
		}
		if len(t.Rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// threadSweep is the scaling of each DBMS with the thread count: per test
// the QPS at each count, then each count's QPS over the smallest count's.
func (f sbText) threadSweep(set *metrics.SysbenchSet) []*Table {
	if len(set.Threads) < 2 {
		return nil
	}
	threads := slices.Sorted(slices.Values(set.Threads))
	n0 := threads[0]
	var out []*Table
	for _, d := range set.DBMS {
		t := &Table{ID: "sb.sweep." + d.Name, Title: "QPS by thread count: " + d.Name, Header: []string{"test"},
			Caption: f.sweepCaption(n0)}
		for _, nt := range threads {
			t.Header = append(t.Header, strconv.Itoa(nt))
		}
		for _, nt := range threads[1:] {
			t.Header = append(t.Header, fmt.Sprintf("%d vs %d", nt, n0))
		}
		for _, test := range sbsum.Tests(set) {
			r := Row{Kind: DataRow, Cells: []Cell{{Text: sbTestName(test)}}}
			for _, nt := range threads {
				r.Cells = append(r.Cells, f.sbValueCell(sbsum.QPSAt(d, test.Sfx, nt), sbsum.RateDigits))
			}
			base := sbsum.QPSAt(d, test.Sfx, n0)
			for _, nt := range threads[1:] {
				r.Cells = append(r.Cells, f.sweepCell(sbsum.QPSAt(d, test.Sfx, nt), base, nt, n0))
			}
			t.Rows = append(t.Rows, r)
		}
		out = append(out, t)
	}
	return out
}

// sbNoise is the 95% interval of a run's QPS from its interval lines (the
// last, partial one left out); unknown without enough of them.
func sbNoise(r *metrics.SysbenchResult) metrics.Interval { return r.QPSNoise() }

// sbNoiseTable has, per test and DBMS, the ±95% of the QPS from sysbench's
// interval lines; nil when no run has enough of them.
func sbNoiseTable(set *metrics.SysbenchSet, nt int, id string) *Table {
	t := &Table{ID: id + ".noise", Title: "Noise of the QPS, " + ThreadCount(nt), Header: []string{"test"},
		Caption: "The half-width of the 95% interval of each run's mean QPS, from sysbench's --report-interval lines, as a percent of the mean: " + noiseCaption +
			". A low-confidence interval is shown as ±h% (low confidence) with the reason in its note."}
	for _, d := range set.DBMS {
		t.Header = append(t.Header, d.Name)
	}
	any := false
	for _, test := range sbsum.Tests(set) {
		r := Row{Kind: DataRow, Cells: []Cell{{Text: sbTestName(test)}}}
		for _, d := range set.DBMS {
			iv := sbNoise(d.Result(test.Sfx, nt))
			if h := iv.HalfWidth(); iv.OK() && !math.IsNaN(h) {
				h *= 100
				c := Cell{Text: fmt.Sprintf("±%.1f%%", h), Value: &h, Unit: "percent"}
				if iv.LowConfidence != "" {
					c.Text += " (low confidence)"
					t.Notes = append(t.Notes, fmt.Sprintf("%s %s: low confidence: %s", d.Name, test.Sfx, iv.LowConfidence))
				}
				r.Cells = append(r.Cells, c)
				any = true
				continue
			}
			why := iv.Why
			if why == "" {
				why = "the mean QPS is 0"
			}
			r.Cells = append(r.Cells, valueCell(metrics.NA(metrics.NoUnit, why), 0))
		}
		t.Rows = append(t.Rows, r)
	}
	if !any {
		return nil
	}
	return t
}

// groupsText defines the test groups on the page: the tests each holds.
func groupsText(groups []metrics.SysbenchGroup) string {
	var parts []string
	for _, g := range groups {
		var names []string
		for _, t := range g.Tests {
			names = append(names, sbTestName(t))
		}
		parts = append(parts, fmt.Sprintf("%s (%d): %s", g.Name, len(g.Tests), strings.Join(names, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "The groups: " + strings.Join(parts, "; ") + "."
}

// anyKnown reports whether any run at nt threads has a value of get.
func anyKnown(set *metrics.SysbenchSet, nt int, get func(*metrics.SysbenchResult) metrics.Value) bool {
	for _, d := range set.DBMS {
		for _, r := range d.Results {
			if r.Threads == nt && get(r).OK() {
				return true
			}
		}
	}
	return false
}

// ThreadCount is a thread count in words: "1 thread", "40 threads", and
// for 0, the count of summary tables that do not say it, "an unknown
// thread count".
func ThreadCount(n int) string {
	if n == 0 {
		return "an unknown thread count"
	}
	return metrics.Plural(n, "thread")
}
