package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Run-to-run noise learned per test.
//
// A series of result sets that are runs of the same thing (nightly runs)
// measures each test's own run-to-run noise: per series (DBMS) and test,
// stats.RunNoise of the runs of its current level, those after its last
// change point, one-release dips left out. `series` and `diff --history`
// show it in a note per series; `series --noise-settings FILE` writes it
// as settings keys a baseline folder carries (NoiseSettings), which
// one-run `diff` reads per cell.

// LearnedNoise is the run-to-run noise of one test of one series.
type LearnedNoise struct {
	// Key names the test as diff names its cell: step and metric
	// ("l.i0.ips", "qr100.L1.qps"), or sysbench test, thread count and
	// metric ("point-query.range100.dop1.qps").
	Key    string `json:"key"`
	Series string `json:"series"` // the series' title ("Insert benchmark: pg15.c1")
	Test   string `json:"test"`   // the test as the series names it ("qr100")
	// Noise is the relative standard deviation of one run (0.012 = 1.2%);
	// 0 when none was learned, and Why says why.
	Noise float64 `json:"noise"`
	Runs  int     `json:"runs"` // the runs of the level it rests on
	From  string  `json:"from"` // label of the level's first run
	Why   string  `json:"why,omitempty"`
}

// NoiseShape is the shape of the run-to-run noise that the runs of a
// series of result sets show, all tests together (stats.LearnTailDF): the
// normal, or a Student t of few degrees of freedom whose tails are heavier
// (a run now and then far off). A one-run gate that takes heavy tails for
// normal fails a quarter to four fifths of the reports with no change.
type NoiseShape struct {
	// DF is 0 for the normal, else the t's degrees of freedom (3, 4, 5,
	// 7, 10 or 20): the settings key run-noise-df.
	DF float64 `json:"df"`
	// Runs are the runs it rests on (those the per-test noise rests on).
	Runs int `json:"runs"`
	// Why says why no shape was learned (too few runs); then DF is 0 and
	// the settings keep what they had.
	Why string `json:"why,omitempty"`
}

// learnShape learns the shape of the noise from the runs of each test.
func learnShape(tests [][]float64) *NoiseShape {
	n := 0
	for _, x := range tests {
		if len(x) >= stats.MinNoiseRuns {
			n += len(x)
		}
	}
	df, ok := stats.LearnTailDF(tests)
	if !ok {
		return &NoiseShape{Runs: n, Why: fmt.Sprintf("%d runs of levels of at least %d, fewer than %d", n, stats.MinNoiseRuns, stats.MinTailValues)}
	}
	return &NoiseShape{DF: df, Runs: n}
}

// shapeNote says the learned shape.
func shapeNote(s *NoiseShape) string {
	switch {
	case s == nil:
		return ""
	case s.Why != "":
		return shapeNotePrefix + " not learned (" + s.Why + "): a one-run diff takes it as normal."
	case s.DF == 0:
		return fmt.Sprintf(shapeNotePrefix+", from the %d runs of all tests: normal.", s.Runs)
	}
	return fmt.Sprintf(shapeNotePrefix+", from the %d runs of all tests: heavy tails, a Student t of %g degrees of freedom (a run now and then far off); --noise-settings writes it as run-noise-df, and a one-run diff's thresholds are that t's.", s.Runs, s.DF)
}

// noiseNotePrefix starts the note of a series' learned noise.
const noiseNotePrefix = "Run-to-run noise per test"

// seriesNoiseKeys names each test of a series input as diff names its
// throughput cell: an insert-benchmark summary column by its step's merge
// name and ips (qps for read+write steps), a sysbench test by its key,
// thread count and qps. Nil for kinds it does not know.
func seriesNoiseKeys(steps []StepInfo, in seriesInput) map[string]string {
	out := map[string]string{}
	switch {
	case in.kind == "ib":
		for _, st := range steps {
			m := metrics.IPS.Name()
			if st.ReadWrite {
				m = metrics.QPS.Name()
			}
			out[st.Column] = st.Name + "." + m
		}
	case strings.HasPrefix(in.kind, "sb."):
		dop := strings.TrimPrefix(in.kind, "sb.")
		for _, t := range in.tests {
			typ, rng, ok := strings.Cut(t.name, " range=")
			if !ok {
				continue
			}
			out[t.name] = typ + ".range" + rng + "." + dop + "." + metrics.QPS.Name()
		}
	}
	return out
}

// addNoiseKeys adds keys to the keys of a series, as BuildSeries meets the
// result sets.
func addNoiseKeys(to map[string]string, keys map[string]string) map[string]string {
	if to == nil {
		to = map[string]string{}
	}
	for k, v := range keys {
		if _, ok := to[k]; !ok {
			to[k] = v
		}
	}
	return to
}

// learnSeriesNoise learns each test's run-to-run noise from the first hist
// members of every series of rep whose tests have keys (a series of
// result sets), sets rep.LearnedNoise and gives each series a note, in
// place of those of an earlier call.
func learnSeriesNoise(rep *Report, hist int) {
	if rep == nil || rep.Series == nil {
		return
	}
	rep.LearnedNoise, rep.NoiseShape = nil, nil
	var runs [][]float64
	for _, g := range rep.Series.Groups {
		g.Notes = slices.DeleteFunc(g.Notes, func(n string) bool { return strings.HasPrefix(n, noiseNotePrefix) })
		if len(g.keys) == 0 {
			continue
		}
		var learned []LearnedNoise
		for i, test := range g.Tests {
			key := g.keys[test]
			if key == "" || i >= len(g.Values) {
				continue
			}
			from := noiseLevelStart(g, test, hist)
			var x []float64
			for j := from; j < min(hist, len(g.Values[i])); j++ {
				if !singleAt(g, test, j) {
					x = append(x, float64(g.Values[i][j]))
				}
			}
			e := stats.RunNoise(x)
			runs = append(runs, x)
			ln := LearnedNoise{Key: key, Series: g.Title, Test: test, Noise: e.Noise, Runs: e.Runs, Why: e.Why}
			if from < len(g.Labels) {
				ln.From = g.Labels[from]
			}
			learned = append(learned, ln)
		}
		if len(learned) > 0 {
			g.Notes = append(g.Notes, noiseNote(learned))
		}
		rep.LearnedNoise = append(rep.LearnedNoise, learned...)
	}
	rep.Notes = slices.DeleteFunc(rep.Notes, func(w metrics.Warning) bool { return strings.HasPrefix(w.Text, shapeNotePrefix) })
	if len(rep.LearnedNoise) > 0 {
		rep.NoiseShape = learnShape(runs)
		rep.Notes = append(rep.Notes, metrics.Warning{Text: shapeNote(rep.NoiseShape)})
	}
}

// shapeNotePrefix starts the note of the learned shape.
const shapeNotePrefix = "Shape of the run-to-run noise"

// noiseLevelStart is where the level the noise of a test is learned from
// begins: its last change point before member hist (not a one-release
// dip), else 0.
func noiseLevelStart(g *SeriesGroup, test string, hist int) int {
	from := 0
	for _, c := range g.Changes {
		if c.Test == test && !c.Single && c.Index > from && c.Index < hist {
			from = c.Index
		}
	}
	return from
}

// singleAt reports whether member j of the test is a one-release level:
// a run far off that is no run-to-run noise of its neighbours.
func singleAt(g *SeriesGroup, test string, j int) bool {
	return slices.ContainsFunc(g.Changes, func(c SeriesChange) bool { return c.Test == test && c.Single && c.Index == j })
}

// noiseNote says a series' learned noise compactly: "Run-to-run noise per
// test …: l.i0 0.81% (12), l.x 1.1% (12); not learned: qr100 (3 runs,
// fewer than 5)".
func noiseNote(learned []LearnedNoise) string {
	var got, not []string
	for _, l := range learned {
		if l.Noise > 0 {
			got = append(got, fmt.Sprintf("%s %s (%d)", l.Test, noisePct(l.Noise), l.Runs))
		} else {
			not = append(not, fmt.Sprintf("%s (%s)", l.Test, l.Why))
		}
	}
	s := noiseNotePrefix + ", learned from the runs of its current level (after its last change point; the relative standard deviation of one run from their successive differences; runs in parentheses)"
	if len(got) > 0 {
		s += ": " + strings.Join(got, ", ")
	}
	if len(not) > 0 {
		s += fmt.Sprintf("; not learned, a one-run diff judges them with the report's run noise: %s", strings.Join(not, ", "))
	}
	return s + "."
}

// noisePct prints a relative noise with two significant digits: "0.81%".
func noisePct(x float64) string {
	return strconv.FormatFloat(100*x, 'g', 2, 64) + "%"
}

// PooledNoise is the run-to-run noise of each test learned by a report,
// pooled over its series (stats.PoolRunNoise: the variances weighted by
// their degrees of freedom, from their runs), by key in order: what
// NoiseSettings writes. Tests none of whose series learned any are left out.
func PooledNoise(learned []LearnedNoise) []LearnedNoise {
	by := map[string][]stats.RunNoiseEstimate{}
	var keys []string
	for _, l := range learned {
		if _, ok := by[l.Key]; !ok {
			keys = append(keys, l.Key)
		}
		by[l.Key] = append(by[l.Key], stats.RunNoiseEstimate{Noise: l.Noise, Runs: l.Runs, DF: stats.RunNoiseDF(l.Runs), Why: l.Why})
	}
	slices.Sort(keys)
	var out []LearnedNoise
	for _, k := range keys {
		if e := stats.PoolRunNoise(by[k]); e.Noise > 0 {
			out = append(out, LearnedNoise{Key: k, Noise: e.Noise, Runs: e.Runs})
		}
	}
	return out
}

// settingsHeader starts the lines NoiseSettings writes; an earlier
// block of them is replaced.
const settingsHeader = "# run-to-run noise learned by ibreport series --noise-settings"

// NoiseSettings is the settings file old (nil for none) with the
// run-to-run noise of pooled (PooledNoise) in place of its run-noise
// keys: one key run-noise.<key> per test, and run-noise, the median of
// the tests', for the cells of other tests. Every other line of old is
// kept. A learned shape (nil or with Why: none) replaces the key
// run-noise-df: written when heavy-tailed, left out when normal. from
// says what it was learned from, for the comment.
func NoiseSettings(old []byte, pooled []LearnedNoise, shape *NoiseShape, from string) []byte {
	learned := shape != nil && shape.Why == ""
	var b bytes.Buffer
	// The settings reader drops a leading byte order mark: so must the
	// match of the keys replaced, or a key would be set twice.
	for line := range strings.Lines(strings.TrimPrefix(string(old), "\ufeff")) {
		t := strings.TrimSpace(line)
		k, _, _ := strings.Cut(t, "=")
		k = strings.TrimSpace(k)
		if k == "run-noise" || strings.HasPrefix(k, "run-noise.") || learned && k == parse.RunNoiseDFKey || strings.HasPrefix(t, settingsHeader) || strings.HasPrefix(t, "# (relative standard deviation of one run") {
			continue
		}
		b.WriteString(strings.TrimRight(line, "\r\n") + "\n")
	}
	if len(pooled) == 0 {
		return b.Bytes()
	}
	fmt.Fprintf(&b, "%s from %s\n", settingsHeader, from)
	fmt.Fprintf(&b, "# (relative standard deviation of one run; run-noise.<step>.<metric> per test, run-noise the median of the %d tests)\n", len(pooled))
	fmt.Fprintf(&b, "run-noise = %s\n", noiseValue(medianNoise(pooled)))
	if learned && shape.DF > 0 {
		fmt.Fprintf(&b, "%s = %g\n", parse.RunNoiseDFKey, shape.DF)
	}
	for _, p := range pooled {
		fmt.Fprintf(&b, "run-noise.%s = %s\n", p.Key, noiseValue(p.Noise))
	}
	return b.Bytes()
}

// noiseValue prints a noise for the settings with three significant
// digits; never 0 or 1, which the settings refuse.
func noiseValue(x float64) string {
	x = math.Min(math.Max(x, 1e-6), 0.999)
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// medianNoise is the median of the noise of the tests of pooled
// (PooledNoise) that learned one: the settings' run-noise and
// HistoryVerdict.RunNoise. 0 for none.
func medianNoise(pooled []LearnedNoise) float64 {
	var all []float64
	for _, p := range pooled {
		if p.Noise > 0 {
			all = append(all, p.Noise)
		}
	}
	if len(all) == 0 {
		return 0
	}
	slices.Sort(all)
	return stats.Median(all)
}
