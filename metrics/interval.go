package metrics

import "github.com/ibreport/ibreport/internal/stats"

// Interval is a confidence interval of the mean of a series of per-interval
// rates: a step's insert or query rate (StepResult.Noise) or a sysbench
// run's QPS (SysbenchResult.QPSNoise). It is computed by an AR(1) model of
// the series, so that correlated neighbours do not narrow it, and says
// when it may not keep its promise (LowConfidence) or why there is none
// (Why). docs/statistics.md gives its method and the simulations behind it.
type Interval struct {
	// Mean is the series' mean; Lo and Hi the interval's ends at
	// confidence Level (0.95).
	Mean, Lo, Hi float64
	Level        float64
	// Method names how the interval was computed ("AR(1)").
	Method string
	// Phi is the lag-1 autocorrelation the interval allowed for (bias
	// corrected and raised by its standard error, never below 0); ESS the
	// effective sample size it implies: as many independent samples as
	// would give the mean the same variance.
	Phi, ESS float64
	// N is the number of samples.
	N int
	// LowConfidence says why the interval may not keep its promise ("" when
	// nothing says so): too few effectively independent samples, stalls,
	// or a variance of long batches beyond what the correlation of
	// neighbours explains. Such an interval is shown but no difference is
	// judged within noise from it.
	LowConfidence string
	// Low is LowConfidence in a few words, for a table cell: "ESS 3.2",
	// "stalls", "long memory or drift".
	Low string
	// Why says why there is no interval; "" when there is.
	Why string
}

// The computation lives in internal/stats, which knows nothing of
// benchmarks; this conversion is the only place the two types meet.
func intervalOf(iv stats.Interval) Interval { return Interval(iv) }

// stats is the interval as internal/stats computes with it.
func (iv Interval) stats() stats.Interval { return stats.Interval(iv) }

// OK says whether there is an interval.
func (iv Interval) OK() bool { return iv.Why == "" }

// Confident says whether there is an interval and nothing says it may not
// keep its promise.
func (iv Interval) Confident() bool { return iv.stats().Confident() }

// HalfWidth is half the interval's width relative to its mean (0.02 for
// ±2%; the larger side when it is not symmetric), NaN when there is none.
func (iv Interval) HalfWidth() float64 { return iv.stats().HalfWidth() }

// WithinNoise says whether ratio, the mean of run a over that of run b,
// differs from 1 by no more than the noise of both intervals and of the
// run-to-run relative standard deviation run (0 takes the documented
// default). known is false when that is not claimed (an interval unknown
// or low-confidence): such a ratio is neither within noise nor judged
// beyond it.
func WithinNoise(ratio float64, a, b Interval, run float64) (within, known bool) {
	return stats.WithinNoise(ratio, a.stats(), b.stats(), run)
}
