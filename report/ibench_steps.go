package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func (b *ibTables) section(st parse.Step, info StepInfo) {
	sec := &StepSection{Step: info}
	sec.Throughput = b.throughputChart(st)
	if b.res.Archived() {
		sec.Notes = append(sec.Notes, "Per-interval charts, response-time histograms and iostat averages need the raw logs; this report was built from archived mrg files.")
	} else {
		var note string
		if sec.Intervals, note = b.intervalCharts(st); note != "" {
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
			if r := mt.find(tag, b.edge.scripts && !b.res.Archived()); r != nil {
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
func (b *ibTables) efficiencyTable(st parse.Step) *Table {
	cols := []string{metrics.IPS.Name()}
	if st.Kind.ReadWrite() {
		cols = []string{metrics.QPS.Name(), metrics.IPS.Name()}
	}
	for _, m := range efficiencyCols {
		cols = append(cols, m.Name())
	}
	t := &Table{
		ID: st.MergeName + ".efficiency", Title: st.MergeName + ": relative efficiency", Header: header(cols...),
		Caption: b.edge.efficiencyCaption(),
	}
	for _, p := range basePairs(b.list) {
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
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: append(make([]Cell, 0, len(hdr)+1), nameCell(r.tag))}
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
func (b *ibTables) histogramTable(m *rtMerge) *Table {
	var rows []*rtRow
	for _, tag := range displayTags(shown(b.res.List), parse.RowPrefix(firstName(b.res.List)), b.edge.scripts) {
		if i := b.edge.rtFind(m, tag); i >= 1 && !m.rows[i-1].brk {
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
func (b *ibTables) iostatTable(st parse.Step) *Table {
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
			tr.Cells = append(tr.Cells, valueCell(v, iostatDigits(v.V)))
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

func (b *ibTables) allMetrics(st parse.Step, info StepInfo) {
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

func (b *ibTables) responseTimes(st parse.Step, info StepInfo) {
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
