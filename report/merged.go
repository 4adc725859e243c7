package report

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// mergedTable is the mrg.<step> table of one step as the model holds it: a
// row per entry of the DBMS list (group breaks included) with the typed
// values of the step. The mrg and rel files, the report's tables and diff
// are all rendered from it.
type mergedTable struct {
	step parse.Step
	file string   // mrg.<step>, or the archived file's path
	cols []string // the header: metric columns, then "tag"
	// archive marks a table read from an archived file, whose lines are
	// kept as they were.
	archive bool
	rows    []*mergedRow
}

// rowKind tells the rows of a merged table apart.
type rowKind int

const (
	dataRow   rowKind = iota
	breakRow          // "-": a new group starts
	headerRow         // a header line (archives may repeat it)
	otherRow          // an archived line that is neither (kept verbatim)
)

// mergedRow is one row of a merged table.
type mergedRow struct {
	kind rowKind
	tag  string // the display tag: the name without the <N>m. prefix
	// cells are the values of the metric columns, as the mrg table shows
	// them: the step's typed metrics, or values that keep their printed
	// text (compat, archives).
	cells []metrics.Value
	// line is the row's line as its source had it: the archived file, or
	// the compat edge's rendering; "" for the default mode, which renders it
	// only when a file is written (text).
	line   string
	lineNo int // archives: its line number
}

// value returns the cell of a column, or an NA value when the table has no
// such column.
func (t *mergedTable) value(r *mergedRow, col string) metrics.Value {
	for i, c := range t.cols[:len(t.cols)-1] {
		if c == col && i < len(r.cells) {
			return r.cells[i]
		}
	}
	return metrics.NAf(metrics.NoUnit, "%s has no %s column", t.file, col)
}

// cellText prints a merged cell: its text when it keeps one, otherwise with
// the decimals of the mrg tables.
func cellText(col string, v metrics.Value) string {
	if m, ok := metrics.MetricByName(col); ok {
		return v.Format(m.MergeDigits())
	}
	return v.Format(-1)
}

// rowOf returns the result of a step of a tree, or nil.
func rowOf(t *metrics.TreeResult, st parse.Step) *metrics.StepResult {
	if t == nil {
		return nil
	}
	return t.Step(st.MergeName)
}

// mergeTrees builds the merged table of every step of raw trees, in list
// order. A DBMS without the step gets an NA row (compat: the almost empty
// row etl.sh printed).
func mergeTrees(trees []*metrics.TreeResult, list []Entry, steps []parse.Step, opt metrics.Options) []*mergedTable {
	byName := map[string]*metrics.TreeResult{}
	for _, t := range trees {
		byName[t.Name()] = t
	}
	prefix := parse.RowPrefix(firstName(list))
	var out []*mergedTable
	for _, st := range steps {
		mt := &mergedTable{step: st, file: "mrg." + st.MergeName, cols: metrics.RowColumns}
		for _, e := range list {
			if e.Break {
				mt.rows = append(mt.rows, &mergedRow{kind: breakRow, line: "-"})
				continue
			}
			r := &mergedRow{}
			row := stepRow(rowOf(byName[e.Name], st), st, opt.Compat)
			if opt.Compat {
				var cells []metrics.Value
				r.line, cells = compat.MergeRow(&row, e.Name, prefix)
				r.cells = cells[:metrics.NumMetrics]
			} else {
				r.cells = row[:]
			}
			r.tag = displayTag(e.Name, prefix, opt.Compat)
			mt.rows = append(mt.rows, r)
		}
		out = append(out, mt)
	}
	return out
}

// stepRow is a tree's row of a step: the step's metrics, or for a missing
// step (sr nil) NA cells saying so; compat mode has the almost empty row
// etl.sh printed instead.
func stepRow(sr *metrics.StepResult, st parse.Step, compatMode bool) metrics.Row {
	switch {
	case sr != nil:
		return sr.Metrics
	case compatMode:
		return compat.MissingRow(st)
	}
	return metrics.NARow("step " + st.MergeName + " is missing")
}

// displayTag is the tag a tree's rows carry in the merged tables: its name
// without the <N>m. prefix (compat: removed anywhere, as sed did).
func displayTag(name, prefix string, compatMode bool) string {
	if compatMode {
		return compat.StripPrefix(name, prefix)
	}
	return stripPrefix(name, prefix)
}

// stripPrefix removes the "<N>m." row-count prefix at the start of a tree
// name: the tag its rows carry in merged tables.
func stripPrefix(name, prefix string) string {
	if prefix == "" {
		return name
	}
	return strings.TrimPrefix(name, prefix+".")
}

// text is the row as a line of the mrg.<step> file.
func (t *mergedTable) text(r *mergedRow) string {
	if r.line != "" || r.kind != dataRow {
		return r.line
	}
	texts := make([]string, 0, len(r.cells)+1)
	for i, v := range r.cells {
		texts = append(texts, cellText(t.cols[i], v))
	}
	return strings.Join(append(texts, r.tag), "\t")
}

// find returns the first row of a tag: compat mode matches as the original
// `grep "<tag>$"` over the file's lines did (a regular expression that also
// matches longer tags ending the same way), otherwise the tag must be equal.
func (t *mergedTable) find(tag string, compatMode bool) *mergedRow {
	if compatMode {
		i := compat.FindRow(t.lines(), tag)
		if i < 1 || t.rows[i-1].kind != dataRow {
			return nil
		}
		return t.rows[i-1]
	}
	for _, r := range t.rows {
		if r.kind == dataRow && r.tag == tag {
			return r
		}
	}
	return nil
}

// lines returns the table as the mrg.<step> file holds it.
func (t *mergedTable) lines() []string {
	out := make([]string, 0, len(t.rows)+1)
	if t.archive {
		for _, r := range t.rows {
			out = append(out, r.line)
		}
		return out
	}
	out = append(out, strings.Join(t.cols, "\t"))
	for _, r := range t.rows {
		out = append(out, t.text(r))
	}
	return out
}

// relLines computes rel.<step>: each row relative to the first row of its
// group, which is not printed. The default mode divides the typed values
// (unrounded for raw trees); a row or cell that is not a number gives NA.
// Compat mode applies sum_met.awk to the mrg lines.
func (t *mergedTable) relLines(compatMode bool, warns *[]string) []string {
	if compatMode {
		return compat.RelLines(t.lines())
	}
	*warns = append(*warns, t.skipped()...)
	var out []string
	if !t.archive {
		out = append(out, strings.Join(t.cols, "\t"))
	}
	var base *mergedRow
	for _, r := range t.rows {
		switch r.kind {
		case breakRow:
			out = append(out, "-")
			base = nil
		case headerRow:
			out = append(out, r.line)
			base = nil
		case dataRow:
			if base == nil {
				base = r
				continue
			}
			out = append(out, strings.Join(append(t.ratioTexts(r, base, warns), r.tag), "\t"))
		}
	}
	return out
}

// ratios are the rel cells of a row of t, typed: each value relative to
// the base's, unrounded, and NA where the base is no usable divisor (see
// metrics.RelativeTo), with a warning: the NA cells of the values
// themselves have theirs already. 0/0 is 1 by the rule of the relative
// tables, which print it "1", not as a ratio measured to two decimals:
// the value keeps that text.
func (t *mergedTable) ratios(r, base *mergedRow, warns *[]string) []metrics.Value {
	out := make([]metrics.Value, len(r.cells))
	for i := range r.cells {
		o, b := r.cells[i], base.cells[i]
		if o.OK() && b.OK() && o.V == 0 && b.V == 0 {
			out[i] = metrics.Known(1, metrics.RatioUnit).Printed(metrics.RatioText(o, b))
			continue
		}
		v := metrics.RelativeTo(o, b, t.cols[i])
		if !v.OK() && o.OK() && b.OK() {
			*warns = append(*warns, fmt.Sprintf("rel.%s: %s %s is NA: %s", t.step.MergeName, r.tag, t.cols[i], v.Why))
		}
		out[i] = v
	}
	return out
}

// ratioTexts prints the rel cells of a row (ratios) as rel.<step> holds
// them: two decimals.
func (t *mergedTable) ratioTexts(r, base *mergedRow, warns *[]string) []string {
	out := make([]string, len(r.cells))
	for i, v := range t.ratios(r, base, warns) {
		out[i] = v.Format(2)
	}
	return out
}

// skipped are the warnings about an archive's lines that are not rows of
// the table (otherRow).
func (t *mergedTable) skipped() []string {
	var out []string
	for _, r := range t.rows {
		if r.kind == otherRow {
			out = append(out, fmt.Sprintf("%s: line %d: not a row of the table, skipped", t.file, r.lineNo))
		}
	}
	return out
}
