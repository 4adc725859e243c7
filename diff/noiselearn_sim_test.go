package diff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/parse"
)

// The one-run gate with run-to-run noise learned per test: a seeded
// simulation of tests of unequal noise (most 0.5–1% per run, a few 3–5%),
// a history of N nights to learn it from, then one run per side.

// learnBench is a benchmark's real tables reduced to what one baseline
// holds, and the test (key) of each of its throughput cells.
type learnBench struct {
	simBench
	keys  map[simCell]string // the cells whose noise is learned: TestNoiseKey
	cells []simCell          // those cells in order: draws in map order would differ from run to run
}

// keyMetric is the throughput metric a history learns for a table: qps of
// sysbench tests and read+write steps, ips of the others.
func keyMetric(tb ResultTable) string {
	if tb.Kind == "sb" {
		return "qps"
	}
	if st, ok := parse.ParseStepName(tb.Step); ok && st.Kind.ReadWrite() {
		return "qps"
	}
	return "ips"
}

// newLearnBench keeps the rows of the DBMS in keep (all when nil) and
// finds the cells of each test.
func newLearnBench(b simBench, keep []string) learnBench {
	rs := *b.set
	rs.Tables = nil
	for _, tb := range b.set.Tables {
		if keep != nil {
			tb.Rows = slices.DeleteFunc(slices.Clone(tb.Rows), func(r ResultRow) bool { return !slices.Contains(keep, r.DBMS) })
		}
		rs.Tables = append(rs.Tables, tb)
	}
	lb := learnBench{simBench{b.name, b.tables, &rs}, map[simCell]string{}, nil}
	for _, c := range throughputCells(&rs) {
		tb := rs.Tables[c.t]
		if tb.Columns[c.c] == keyMetric(tb) {
			lb.keys[c] = TestNoiseKey(tb.Step, tb.Columns[c.c])
			lb.cells = append(lb.cells, c)
		}
	}
	return lb
}

// testKeys are the tests of the bench, in order.
func (lb learnBench) testKeys() []string {
	var out []string
	for _, k := range lb.keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// trueNoise draws each test's run-to-run noise: noisy of them (chosen at
// random) 3–5% per run, the others 0.5–1%.
func trueNoise(rng *rand.Rand, keys []string, noisy int) map[string]float64 {
	out := map[string]float64{}
	for i, j := range rng.Perm(len(keys)) {
		if i < noisy {
			out[keys[j]] = 0.03 + 0.02*rng.Float64()
		} else {
			out[keys[j]] = 0.005 + 0.005*rng.Float64()
		}
	}
	return out
}

// jitterPer is jitter with the noise of each cell's test: the cells of a
// test with a true noise get it, every other cell otherSD.
func jitterPer(rng *rand.Rand, lb learnBench, noise map[string]float64, otherSD, df float64, drop map[simCell]bool, d float64) *ResultSet {
	return jitterCells(rng, lb.set, func(c simCell) float64 {
		if k, ok := lb.keys[c]; ok {
			return noise[k]
		}
		return otherSD
	}, df, drop, d, nil)
}

// learnNoise learns each test's noise from a history of nights runs, as
// `ibreport series --noise-settings` does: per test and DBMS
// stats.RunNoise of its values, pooled over the DBMS; and the global
// figure, the median of the tests'.
func learnNoise(rng *rand.Rand, lb learnBench, noise map[string]float64, nights int, df float64) (map[string]float64, float64, float64) {
	series := map[simCell][]float64{}
	for range nights {
		for _, c := range lb.cells {
			v := lb.set.Tables[c.t].Rows[c.r].Cells[c.c].V
			series[c] = append(series[c], v*(1+noise[lb.keys[c]]*stats.TailDraw(rng, df)))
		}
	}
	per := map[string][]stats.RunNoiseEstimate{}
	var runs [][]float64
	for _, c := range lb.cells {
		per[lb.keys[c]] = append(per[lb.keys[c]], stats.RunNoise(series[c]))
		runs = append(runs, series[c])
	}
	shape, _ := stats.LearnTailDF(runs)
	out := map[string]float64{}
	var all []float64
	for k, es := range per {
		if e := stats.PoolRunNoise(es); e.Noise > 0 {
			out[k] = e.Noise
			all = append(all, e.Noise)
		}
	}
	slices.Sort(all)
	return out, stats.Median(all), shape
}

// learnMode is how the gate is told the run-to-run noise.
type learnMode int

const (
	learnedPerTest learnMode = iota // BASE's settings per test, the median for the rest
	learnedGlobal                   // the median of the tests' learned noise for every cell
	defaultNoise                    // stats.DefaultRunNoise
)

var learnModes = []struct {
	mode learnMode
	name string
}{{learnedPerTest, "per test"}, {learnedGlobal, "global (median)"}, {defaultNoise, "default 1%"}}

// learnCase is one row of the table: what is planted in NEW.
type learnCase struct {
	name   string
	drop   float64
	target string // "quiet" or "noisy": the test whose cell drops
}

var learnCases = []learnCase{
	{"A/A", 0, ""},
	{"-10% on a quiet test", 0.10, "quiet"},
	{"-10% on a noisy test", 0.10, "noisy"},
	{"-25% on a noisy test", 0.25, "noisy"},
}

// learnRate is, per mode, the share of sims one-run reports that fail:
// each with its own true noise per test, history of nights and pair of
// runs.
func learnRate(t *testing.T, lb learnBench, c learnCase, nights, noisy int, seed uint64, sims int) [3]float64 {
	rng := rand.New(rand.NewPCG(seed, uint64(nights)*1000+uint64(c.drop*1e4+0.5)+uint64(len(c.target))))
	keys := lb.testKeys()
	cells := lb.cells
	var fails [3]float64
	for range sims {
		noise := trueNoise(rng, keys, noisy)
		learned, global, _ := learnNoise(rng, lb, noise, nights, 0)
		drop := map[simCell]bool{}
		if c.drop > 0 {
			var pick []simCell
			for _, cell := range cells {
				if q := noise[lb.keys[cell]] < 0.02; q == (c.target == "quiet") {
					pick = append(pick, cell)
				}
			}
			drop[pick[rng.IntN(len(pick))]] = true
		}
		base := jitterPer(rng, lb, noise, stats.DefaultRunNoise, 0, nil, 0)
		newer := jitterPer(rng, lb, noise, stats.DefaultRunNoise, 0, drop, c.drop)
		for _, m := range learnModes {
			b := *base
			opt := DefaultCompareOptions()
			opt.Tables = lb.tables
			switch m.mode {
			case learnedPerTest:
				b.TestNoise, b.RunNoise = learned, global
			case learnedGlobal:
				b.RunNoise = global
			}
			cmp, err := Compare([]*ResultSet{&b}, []*ResultSet{newer}, opt)
			if err != nil {
				t.Fatal(err)
			}
			fails[m.mode] += float64(ExitCode(cmp, false)) / float64(sims)
		}
	}
	return fails
}

// TestLearnedNoiseGate measures the one-run gate on tests of unequal
// noise (most 0.5–1% per run, a few 3–5%: 2 of the insert benchmark's 10
// steps, 4 of the 34 sysbench tests of one DBMS), learned from a history
// of N nights, against the single global figure learned from the same
// history and the default 1%: whole reports failing with no change, and
// −10% on one cell of a quiet and of a noisy test. Every cell that is not
// a test's throughput has 1% noise. IBREPORT_NOISE_SIMS sets the reports
// per seed (default 50), IBREPORT_NOISE_SEEDS the seeds (default 2): the
// table of docs/diff.md is IBREPORT_NOISE_SIMS=200
// IBREPORT_NOISE_SEEDS=5. Asserted: learned per test, no change fails at
// most 5% of reports and less often than with the global figure, and −10%
// on a quiet test is caught in at least 80%.
func TestLearnedNoiseGate(t *testing.T) {
	sims, seeds := 50, 2
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_NOISE_SIMS")); err == nil && s > 0 {
		sims = s
	}
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_NOISE_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	benches := []struct {
		lb    learnBench
		noisy int
	}{
		{newLearnBench(loadSimBench(t, "insert benchmark", "../testdata/ibench/reference/res", "mrg"), nil), 2},
		{newLearnBench(loadSimBench(t, "sysbench", "../testdata/arc/nov25.sb.mysql/dop1", "sb", "sbgroup"), []string{"x.my8406_rel_o2nofp.z12a_c8r32.pk1"}), 4},
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%d reports per seed, %d seeds: share failing, mean (min–max over seeds)\n", sims, seeds)
	for _, b := range benches {
		if len(b.lb.testKeys()) == 0 {
			t.Fatalf("%s: no tests", b.lb.name)
		}
		for _, nights := range []int{10, 20} {
			for _, c := range learnCases {
				fmt.Fprintf(&table, "%-16s N=%-2d %-22s", b.lb.name, nights, c.name)
				var sum [3]float64
				lo, hi := [3]float64{1, 1, 1}, [3]float64{}
				for s := range seeds {
					r := learnRate(t, b.lb, c, nights, b.noisy, uint64(s+1), sims)
					for m := range r {
						sum[m] += r[m] / float64(seeds)
						lo[m], hi[m] = math.Min(lo[m], r[m]), math.Max(hi[m], r[m])
					}
				}
				for _, m := range learnModes {
					fmt.Fprintf(&table, "  %s %.3f (%.3f–%.3f)", m.name, sum[m.mode], lo[m.mode], hi[m.mode])
				}
				table.WriteString("\n")
				per, global := sum[learnedPerTest], sum[learnedGlobal]
				switch {
				case c.drop == 0 && (per > 0.05 || per > global):
					t.Errorf("%s, N=%d, A/A: %.3f of reports fail with the noise learned per test (global %.3f), want at most 0.05 and at most the global's", b.lb.name, nights, per, global)
				case c.target == "quiet" && per < 0.80:
					t.Errorf("%s, N=%d, %s: caught in %.3f with the noise learned per test, want at least 0.80", b.lb.name, nights, c.name, per)
				}
			}
		}
	}
	t.Logf("\n%s", table.String())
}

// TestLearnedTailsGate: run-to-run noise with heavy tails (a t of 3
// degrees of freedom, every test's and every other cell's), each test's
// size and the shape learned from a history of 30 nights as `series
// --noise-settings` learns them. Judged as normal, clean reports fail
// often; with the learned shape (run-noise-df) at most 5%. Normal noise
// of the same history learns a light shape and keeps its power: −10% on
// a quiet test is caught in at least 80%. IBREPORT_NOISE_SIMS and
// IBREPORT_NOISE_SEEDS as for TestLearnedNoiseGate (default 30 × 2).
func TestLearnedTailsGate(t *testing.T) {
	sims, seeds := 30, 2
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_NOISE_SIMS")); err == nil && s > 0 {
		sims = s
	}
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_NOISE_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	const nights = 30
	benches := []learnBench{
		newLearnBench(loadSimBench(t, "insert benchmark", "../testdata/ibench/reference/res", "mrg"), nil),
		newLearnBench(loadSimBench(t, "sysbench", "../testdata/arc/nov25.sb.mysql/dop1", "sb", "sbgroup"), []string{"x.my8406_rel_o2nofp.z12a_c8r32.pk1"}),
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%d reports per seed, %d seeds, %d nights: share failing, mean over seeds\n", sims, seeds, nights)
	for _, lb := range benches {
		keys := lb.testKeys()
		for _, c := range []struct {
			name   string
			df     float64 // of the true noise
			drop   float64
			lo, hi float64 // with the learned shape
		}{
			{"A/A, t3 tails", 3, 0, 0, 0.05},
			{"A/A, normal", 0, 0, 0, 0.05},
			{"-10% on a quiet test, normal", 0, 0.10, 0.80, 1},
			{"-10% on a quiet test, t3 tails", 3, 0.10, 0, 1},
		} {
			var shaped, normal, dfs float64
			for s := range seeds {
				rng := rand.New(rand.NewPCG(uint64(s+1), uint64(c.df)*100+uint64(c.drop*1e3)))
				for range sims {
					noise := map[string]float64{}
					for _, k := range keys {
						noise[k] = 0.005 + 0.01*rng.Float64()
					}
					learned, global, df := learnNoise(rng, lb, noise, nights, c.df)
					drop := map[simCell]bool{}
					if c.drop > 0 {
						drop[lb.cells[rng.IntN(len(lb.cells))]] = true
					}
					base := jitterPer(rng, lb, noise, stats.DefaultRunNoise, c.df, nil, 0)
					newer := jitterPer(rng, lb, noise, stats.DefaultRunNoise, c.df, drop, c.drop)
					for _, withShape := range []bool{true, false} {
						b := *base
						b.TestNoise, b.RunNoise = learned, global
						if withShape {
							b.RunNoiseDF = df
						}
						opt := DefaultCompareOptions()
						opt.Tables = lb.tables
						cmp, err := Compare([]*ResultSet{&b}, []*ResultSet{newer}, opt)
						if err != nil {
							t.Fatal(err)
						}
						share := float64(ExitCode(cmp, false)) / float64(sims*seeds)
						if withShape {
							shaped += share
						} else {
							normal += share
						}
					}
					dfs += df / float64(sims*seeds)
				}
			}
			fmt.Fprintf(&table, "%-16s %-32s learned shape %.3f  as normal %.3f  (mean df learned %.1f)\n", lb.name, c.name, shaped, normal, dfs)
			if shaped < c.lo || shaped > c.hi {
				t.Errorf("%s, %s: %.3f of reports fail with the learned shape, want %.2f–%.2f", lb.name, c.name, shaped, c.lo, c.hi)
			}
		}
	}
	t.Logf("\n%s", table.String())
}
