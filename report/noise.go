package report

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// noiseMethod describes how an interval was computed, or why it is
// low-confidence in a few words (the table's notes say it in full), for
// the method column of the noise tables.
func noiseMethod(iv metrics.Interval) string {
	if iv.LowConfidence != "" {
		return "low confidence: " + iv.Low
	}
	return fmt.Sprintf("%s φ %.2f, ESS %.0f", iv.Method, iv.Phi, iv.ESS)
}

// noiseCaption is what the noise tables say of their interval columns.
const noiseCaption = "the mean rate and its 95% interval (the variance of an AR(1) process with a bias-corrected lag-1 autocorrelation φ, " +
	"from which the effective sample size ESS, the number of independent intervals as informative, follows; low confidence, with the reason, when that is below 10, when intervals lie far from the rest (stalls) " +
	"or when long batches vary more than φ explains: no ~ is claimed from such an interval)"

// stallCaption says how stalls and declines are found (metrics.FindStalls).
func stallCaption(opt metrics.StallOptions) string {
	return fmt.Sprintf(" A stall is a run of intervals below %.0f%% of the reference rate, the upper quartile of the step's rates, "+
		"whose count is also too low to be chance (Poisson at the reference, p < %g over the step), "+
		"or with a response time over %g× its median; the worst one by its lowest rate, with its start in seconds. "+
		"A decline is a steady fall of the rate, a straight line from its start to %.0f%% of it or less that fits better than one step between two levels: "+
		"not a stall; the stalls are then measured against the line.",
		100*opt.RateFraction, metrics.StallPoissonP, opt.RTMultiple, 100*metrics.DeclineDrop)
}

func stallCells(s metrics.Stalls) []Cell {
	if s.Why != "" {
		na := metrics.NA(metrics.NoUnit, s.Why)
		return []Cell{valueCell(na, 0), valueCell(na, 0), valueCell(na, 0), valueCell(na, 0)}
	}
	n, secs := float64(len(s.Events)), s.Seconds
	worst := Cell{Text: "none"}
	if w := s.Worst; w != nil {
		worst = Cell{Text: fmt.Sprintf("at %.0f s for %.0f s: rate %.0f%% of the reference", w.Start, w.Seconds, 100*w.Rate)}
		if w.RT > 0 {
			worst.Text += fmt.Sprintf(", response time %.1f× the median", w.RT)
		}
	}
	decline := Cell{Text: "none"}
	if d := s.Decline; d != nil {
		decline = Cell{Text: fmt.Sprintf("decline from %s/s to %s/s over %.0f s", roundRate(d.From), roundRate(d.To), d.Seconds)}
	}
	return []Cell{{Text: strconv.Itoa(len(s.Events)), Value: &n}, {Text: strconv.FormatFloat(secs, 'f', 0, 64), Value: &secs, Unit: "s"}, worst, decline}
}

// roundRate prints a rate with three significant digits at most, so that
// a trend's ends do not pretend to a precision a fitted line lacks.
func roundRate(v float64) string {
	if math.Abs(v) < 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	p := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
	return strconv.FormatFloat(math.Round(v/p)*p, 'f', 0, 64)
}

func slaCells(s *metrics.SLA) []Cell {
	if s == nil || s.Why != "" {
		why := "no SLA"
		if s != nil {
			why = s.Why
		}
		na := metrics.NA(metrics.NoUnit, why)
		return []Cell{valueCell(na, 0), valueCell(na, 0), valueCell(na, 0), valueCell(na, 0)}
	}
	mean, met, longest := 100*s.Mean/s.Target, 100*s.Met, s.Longest
	verdict := Cell{Text: "pass"}
	if !s.Pass {
		verdict = Cell{Text: "fail", Band: Missed}
	}
	return []Cell{{Text: fmt.Sprintf("%.0f%%", mean), Value: &mean, Unit: "percent"},
		{Text: fmt.Sprintf("%.0f%%", met), Value: &met, Unit: "percent"},
		{Text: strconv.FormatFloat(longest, 'f', 0, 64), Value: &longest, Unit: "s"}, verdict}
}

// noiseTable is a step's table of noise, stalls and SLA: per DBMS all
// clients' mean rate with its 95% interval, client 1's stalls, and for read+write steps
// how it kept its insert-rate target.
func (b *ibTables) noiseTable(st parse.Step) *Table {
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
		Header:  []string{"dbms", "all clients " + what, "±95%", "method", "stalls", "stalled s", "worst stall", "decline"},
		Caption: "From all clients' intervals summed (the first and last, partial, left out): " + noiseCaption + "; from client 1's intervals (the first and last, partial, left out of stalls and SLA) its stalls, decline and SLA." + stallCaption(opt)}
	if rw {
		t.Header = append(t.Header, "SLA mean", "intervals met", "longest below s", "SLA")
		t.Caption += fmt.Sprintf(" SLA: the mean insert rate of the full intervals as a share of the per-client target, the share of intervals at %.0f%% of it or more, "+
			"the longest run of intervals below that; pass when the mean reaches %.0f%% of the target and no %d consecutive intervals stay below it "+
			"(single intervals below are jitter).", 100*opt.SLAFraction, 100*opt.SLAFraction, metrics.SLARun)
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

// targetNotes explains, under the insert-rate table, every place where the
// ✗ verdict (from the full intervals) and what a reader sees next to it
// seem to disagree: the step's average on the other side of 95% of the
// target, or client 1's SLA passing where the DBMS is marked ✗ or failing
// where it is not. Compat mode has no notes: it marks the average, as the
// scripts did.
func (b *ibTables) targetNotes(rw []parse.Step) []string {
	if !b.edge.corrected {
		return nil
	}
	var out, partial []string
	for _, st := range rw {
		for _, tag := range b.shown {
			full, ok := b.sustained(st, tag)
			if !ok {
				continue
			}
			target := float64(b.clientsOf(tag) * st.Rate)
			t95 := math.RoundToEven(0.95 * target)
			missed := b.missed[st.MergeName][tag]
			who := tag + " " + st.MergeName
			if avg, ok := b.number(b.cell(st.MergeName, tag, metrics.IPS.Name())); ok && (avg < t95) != missed {
				if missed {
					out = append(out, fmt.Sprintf("%s: the step's average, %.0f/s, reaches 95%% of the target (%.0f/s), but over their full intervals the clients inserted %.0f/s: marked ✗.",
						who, avg, t95, full))
				} else {
					partial = append(partial, fmt.Sprintf("%s %.0f/s, full intervals %.0f/s (target %.0f/s)", who, avg, full, target))
				}
			}
			sr := rowOf(b.tree[tag], st)
			if sr == nil || sr.SLA == nil || sr.SLA.Why != "" {
				continue
			}
			sla := sr.SLA
			switch {
			case missed && sla.Pass:
				out = append(out, fmt.Sprintf("%s: marked ✗ although client 1 passed its SLA (mean %.0f%% of its target): all clients together inserted %.0f/s over their full intervals, "+
					"%.0f%% of the target, so another client fell short.", who, 100*sla.Mean/sla.Target, full, 100*full/target))
			case !missed && !sla.Pass:
				why := fmt.Sprintf("its mean, %.1f/s, is below %g%% of its target of %.0f/s", sla.Mean, 100*b.res.Options.Stall.WithDefaults().SLAFraction, sla.Target)
				if sla.LongestRun >= metrics.SLARun {
					why = fmt.Sprintf("it stayed below for %.0f s (%d intervals)", sla.Longest, sla.LongestRun)
				}
				out = append(out, fmt.Sprintf("%s: not marked ✗, the clients inserted %.0f/s over their full intervals (%.0f%% of the target), but client 1 failed its SLA: %s.",
					who, full, 100*full/target, why))
			}
		}
	}
	if len(partial) > 0 {
		out = append([]string{"Below 95% of the target on average but not marked ✗, because the average divides all rows by the step's whole time, " +
			"the partial first and last intervals included, in which the clients start and stop, while over their full intervals the clients kept the target: " +
			strings.Join(partial, "; ") + "."}, out...)
	}
	return out
}

// markStalls marks, on a step's per-interval rate charts, where the stalls
// of each DBMS began, each mark tied to its DBMS's line (the charts have a
// line per shown DBMS, in order) so that it is drawn in its colour.
func (b *ibTables) markStalls(st parse.Step, c *Chart) {
	for i, tag := range b.shown {
		if sr := rowOf(b.tree[tag], st); sr != nil {
			for _, e := range sr.Stalls.Events {
				c.Marks = append(c.Marks, e.Start)
				c.MarkSeries = append(c.MarkSeries, i)
			}
		}
	}
}

// noiseOf is the 95% interval of a DBMS's throughput in a step (all
// clients), unknown when the DBMS has no such step.
func (b *ibench) noiseOf(st parse.Step, tag string) metrics.Interval {
	if sr := rowOf(b.tree[tag], st); sr != nil {
		return sr.Noise
	}
	return metrics.Interval{Why: tag + " has no step " + st.MergeName}
}

// ibNoiseKey names a step's throughput as diff names its cell and the
// settings its run-noise key: the step's merge name and ips, qps for a
// read+write step.
func ibNoiseKey(st parse.Step) string {
	if st.Kind.ReadWrite() {
		return st.MergeName + "." + metrics.QPS.Name()
	}
	return st.MergeName + "." + metrics.IPS.Name()
}

// runNoise is the run-to-run relative standard deviation of one run's
// mean throughput the within-noise rule adds: --run-noise, the settings
// key run-noise, else stats.DefaultRunNoise.
func runNoise(res *Results) float64 {
	if r := res.Options.RunNoise; r > 0 {
		return r
	}
	return stats.DefaultRunNoise
}

// testRunNoise is the run-to-run noise of one run of the test key
// ("l.i0.ips", "point-query.range100.dop1.qps"): its own from the
// settings (run-noise.<key>), else runNoise. A test's own is what a
// history of runs of it measured (ibreport series --noise-settings);
// two DBMS of one folder are two runs like those a history repeats, so
// their difference has the same run-to-run term.
func testRunNoise(res *Results, key string) float64 {
	if res == nil {
		return stats.DefaultRunNoise
	}
	if r, ok := res.testNoise[key]; ok {
		return r
	}
	return runNoise(res)
}

// settingsTestNoise reads the keys run-noise.<step>.<metric> of the
// settings set of the folder dir; nil without any. A value that is not a
// fraction above 0 and below 1 is bad input naming the file and key.
func settingsTestNoise(set map[string]string, dir string) (map[string]float64, error) {
	out, err := parse.RunNoiseKeys(set, path.Join(dir, parse.SettingsFile))
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	return out, nil
}

// testNoiseText names the tests of keys whose own run-to-run noise the
// settings give, for a caption: " Tests with their own run-to-run noise
// in the settings (run-noise.<step>.<metric>) are judged with it: l.i0 2%,
// qr100.L1 0.5%."; "" for none.
func testNoiseText(res *Results, keys []string) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, k := range keys {
		if r, ok := res.testNoise[k]; ok && !slices.Contains(parts, k+" "+noisePct(r)) {
			parts = append(parts, k+" "+noisePct(r))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Tests with their own run-to-run noise in the settings (run-noise.<step>.<metric>) are judged with it in place of that figure: " + strings.Join(parts, ", ") + "."
}

// withinNoise reports whether a relative throughput is within the noise of
// the two runs (stats.WithinNoise: their 95% intervals and the run-to-run
// term); never when either interval is unknown or low-confidence. Compat
// mode, like the original, knows no noise.
func (b *ibench) withinNoise(st parse.Step, tag, base string, ratio float64) bool {
	if !b.edge.corrected {
		return false
	}
	within, _ := metrics.WithinNoise(ratio, b.noiseOf(st, tag), b.noiseOf(st, base), testRunNoise(b.res, ibNoiseKey(st)))
	return within
}

// sustained is the insert rate a DBMS's clients kept over their full
// intervals in a read+write step (metrics.StepResult.FullInsertRate): the
// default mode judges the insert-rate target by it. Not in compat mode,
// nor without raw logs.
func (b *ibench) sustained(st parse.Step, tag string) (float64, bool) {
	if !b.edge.corrected {
		return 0, false
	}
	sr := rowOf(b.tree[tag], st)
	if sr == nil || !sr.FullInsertRate.OK() {
		return 0, false
	}
	return sr.FullInsertRate.V, true
}
