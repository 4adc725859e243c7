package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/internal/parse"
	"github.com/ibreport/ibreport/internal/stats"
)

// noiseOf is the relative half-width of the 95% interval of a DBMS's
// throughput in a step (0.03 for ±3%), NaN when unknown.
func (b *builder) noiseOf(st parse.Step, tag string) float64 {
	if sr := rowOf(b.tree[tag], st); sr != nil {
		return sr.Noise.HalfWidth()
	}
	return math.NaN()
}

// withinNoise reports whether a relative throughput is within the noise of
// the two runs (stats.WithinNoise). Compat mode, like the original, knows
// no noise.
func (b *builder) withinNoise(st parse.Step, tag, base string, ratio float64) bool {
	if b.compat {
		return false
	}
	return stats.WithinNoise(ratio, b.noiseOf(st, tag), b.noiseOf(st, base))
}

// noiseTable is a step's table of noise, stalls and SLA: per DBMS client
// 1's mean rate with its 95% interval, its stalls, and for read+write steps
// how it kept its insert-rate target.
func (b *builder) noiseTable(st parse.Step) *Table {
	rw := st.Kind.ReadWrite()
	if st.Kind == parse.CreateIndex {
		return nil
	}
	what := "inserts/s"
	if rw {
		what = "queries/s"
	}
	opt := b.res.Options.Stall.WithDefaults()
	t := &Table{ID: st.MergeName + ".noise", Title: st.MergeName + ": noise, stalls and SLA",
		Header: []string{"dbms", "client 1 " + what, "±95%", "method", "stalls", "stalled s", "worst stall"},
		Caption: fmt.Sprintf("From client 1's intervals (the first and last, partial, left out of stalls and SLA): the mean rate and its 95%% interval "+
			"(t-interval, or batch means when the intervals are autocorrelated); a stall is a run of intervals below %.0f%% of the step's median rate "+
			"or with a response time over %g× its median, the worst one by its lowest rate, with its start in seconds.", 100*opt.RateFraction, opt.RTMultiple)}
	if rw {
		t.Header = append(t.Header, "SLA met", "longest below s", "SLA")
		t.Caption += fmt.Sprintf(" SLA: the share of intervals whose insert rate reached %.0f%% of the per-client target, the longest run below it, and pass when that share is %.0f%% or more.",
			100*opt.SLAFraction, 100*opt.SLAFraction)
	}
	for _, tag := range b.shown {
		row := Row{Kind: DataRow, Cells: []Cell{nameCell(tag)}}
		sr := rowOf(b.tree[tag], st)
		if sr == nil {
			for range t.Header[1:] {
				row.Cells = append(row.Cells, valueCell(metrics.NAf(metrics.NoUnit, "%s has no step %s", tag, st.MergeName), 0))
			}
			t.Rows = append(t.Rows, row)
			continue
		}
		iv := sr.Noise
		if iv.OK() && math.IsNaN(iv.HalfWidth()) {
			iv.Why = "the mean rate is 0"
		}
		if iv.OK() {
			mean := iv.Mean
			h := 100 * iv.HalfWidth()
			method := "t"
			if iv.Method != "t" {
				method = fmt.Sprintf("%d batches of %d", iv.Batches, iv.BatchLen)
			}
			row.Cells = append(row.Cells, Cell{Text: strconv.FormatFloat(mean, 'f', 0, 64), Value: &mean, Unit: what},
				Cell{Text: fmt.Sprintf("±%.1f%%", h), Value: &h, Unit: "percent"}, Cell{Text: method})
		} else {
			na := metrics.NA(metrics.NoUnit, iv.Why)
			row.Cells = append(row.Cells, valueCell(na, 0), valueCell(na, 0), valueCell(na, 0))
		}
		row.Cells = append(row.Cells, stallCells(sr.Stalls)...)
		if rw {
			row.Cells = append(row.Cells, slaCells(sr.SLA)...)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func stallCells(s metrics.Stalls) []Cell {
	if s.Why != "" {
		na := metrics.NA(metrics.NoUnit, s.Why)
		return []Cell{valueCell(na, 0), valueCell(na, 0), valueCell(na, 0)}
	}
	n, secs := float64(len(s.Events)), s.Seconds
	worst := Cell{Text: "none"}
	if w := s.Worst; w != nil {
		worst = Cell{Text: fmt.Sprintf("at %.0f s for %.0f s: rate %.0f%% of the median", w.Start, w.Seconds, 100*w.Rate)}
		if w.RT > 0 {
			worst.Text += fmt.Sprintf(", response time %.1f× the median", w.RT)
		}
	}
	return []Cell{{Text: strconv.Itoa(len(s.Events)), Value: &n}, {Text: strconv.FormatFloat(secs, 'f', 0, 64), Value: &secs, Unit: "s"}, worst}
}

func slaCells(s *metrics.SLA) []Cell {
	if s == nil || s.Why != "" {
		why := "no SLA"
		if s != nil {
			why = s.Why
		}
		na := metrics.NA(metrics.NoUnit, why)
		return []Cell{valueCell(na, 0), valueCell(na, 0), valueCell(na, 0)}
	}
	met, longest := 100*s.Met, s.Longest
	verdict := Cell{Text: "pass"}
	if !s.Pass {
		verdict = Cell{Text: "fail", Band: Missed}
	}
	return []Cell{{Text: fmt.Sprintf("%.0f%%", met), Value: &met, Unit: "percent"},
		{Text: strconv.FormatFloat(longest, 'f', 0, 64), Value: &longest, Unit: "s"}, verdict}
}

// markStalls marks, on a step's per-interval rate charts, where the stalls
// of each DBMS began.
func (b *builder) markStalls(st parse.Step, c *Chart) {
	for _, tag := range b.shown {
		if sr := rowOf(b.tree[tag], st); sr != nil {
			for _, e := range sr.Stalls.Events {
				c.Marks = append(c.Marks, e.Start)
			}
		}
	}
}
