package diff

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

// A ResultSet is one run of the benchmark as Compare sees it: its mrg.<step>
// and rel.<step> tables.
type ResultSet struct {
	Name   string // where the run came from, for messages
	Tables []ResultTable
	// Runs describes the work each DBMS (by tag) ran, when the set was
	// built from raw trees; nil for archived tables.
	Runs map[string]RunFacts
	// Cores and Device are the host's CPU count and database device the
	// set was computed with (its settings or flags); 0 and "" unknown.
	Cores  int
	Device string
	// RunNoise is the run-to-run relative standard deviation of one run
	// that the folder's settings (ibreport.settings, key run-noise) or the
	// load options give; 0 when unknown. A BASE folder carries it to the
	// one-run comparisons made against it.
	RunNoise float64
	// TestNoise is the run-to-run noise of one run per test, keyed by
	// TestNoiseKey ("l.i0.ips"), that the folder's settings give (keys
	// run-noise.<step>.<metric>, learned from a history by `ibreport
	// series --noise-settings`); nil when none. A BASE's figure for a
	// test wins over RunNoise for that test's cells.
	TestNoise map[string]float64
	// RunNoiseDF is the shape of the run-to-run noise that the folder's
	// settings give (key run-noise-df: the degrees of freedom of a Student
	// t, learned by `ibreport series --noise-settings`); 0 the normal. A
	// BASE folder carries it to the one-run comparisons made against it.
	RunNoiseDF float64
}

// RunFacts is what a DBMS's run must share with the run it is compared
// with for the comparison to mean anything.
type RunFacts struct {
	Clients int      // the dop of its file names; 0 unknown
	Rows    string   // the <N>m of its tree name; "" unknown
	Steps   []string // merge names of its steps, in order
}

// Comparability compares the facts of the DBMS both sets ran and says, for
// each difference, both values.
func comparability(base, newer *ResultSet) []string {
	var out []string
	if base.Cores != newer.Cores && base.Cores > 0 && newer.Cores > 0 {
		out = append(out, fmt.Sprintf("BASE %s ran on %s, NEW %s on %s", base.Name, metrics.Plural(base.Cores, "CPU"), newer.Name, metrics.Plural(newer.Cores, "CPU")))
	}
	if base.Device != newer.Device && base.Device != "" && newer.Device != "" {
		out = append(out, fmt.Sprintf("BASE %s has its database on %s, NEW %s on %s", base.Name, base.Device, newer.Name, newer.Device))
	}
	var tags []string
	for tag := range base.Runs {
		if _, ok := newer.Runs[tag]; ok {
			tags = append(tags, tag)
		}
	}
	slices.Sort(tags)
	for _, tag := range tags {
		b, n := base.Runs[tag], newer.Runs[tag]
		if b.Clients != n.Clients && b.Clients > 0 && n.Clients > 0 {
			out = append(out, fmt.Sprintf("%s: BASE %s ran with %s, NEW %s with %s", tag, base.Name, metrics.Plural(b.Clients, "client"), newer.Name, metrics.Plural(n.Clients, "client")))
		}
		if b.Rows != n.Rows && b.Rows != "" && n.Rows != "" {
			out = append(out, fmt.Sprintf("%s: BASE %s loaded %s rows, NEW %s %s", tag, base.Name, b.Rows, newer.Name, n.Rows))
		}
		if !slices.Equal(b.Steps, n.Steps) {
			out = append(out, fmt.Sprintf("%s: BASE %s ran steps %s, NEW %s %s", tag, base.Name, strings.Join(b.Steps, " "), newer.Name, strings.Join(n.Steps, " ")))
		}
	}
	return out
}

// A ResultTable is one mrg.<step> or rel.<step> table.
type ResultTable struct {
	Kind    string   // "mrg" or "rel"
	Step    string   // merge name of the step, e.g. "qr100.L1"
	File    string   // path of the file, for messages and annotations
	Columns []string // metric columns in file order, without the tag
	Rows    []ResultRow
	// Built marks a table built in memory (from raw trees or sysbench
	// folders): File names no file, and annotations point at the rows'
	// Source instead, or at nothing.
	Built bool
	// Group is what the geometric means of throughput gather the table
	// under: "" for its step; for sysbench the thread count ("dop1").
	Group string
	// Members are the steps of the tables whose throughput a table of
	// geometric means (sbgroup) averages; nil for other tables.
	Members []string
	// model marks cells that are the typed values of the report's model,
	// not read from a file: their print resolution is the column's
	// digits even where they keep a text (compat mode, 0/0 of rel).
	model bool
}

// A ResultRow is the row of one DBMS.
type ResultRow struct {
	DBMS string // tag without the <N>m. prefix; "#2", "#3"… mark repeats
	Line int    // line of the row in its file (File, or Source of a Built table); 0 for none
	// Cells are the row's values, parallel to Columns: the typed values
	// of the merged model for a table built from raw results, or the
	// cells of a file, read once, each keeping the text the file has for
	// it (metrics.Value.Text), for archived tables and summaries.
	Cells []metrics.Value
	// Source is a file the row's values were read from (a sysbench
	// output), for annotations of a Built table; "" for none.
	Source string
	// Noise holds, parallel to Cells, the relative half-width of the 95%
	// interval of each value within its one run (the interval means of a
	// step or sysbench test), where the raw logs give it; nil or NaN
	// otherwise (archived tables).
	Noise []float64
}

// setNoise sets the one-run noise of cell col to the relative half-width
// of iv, when iv is an interval of a positive mean; other cells keep NaN.
func (r *ResultRow) setNoise(col int, iv metrics.Interval) {
	if col < 0 || col >= len(r.Cells) || !iv.OK() || !(iv.Mean > 0) {
		return
	}
	if r.Noise == nil {
		r.Noise = make([]float64, len(r.Cells))
		for i := range r.Noise {
			r.Noise[i] = math.NaN()
		}
	}
	r.Noise[col] = iv.HalfWidth() / iv.Mean
}

// rowPrefix is the "<N>m." row-count prefix of a tag. Runs of different
// sizes (2m, 20m) are compared by DBMS, so it is removed as the mrg tables do.
var rowPrefix = regexp.MustCompile(`^[0-9]+m\.`)

// tagKey is the DBMS a tag of a merged table names, for joining runs: the
// tag without blanks and its <N>m. row-count prefix.
func tagKey(tag string) string {
	return rowPrefix.ReplaceAllString(strings.TrimSpace(tag), "")
}

// ReadResultTable reads a mrg.<step> or rel.<step> table (kind "mrg" or
// "rel") from r; file names it in messages and findings. Any line that is
// not a row, a group break or a header is an error naming its line: a gate
// must not pass on a table it could not read. Rows are keyed as
// newResultTable says.
func ReadResultTable(r io.Reader, kind, step, file string) (ResultTable, error) {
	t, err := parse.ReadTable(r, file)
	if err != nil {
		return ResultTable{}, err
	}
	return newResultTable(kind, step, file, t)
}

// newResultTable takes the rows of a parsed table: the tag is the last cell,
// its <N>m. prefix is removed, and a tag seen before in the same table (a
// DBMS listed in two groups) gets "#2", "#3"… so each row keeps its own key.
// A header without a final tag column, or a row without a tag, is an error.
func newResultTable(kind, step, file string, t *parse.Table) (ResultTable, error) {
	rt := ResultTable{Kind: kind, Step: step, File: file}
	if len(t.Header) < 2 || t.Header[len(t.Header)-1] != "tag" {
		return rt, fmt.Errorf("%s: the header does not end with a tag column", file)
	}
	rt.Columns = t.Header[:len(t.Header)-1]
	keys := rowKeys{}
	for _, l := range t.Lines {
		if l.Kind != parse.TableRow {
			continue
		}
		tag := tagKey(l.Cells[len(l.Cells)-1])
		if tag == "" {
			return rt, fmt.Errorf("%s:%d: row without a tag", file, l.Line)
		}
		row := ResultRow{DBMS: keys.Key(tag), Line: l.Line}
		for i, c := range l.Cells[:len(l.Cells)-1] {
			row.Cells = append(row.Cells, fileCell(c, cellUnit(kind, rt.Columns[i], step)))
		}
		rt.Rows = append(rt.Rows, row)
	}
	return rt, nil
}

// builtTable is a typed table of the merged model (report.MergedTable) as
// Compare sees it: rows keyed as newResultTable keys those of a file,
// cells as the model holds them. file names the file `ibreport tables`
// would write, for messages; no row has a line.
func builtTable(mt report.MergedTable, file string) ResultTable {
	rt := ResultTable{Kind: mt.Kind, Step: mt.Step, File: file, Built: true, Columns: mt.Columns, model: true}
	keys := rowKeys{}
	for _, r := range mt.Rows {
		rt.Rows = append(rt.Rows, ResultRow{DBMS: keys.Key(tagKey(r.Tag)), Cells: r.Cells})
	}
	return rt
}

// fileCell reads a cell of a user's file (an archived table, a sysbench
// summary) into a value that keeps its text: a number, or NA for NA,
// empty, inf, nan, text and implausible numbers, which a gate cannot
// compare (parseCell).
func fileCell(text string, u metrics.Unit) metrics.Value {
	v, _, ok := parseCell(text)
	if !ok {
		return metrics.NAf(u, "%q is not a value", text).Printed(text)
	}
	return metrics.Known(v, u).Printed(text)
}

// cellUnit is the unit of a column of a table of the kind: that of the
// metric in the step for mrg tables, a ratio for rel tables, that of the
// sysbench column per query for sb and sbgroup tables; none for a column
// of no known metric.
func cellUnit(kind, col, step string) metrics.Unit {
	switch kind {
	case "rel":
		return metrics.RatioUnit
	case "sb", "sbgroup":
		p, _ := metrics.PropsByName(col)
		return p.UnitOf("query", metrics.QueriesPerSec)
	}
	m, ok := metrics.MetricByName(col)
	if !ok {
		return metrics.NoUnit
	}
	st, _ := parse.ParseStepName(step)
	return m.Unit(st.Kind)
}

// rowKeys gives the rows of one table their DBMS keys: the tag, and for a
// tag seen before tag#2, tag#3, …, so that repeated rows are compared in
// order.
type rowKeys map[string]bool

// Key returns the key of the next row with the tag.
func (u rowKeys) Key(tag string) string {
	key := tag
	for n := 2; u[key]; n++ {
		key = tag + "#" + strconv.Itoa(n)
	}
	u[key] = true
	return key
}

// errMismatch marks result sets that cannot be compared: a step, DBMS or
// column found on one side only, or nothing in common.
var errMismatch = errors.New("result sets do not match")

// A mismatchError lists what is found on one side only.
type mismatchError struct{ Items []string }

func (e *mismatchError) Error() string {
	const show = 8
	items := e.Items
	more := ""
	if len(items) > show {
		more = fmt.Sprintf("; and %d more", len(items)-show)
		items = items[:show]
	}
	return strings.Join(items, "; ") + more
}

// Is makes errors.Is(err, errMismatch) true.
func (e *mismatchError) Is(target error) bool { return target == errMismatch }
