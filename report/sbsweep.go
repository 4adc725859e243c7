package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/metrics"
)

// efficiency is the scaling efficiency of a rate at n (threads or
// clients) against the rate at n0: rate ÷ (n/n0 × rate at n0). 1 is
// linear scaling; 0.61 at 2 threads is a 1.22× QPS. NaN when either rate
// is unknown or the base is 0.
func efficiency(rate, base float64, n, n0 int) float64 {
	want := base * float64(n) / float64(n0)
	if !(want > 0) || math.IsNaN(rate) || math.IsInf(rate, 0) {
		return math.NaN()
	}
	return rate / want
}

// efficiencyBand colours an efficiency against linear scaling: the
// bands of a ratio to the base, the base being linear (1.00). A 1.22× QPS
// at 2 threads (0.61) is red, not blue.
func efficiencyBand(e float64) Band { return ratioBand(e, metrics.HigherIsBetter) }

// sbSweepCell is the QPS at nt threads over that at n0, "1.22× (0.61)",
// coloured by the efficiency in brackets.
func sbSweepCell(qps, base metrics.Value, nt, n0 int) Cell {
	r := metrics.Ratio(qps, base)
	if !r.OK() {
		return valueCellText(r, "NA")
	}
	e := efficiency(qps.V, base.V, nt, n0)
	c := valueCell(r, 2)
	if !math.IsNaN(e) {
		c.Text = fmt.Sprintf("%.2f× (%.2f)", r.V, e)
		c.Band = efficiencyBand(e)
	}
	return c
}

// sbSweepSummary leads the sysbench thread sweep: per DBMS and thread
// count, the median efficiency over the tests (a table and a chart, one
// line per DBMS), and a finding per DBMS at the largest count. Nil with
// one thread count.
func sbSweepSummary(set *metrics.SysbenchSet) (*Table, *Chart, []string) {
	if len(set.Threads) < 2 {
		return nil, nil, nil
	}
	threads := slices.Sorted(slices.Values(set.Threads))
	n0 := threads[0]
	tests := sbsum.Tests(set)
	t := &Table{ID: "sb.sweep.efficiency", Title: "Scaling efficiency by thread count", Header: []string{"dbms"},
		Caption: fmt.Sprintf("Per DBMS, the median over the %s of the QPS at N threads divided by N/%d times the QPS at %s: "+
			"1.00 is linear scaling, 0.50 half of it; marked against linear scaling: ▽ below 0.95, ▼ below 0.80, △ above 1.05, ▲ above 1.20. "+
			"The range over the tests is in brackets.", metrics.Plural(len(tests), "test"), n0, metrics.Plural(n0, "thread"))}
	c := &Chart{ID: "sb.sweep.chart", Kind: "line", Title: "Median scaling efficiency by thread count", XLabel: "threads",
		YLabel: "efficiency (1 = linear)", Reference: 1}
	for _, nt := range threads[1:] {
		t.Header = append(t.Header, strconv.Itoa(nt))
	}
	for _, nt := range threads {
		c.XTicks = append(c.XTicks, float64(nt))
	}
	var findings []string
	for _, d := range set.DBMS {
		r := Row{Kind: DataRow, Cells: []Cell{nameCell(d.Name)}}
		s := Series{Name: d.Name, Points: []Point{{X: Num(n0), Y: 1}}}
		var last string
		for _, nt := range threads[1:] {
			var es []float64
			for _, test := range tests {
				base := sbsum.QPSAt(d, test.Sfx, n0)
				q := sbsum.QPSAt(d, test.Sfx, nt)
				if base.OK() && q.OK() {
					if e := efficiency(q.V, base.V, nt, n0); !math.IsNaN(e) {
						es = append(es, e)
					}
				}
			}
			if len(es) == 0 {
				r.Cells = append(r.Cells, valueCell(metrics.NAf(metrics.RatioUnit, "no test ran at both %d and %d threads", n0, nt), 2))
				continue
			}
			m := medianOf(es)
			lo, hi := slices.Min(es), slices.Max(es)
			cell := Cell{Text: fmt.Sprintf("%.2f (%.2f–%.2f)", m, lo, hi), Value: &m, Unit: string(metrics.RatioUnit), Band: efficiencyBand(m)}
			r.Cells = append(r.Cells, cell)
			s.Points = append(s.Points, Point{X: Num(nt), Y: Num(m)})
			last = fmt.Sprintf("%s: %.2f× the QPS at %d threads as at %d, %.0f%% of linear (median of %s, %.2f–%.2f)",
				d.Name, m*float64(nt)/float64(n0), nt, n0, 100*m, metrics.Plural(len(es), "test"), lo, hi)
		}
		t.Rows = append(t.Rows, r)
		c.Series = append(c.Series, s)
		if last != "" {
			findings = append(findings, last+".")
		}
	}
	return t, c, findings
}

// sweepLead leads the insert-benchmark sweep: per swept DBMS and client
// count, the median efficiency over the steps (a table with a row per
// step, a chart with a line per DBMS) and a finding per DBMS at the
// largest count.
func sweepLead(part *SweepPart) {
	if len(part.Clients) < 2 {
		return
	}
	n0 := part.Clients[0]
	t := &Table{ID: "sweep.efficiency", Title: "Scaling efficiency by number of clients", Header: []string{"step"},
		Caption: fmt.Sprintf("Per step, the rate at N clients divided by N/%d times the rate at %s (1.00 is linear scaling), "+
			"marked against linear scaling: ▽ below 0.95, ▼ below 0.80, △ above 1.05, ▲ above 1.20. "+
			"The last row is the median over the steps; each step's rates are in its table below.", n0, metrics.Plural(n0, "client"))}
	c := &Chart{ID: "sweep.chart", Kind: "line", Title: "Median scaling efficiency by number of clients", XLabel: "clients",
		YLabel: "efficiency (1 = linear)", Reference: 1}
	for _, n := range part.Clients {
		c.XTicks = append(c.XTicks, float64(n))
	}
	multi := len(part.DBMS) > 1
	for _, d := range part.DBMS {
		for _, n := range part.Clients[1:] {
			h := strconv.Itoa(n)
			if multi {
				h = d + " " + h
			}
			t.Header = append(t.Header, h)
		}
	}
	// per DBMS, per client count: the efficiencies of the steps.
	eff := make([][][]float64, len(part.DBMS))
	for di := range part.DBMS {
		eff[di] = make([][]float64, len(part.Clients))
	}
	for _, st := range part.Steps {
		r := Row{Kind: DataRow, Cells: []Cell{{Text: st.Step.Name}}}
		for di := range part.DBMS {
			if di >= len(st.Scaling.Rows) {
				continue
			}
			row := st.Scaling.Rows[di]
			for k := range part.Clients[1:] {
				cell := row.Cells[k+2]
				if cell.Value != nil && !math.IsNaN(*cell.Value) {
					e := *cell.Value
					eff[di][k+1] = append(eff[di][k+1], e)
					cell.Band = efficiencyBand(e)
				}
				r.Cells = append(r.Cells, cell)
			}
		}
		t.Rows = append(t.Rows, r)
	}
	med := Row{Kind: DataRow, Cells: []Cell{{Text: "median"}}}
	for di, d := range part.DBMS {
		s := Series{Name: d, Points: []Point{{X: Num(n0), Y: 1}}}
		var last string
		for k, n := range part.Clients[1:] {
			es := eff[di][k+1]
			if len(es) == 0 {
				med.Cells = append(med.Cells, valueCell(metrics.NAf(metrics.RatioUnit, "no step has a rate at %s", metrics.Plural(n, "client")), 2))
				continue
			}
			m := medianOf(es)
			med.Cells = append(med.Cells, Cell{Text: strconv.FormatFloat(m, 'f', 2, 64), Value: &m, Unit: string(metrics.RatioUnit), Band: efficiencyBand(m)})
			s.Points = append(s.Points, Point{X: Num(n), Y: Num(m)})
			lo, hi := slices.Min(es), slices.Max(es)
			last = fmt.Sprintf("%s: at %s, %.0f%% of linear scaling (median of %s, %.2f–%.2f)", d, metrics.Plural(n, "client"), 100*m,
				metrics.Plural(len(es), "step"), lo, hi)
		}
		c.Series = append(c.Series, s)
		if last != "" {
			part.Findings = append(part.Findings, last+".")
		}
	}
	t.Rows = append(t.Rows, med)
	part.Efficiency, part.Chart = t, c
}
