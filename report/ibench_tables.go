package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibTables words the insert benchmark's model (ibench) as the report's
// tables: summary, relative, insert rate, the step sections, sweep, study
// and perf stat.
type ibTables struct {
	*ibench
	// baseNoted are the relative values already noted as NA for their
	// base (step, DBMS, column): several tables show them.
	baseNoted map[[3]string]bool
}

// dropRepeats leaves out "Metrics of all DBMS" and "Response times" when
// every table in them repeats a table of the step sections: they exist for
// DBMS of the list that the summary does not show.
func (b *ibTables) dropRepeats() {
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

// summary is the absolute-throughput table (tput.tab) with quartile bands.
func (b *ibTables) summary() {
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
		for i, c := range quartileBands(col, vals, ignored, b.edge.scripts) {
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

// relative is the table of throughput relative to the base DBMS of each
// group (tputr.tab). The default mode divides the unrounded values; compat
// divides the printed ones as the original did.
func (b *ibTables) relative() {
	t := &Table{
		ID:      "relative",
		Title:   "Relative throughput",
		Header:  header(b.columns()...),
		Caption: b.edge.relativeCaption(runNoise(b.res)),
	}
	if b.edge.corrected {
		var keys []string
		for _, st := range b.steps {
			keys = append(keys, ibNoiseKey(st))
		}
		t.Caption += testNoiseText(b.res, keys)
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
func (b *ibTables) insertRate() {
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
		ID:      "insert-rate",
		Title:   "Insert rate during read+write steps",
		Caption: b.edge.insertRateCaption(who, !b.res.Archived()),
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
		// The cells are made at their number: a big report has thousands of
		// rows, and growing each row by appends was most of its memory.
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: append(make([]Cell, 0, len(cols)+1), nameCell(r.tag))}
		groupStart = false
		for i, col := range cols {
			var v metrics.Value
			if i < len(r.cells) {
				v = r.cells[i]
			} else {
				v = metrics.NAf(metrics.NoUnit, "no %s value", col)
			}
			row.Cells = append(row.Cells, valueCellText(v, cellText(col, v)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ratioCell is the banded ratio of a DBMS's value to its base's in a step.
func (b *ibTables) ratioCell(step, col, tag, base string) Cell {
	v, bv := b.cell(step, tag, col), b.cell(step, base, col)
	if c, ok := b.edge.scriptsRatio(col, v, bv); ok {
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
