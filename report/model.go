package report

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/ibreport/ibreport/metrics"
)

// SchemaVersion names the JSON layout of a Report. It changes only when a
// field is renamed or removed or its meaning changes; new fields may appear
// without a change.
const SchemaVersion = "ibreport.report/v3"

// Report is the format-agnostic report of one results folder: everything
// the HTML, Markdown, text and JSON renderers show, already computed. The
// renderers only lay it out.
type Report struct {
	Schema string `json:"schema"`
	Title  string `json:"title"`
	Intro  string `json:"intro"` // Markdown
	// IntroGiven is set when the introduction is the user's, not the
	// generated description of the steps and DBMS.
	IntroGiven bool `json:"intro_given,omitempty"`

	// Descriptions put codes of the DBMS names in words, from the
	// describe.<code> keys of the settings ("x10d": "io_method=io_uring");
	// the key of short names shows each beside its code.
	Descriptions map[string]string `json:"descriptions,omitempty"`

	Clients int `json:"clients"`
	// Setup states the setup the results hold, in words: DBMS, tests,
	// thread counts, seconds per test, tables and rows; "" when unknown.
	Setup string `json:"setup,omitempty"`
	// Source is "raw" for result trees, "archive" for a folder of
	// mrg.<step> files, which lacks what only raw logs hold, and "summary"
	// for sysbench summary tables (qps.abs.<set>.tsv, o.met.<set>), whose
	// numbers are the author's as printed.
	Source string     `json:"source"`
	Compat bool       `json:"compat"`
	Steps  []StepInfo `json:"steps"`
	DBMS   []string   `json:"dbms"` // the DBMS the summary shows, in order

	// Summary and Relative are nil when RESULTS holds only sysbench runs.
	Summary    *Table `json:"summary"`
	Relative   *Table `json:"relative"`
	InsertRate *Table `json:"insert_rate,omitempty"` // nil without read+write steps

	Sections []*StepSection `json:"sections"`
	// AllMetrics has the full merged table of every step (every DBMS of the
	// list, group breaks and repeated base rows included).
	AllMetrics []*Table `json:"all_metrics"`
	// ResponseTimes has, per step, the unbanded histogram merges.
	ResponseTimes []*StepTables `json:"response_times"`
	// Bullets sum the comparison up: each DBMS against its base, per part
	// of the benchmark, with the metrics that moved with the largest change.
	Bullets []Bullet `json:"bullets,omitempty"`
	// Story tells a release archive (DBMS whose names read as one DBMS's
	// versions) in release order; it leads the report in place of the
	// headlines of Bullets. Nil otherwise and in compat mode.
	Story *Story `json:"story,omitempty"`
	// Comparability warns where DBMS compared did not run the same work:
	// client counts, row counts, steps, durations, sysbench tests.
	Comparability []string `json:"comparability,omitempty"`
	// Plausibility notes results to check before quoting them, each naming
	// the DBMS, the test or step and the numbers: scaling beyond linear
	// across thread or client counts, a configuration that changes inside a
	// series, percentiles from too few intervals or events.
	Plausibility []string `json:"plausibility,omitempty"`
	// Study has the per-step tables of the published studies' layout
	// (BuildOptions.Layout "study"); nil otherwise.
	Study []*StudyStep `json:"study,omitempty"`
	// Sweep is the scaling with the number of clients; nil unless a DBMS
	// ran at two or more client counts.
	Sweep *SweepPart `json:"sweep,omitempty"`
	// Series has, per series of DBMS, the change points of every test or
	// step; nil unless BuildOptions.Series is set or the report is made by
	// BuildSeries.
	Series *SeriesPart `json:"series,omitempty"`
	// LearnedNoise is the run-to-run noise of each test and series that a
	// series of result sets measured (BuildSeries, History): what `series
	// --noise-settings` pools and writes for one-run gates.
	LearnedNoise []LearnedNoise `json:"learned_noise,omitempty"`
	// NoiseShape is the shape of that noise, learned from the runs of all
	// the tests together (heavy tails or normal); nil when no noise was
	// learned.
	NoiseShape *NoiseShape `json:"noise_shape,omitempty"`
	// Counters are the insert benchmark's perf stat counters per
	// operation; nil without o.perf.hw samples (and in compat mode).
	Counters *PerfPart `json:"counters,omitempty"`
	// Hosts compares the same builds on several hosts (the sub-folders of
	// a folder of summary tables); nil otherwise. Sysbench and Story are
	// then nil: each host's story is in Hosts.Stories.
	Hosts *HostsPart `json:"hosts,omitempty"`
	// Sysbench is the sysbench part; nil when RESULTS holds no sysbench runs.
	Sysbench *SysbenchPart `json:"sysbench,omitempty"`
	// History is the verdict of `ibreport diff --history`; nil otherwise.
	History *HistoryStatus `json:"history,omitempty"`
	// Names is the key of the short names the report shows for the DBMS
	// (Report.WithShortNames); nil when it shows the full names, as the
	// JSON output does.
	Names  []NameKey    `json:"names,omitempty"`
	Legend []LegendItem `json:"legend"`
	Bands  []BandInfo   `json:"bands"`
	// Notes are the warnings (missing steps, NA cells, skipped lines) and
	// the information (the block device chosen) of the report, each with
	// the file, DBMS, step and metric it is about where it is about one.
	// Version 2 of the schema held their texts only.
	Notes []metrics.Warning `json:"notes"`
	// ModeNote says how the numbers were computed when they may differ
	// from the original scripts' (the default mode on raw results); it is
	// not a warning.
	ModeNote string `json:"mode_note,omitempty"`
}

// StepInfo describes one step (one column of the summary tables).
type StepInfo struct {
	Name        string `json:"name"`   // merge name, e.g. "qr100.L1"
	Column      string `json:"column"` // header in the summary tables, e.g. "qr100"
	Kind        string `json:"kind"`   // "load", "create index", "read+write range", "read+write point"
	ReadWrite   bool   `json:"read_write"`
	Rate        int    `json:"rate,omitempty"` // target inserts/s per client
	Description string `json:"description"`
	Unit        string `json:"unit"` // what the summary shows: "inserts/s", "indexed rows/s", "queries/s"
}

// StepSection is the part of the report about one step.
type StepSection struct {
	Step       StepInfo `json:"step"`
	Throughput *Chart   `json:"throughput"`
	// Intervals are per-interval charts from client 1's log, one line per
	// DBMS: inserts/s, deletes/s, queries/s and the max response times.
	Intervals  []*Chart `json:"intervals,omitempty"`
	Histograms []*Table `json:"histograms,omitempty"`
	Metrics    *Table   `json:"metrics"`
	// Noise has, per DBMS, the 95% interval of its throughput from client
	// 1's intervals, its stalls and, for read+write steps, its SLA.
	Noise *Table `json:"noise,omitempty"`
	// Efficiency has each DBMS's metrics relative to its base (rel.<step>);
	// nil with one DBMS.
	Efficiency *Table `json:"efficiency,omitempty"`
	// Iostat has the columns compared first; IostatAll, when there are
	// more, all of them.
	Iostat    *Table   `json:"iostat,omitempty"`
	IostatAll *Table   `json:"iostat_all,omitempty"`
	Notes     []string `json:"notes,omitempty"` // e.g. why a part is left out
}

// StepTables is a list of tables about one step.
type StepTables struct {
	Step   StepInfo `json:"step"`
	Tables []*Table `json:"tables"`
	Notes  []string `json:"notes,omitempty"`
}

// Table is one table: a header and rows of cells.
type Table struct {
	ID string `json:"id"` // unique in the report; the HTML anchor
	// Label names the table in the report's navigation, when it is one of
	// many alike (a sysbench test); "" otherwise.
	Label   string   `json:"label,omitempty"`
	Title   string   `json:"title"`
	Caption string   `json:"caption,omitempty"` // how to read it
	Header  []string `json:"header"`
	Rows    []Row    `json:"rows"`
	Notes   []string `json:"notes,omitempty"`
}

// RowKind tells data rows from the special rows of a table.
type RowKind string

// The kinds of rows.
const (
	DataRow   RowKind = "data"
	TargetRow RowKind = "target" // the insert-rate targets under the insert-rate table
)

// Row is one table row; its first cell names the DBMS (or "target").
type Row struct {
	Kind RowKind `json:"kind"`
	// GroupStart marks the first row of a DBMS group after the first group:
	// where the original printed "-".
	GroupStart bool   `json:"group_start,omitempty"`
	Cells      []Cell `json:"cells"`
}

// Cell is one table cell: the text as the original tables print it, the
// number behind it with its unit (or why it is not available), and the
// band (colour and marker) it falls in. Cells that name something (a DBMS,
// a test) have only a text.
type Cell struct {
	Text string `json:"text"`
	// Value is the unrounded number the text shows; nil for a name, an NA
	// cell or a value that is not finite (the text then says "inf").
	Value *float64 `json:"value,omitempty"`
	Unit  string   `json:"unit,omitempty"`
	// NA says why the value is not available.
	NA   string `json:"na,omitempty"`
	Band Band   `json:"band,omitempty"`
	// Shade is the gray level of a histogram percentage, 0 (none) to 20
	// (darkest): one step per 5 %.
	Shade int `json:"shade,omitempty"`
	// WithinNoise marks a relative value whose difference from 1 is within
	// the noise of the two runs (their 95% intervals); shown as "~".
	WithinNoise bool `json:"within_noise,omitempty"`
	// ChangePoint marks the member of a series at which the level shifted;
	// shown as "◆".
	ChangePoint bool `json:"change_point,omitempty"`
}

// Band is the colour band of a cell. Every band also has a text marker, so
// its meaning survives copy and paste, printing and colour blindness.
type Band string

// The bands. The HTML classes keep the original report's ids.
const (
	NoBand  Band = ""
	Bottom  Band = "bottom"  // bottom 25 % of the column's range (red)
	Top     Band = "top"     // top 25 % of the range (green)
	Ignored Band = "ignored" // the DBMS missed the step's insert-rate target (gray)
	Missed  Band = "missed"  // insert rate below 95 % of the target (red)
	Below   Band = "below"   // compat: relative value < 0.95 (yellow)
	Above   Band = "above"   // compat: relative value > 1.05 (blue)
	// The default mode bands a ratio to a base by the metric's better
	// direction (ratioBand): more throughput, less cost.
	Better      Band = "better"      // better by more than 5% (light blue)
	MuchBetter  Band = "much-better" // better by more than 20% (blue)
	Worse       Band = "worse"       // worse by more than 5% (light orange)
	MuchWorse   Band = "much-worse"  // worse by more than 20% (red)
	Slowest     Band = "slowest"     // max response time in the top 25 % (red)
	Fastest     Band = "fastest"     // max response time in the bottom 25 % (green)
	TargetValue Band = "target"      // an insert-rate target (gray)
	Base        Band = "base"        // the base DBMS of a relative table
	NotANumber  Band = "na"          // NA: see the table's notes
)

// BandInfo documents one band for readers of any format.
type BandInfo struct {
	Band    Band   `json:"band"`
	Class   string `json:"class"`  // HTML class
	Marker  string `json:"marker"` // text marker appended to the value
	Meaning string `json:"meaning"`
}

var bandInfo = []BandInfo{
	{Bottom, "cmin", "▼", "bottom 25% of the column's range"},
	{Top, "cmax", "▲", "top 25% of the column's range"},
	{Ignored, "cgray", "○", "ignore: the DBMS missed the step's insert-rate target"},
	{Missed, "cmin", "✗", "below 95% of the insert-rate target"},
	{Below, "clo", "▽", "less than 0.95 of the base DBMS"},
	{Above, "chi", "△", "more than 1.05 of the base DBMS"},
	{Better, "cbet", "△", "better than the base by more than 5% (throughput above 1.05, a cost below 0.95) and not within noise"},
	{MuchBetter, "cbet2", "▲", "better than the base by more than 20% (throughput above 1.20, a cost below 0.80) and not within noise"},
	{Worse, "cwor", "▽", "worse than the base by more than 5% (throughput below 0.95, a cost above 1.05) and not within noise"},
	{MuchWorse, "cwor2", "▼", "worse than the base by more than 20% (throughput below 0.80, a cost above 1.20) and not within noise"},
	{Slowest, "cmaxr", "▼", "max response time in the slowest 25% of the range"},
	{Fastest, "cminr", "▲", "max response time in the fastest 25% of the range"},
	{TargetValue, "cgray", "", "the insert-rate target: clients × the per-client rate"},
	{Base, "cbase", "", "the base DBMS of its group"},
	{NotANumber, "cna", "", "not available: the notes say why"},
}

// modeBands lists the bands a report of the mode uses: compat colours
// ratios by value (Below, Above), the default mode by better or worse.
func modeBands(compat bool) []BandInfo {
	var out []BandInfo
	for _, b := range bandInfo {
		if compat && b.Band.graded() || !compat && (b.Band == Below || b.Band == Above) {
			continue
		}
		out = append(out, b)
	}
	return out
}

func (b Band) info() BandInfo {
	for _, i := range bandInfo {
		if i.Band == b {
			return i
		}
	}
	return BandInfo{}
}

// Class is the band's HTML class ("" for none).
func (b Band) Class() string { return b.info().Class }

// Marker is the band's text marker ("" for none).
func (b Band) Marker() string { return b.info().Marker }

// Meaning says what the band means.
func (b Band) Meaning() string { return b.info().Meaning }

// betterOf is the direction of a column of the insert benchmark's tables
// or sysbench's HW tables, from the properties table; none for another
// column.
func betterOf(col string) metrics.Direction {
	p, _ := metrics.PropsByName(col)
	return p.Better
}

// The steps of ratioBand, in percent of the base.
const (
	bandStep     = 5
	muchBandStep = 20
)

// ratioBand is the band of a ratio r to a base for a metric better in
// direction d: Better beyond bandStep percent in the better direction,
// MuchBetter beyond muchBandStep, Worse and MuchWorse the other way, none
// within ±bandStep. The ratio is judged as the tables print it (two
// decimals), so that 0.95 and 1.05 are never coloured; +Inf is beyond
// every step. A cell within noise has none (Cell.setWithinNoise).
func ratioBand(r float64, d metrics.Direction) Band {
	if d == metrics.NoDirection || math.IsNaN(r) {
		return NoBand
	}
	up := math.Inf(1)
	if !math.IsInf(r, 1) {
		up = math.RoundToEven(metrics.Round(r, 2)*100) - 100
	}
	if d == metrics.LowerIsBetter {
		up = -up
	}
	switch {
	case up > muchBandStep:
		return MuchBetter
	case up > bandStep:
		return Better
	case up < -muchBandStep:
		return MuchWorse
	case up < -bandStep:
		return Worse
	}
	return NoBand
}

// graded reports whether a band says better or worse.
func (b Band) graded() bool {
	return b == Better || b == MuchBetter || b == Worse || b == MuchWorse
}

// setWithinNoise marks a relative value as within noise (or not); a value
// within noise is neither better nor worse, so it loses such a band.
func (c *Cell) setWithinNoise(w bool) {
	c.WithinNoise = w
	if w && c.Band.graded() {
		c.Band = NoBand
	}
}

// Marked is the cell's text followed by its band's marker and "~" when it
// is within noise.
func (c Cell) Marked() string {
	s := c.Text
	if m := c.Band.Marker(); m != "" {
		s += " " + m
	}
	if c.WithinNoise {
		s += " ~"
	}
	if c.ChangePoint {
		s += " ◆"
	}
	return s
}

// Chart is the data of one chart. Bar charts have categories (the DBMS) and
// one value per category and series; line charts have points.
type Chart struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"` // "bar" or "line"
	Title      string   `json:"title"`
	XLabel     string   `json:"x_label,omitempty"`
	YLabel     string   `json:"y_label"`
	Categories []string `json:"categories,omitempty"`
	Series     []Series `json:"series"`
	// Panels draws each series of a bar chart in a panel of its own, with
	// its own scale and unit (queries/s beside inserts/s).
	Panels bool `json:"panels,omitempty"`
	// Reference, when not 0, is drawn as a dashed line: 1 on relative
	// charts.
	Reference float64 `json:"reference,omitempty"`
	// Band, with Reference, is the relative half-width of the shaded
	// band around it on line charts: the materiality floor (0.05), within
	// which the story tells no change.
	Band float64 `json:"band,omitempty"`
	// Marks are x values to mark with a thin line: where stalls began, or
	// where a series' level shifted.
	Marks []float64 `json:"marks,omitempty"`
	// MarkSeries, when set, has for each mark the index of the series it
	// belongs to (the DBMS that stalled), drawn in that series' colour.
	MarkSeries []int `json:"mark_series,omitempty"`
	// XTicks, when set, are the x values to label (the client counts of a
	// sweep) instead of evenly spaced ones; XLabels, when set, name them
	// (the releases of a series).
	XTicks  []float64 `json:"x_ticks,omitempty"`
	XLabels []string  `json:"x_labels,omitempty"`
	// Levels are horizontal segments: the median level of a series between
	// its change points.
	Levels []Level `json:"levels,omitempty"`
	// Notes are said under the chart: the builds a release axis leaves
	// off.
	Notes []string `json:"notes,omitempty"`
}

// Level is a horizontal segment of a line chart from X0 to X1 at Y.
type Level struct {
	X0 Num `json:"x0"`
	X1 Num `json:"x1"`
	Y  Num `json:"y"`
}

// HasData reports whether a chart has a finite value to draw.
func (c *Chart) HasData() bool {
	if c == nil {
		return false
	}
	for _, s := range c.Series {
		for _, v := range s.Values {
			if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return true
			}
		}
		for _, p := range s.Points {
			if f := float64(p.Y); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return true
			}
		}
	}
	return false
}

// Series is one named series of a chart.
type Series struct {
	Name   string  `json:"name"`
	Unit   string  `json:"unit,omitempty"`   // of a panel's axis
	Values []Num   `json:"values,omitempty"` // bar charts: one per category
	Points []Point `json:"points,omitempty"` // line charts
}

// Point is one point of a line chart.
type Point struct {
	X Num `json:"x"`
	Y Num `json:"y"`
	// Err, when above 0, is the half-width of the 95% interval around Y,
	// drawn as an error bar.
	Err Num `json:"err,omitempty"`
}

// Num is a chart value; NaN means missing and is null in JSON.
type Num float64

// MarshalJSON writes missing and infinite values as null.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON reads null as missing.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// LegendItem explains one metric column.
type LegendItem struct {
	Name    string `json:"name"`
	Meaning string `json:"meaning"`
}
