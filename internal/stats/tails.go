package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat"
)

// TailDFs are the degrees of freedom LearnTailDF chooses from, heaviest
// tails first; 0 is the normal.
var TailDFs = []float64{3, 4, 5, 7, 10, 20, 0}

// MinTailValues is the fewest standardized runs LearnTailDF fits: below
// it (30 tests of 15 runs, say) the tails of normal runs read as those
// of a t of 5 in a third of histories, which would cost the gate half
// its power.
const MinTailValues = 500

// LearnTailDF is the degrees of freedom of TailDFs (0: the normal) whose
// noise best explains the tails of the runs of tests: each test's runs
// (one level of one test, at least MinNoiseRuns) are put in units of the
// others' spread (LeaveOneOutDiffs), and the ratio of the 95th percentile
// of their distances to the median distance is matched with that of runs
// drawn, in the same numbers per test, from each candidate (a seeded
// simulation, so that the few runs of each test, whose own spread is
// uncertain, do not read as heavy tails). Fewer than MinTailValues values
// give 0 and false.
func LearnTailDF(tests [][]float64) (float64, bool) {
	var u []float64
	var sizes []int
	for _, x := range tests {
		if d := LeaveOneOutDiffs(x); len(d) > 0 {
			u = append(u, d...)
			sizes = append(sizes, len(x))
		}
	}
	if len(u) < MinTailValues {
		return 0, false
	}
	obs := tailRatios(u)
	refs := tailRefs(sizes)
	best, bestGap := 0.0, math.Inf(1)
	for k, df := range TailDFs {
		ref := refs[k]
		gap := 0.0
		for i := range obs {
			gap += math.Abs(math.Log(obs[i] / ref[i]))
		}
		if gap < bestGap {
			best, bestGap = df, gap
		}
	}
	return best, true
}

// tailRefCache holds tailRefs by the sizes of the tests, which a
// series' histories (and a simulation's) share; at most tailRefMax of
// them, so that a long-lived program's memory stays bounded.
var tailRefCache struct {
	sync.Mutex
	m map[string][][2]float64
}

const tailRefMax = 64

// tailRefs are the tailRatios of runs drawn from each of TailDFs in tests
// of sizes: seeded, so the same sizes always give the same references.
func tailRefs(sizes []int) [][2]float64 {
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	key := fmt.Sprint(sorted)
	tailRefCache.Lock()
	r, ok := tailRefCache.m[key]
	tailRefCache.Unlock()
	if ok {
		return r
	}
	out := make([][2]float64, len(TailDFs))
	for k, df := range TailDFs {
		rng := rand.New(rand.NewPCG(uint64(df), 17))
		var sim []float64
		for len(sim) < 10000 {
			for _, n := range sorted {
				x := make([]float64, n)
				for i := range x {
					x[i] = math.Exp(0.01 * TailDraw(rng, df))
				}
				sim = append(sim, LeaveOneOutDiffs(x)...)
			}
		}
		out[k] = tailRatios(sim)
	}
	tailRefCache.Lock()
	if tailRefCache.m == nil {
		tailRefCache.m = map[string][][2]float64{}
	}
	if len(tailRefCache.m) < tailRefMax {
		tailRefCache.m[key] = out
	}
	tailRefCache.Unlock()
	return out
}

// tailRatios are the 90th and 97.5th percentiles of |u| over its median.
func tailRatios(u []float64) [2]float64 {
	a := make([]float64, len(u))
	for i, v := range u {
		a[i] = math.Abs(v)
	}
	slices.Sort(a)
	m := stat.Quantile(0.5, stat.Empirical, a, nil)
	return [2]float64{stat.Quantile(0.9, stat.Empirical, a, nil) / m, stat.Quantile(0.975, stat.Empirical, a, nil) / m}
}

// TailDraw is a draw of unit standard deviation of TailZ's distribution:
// the normal for df 0 (or df ≤ 2), else a Student t of df degrees of
// freedom (rounded down to whole ones) times √((df−2)/df). Simulations of
// heavy-tailed run-to-run noise draw from it.
func TailDraw(rng *rand.Rand, df float64) float64 {
	z := rng.NormFloat64()
	if !(df > 2) {
		return z
	}
	df = math.Floor(df)
	chi := 0.0
	for range int(df) {
		x := rng.NormFloat64()
		chi += x * x
	}
	return z / math.Sqrt(chi/df) * math.Sqrt((df-2)/df)
}

// LeaveOneOutDiffs are, for each of the runs x (positive, finite
// values; one test's runs of one level), the distance of its logarithm
// from the median of the others' in units of their median absolute
// deviation (times 1.4826, a standard deviation for normal runs): what
// LearnTailDF fits. The others' median and deviation, not all runs', so
// that a run far off is not hidden in its own yardstick, and not
// successive differences, which share a run with their neighbours. Fewer
// than MinNoiseRuns values give none.
func LeaveOneOutDiffs(x []float64) []float64 {
	var logs []float64
	for _, v := range x {
		if v > 0 && !math.IsInf(v, 0) {
			logs = append(logs, math.Log(v))
		}
	}
	n := len(logs)
	if n < MinNoiseRuns {
		return nil
	}
	out := make([]float64, 0, n)
	others := make([]float64, 0, n-1)
	dev := make([]float64, 0, n-1)
	for i, v := range logs {
		others = append(append(others[:0], logs[:i]...), logs[i+1:]...)
		c := MedianUnsorted(others)
		dev = dev[:0]
		for _, o := range others {
			dev = append(dev, math.Abs(o-c))
		}
		if sc := 1.4826 * MedianUnsorted(dev); sc > 0 {
			out = append(out, (v-c)/sc)
		}
	}
	return out
}
