package stats

import (
	"fmt"
	"math"
)

// MinNoiseRuns is the fewest runs of one level that RunNoise learns the
// run-to-run noise from. With 5 runs (4 successive differences, about 3
// degrees of freedom) the estimate is within a factor of 0.46–1.42 of the
// truth in 80% of cases; with fewer it is a guess a gate should not rest on.
const MinNoiseRuns = 5

// RunNoiseEstimate is the run-to-run noise of one test learned from the
// runs of one level: the relative standard deviation of one run.
type RunNoiseEstimate struct {
	// Noise is the relative standard deviation of one run (0.012 = 1.2%);
	// 0 when none was learned (Why says why).
	Noise float64
	// Runs is the number of runs it rests on.
	Runs int
	// DF is its approximate degrees of freedom: 2(n−1)²/(3n−4) for n
	// runs, those of the mean square successive difference of
	// independent normal values; pooled estimates add them.
	DF float64
	// Why says why no noise was learned: too few runs, identical runs.
	Why string
}

// RunNoise estimates the run-to-run noise of the runs x of one level
// (their values in run order; NaN, Inf and values ≤ 0 are left out) from
// the successive differences of their logarithms: the root of half their
// mean square (von Neumann's δ²/2), a relative standard deviation.
//
// Successive differences, not the standard deviation around the mean: a
// level shift the change-point search missed adds its square to one
// difference of n−1, while it adds a quarter of its square to every
// squared deviation. A shift of 5% in the middle of ten runs of 1% noise
// makes the standard deviation 2.7% and this estimate 1.5% (medians of
// seeded series, TestRunNoiseAccuracy).
//
// Fewer than MinNoiseRuns runs, or runs that are all the same, learn
// nothing: the estimate's Noise is 0 and Why says why.
func RunNoise(x []float64) RunNoiseEstimate {
	var logs []float64
	for _, v := range x {
		if v > 0 && !math.IsInf(v, 0) {
			logs = append(logs, math.Log(v))
		}
	}
	n := len(logs)
	e := RunNoiseEstimate{Runs: n}
	if n < MinNoiseRuns {
		e.Why = fmt.Sprintf("%d runs, fewer than %d", n, MinNoiseRuns)
		return e
	}
	ss := 0.0
	for i := 1; i < n; i++ {
		d := logs[i] - logs[i-1]
		ss += d * d
	}
	e.Noise = math.Sqrt(ss / float64(2*(n-1)))
	if !(e.Noise > 0) {
		e.Noise = 0
		e.Why = fmt.Sprintf("%d identical runs", n)
		return e
	}
	e.DF = RunNoiseDF(n)
	return e
}

// RunNoiseDF is the degrees of freedom of RunNoise from n runs: those of
// the chi-square that matches the mean and variance of the mean square
// successive difference of n independent normal values, Var(δ²/2σ²) =
// (3n−4)/(n−1)². 0 below 2 runs.
func RunNoiseDF(n int) float64 {
	if n < 2 {
		return 0
	}
	k := float64(n)
	return 2 * (k - 1) * (k - 1) / (3*k - 4)
}

// PoolRunNoise pools estimates of the same test (one per DBMS series):
// the variances weighted by their degrees of freedom, the runs added.
// Estimates that learned nothing are left out; none learned gives a zero
// estimate whose Why is the first one's.
func PoolRunNoise(es []RunNoiseEstimate) RunNoiseEstimate {
	var out RunNoiseEstimate
	v := 0.0
	for _, e := range es {
		if !(e.Noise > 0) || !(e.DF > 0) {
			continue
		}
		v += e.DF * e.Noise * e.Noise
		out.DF += e.DF
		out.Runs += e.Runs
	}
	if out.DF > 0 {
		out.Noise = math.Sqrt(v / out.DF)
		return out
	}
	for _, e := range es {
		out.Runs = max(out.Runs, e.Runs)
		if out.Why == "" {
			out.Why = e.Why
		}
	}
	if out.Why == "" {
		out.Why = "no runs"
	}
	return out
}
