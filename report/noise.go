package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/internal/parse"
	"github.com/ibreport/ibreport/internal/stats"
)

// noiseOf is the 95% interval of a DBMS's throughput in a step (all
// clients), unknown when the DBMS has no such step.
func (b *builder) noiseOf(st parse.Step, tag string) stats.Interval {
	if sr := rowOf(b.tree[tag], st); sr != nil {
		return sr.Noise
	}
	return stats.Interval{Why: tag + " has no step " + st.MergeName}
}

// runNoise is the run-to-run relative standard deviation of one run's
// mean throughput the within-noise rule adds: --run-noise, the settings
// key run-noise, else stats.DefaultRunNoise.
func (b *builder) runNoise() float64 {
	if r := b.res.Options.RunNoise; r > 0 {
		return r
	}
	return stats.DefaultRunNoise
}

// withinNoise reports whether a relative throughput is within the noise of
// the two runs (stats.WithinNoise: their 95% intervals and the run-to-run
// term); never when either interval is unknown or low-confidence. Compat
// mode, like the original, knows no noise.
func (b *builder) withinNoise(st parse.Step, tag, base string, ratio float64) bool {
	if b.compat {
		return false
	}
	within, _ := stats.WithinNoise(ratio, b.noiseOf(st, tag), b.noiseOf(st, base), b.runNoise())
	return within
}

// noiseMethod describes how an interval was computed, or why it is
// low-confidence in a few words (the table's notes say it in full), for
// the method column of the noise tables.
func noiseMethod(iv stats.Interval) string {
	if iv.LowConfidence != "" {
		return "low confidence: " + iv.Low
	}
	return fmt.Sprintf("%s φ %.2f, ESS %.0f", iv.Method, iv.Phi, iv.ESS)
}

// noiseCaption is what the noise tables say of their interval columns.
const noiseCaption = "the mean rate and its 95% interval (the variance of an AR(1) process with a bias-corrected lag-1 autocorrelation φ, " +
	"from which the effective sample size ESS, the number of independent intervals as informative, follows; low confidence, with the reason, when that is below 10, when intervals lie far from the rest (stalls) " +
	"or when long batches vary more than φ explains: no ~ is claimed from such an interval)"

// noiseTable is a step's table of noise, stalls and SLA: per DBMS all
// clients' mean rate with its 95% interval, client 1's stalls, and for read+write steps
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
		Header: []string{"dbms", "all clients " + what, "±95%", "method", "stalls", "stalled s", "worst stall"},
		Caption: "From all clients' intervals summed (the first and last, partial, left out): " + noiseCaption + "; " + fmt.Sprintf("from client 1's intervals (the first and last, partial, left out of stalls and SLA): a stall is a run of intervals below %.0f%% of the step's median rate "+
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
			row.Cells = append(row.Cells, Cell{Text: strconv.FormatFloat(mean, 'f', 0, 64), Value: &mean, Unit: what},
				Cell{Text: fmt.Sprintf("±%.1f%%", h), Value: &h, Unit: "percent"}, Cell{Text: noiseMethod(iv)})
			if iv.LowConfidence != "" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s: low confidence: %s; no ~ is claimed from it", tag, iv.LowConfidence))
			}
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
