package report

import (
	"bytes"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// A MergedTable is one mrg.<step> or rel.<step> table of the merged model,
// typed: the values `ibreport tables` prints and the report shows, before
// any of them is printed. The CI gate (package diff) compares these, so
// that it judges the numbers the report computed, not their rounding.
type MergedTable struct {
	// Kind is "mrg" for the step's values, "rel" for each row relative
	// to the first row of its group.
	Kind string
	// Step is the merge name of the step: "l.i0", "qr100.L1".
	Step string
	// Columns name the metric columns in the order of the files' header,
	// without its final "tag".
	Columns []string
	// Rows are the data rows in the order of the DBMS list. Group breaks
	// are not rows, nor are the first rows of the groups of a rel table,
	// the bases the others are relative to.
	Rows []MergedRow
}

// A MergedRow is the row of one DBMS in a MergedTable.
type MergedRow struct {
	// Tag names the DBMS as the tables show it: its tree name without the
	// <N>m. row-count prefix ("pg15.c1" for 2m.pg15.c1).
	Tag string
	// Cells are the values of the columns, parallel to Columns: the
	// step's metrics (mrg), or their ratios to the group's base row,
	// unrounded (rel; NA with the reason where the base is no divisor,
	// and 1 for 0/0, which keeps the text "1" the rel tables print for
	// it). NA cells say why. In compat mode each cell keeps the text the
	// scripts printed for it, and rel cells are the scripts' ratios of
	// those texts.
	Cells []metrics.Value
}

// Merged returns the typed mrg and rel tables of the raw trees, step by
// step in report order (mrg.<step>, then rel.<step>), and the warnings met
// merging the trees: the model Results.Tables prints and `ibreport diff`
// compares. An archived folder gets none: its tables are its files.
func (r *Results) Merged() ([]MergedTable, []string, error) {
	if r == nil || len(r.Trees) == 0 {
		return nil, nil, nil
	}
	_, merged, typed, err := mergeResults(r.Trees, r.List, r.Options)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	warns := metrics.WarningTexts(typed)
	var out []MergedTable
	for _, mt := range merged {
		out = append(out, mt.typed(), mt.typedRel(r.Options.Compat, &warns))
	}
	return out, warns, nil
}

// typed is the mrg table as a MergedTable.
func (t *mergedTable) typed() MergedTable {
	out := MergedTable{Kind: "mrg", Step: t.step.MergeName, Columns: t.metricCols()}
	for _, r := range t.rows {
		if r.kind == dataRow {
			out.Rows = append(out.Rows, MergedRow{Tag: r.tag, Cells: append([]metrics.Value(nil), r.cells...)})
		}
	}
	return out
}

// metricCols are the columns of t without the final tag.
func (t *mergedTable) metricCols() []string {
	if len(t.cols) == 0 {
		return nil
	}
	return append([]string(nil), t.cols[:len(t.cols)-1]...)
}

// typedRel is the rel table of t: each row relative to the first row of
// its group (ratios), as relLines prints it. Compat mode's rel tables are
// sum_met.awk's text by definition (compat.RelLines works on the mrg
// lines); their rows are read back as the scripts' readers read them, and
// the lines that are not rows, which sum_met.awk printed unchanged, are
// left out.
func (t *mergedTable) typedRel(compatMode bool, warns *[]string) MergedTable {
	out := MergedTable{Kind: "rel", Step: t.step.MergeName, Columns: t.metricCols()}
	if compatMode {
		pt, _ := parse.ReadTable(bytes.NewReader(joinLines(compat.RelLines(t.lines()))), "rel."+t.step.MergeName)
		for _, l := range pt.Lines {
			if l.Kind != parse.TableRow {
				continue
			}
			last := len(l.Cells) - 1
			row := MergedRow{Tag: l.Cells[last]}
			for _, c := range l.Cells[:last] {
				row.Cells = append(row.Cells, compat.CellValue(c, metrics.RatioUnit))
			}
			out.Rows = append(out.Rows, row)
		}
		return out
	}
	*warns = append(*warns, t.skipped()...)
	var base *mergedRow
	for _, r := range t.rows {
		switch r.kind {
		case breakRow, headerRow:
			base = nil
		case dataRow:
			if base == nil {
				base = r
				continue
			}
			out.Rows = append(out.Rows, MergedRow{Tag: r.tag, Cells: t.ratios(r, base, warns)})
		}
	}
	return out
}
