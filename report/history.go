package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
)

// A ResultSet is one member of a series of result sets: a loaded results
// folder and the name it goes by (its folder name).
type ResultSet struct {
	Name    string
	Results *Results
}

// BuildSeries builds the report of result sets taken in order (nightly runs,
// releases built one per folder): every DBMS found in them is a series of
// its own whose members are the sets, with the same change points, heat
// table and charts as the series part of a report. A DBMS or test a set
// lacks is NA there. A single set is a series of its DBMS, in list order
// (each group a series), as Build with BuildOptions.Series makes it.
func BuildSeries(sets []ResultSet, opt BuildOptions) (*Report, error) {
	for _, s := range sets {
		if s.Results == nil {
			return nil, inputerr.Errorf("result set %q: %v", s.Name, errNilResults)
		}
	}
	if len(sets) == 0 {
		return nil, inputerr.Errorf("no result sets")
	}
	for _, s := range sets {
		if len(s.Results.Hosts) > 0 && len(sets) > 1 {
			return nil, inputerr.Errorf("result set %q compares %d sub-folders (hosts); a series of result sets takes one folder of each: name the host's sub-folder", s.Name, len(s.Results.Hosts))
		}
	}
	if len(sets) == 1 {
		one := opt
		one.Series, one.Layout = true, ""
		r, err := Build(sets[0].Results, one)
		if err != nil {
			return nil, err
		}
		if r.Hosts != nil {
			// Each host's change points are its findings; the tables of
			// one host's series are `series` on its sub-folder.
			return r, nil
		}
		title := opt.Title
		if title == "" {
			title = "Series of the DBMS of " + sets[0].Name
		}
		return &Report{Schema: SchemaVersion, Source: r.Source, Compat: r.Compat, Bands: r.Bands, Title: title, DBMS: r.DBMS,
			Series: r.Series, Notes: r.Notes, Legend: []LegendItem{{"series", seriesLegend}}}, nil
	}
	rep := &Report{Schema: SchemaVersion, Source: "raw", Bands: modeBands(false), Title: opt.Title}
	if rep.Title == "" {
		rep.Title = fmt.Sprintf("Series of %s", metrics.Plural(len(sets), "result set"))
	}
	names := make([]string, len(sets))
	type groupKey struct{ kind, dbms string }
	var order []groupKey
	groups := map[groupKey]*seriesInput{}
	noiseKeys := map[groupKey]map[string]string{}
	for i, set := range sets {
		names[i] = set.Name
		one := opt
		one.Series, one.Layout = false, ""
		b, err := build(set.Results, one)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", set.Name, err)
		}
		for _, n := range b.rep.Notes {
			n.Text = set.Name + ": " + n.Text
			rep.Notes = append(rep.Notes, n)
		}
		if i == 0 {
			rep.Source = b.rep.Source
		}
		for _, in := range b.series.seriesInputs() {
			keys := seriesNoiseKeys(b.rep.Steps, in)
			for m, dbms := range in.members {
				k := groupKey{in.kind, dbms}
				noiseKeys[k] = addNoiseKeys(noiseKeys[k], keys)
				g := groups[k]
				if g == nil {
					g = &seriesInput{id: fmt.Sprintf("series.%d", len(order)+1), title: in.what + ": " + dbms, members: names}
					groups[k] = g
					order = append(order, k)
				}
				for _, t := range in.tests {
					j := slices.IndexFunc(g.tests, func(x seriesTest) bool { return x.name == t.name })
					if j < 0 {
						g.tests = append(g.tests, seriesTest{name: t.name, unit: t.unit,
							values: make([]metrics.Value, len(sets)), noise: make([]float64, len(sets))})
						j = len(g.tests) - 1
						for s := range sets {
							g.tests[j].values[s] = metrics.NAf(metrics.Unit(t.unit), "%s has no %s %s", sets[s].Name, dbms, t.name)
							g.tests[j].noise[s] = math.NaN()
						}
					}
					g.tests[j].values[i] = t.values[m]
					g.tests[j].noise[i] = t.noise[m]
				}
			}
		}
	}
	rep.Series = &SeriesPart{Caption: fmt.Sprintf("The result sets %s are taken as a series in this order; each DBMS in them is a series of its own. "+
		"Per test: the throughput relative to the first set, the change points found (where the level shifted) and a chart. "+
		"The legend says how change points are found.", strings.Join(names, ", "))}
	for _, k := range order {
		if g := buildSeries(*groups[k], stats.ChangePointOptions{}); g != nil {
			g.keys = noiseKeys[k]
			rep.Series.Groups = append(rep.Series.Groups, g)
		}
	}
	learnSeriesNoise(rep, len(sets))
	rep.Series.findings()
	rep.Plausibility = seriesPlausibility(rep.Series)
	rep.Legend = []LegendItem{{"series", seriesLegend}, {"history", historyLegend}}
	return rep, nil
}

// MinHistory is the fewest earlier result sets History judges against,
// so that a caller can refuse a short series before loading it. A level
// of fewer runs gives no usable prediction interval.
const MinHistory = 3

// historyLegend explains the history check of `ibreport diff --history`.
var historyLegend = fmt.Sprintf("diff --history judges the last result set (NEW) against those before it: per DBMS and test, "+
	"the current level of the history is its members after its last change point (all of them when fewer than %d follow it); "+
	"NEW is a regression when it is below the prediction interval of that level for one more run (mean ± t·sd·√(1+1/n)) and more than %g%% below its mean, "+
	"an improvement when above it and more than %g%% above. The interval's level is %g%% for the whole run, not per test (Bonferroni: 1 − %g/m for m tests checked), "+
	"so that a run of 40 tests is not flagged by chance one time in two; a short history gives wide intervals. A fall NEW alone does not show is also a regression when NEW and the run before it, or the two before it, fell together below the level before them (their mean below it by t·sd·√(1/k + 1/w) at 1 − %g/(2m) per window, and by %g%%): a shift missed on its first night is found on the next two, before the history takes it as its new level. "+
	"Each test's sd is moderated towards the median of its series' tests (%d degrees of freedom borrowed, as limma's moderated t), so that a level of 4 runs does not need a fall of 70%%. "+
	"Together a history of runs with no change alerts on about 1.3 nights in 100 (2%% noise, simulated; 1.4 when a third of the tests are three times as noisy), and a fall of 3.5 noises (−7%% at 2%%) is found within three nights in 96%% of histories. Lower throughput is worse for every test: a regression is light orange (▽), red (▼) when more than %d%% below; an improvement light blue (△), blue (▲) when more than %d%% above.", MinHistory, 100*historyMinDelta, 100*historyMinDelta,
	100*(1-historyAlpha), historyAlpha, historyWindowAlpha, 100*historyMinDelta, historyPriorDF, muchBandStep, muchBandStep)

// historyMinDelta is the smallest change History calls a regression or an
// improvement, however quiet the history: 1%.
const historyMinDelta = 0.01

// HistoryVerdict counts the outcome of History.
type HistoryVerdict struct {
	Regressions, Improvements, Missing, Checked int
	// Acknowledged counts the tests whose verdict an acknowledged change
	// (BuildOptions.Acknowledged) set: a move of NEW not counted, or a
	// new level too short to judge.
	Acknowledged int
	// Unconfirmed counts, with BuildOptions.Confirm, the tests whose NEW
	// fell below the interval while the run before it did not: not
	// regressions until the next run agrees.
	Unconfirmed int
	// RunNoise is the run-to-run noise the history measured, as
	// `series --noise-settings` writes it for run-noise: per test the
	// relative standard deviation of one run learned from the successive
	// differences of the runs of its current level before NEW
	// (stats.RunNoise, Report.LearnedNoise), pooled over the series
	// (PooledNoise), and the median over the tests (0.012 = 1.2% per
	// run). 0 when no test learned one: levels of fewer than
	// stats.MinNoiseRuns runs, or identical runs. A baseline folder can
	// carry it for one-run gates (the settings key run-noise, or diff
	// --run-noise).
	RunNoise float64
}

// Status is the one-word outcome of the history check: FAIL with a
// regression, MISSING when NEW lacks values the history has (bad input,
// exit 2), PASS otherwise.
func (v HistoryVerdict) Status() string {
	switch {
	case v.Missing > 0:
		return "MISSING"
	case v.Regressions > 0:
		return "FAIL"
	}
	return "PASS"
}

// ExitCode is the exit status of `ibreport diff --history`: 2 when NEW
// lacks values the history has, 1 on a regression, else 0.
func (v HistoryVerdict) ExitCode() int {
	switch {
	case v.Missing > 0:
		return 2
	case v.Regressions > 0:
		return 1
	}
	return 0
}

// Line is the verdict in one line, for logs and the GitHub notice.
func (v HistoryVerdict) Line() string {
	return fmt.Sprintf("ibreport diff --history: %s (%s)", v.Status(), v.Counts())
}

// Counts is what the verdict counted: "34 checked, 4 regressions, 0
// improvements, 0 missing in NEW", with the unconfirmed and acknowledged
// tests when there are any.
func (v HistoryVerdict) Counts() string {
	s := fmt.Sprintf("%d checked, %d regressions, %d improvements, %d missing in NEW", v.Checked, v.Regressions, v.Improvements, v.Missing)
	if v.Unconfirmed > 0 {
		s += fmt.Sprintf(", %d unconfirmed", v.Unconfirmed)
	}
	if v.Acknowledged > 0 {
		s += fmt.Sprintf(", %d acknowledged", v.Acknowledged)
	}
	return s
}

// HistoryStatus is the verdict of `ibreport diff --history` in the report
// model, so that its JSON carries the status and exit code.
type HistoryStatus struct {
	Status       string `json:"status"` // PASS, FAIL or MISSING
	ExitCode     int    `json:"exit_code"`
	Checked      int    `json:"checked"`
	Regressions  int    `json:"regressions"`
	Improvements int    `json:"improvements"`
	Missing      int    `json:"missing"`
	Acknowledged int    `json:"acknowledged"`
	// Unconfirmed is HistoryVerdict.Unconfirmed.
	Unconfirmed int `json:"unconfirmed"`
	// Confirm says BuildOptions.Confirm was set.
	Confirm bool `json:"confirm"`
	// RunNoise is HistoryVerdict.RunNoise.
	RunNoise float64 `json:"run_noise"`
}

// Verdict is the HistoryVerdict the status was made of (History builds
// one from the other), for its Line and Counts. Nil gives the zero
// verdict.
func (s *HistoryStatus) Verdict() HistoryVerdict {
	if s == nil {
		return HistoryVerdict{}
	}
	return HistoryVerdict{Regressions: s.Regressions, Improvements: s.Improvements, Missing: s.Missing, Checked: s.Checked,
		Acknowledged: s.Acknowledged, Unconfirmed: s.Unconfirmed, RunNoise: s.RunNoise}
}

// History judges the last set of a series (NEW) against the noise of the
// sets before it, as the report's legend explains. The report is that of
// BuildSeries, with a history table added to each group. It wants at least
// MinHistory sets before NEW: with fewer it returns an error wrapping
// ErrBadInput.
func History(sets []ResultSet, opt BuildOptions) (*Report, HistoryVerdict, error) {
	if len(sets) == 0 {
		return nil, HistoryVerdict{}, inputerr.Errorf("no result sets")
	}
	var v HistoryVerdict
	if len(sets) < MinHistory+1 {
		return nil, v, inputerr.Errorf("--history needs at least %d result sets before NEW, got %d", MinHistory, len(sets)-1)
	}
	rep, err := BuildSeries(sets, opt)
	if err != nil {
		return nil, v, err
	}
	rep.Title = fmt.Sprintf("%s against a history of %s", sets[len(sets)-1].Name, metrics.Plural(len(sets)-1, "result set"))
	learnSeriesNoise(rep, len(sets)-1) // from the history, not NEW
	m := 0
	for _, g := range rep.Series.Groups {
		m += len(g.Tests)
	}
	acks, err := ackIndex(opt.Acknowledged, sets, rep.Series.Groups)
	if err != nil {
		return nil, v, err
	}
	for _, g := range rep.Series.Groups {
		g.History = historyTable(g, max(m, 1), &v, acks, opt.Confirm)
	}
	if len(rep.LearnedNoise) > 0 {
		pooled := PooledNoise(rep.LearnedNoise)
		v.RunNoise = medianNoise(pooled)
		rep.Notes = append(rep.Notes, metrics.Warning{Text: runNoiseNote(pooled, rep.LearnedNoise)})
	}
	// The history takes no --clients: its insert-rate targets are not
	// judged, and a note must not advise a flag diff does not accept.
	for i, n := range rep.Notes {
		rep.Notes[i].Text = strings.ReplaceAll(n.Text, " (use --clients)", "")
	}
	rep.History = &HistoryStatus{Status: v.Status(), ExitCode: v.ExitCode(), Checked: v.Checked,
		Regressions: v.Regressions, Improvements: v.Improvements, Missing: v.Missing, Acknowledged: v.Acknowledged,
		Unconfirmed: v.Unconfirmed, Confirm: opt.Confirm, RunNoise: v.RunNoise}
	if opt.Confirm {
		rep.Notes = append(rep.Notes, metrics.Warning{Text: confirmNote})
	}
	if v.Checked == 0 && v.Missing == 0 && v.Acknowledged == 0 {
		// Not a pass: a member of another kind (a sysbench folder among
		// insert-benchmark ones) or of other tests leaves every test
		// without enough history, and nothing was judged.
		return nil, v, inputerr.Errorf("the history checked nothing: of %s in %d series, none has a value in NEW (%s) and in at least %d of the %d result sets before it; tests with a value per set: %s",
			metrics.Plural(m, "test"), len(rep.Series.Groups), sets[len(sets)-1].Name, MinHistory, len(sets)-1, valuesPerSet(rep.Series.Groups, sets))
	}
	return rep, v, nil
}

// valuesPerSet says how many tests of the groups each set has a value for:
// "night1 10, sb 0, night3 10".
func valuesPerSet(groups []*SeriesGroup, sets []ResultSet) string {
	parts := make([]string, len(sets))
	for j, set := range sets {
		n := 0
		for _, g := range groups {
			for i := range g.Tests {
				if j < len(g.Values[i]) && !math.IsNaN(float64(g.Values[i][j])) {
					n++
				}
			}
		}
		parts[j] = fmt.Sprintf("%s %d", set.Name, n)
	}
	return strings.Join(parts, ", ")
}

// historyTable judges the last member of g against the others; m is the
// number of tests judged in the whole run, for the Bonferroni correction.
func historyTable(g *SeriesGroup, m int, v *HistoryVerdict, acks map[string]ackRef, confirm bool) *Table {
	n := len(g.Members)
	t := &Table{ID: g.ID + ".history", Title: g.Title + ": " + g.Members[n-1] + " against the history",
		Caption: fmt.Sprintf("The current level of the history (its members from its last change point of the change-point table that leaves at least %d of them), "+
			"its prediction interval for one more run (%g%% for all %d tests together), NEW, the verdict and the detectable change: "+
			"the smallest drop of NEW below the level's mean that would have been a regression.", MinHistory, 100*(1-historyAlpha), m),
		Header: []string{"test", "level from", "runs", "mean", "interval", "NEW", "change", "detectable", "verdict"}}
	prior := groupPrior(g)
	for i, name := range g.Tests {
		hist := historyOf(g, i)
		from := levelStart(g, name, n-1)
		ack, acked := ackFor(acks, name)
		ackAt := -1
		if acked {
			ackAt = ack.at
		}
		anew := ackAt > from && ackAt < n-1 // an acknowledged change began a level
		if anew {
			from = ackAt
		}
		level := numbers(hist[from:])
		if len(level) < MinHistory && !anew {
			from = max(ackAt, 0)
			level, anew = numbers(hist[from:]), ackAt > 0
		}
		newer := float64(g.Values[i][n-1])
		row := Row{Kind: DataRow, Cells: []Cell{{Text: name}, {Text: g.Labels[from]}, numCell(float64(len(level)), 0, "", "")}}
		if anew && len(level) < MinHistory {
			// Not judged: the runs since the acknowledged change are its
			// only reference, and too few.
			na := Cell{Text: "NA", NA: fmt.Sprintf("the level since the acknowledged change has %d runs, fewer than %d", len(level), MinHistory), Band: NotANumber}
			row.Cells = append(row.Cells, na, na, levelCell(newer, g.Unit), na, na, Cell{Text: "new level, acknowledged: " + ack.reason})
			t.Rows = append(t.Rows, row)
			v.Acknowledged++
			continue
		}
		if len(level) < MinHistory || math.IsNaN(newer) {
			// Only what the history has and NEW lacks is missing.
			why := fmt.Sprintf("fewer than %d runs of the history have a value", MinHistory)
			verdict := "no history"
			if len(level) >= MinHistory {
				why, verdict = "NEW has no value", "missing"
				v.Missing++
			}
			na := Cell{Text: "NA", NA: why, Band: NotANumber}
			row.Cells = append(row.Cells, na, na, levelCell(newer, g.Unit), na, na, Cell{Text: verdict})
			t.Rows = append(t.Rows, row)
			continue
		}
		mean, sd, df := moderated(level, prior)
		half := oneRunHalf(sd, df, len(level), m)
		change := newer/mean - 1
		verdict, band := "ok", NoBand
		lasting := ""
		alone := newer < mean-half && change < -historyMinDelta
		// A fall found over several runs is judged against the level
		// before them: found on the nights after its first, or, with
		// confirm, NEW's own fall that the runs before it confirm.
		ref, runs, since := windowRef{}, 0, ""
		if !alone || confirm {
			if w, r, s := historyWindow(g, i, hist, newer, m, prior, ackAt, confirm); w > 0 {
				ref, runs, since = r, w+1, s
			}
		}
		unconfirmed := false
		if confirm && alone && runs == 0 {
			if r, fell := previousFell(g, i, hist, m, prior, ackAt); fell {
				ref, runs, since = r, 2, g.Labels[n-2]
			} else {
				unconfirmed = true
			}
		}
		if runs > 0 {
			mean, half, from, level = ref.mean, ref.half, ref.from, ref.level
			change = newer/mean - 1
			lasting = fmt.Sprintf(", for %d runs (since %s)", runs, since)
			row.Cells[1], row.Cells[2] = Cell{Text: g.Labels[from]}, numCell(float64(len(level)), 0, "", "")
		}
		switch {
		case unconfirmed:
			verdict, band = "unconfirmed regression: the next run decides", Worse
		case lasting != "" || alone:
			verdict, band = "regression", Worse
			if change < -muchBandStep/100.0 {
				band = MuchWorse
			}
		case newer > mean+half && change > historyMinDelta:
			verdict, band = "improvement", Better
			if change > muchBandStep/100.0 {
				band = MuchBetter
			}
		}
		switch {
		case verdict != "ok" && ackAt == n-1:
			// NEW's move is known: shown, not counted.
			verdict += ", acknowledged: " + ack.reason
			v.Acknowledged++
		case unconfirmed:
			v.Unconfirmed++
		case verdict == "regression":
			v.Regressions++
		case verdict == "improvement":
			v.Improvements++
		}
		v.Checked++
		pct := 100 * change
		pctCell := Cell{Text: fmt.Sprintf("%+.1f%%", pct), Value: &pct, Unit: "percent", Band: band}
		switch {
		case mean == 0:
			// Nothing is relative to 0: the verdict stands, the change
			// has no number.
			pctCell = Cell{Text: "NA", NA: "base: the history's mean is 0", Band: NotANumber}
		case math.IsNaN(pct) || math.IsInf(pct, 0):
			// NaN and Inf are no values of the model (the JSON encoder
			// refuses them).
			pctCell = Cell{Text: "NA", NA: "the change is not a number", Band: NotANumber}
		}
		// The smallest drop that fails: below the interval and beyond the
		// minimum change, whichever is larger.
		det := Cell{Text: "NA", NA: "base: the history's mean is 0", Band: NotANumber}
		if mean > 0 {
			d := -100 * math.Max(half/mean, historyMinDelta)
			det = Cell{Text: fmt.Sprintf("%+.1f%%", d), Value: &d, Unit: "percent"}
		}
		row.Cells = append(row.Cells, levelCell(mean, g.Unit),
			Cell{Text: levelCell(mean-half, "").Text + " – " + levelCell(mean+half, "").Text},
			levelCell(newer, g.Unit), pctCell, det,
			Cell{Text: verdict + lasting, Band: band})
		t.Rows = append(t.Rows, row)
	}
	return t
}

// historyPriorDF is the weight, in degrees of freedom, of the group's
// typical noise in each test's moderated standard deviation.
const historyPriorDF = 2

// moderated is the mean of a test's level, its standard deviation
// moderated towards the group's typical relative variance prior (a
// relative variance; 0 none), and the degrees of freedom of that
// estimate: s̃² = (d0·prior·mean² + (k−1)·s²)/(d0 + k − 1), d0 =
// historyPriorDF, as limma's moderated t does with many genes of few
// samples. A level of 4 runs alone has 3 degrees of freedom: its t at the
// run's Bonferroni level is about 20, so that only a fall of 70% shows
// (PostgreSQL 16.11 after 17.6 … 18.1: update-index −45% passed); with 2
// borrowed it is about 10, and a test noisier than the others keeps most
// of its own variance (simulated: 1.4 false alerts per 100 nights with a
// third of the tests 3 times as noisy, 1.3 with all alike).
func moderated(level []float64, prior float64) (mean, sd, df float64) {
	mean, sd = stat.MeanStdDev(level, nil)
	df = float64(len(level) - 1)
	if !(prior > 0) || math.IsNaN(sd) || !(mean > 0) {
		return mean, sd, df
	}
	v := (historyPriorDF*prior*mean*mean + df*sd*sd) / (historyPriorDF + df)
	return mean, math.Sqrt(v), df + historyPriorDF
}

// historyOf is test i's values of the members before NEW (the last).
func historyOf(g *SeriesGroup, i int) []float64 {
	hist := make([]float64, len(g.Members)-1)
	for j := range hist {
		hist[j] = float64(g.Values[i][j])
	}
	return hist
}

// groupPrior is the median relative variance of the current levels of the
// group's tests (those of at least MinHistory runs before NEW): the noise
// moderated draws each test's towards. 0 with fewer than 3 such tests.
func groupPrior(g *SeriesGroup) float64 {
	n := len(g.Members)
	var vs, dfs []float64
	for i, name := range g.Tests {
		hist := historyOf(g, i)
		level := numbers(hist[levelStart(g, name, n-1):])
		if len(level) < MinHistory {
			level = numbers(hist)
		}
		if len(level) < MinHistory {
			continue
		}
		if mean, sd := stat.MeanStdDev(level, nil); mean > 0 && !math.IsNaN(sd) {
			vs = append(vs, sd*sd/(mean*mean))
			dfs = append(dfs, float64(len(level)-1))
		}
	}
	if len(vs) < 3 {
		return 0
	}
	// The median of variances of d degrees of freedom is that of σ²·χ²_d/d,
	// below σ² (0.79σ² for d = 3): divided by it, the median is σ² for
	// tests of the same noise.
	d := stats.MedianUnsorted(dfs)
	return stats.MedianUnsorted(vs) / (distuv.ChiSquared{K: d}.Quantile(0.5) / d)
}

// historyWindows is how many runs before NEW its windows reach back;
// historyWindowAlpha the share of false alerts per night the windows add
// to NEW's own 0.05 (two-sided), split over the tests and windows.
const (
	historyWindows     = 2
	historyWindowAlpha = 0.0125
	// historyAlpha is NEW's own check's, two-sided.
	historyAlpha = 0.01
)

// windowRef is the level a window of runs is judged against.
type windowRef struct {
	mean, half float64
	from       int
	level      []float64
}

// historyWindow checks whether the last w runs of the history and NEW
// (w = 1, 2) fell together below the level before them: a shift that one
// run did not show beyond the interval, which the history would otherwise
// take as its new level once a change point marks it. The window's mean
// must lie below the level's mean by its interval (t·sd·√(1/k + 1/(w+1)),
// t at 1 − 0.01/(2m), one-sided) and by historyMinDelta, and NEW below the
// level too (with confirm, every run of the window, by half the interval).
// It returns the smallest such w (0 for none), the level, and the label of
// the window's first run.
func historyWindow(g *SeriesGroup, test int, hist []float64, newer float64, m int, prior float64, ackAt int, confirm bool) (int, windowRef, string) {
	n := len(hist)
	for w := 1; w <= historyWindows && w < n; w++ {
		start := n - w
		win := append(slices.Clone(hist[start:]), newer)
		if slices.ContainsFunc(win, math.IsNaN) || ackAt >= start {
			// A window that holds an acknowledged change is no fall.
			continue
		}
		from, level := levelBefore(g, test, hist, start, ackAt)
		if len(level) < MinHistory {
			continue
		}
		mean, sd, df := moderated(level, prior)
		k := float64(len(level))
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - historyWindowAlpha/float64(historyWindows*m))
		wm := stat.Mean(win, nil)
		half := q * sd * math.Sqrt(1/k+1/float64(w+1))
		// With confirm every run of the window is below the level by half
		// the window's interval (and by historyMinDelta), not only NEW:
		// one run far off does not make a window fall.
		below := newer < mean*(1-historyMinDelta)
		if confirm {
			bar := mean - math.Max(half/2, historyMinDelta*mean)
			below = !slices.ContainsFunc(win, func(x float64) bool { return !(x < bar) })
		}
		if mean > 0 && wm < mean-half && wm/mean-1 < -historyMinDelta && below {
			return w, windowRef{mean: mean, half: oneRunHalf(sd, df, len(level), m), from: from, level: level}, g.Labels[start]
		}
	}
	return 0, windowRef{}, ""
}

// confirmNote explains BuildOptions.Confirm in the report.
const confirmNote = "Confirmed regressions only (--confirm): NEW below its interval while the run before it was not below its own is an unconfirmed regression, shown and not failing; " +
	"the next run confirms it (both below) or clears it. A fall that NEW and the runs before it show together is confirmed by them when each of them lies below the level by half the window's interval."

// previousFell says whether the run before NEW (the history's last) was
// itself a regression by NEW's own rule: below the prediction interval of
// the level before it, at the run's level, and by historyMinDelta; and
// that level, which NEW is then judged against. A run with no value, or
// without a level of MinHistory runs before it, did not fall.
func previousFell(g *SeriesGroup, test int, hist []float64, m int, prior float64, ackAt int) (windowRef, bool) {
	n := len(hist)
	if n < MinHistory+1 || math.IsNaN(hist[n-1]) || ackAt >= n-1 {
		return windowRef{}, false
	}
	from, level := levelBefore(g, test, hist, n-1, ackAt)
	if len(level) < MinHistory {
		return windowRef{}, false
	}
	mean, sd, df := moderated(level, prior)
	half := oneRunHalf(sd, df, len(level), m)
	prev := hist[n-1]
	return windowRef{mean: mean, half: half, from: from, level: level}, mean > 0 && prev < mean-half && prev/mean-1 < -historyMinDelta
}

// levelBefore is the level the runs of test from index start on are
// judged against: its runs between the last change point before start
// (or the acknowledged change ackAt, when later) and start; all runs
// before start when fewer than MinHistory follow the change point and no
// change is acknowledged.
func levelBefore(g *SeriesGroup, test int, hist []float64, start, ackAt int) (from int, level []float64) {
	from = max(levelStart(g, g.Tests[test], start), ackAt)
	level = numbers(hist[from:start])
	if len(level) < MinHistory && ackAt < 0 {
		from, level = 0, numbers(hist[:start])
	}
	return from, level
}

// oneRunHalf is the half-width of the prediction interval of one more run
// of a level of k runs (moderated sd and its degrees of freedom df), at
// the run's two-sided level historyAlpha over m tests:
// t·sd·√(1 + 1/k).
func oneRunHalf(sd, df float64, k, m int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1-historyAlpha/float64(2*m)) * sd * math.Sqrt(1+1/float64(k))
}

// runNoiseNote says the run-to-run noise the history measured (pooled,
// PooledNoise of learned: each test's, pooled over its series) and how a
// one-run gate takes it; with none learned, why.
func runNoiseNote(pooled, learned []LearnedNoise) string {
	med := medianNoise(pooled)
	if !(med > 0) {
		// Per test, as pooled counts them, not per series.
		identical, short := 0, 0
		seen := map[string]bool{}
		for _, l := range learned {
			if seen[l.Key] {
				continue
			}
			seen[l.Key] = true
			if strings.Contains(l.Why, "identical") {
				identical++
			} else {
				short++
			}
		}
		var why []string
		if identical > 0 {
			why = append(why, fmt.Sprintf("the runs of %s are identical", metrics.Plural(identical, "test")))
		}
		if short > 0 {
			have := "have"
			if short == 1 {
				have = "has"
			}
			why = append(why, fmt.Sprintf("%s %s fewer than %d runs in the current level", metrics.Plural(short, "test"), have, stats.MinNoiseRuns))
		}
		return fmt.Sprintf("Run-to-run noise of the history: none; %s (a one-run gate keeps its default).", strings.Join(why, "; "))
	}
	lo, hi := pooled[0].Noise, pooled[0].Noise
	for _, p := range pooled {
		lo, hi = math.Min(lo, p.Noise), math.Max(hi, p.Noise)
	}
	return fmt.Sprintf("Run-to-run noise of the history: %.2g%% per run, the median over %s of each test's relative standard deviation of one run, "+
		"learned from the successive differences of the runs of its current level before NEW and pooled over its series (%.2g%%–%.2g%%); "+
		"a one-run diff against one of these runs can take it: run-noise = %.2g in the baseline's ibreport.settings, or diff --run-noise %.2g; "+
		"each test's own, as the notes of the series list it: ibreport series with these folders and --noise-settings BASELINE/ibreport.settings.",
		100*med, metrics.Plural(len(pooled), "test"), 100*lo, 100*hi, med, med)
}

// levelStart is where the current level of a test's history begins: the
// member of its last change point in the series' change points (the
// change-point table's), among those leaving at least MinHistory members
// of the history after it; 0 without one. The history is the first hist
// members. One set of change points serves every table of the report.
func levelStart(g *SeriesGroup, test string, hist int) int {
	from := 0
	for _, c := range g.Changes {
		// A one-release dip is not a level NEW is judged against.
		if c.Test == test && !c.Single && c.Index > from && hist-c.Index >= MinHistory {
			from = c.Index
		}
	}
	return from
}

// levelCell prints a throughput: no decimals from 100 up, two below; NA
// when NEW has none.
func levelCell(v float64, unit string) Cell {
	if math.Abs(v) >= 100 {
		return numCell(v, 0, unit, "no value")
	}
	return numCell(v, 2, unit, "no value")
}

// numbers are the values of x that are numbers.
func numbers(x []float64) []float64 {
	var out []float64
	for _, v := range x {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	return out
}
