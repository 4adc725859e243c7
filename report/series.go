package report

import (
	"cmp"
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

// SeriesPart is the study of DBMS taken as an ordered series (releases in
// order, nightly runs): per test or step, where its level shifted. It is
// built when BuildOptions.Series is set, and by BuildSeries for result sets.
type SeriesPart struct {
	// Findings sum the change points up: a line per member at which some
	// test's level shifted. They replace the report's pairwise bullets.
	Findings []string       `json:"findings,omitempty"`
	Caption  string         `json:"caption"`
	Groups   []*SeriesGroup `json:"groups"`
	Notes    []string       `json:"notes,omitempty"`
}

// SeriesGroup is one series: its members in order and, per test, their
// throughput relative to the first member and the change points found.
type SeriesGroup struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Members []string `json:"members"`
	// Labels are the members' names without what they all share, numbered:
	// the heat table's header and the charts' key.
	Labels []string `json:"labels"`
	// Changes are the change points of every test, the largest shift first.
	Changes []SeriesChange `json:"changes"`
	// ChangeTable shows Changes; nil when the series is too short.
	ChangeTable *Table `json:"change_table,omitempty"`
	// History judges the last member against the others (diff --history);
	// nil otherwise.
	History *Table `json:"history,omitempty"`
	// Heat has a row per test and a column per member: the throughput
	// relative to the first member, banded like the relative tables, with
	// ◆ where a change point is.
	Heat *Table `json:"heat"`
	// Charts have one line per test of the relative throughput, with the
	// noise interval of each member where known and a mark at each change
	// point; the tests with a change point come first.
	Charts []*Chart `json:"charts,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Tests  []string `json:"tests"`
	Unit   string   `json:"unit"`
	Values [][]Num  `json:"values"` // per test, per member: the throughput
	Noise  [][]Num  `json:"noise,omitempty"`
	// keys name the tests as diff names their cells, in a series of
	// result sets (seriesNoiseKeys); nil otherwise.
	keys map[string]string
}

// SeriesChange is one change point: the member of a series at which a
// test's level shifted.
type SeriesChange struct {
	Test   string `json:"test"`
	Member string `json:"member"` // the first member of the new level
	Index  int    `json:"index"`  // its position in the series, from 0
	// Before and After are the medians of the levels on either side,
	// relative to the first member of the series (NaN when it is NA), and
	// in the test's unit.
	Before      Num     `json:"before"`
	After       Num     `json:"after"`
	BeforeValue float64 `json:"before_value"`
	AfterValue  float64 `json:"after_value"`
	Unit        string  `json:"unit"`
	Shift       float64 `json:"shift"` // After/Before − 1
	P           float64 `json:"p"`     // of the t-test between the levels
	// Single marks a level of one member: a dip or spike of one release
	// that the next member left again. After is that member's value.
	Single bool `json:"single,omitempty"`
}

// seriesInput is what a series is built from: members in order and, per
// test, a value per member with its noise (relative half-width of its 95%
// interval, NaN when unknown).
type seriesInput struct {
	id, title string
	// kind is what the series measures ("ib", "sb.dop40") and what says
	// it in words ("Insert benchmark"): BuildSeries joins the series of
	// one kind and DBMS across result sets.
	kind, what string
	members    []string
	tests      []seriesTest
}

type seriesTest struct {
	name, unit string
	values     []metrics.Value
	noise      []float64
}

// seriesLegend explains the series section; it is in the legend of every
// report that has one.
var seriesLegend = fmt.Sprintf("A series is the DBMS in list order (releases, nightly runs), each list group a series of its own. "+
	"The heat table shows each test's throughput relative to the first member; ◆ marks a change point: the member at which the level shifted. "+
	"Change points are found as Otava finds them in spirit (E-divisive means locates a split, Student's t-test judges it) but not as Otava applies it: "+
	"the threshold of the t-test is calibrated by simulation for the number of members searched, so that a flat series has a false change point in about %.1f%% of cases whatever its length (Otava's fixed p ≤ 0.001 gives 2–4%%, more on long series); "+
	"a level holds at least %d members, and a single member is a level of its own (\"one release\": a dip or spike the next release left again) only when the two members on either side agree and it is far from both, by a margin calibrated on heavy-tailed noise, so that one odd run seldom makes one. "+
	"A series needs at least %d members; near either end only large shifts are found. "+
	"Significant means the levels differ by more than the members' spread explains, not that the shift matters: read its size. "+
	"On seeded series it finds a 10%% shift at 3%% noise as often as Otava does (0.5 of the time at 8 members, 0.97 at 20 or more) and a shift next to a far-off member twice as often.",
	100*(stats.FalseAlarmLevel+stats.FalseAlarmArc), stats.DefaultMinSegment, stats.ChangePointOptions{}.MinMembers())

// buildSeries computes one series group; nil when it has no member. Each
// test is computed first (seriesTestOf: values, change points, base) and
// then worded: its notes, heat row, change points and chart.
func buildSeries(in seriesInput, opt stats.ChangePointOptions) *SeriesGroup {
	n := len(in.members)
	if n == 0 {
		return nil
	}
	g := &SeriesGroup{ID: in.id, Title: in.title, Members: in.members, Labels: seriesLabels(in.members)}
	if len(in.tests) > 0 {
		g.Unit = in.tests[0].unit
	}
	searched := n >= opt.MinMembers()
	if !searched {
		g.Notes = append(g.Notes, fmt.Sprintf("%s has %s: a series needs at least %d to find where a level shifted (two levels of %d), so no change points are computed.",
			in.title, metrics.Plural(n, "member"), opt.MinMembers(), opt.WithDefaults().MinSegment))
	}
	heat := &Table{ID: in.id + ".heat", Title: in.title + ": throughput relative to " + g.Labels[0],
		Caption: "Each test's throughput divided by that of the first member (1 for 0/0). " + ratioBandsCaption + " ◆ the level shifted at this member (a change point)."}
	heat.Header = append([]string{"test"}, g.Labels...)
	type chartOf struct {
		c     *Chart
		shift float64 // the largest |shift| of the test's change points
	}
	var charts []chartOf
	for _, t := range in.tests {
		f := seriesTestOf(t, n, opt)
		g.Tests = append(g.Tests, t.name)
		g.Values = append(g.Values, f.vals)
		g.Noise = append(g.Noise, f.noise)
		heat.Notes = append(heat.Notes, f.naNotes(t.name, g.Labels, searched)...)
		for _, c := range f.found {
			g.Changes = append(g.Changes, f.change(c, t, in.members))
		}
		if note := f.baseNote(t.name, g.Labels); note != "" {
			heat.Notes = append(heat.Notes, note)
		}
		row, s := f.relatives(t.name)
		heat.Rows = append(heat.Rows, row)
		charts = append(charts, chartOf{f.chart(in.id, t.name, g.Labels, s), f.largestShift()})
	}
	// The largest shift first: the charts a reader must see.
	slices.SortStableFunc(charts, func(a, b chartOf) int { return cmp.Compare(b.shift, a.shift) })
	for _, c := range charts {
		g.Charts = append(g.Charts, c.c)
	}
	g.Heat = heat
	// By |log ratio|: a −64% level outranks a +150% one (×0.36 against
	// ×2.5 is farther from 1), and lasting levels outrank one-release
	// spikes.
	slices.SortStableFunc(g.Changes, func(a, b SeriesChange) int {
		if a.Single != b.Single {
			if a.Single {
				return 1
			}
			return -1
		}
		return cmp.Compare(logSize(b.Shift), logSize(a.Shift))
	})
	if searched {
		g.ChangeTable = changeTable(g)
	}
	return g
}

// seriesTestFacts is one test of a series computed, before it is worded.
type seriesTestFacts struct {
	// y are the plausible values, NaN where a member has none; vals and
	// noise the values and noise of the model.
	y           []float64
	vals, noise []Num
	// found are the change points; at marks their members.
	found []stats.ChangePoint
	at    map[int]bool
	// base is the member the values are relative to: the first with a
	// value above 0, -1 when none has one.
	base int
	// na says why a member has no value ("" when it has one).
	na []string
}

// seriesTestOf computes a test of a series of n members: its plausible
// values, change points and base.
func seriesTestOf(t seriesTest, n int, opt stats.ChangePointOptions) seriesTestFacts {
	f := seriesTestFacts{y: make([]float64, n), vals: make([]Num, n), noise: make([]Num, n), na: make([]string, n), at: map[int]bool{}}
	for i := range n {
		f.y[i] = math.NaN()
		switch {
		case i >= len(t.values):
			f.na[i] = "no value"
		case !t.values[i].OK():
			f.na[i] = t.values[i].Why
		default:
			if err := parse.Plausible(parse.Rate, t.values[i].V); err != nil {
				f.na[i] = err.Error()
			} else {
				f.y[i] = t.values[i].V
			}
		}
		f.vals[i] = Num(f.y[i])
		f.noise[i] = Num(math.NaN())
		if i < len(t.noise) {
			f.noise[i] = Num(t.noise[i])
		}
	}
	if n >= opt.MinMembers() {
		// A throughput of 0 is a run that did nothing, not a level:
		// one such member would outweigh every real shift.
		levels := slices.Clone(f.y)
		for i, v := range levels {
			if v == 0 {
				levels[i] = math.NaN()
			}
		}
		f.found = stats.ChangePoints(levels, opt)
	}
	for _, c := range f.found {
		f.at[c.Index] = true
	}
	// The values are relative to the first member, or to the first
	// with a usable value when it has none or 0: nothing is relative
	// to 0.
	f.base = slices.IndexFunc(f.y, func(v float64) bool { return v > 0 })
	return f
}

// relWhy says why member i has no relative value ("" when it has one).
func (f seriesTestFacts) relWhy(i int) string {
	if f.na[i] == "" && f.base < 0 {
		return "no member has a value above 0 to be relative to"
	}
	return f.na[i]
}

// relative is member i's value relative to the base, NA saying why.
func (f seriesTestFacts) relative(i int) metrics.Value {
	if why := f.relWhy(i); why != "" {
		return metrics.NA(metrics.RatioUnit, why)
	}
	return metrics.Ratio(metrics.Known(f.y[i], metrics.RatioUnit), metrics.Known(f.y[f.base], metrics.RatioUnit))
}

// largestShift is the largest |log ratio| of the test's change points.
func (f seriesTestFacts) largestShift() float64 {
	shift := 0.0
	for _, c := range f.found {
		if a := logSize(c.Shift); !math.IsNaN(a) && !math.IsInf(a, 0) {
			shift = max(shift, a)
		}
	}
	return shift
}

// naNotes are the heat table's notes of a test: the members without a
// value, those with 0 (left out of the change points when they were
// searched), and a test without a value above 0.
func (f seriesTestFacts) naNotes(test string, labels []string, searched bool) []string {
	var out []string
	for i, why := range f.na {
		switch {
		case why != "":
			out = append(out, fmt.Sprintf("%s, %s: NA: %s", test, labels[i], why))
		case f.base < 0:
		case f.y[i] == 0 && searched:
			out = append(out, fmt.Sprintf("%s, %s: 0, a run that did nothing: left out of the change points.", test, labels[i]))
		}
	}
	if f.base < 0 && slices.Contains(f.y, 0) {
		out = append(out, fmt.Sprintf("%s: no member has a value above 0, so no relative values.", test))
	}
	return out
}

// baseNote says which member a test is relative to when it is not the
// first; "" when it is.
func (f seriesTestFacts) baseNote(test string, labels []string) string {
	if f.base <= 0 {
		return ""
	}
	if z := slices.Index(f.y[:f.base], 0); z >= 0 {
		return fmt.Sprintf("%s: relative to %s, the first member with a value above 0 (%s has 0).", test, labels[f.base], labels[z])
	}
	return fmt.Sprintf("%s: relative to %s, the first member with a value.", test, labels[f.base])
}

// change is a change point of the test, its levels relative to the base.
func (f seriesTestFacts) change(c stats.ChangePoint, t seriesTest, members []string) SeriesChange {
	ch := SeriesChange{Test: t.name, Member: members[c.Index], Index: c.Index, Unit: t.unit,
		BeforeValue: c.Before, AfterValue: c.After, Shift: c.Shift, P: c.P, Single: c.Single,
		Before: Num(math.NaN()), After: Num(math.NaN())}
	if f.base >= 0 && f.y[f.base] > 0 {
		ch.Before, ch.After = Num(c.Before/f.y[f.base]), Num(c.After/f.y[f.base])
	}
	return ch
}

// relatives is the test's heat row and chart line: each member relative
// to the base, banded, with its change point and noise.
func (f seriesTestFacts) relatives(test string) (Row, Series) {
	row := Row{Kind: DataRow, Cells: []Cell{{Text: test}}}
	s := Series{Name: test}
	for i := range f.y {
		v := f.relative(i)
		c := relCell(v, metrics.HigherIsBetter)
		if i == f.base && v.OK() {
			c.Band = Base
		}
		c.ChangePoint = f.at[i]
		row.Cells = append(row.Cells, c)
		if v.OK() && !math.IsInf(v.V, 0) {
			pt := Point{X: Num(i + 1), Y: Num(v.V)}
			if h := float64(f.noise[i]); h > 0 {
				pt.Err = Num(h * v.V)
			}
			s.Points = append(s.Points, pt)
		}
	}
	return row, s
}

// chart is the test's chart of its line s: a tick per member, a mark at
// each change point and the levels between them.
func (f seriesTestFacts) chart(id, test string, labels []string, s Series) *Chart {
	title := test + ": relative to " + labels[0]
	if f.base > 0 {
		title = test + ": relative to " + labels[f.base]
	}
	chart := &Chart{ID: seriesChartID(id, test), Kind: "line", Title: title,
		XLabel: "member", YLabel: "relative throughput", Reference: 1, Band: storyFloor, Series: []Series{s}}
	for i := range f.y {
		// The axis names the members: the label without its number.
		_, name, _ := strings.Cut(labels[i], " ")
		chart.XTicks = append(chart.XTicks, float64(i+1))
		chart.XLabels = append(chart.XLabels, name)
		if f.at[i] {
			chart.Marks = append(chart.Marks, float64(i)+0.5)
		}
	}
	chart.Levels = seriesLevels(s.Points, f.found)
	return chart
}

// seriesChartID is the id of a test's chart in a series: an HTML id has
// no spaces, so "hot-points range=100" is "hot-points_range=100" in it.
func seriesChartID(id, test string) string {
	return id + ".chart." + strings.ReplaceAll(test, " ", "_")
}

// seriesLevels are the levels of a series chart's line between its change
// points (a level of one member, a dip or spike, does not split a level):
// the median of the points of each level, from its first member to its
// last. Nil without change points.
func seriesLevels(pts []Point, found []stats.ChangePoint) []Level {
	var cuts []int // member indexes where a level starts
	for _, c := range found {
		if !c.Single {
			cuts = append(cuts, c.Index)
		}
	}
	if len(cuts) == 0 {
		return nil
	}
	slices.Sort(cuts)
	var out []Level
	lo := 0
	for k := 0; k <= len(cuts); k++ {
		hi := math.MaxInt
		if k < len(cuts) {
			hi = cuts[k]
		}
		var ys []float64
		x0, x1 := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			i := int(p.X) - 1 // points are at member index + 1
			if i >= lo && i < hi {
				ys = append(ys, float64(p.Y))
				x0, x1 = math.Min(x0, float64(p.X)), math.Max(x1, float64(p.X))
			}
		}
		if len(ys) > 0 {
			out = append(out, Level{X0: Num(x0), X1: Num(x1), Y: Num(medianOf(ys))})
		}
		lo = hi
	}
	return out
}

// seriesFindings is a line per member at which some test's level shifted,
// in series order: the tests and their shifts, the largest first.
func seriesFindings(g *SeriesGroup, prefix string) []string {
	byMember := map[int][]SeriesChange{}
	var at []int
	for _, c := range g.Changes { // largest shift first
		if !(logSize(c.Shift) >= math.Log(1+storyFloor)) {
			// Below the materiality floor: in the table, not a finding.
			continue
		}
		if byMember[c.Index] == nil {
			at = append(at, c.Index)
		}
		byMember[c.Index] = append(byMember[c.Index], c)
	}
	more := 0
	if len(at) > seriesFindingLines {
		// The members with the largest shifts (at is in that order).
		more = len(at) - seriesFindingLines
		at = at[:seriesFindingLines]
	}
	slices.Sort(at)
	var out []string
	for _, i := range at {
		cs := byMember[i]
		var parts []string
		for j, c := range cs {
			if j == seriesFindingTests && len(cs) > j+1 {
				parts = append(parts, fmt.Sprintf("and %d more", len(cs)-j))
				break
			}
			part := c.Test + " " + shiftText(c.Shift)
			if c.Single {
				part += " for one release"
			}
			parts = append(parts, part)
		}
		what := "the level shifted at"
		if !slices.ContainsFunc(cs, func(c SeriesChange) bool { return !c.Single }) {
			// Only dips or spikes that the next member left again.
			what = "one release off its level:"
		}
		// The member by its name, not its number in the table.
		_, name, _ := strings.Cut(g.Labels[i], " ")
		if i > 0 {
			_, prev, _ := strings.Cut(g.Labels[i-1], " ")
			name += " (after " + prev + ")"
		}
		out = append(out, fmt.Sprintf("%s%s %s: %s.", prefix, what, name, strings.Join(parts, ", ")))
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("%s%d more members with smaller shifts: see the change points table.", prefix, more))
	}
	if len(out) == 0 && g.ChangeTable != nil {
		out = append(out, fmt.Sprintf("%sno test's level shifted significantly by %.0f%% or more along the series.", prefix, 100*storyFloor))
	}
	return out
}

// seriesFindingTests is how many tests a finding line names, and
// seriesFindingLines how many members the findings of a series name, so
// that the first table stays on the first screen.
const (
	seriesFindingTests = 6
	seriesFindingLines = 8
)

// changeTable lists a series' change points, the largest shift first.
func changeTable(g *SeriesGroup) *Table {
	t := &Table{ID: g.ID + ".changes", Title: g.Title + ": change points",
		Caption: fmt.Sprintf("Where each test's level shifted, the largest shift first: the first member of the new level (\"one release\": a level of that member alone, a dip or spike the next member left again), the medians of the levels before and after it relative to %s (for one release, the member itself), the shift and the p-value of the t-test between the two levels (for one release, of the member against its level).", g.Labels[0]),
		Header:  []string{"test", "at", "before", "after", "shift", "p"}}
	for _, c := range g.Changes {
		shift := c.Shift * 100
		p := c.P
		sc := Cell{Text: shiftText(c.Shift), Value: &shift, Unit: "percent"}
		if math.IsNaN(shift) {
			sc = Cell{Text: "NA", NA: "the level before is 0", Band: NotANumber}
		}
		if !math.IsNaN(shift) {
			sc.Band = ratioBand(1+c.Shift, metrics.HigherIsBetter)
		}
		t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: []Cell{
			{Text: c.Test}, {Text: atText(g.Labels[c.Index], c.Single)},
			numCell(float64(c.Before), 2, string(metrics.RatioUnit), noBase), numCell(float64(c.After), 2, string(metrics.RatioUnit), noBase),
			sc, {Text: pText(p), Value: &p},
		}})
	}
	if len(t.Rows) == 0 {
		t.Notes = append(t.Notes, "No test's level shifted significantly along this series.")
	}
	return t
}

// atText names the member a change point is at, "(one release)" after it
// for a level of that member alone.
func atText(label string, single bool) string {
	if single {
		return label + " (one release)"
	}
	return label
}

// shiftText prints a shift as a signed percent of two significant
// digits ("+150%", "−1.4%"), "NA" when it is not a number.
func shiftText(x float64) string { return percentText(x) }

// logSize is the size of a relative change as |log ratio|: a halving and a
// doubling are as large.
func logSize(shift float64) float64 { return math.Abs(math.Log1p(shift)) }

// numCell prints a number with digits decimals as valueCell does; NA,
// saying why, when it is not finite.
func numCell(v float64, digits int, unit, why string) Cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return valueCell(metrics.NA(metrics.Unit(unit), why), digits)
	}
	return valueCell(metrics.Known(v, metrics.Unit(unit)), digits)
}

// noBase is why a level relative to the first member is NA.
const noBase = "no member of the series has a value"

// pText prints a p-value: "<0.0001" below that, else 2 significant digits.
func pText(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// seriesLabels numbers the members and names each by its short name, the
// one of the report's key (shortNames: "x.pg1222_o2nofp.x10a_c32r128.pk1"
// and "x.pg180_o2nofp.x10b_c32r128.pk1" become "1 pg1222.x10a" and "2
// pg180.x10b"); names too short for a key lose the leading and trailing
// parts (split at '.', '_' and '-') that all share.
func seriesLabels(names []string) []string {
	if key := shortNames(names, nil); key != nil {
		out := make([]string, len(names))
		for i, n := range names {
			s := n
			if k := slices.IndexFunc(key, func(k NameKey) bool { return k.Full == n }); k >= 0 {
				s = key[k].Short
			}
			out[i] = strconv.Itoa(i+1) + " " + s
		}
		return out
	}
	toks := make([][]string, len(names))
	short := math.MaxInt
	for i, n := range names {
		toks[i] = nameParts(n)
		short = min(short, len(toks[i]))
	}
	lead, trail := 0, 0
	if len(names) > 1 {
		for lead < short-1 && allSame(toks, func(t []string) string { return t[lead] }) {
			lead++
		}
		for trail < short-1-lead && allSame(toks, func(t []string) string { return t[len(t)-1-trail] }) {
			trail++
		}
	}
	out := make([]string, len(names))
	for i, t := range toks {
		s := strings.TrimLeft(strings.Join(t[lead:len(t)-trail], ""), "._-")
		if s == "" {
			s = names[i]
		}
		out[i] = strconv.Itoa(i+1) + " " + s
	}
	return out
}

func allSame(toks [][]string, at func([]string) string) bool {
	for _, t := range toks[1:] {
		if at(t) != at(toks[0]) {
			return false
		}
	}
	return true
}

// seriesBuild takes the DBMS of a report as series. It reads the report's
// summary and steps and the sysbench set as plain data, and the insert
// benchmark's noise through noiseSource.
type seriesBuild struct {
	rep   *Report
	steps []parse.Step
	noise noiseSource
	set   *metrics.SysbenchSet
	// sbNoise: sysbench runs carry the noise of their interval lines
	// (not in compat mode, as in the sysbench part).
	sbNoise bool
}

// noiseSource is the 95% interval of a DBMS's throughput in a step.
type noiseSource interface {
	noiseOf(st parse.Step, tag string) metrics.Interval
}

// series takes the DBMS of the report being built as series: each group of
// the insert-benchmark summary (its rows between breaks) and the sysbench
// QPS at each thread count.
func (b *seriesBuild) series() *SeriesPart {
	part := &SeriesPart{Caption: "The DBMS are taken as series in list order: per test, the throughput relative to the first member, " +
		"the change points found (where the level shifted) and a chart per test. The legend says how change points are found."}
	for _, in := range b.seriesInputs() {
		if g := buildSeries(in, stats.ChangePointOptions{}); g != nil {
			part.Groups = append(part.Groups, g)
		}
	}
	part.findings()
	return part
}

// findings sets the part's findings from its groups' change points.
func (p *SeriesPart) findings() {
	p.Findings = nil
	for _, g := range p.Groups {
		prefix := ""
		if len(p.Groups) > 1 {
			prefix = g.Title + ": "
		}
		p.Findings = append(p.Findings, seriesFindings(g, prefix)...)
	}
	for i, f := range p.Findings {
		if f != "" {
			p.Findings[i] = strings.ToUpper(f[:1]) + f[1:]
		}
	}
}

// seriesInputs are the series of the report's DBMS: each group of the
// insert-benchmark summary, with the values of its cells and the noise of
// each run (noiseOf), and the sysbench QPS of each thread count from the
// typed set, with the noise of sysbench's interval lines (none in compat
// mode, as in the sysbench part).
func (b *seriesBuild) seriesInputs() []seriesInput {
	r := b.rep
	var ins []seriesInput
	if r.Summary != nil {
		var cur *seriesInput
		for _, row := range r.Summary.Rows {
			if row.Kind != DataRow {
				continue
			}
			if cur == nil || row.GroupStart {
				ins = append(ins, seriesInput{id: fmt.Sprintf("series.ib%d", len(ins)+1), title: "Insert benchmark", kind: "ib", what: "Insert benchmark"})
				cur = &ins[len(ins)-1]
				for _, st := range r.Steps {
					cur.tests = append(cur.tests, seriesTest{name: st.Column, unit: st.Unit})
				}
			}
			name := row.Cells[0].Text
			cur.members = append(cur.members, name)
			for i := range cur.tests {
				v := metrics.NA(metrics.Unit(cur.tests[i].unit), "no value")
				if i+1 < len(row.Cells) {
					v = cellValue(row.Cells[i+1])
				}
				cur.tests[i].values = append(cur.tests[i].values, v)
				cur.tests[i].noise = append(cur.tests[i].noise, b.noise.noiseOf(b.steps[i], name).HalfWidth())
			}
		}
		if len(ins) > 1 {
			for i := range ins {
				ins[i].title = fmt.Sprintf("Insert benchmark, series %d", i+1)
			}
		}
	}
	if set := b.set; set != nil && len(set.DBMS) > 0 {
		for _, nt := range set.Threads {
			ins = append(ins, b.sysbenchSeries(set, nt))
		}
	}
	return ins
}

// sysbenchSeries is the QPS of every test and DBMS at nt threads as a
// series input: the DBMS are the members.
func (b *seriesBuild) sysbenchSeries(set *metrics.SysbenchSet, nt int) seriesInput {
	what := "Sysbench QPS, " + ThreadCount(nt)
	in := seriesInput{id: "series.sb.dop" + strconv.Itoa(nt), title: what, kind: "sb.dop" + strconv.Itoa(nt), what: what}
	for _, d := range set.DBMS {
		in.members = append(in.members, d.Name)
	}
	for _, test := range sbsum.Tests(set) {
		t := seriesTest{name: sbTestName(test), unit: "queries/s"}
		for _, d := range set.DBMS {
			res := d.Result(test.Sfx, nt)
			v, h := metrics.NAf(metrics.Unit(t.unit), "no run with %s", ThreadCount(nt)), math.NaN()
			if res != nil {
				v = res.QPS
				if b.sbNoise {
					h = sbNoise(res).HalfWidth()
				}
			}
			t.values = append(t.values, v)
			t.noise = append(t.noise, h)
		}
		in.tests = append(in.tests, t)
	}
	return in
}

// cellValue is the number behind a table cell as a Value: NA with the
// cell's reason when it has none.
func cellValue(c Cell) metrics.Value {
	if c.Value == nil {
		why := c.NA
		if why == "" {
			why = "not a number: " + c.Text
		}
		return metrics.NA(metrics.Unit(c.Unit), why)
	}
	return metrics.Known(*c.Value, metrics.Unit(c.Unit))
}
