package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// An Interval is a confidence interval for the mean of a per-interval
// series: the run's throughput with its noise.
type Interval struct {
	Mean, Lo, Hi float64
	Level        float64 // 0.95
	// Method names how the interval was computed: MethodAR.
	Method string
	// Phi is the lag-1 autocorrelation the interval allowed for (bias
	// corrected and raised by its standard error, never below 0); ESS the
	// effective sample size it implies: as many independent samples as
	// would give the mean the same variance.
	Phi, ESS float64
	N        int // samples
	// LowConfidence says why the interval may not keep its promise ("" when
	// nothing says so): too few effectively independent samples, stalls,
	// or a variance of long batches beyond what the correlation of
	// neighbours explains. Such an interval is shown but no difference is
	// judged within noise from it (WithinNoise).
	LowConfidence string
	// Low is LowConfidence in a few words, for a table cell: "ESS 3.2",
	// "stalls", "long memory or drift".
	Low string
	Why string // why there is no interval; "" when there is
}

// MethodAR is the method of MeanInterval: the variance of the mean of an
// AR(1) process, from a bias-corrected lag-1 autocorrelation.
const MethodAR = "AR(1)"

// OK reports whether the interval is known.
func (iv Interval) OK() bool { return iv.Why == "" }

// Confident reports whether the interval is known and not low-confidence.
func (iv Interval) Confident() bool { return iv.OK() && iv.LowConfidence == "" }

// HalfWidth is the interval's larger half-width relative to the mean
// (0.03 for ±3%), NaN when unknown.
func (iv Interval) HalfWidth() float64 {
	if !iv.OK() || iv.Mean == 0 {
		return math.NaN()
	}
	return math.Max(iv.Hi-iv.Mean, iv.Mean-iv.Lo) / math.Abs(iv.Mean)
}

// MinNoiseSamples is the fewest samples an interval is computed from.
const MinNoiseSamples = 10

// MinESS is the effective sample size below which an interval is
// low-confidence. With fewer effectively independent samples the
// autocorrelation itself is too uncertain for the interval to keep its
// level: on AR(1) series with φ = 0.9 and 60 samples (an effective sample
// size near 3) the coverage of a 95% interval is near 0.8 whatever the
// correction (TestMeanIntervalCoverage).
const MinESS = 10

// stallSD is how many robust standard deviations (1.4826 × the median
// absolute deviation) from the median a sample lies before the series is
// judged to hold stalls: Gaussian noise goes there once in 10^8 samples.
const stallSD = 6

// lmRatio is how far the variance of the means of long batches may exceed
// the AR(1) model's prediction before the series is judged to have longer
// memory (or a drift) than the model allows for.
const lmRatio = 2.5

// MeanInterval is a confidence interval at level for the mean of y, a
// series whose successive samples may be correlated (the rate of one
// interval predicts the next).
//
// The variance of the mean is that of an AR(1) process: s²/n times
// f = 1 + 2·Σ(1−k/n)·φ^k, the variance inflation, with s² corrected for
// its own bias under correlation (× (n−1)/(n−f)). φ is the lag-1
// autocorrelation r1 corrected for its small-sample bias (+ (1+4·r1)/n)
// and raised by two standard errors √((1−φ²)/n), because an interval built
// from an underestimated φ is too narrow, and because the margin also
// covers moderate long memory that a short series cannot tell from short
// (fractional Gaussian noise of H = 0.7 at n = 30 and 60); a negative φ is taken as 0, never
// to narrow the interval. The quantile is Student's t with ESS−1 degrees
// of freedom, ESS = n/f. There is no pre-test: an uncorrelated series gets
// the same formula with φ near 0.
//
// The interval is marked LowConfidence, with the reason, when ESS is below
// MinESS, when samples lie beyond stallSD robust standard deviations from
// the median (stalls), or when the means of batches of n/8 samples vary
// more than lmRatio times what φ predicts, or, from lmMinN samples on, when
// overlapping batch means of n/16 or n/4 samples vary more than lmShort or
// lmLong times what φ predicts (long memory or a drift). It is
// deterministic: the same series gives the same interval.
//
// What it promises: on series of short memory the 95% interval covers the
// mean in at least 90% of cases where it is not marked. Long memory
// (H = 0.7) beyond about 60 samples is marked only when the long batches
// show it (12% of series at n = 200, 46% at 400), and the others may be
// too narrow. A run that met a stall is marked; a run that met none is an
// interval for the steady state it measured, not for stalls it did not
// meet (TestMeanIntervalStalls).
func MeanInterval(y []float64, level float64) Interval {
	n := len(y)
	iv := Interval{Level: level, N: n, Method: MethodAR}
	if n < MinNoiseSamples {
		iv.Why = fmt.Sprintf("%d samples, fewer than %d", n, MinNoiseSamples)
		return iv
	}
	for _, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			iv.Why = "a sample is not a number"
			return iv
		}
	}
	iv.Mean = stat.Mean(y, nil)
	s2 := stat.Variance(y, nil)
	if s2 == 0 {
		iv.Lo, iv.Hi, iv.ESS = iv.Mean, iv.Mean, float64(n)
		return iv
	}
	fn := float64(n)
	r1 := lag1(y)
	phi := r1 + (1+4*r1)/fn
	phi = math.Min(phi, 0.99)
	se := math.Sqrt(math.Max(1-phi*phi, 0) / fn)
	// The effective sample size that decides low confidence is taken at
	// φ + 2 standard errors: a series whose φ came out low by chance is
	// otherwise both narrow and trusted.
	iv.ESS = fn / inflation(math.Max(0, math.Min(phi+2*se, 0.995)), n)
	phi = math.Max(0, math.Min(phi+2*se, 0.995))
	f := inflation(phi, n)
	iv.Phi = phi
	// E[s²] = σ²·(n−f)/(n−1) under correlation.
	sigma2 := s2 * (fn - 1) / math.Max(fn-f, 1)
	df := math.Max(fn/f-1, 1)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.5 + level/2)
	h := q * math.Sqrt(sigma2*f/fn)
	iv.Lo, iv.Hi = iv.Mean-h, iv.Mean+h
	switch {
	case iv.ESS < MinESS:
		iv.LowConfidence = fmt.Sprintf("effective sample size %.1f (lag-1 autocorrelation %.2f over %d samples), below %d", iv.ESS, phi, n, MinESS)
		iv.Low = fmt.Sprintf("ESS %.1f", iv.ESS)
	default:
		if k := outliers(y); k > 0 {
			iv.LowConfidence = fmt.Sprintf("%d samples beyond %d robust standard deviations of the median (stalls)", k, stallSD)
			iv.Low = "stalls"
		} else if b, r := longMemory(y, s2, phi); r > 0 {
			iv.LowConfidence = fmt.Sprintf("the means of overlapping batches of %d samples vary %.1f× what the lag-1 autocorrelation predicts (long memory or a drift)", b, r)
			iv.Low = "long memory or drift"
		} else if r := batchRatio(y, sigma2, phi); r > lmRatio {
			iv.LowConfidence = fmt.Sprintf("the means of batches of %d samples vary %.1f× what the lag-1 autocorrelation predicts (long memory or a drift)", n/8, r)
			iv.Low = "long memory or drift"
		}
	}
	return iv
}

// inflation is the variance of the mean of n samples of an AR(1) process
// with lag-1 autocorrelation phi, over that of n independent ones.
func inflation(phi float64, n int) float64 {
	f, p := 1.0, 1.0
	for k := 1; k < n; k++ {
		p *= phi
		if p < 1e-12 {
			break
		}
		f += 2 * (1 - float64(k)/float64(n)) * p
	}
	return f
}

// outliers counts the samples beyond stallSD robust standard deviations of
// the median; 0 when the median absolute deviation is 0.
func outliers(y []float64) int {
	sp := Floats(len(y))
	defer PutFloats(sp)
	s := *sp
	copy(s, y)
	med := medianOf(s)
	for i, v := range y {
		s[i] = math.Abs(v - med)
	}
	mad := 1.4826 * medianOf(s)
	if mad == 0 {
		return 0
	}
	k := 0
	for _, v := range y {
		if math.Abs(v-med) > stallSD*mad {
			k++
		}
	}
	return k
}

// medianOf is stat.Quantile(0.5, stat.Empirical, s, nil) of s sorted: the
// value at position ⌈len/2⌉−1 of the sorted list, found by counting whole
// numbers (SelectWhole) or by a selection that reorders s. A list holding -0 or NaN, which compare equal to 0 or
// to nothing, is sorted instead, so that the value is the sort's to the
// bit.
func medianOf(s []float64) float64 {
	k := max(int(math.Ceil(0.5*float64(len(s))))-1, 0)
	for _, v := range s {
		if v != v || v == 0 && math.Signbit(v) {
			slices.Sort(s)
			return stat.Quantile(0.5, stat.Empirical, s, nil)
		}
	}
	var out [1]float64
	if SelectWhole(s, []int{k}, out[:]) {
		return out[0]
	}
	SelectAsc(s, k)
	return s[k]
}

// batchRatio is the variance of the means of 8 consecutive batches of y
// over the AR(1) model's prediction for them; 0 when the batches are too
// short (fewer than 8 samples) to tell.
func batchRatio(y []float64, sigma2, phi float64) float64 {
	const k = 8
	b := len(y) / k
	if b < 8 {
		return 0
	}
	off := len(y) - k*b
	means := make([]float64, k)
	for j := range means {
		means[j] = stat.Mean(y[off+j*b:off+(j+1)*b], nil)
	}
	return stat.Variance(means, nil) / (sigma2 * inflation(phi, b) / float64(b))
}

// lag1 is the lag-1 autocorrelation of y; NaN for a constant series.
func lag1(y []float64) float64 {
	m := stat.Mean(y, nil)
	var num, den float64
	for i, v := range y {
		d := v - m
		den += d * d
		if i > 0 {
			num += d * (y[i-1] - m)
		}
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// DefaultRunNoise is the run-to-run relative standard deviation of one
// run's mean throughput assumed when no replicated runs say otherwise: 1%.
// Two builds of the same MySQL release (8.4.6 and its rebuild, sysbench
// with 1 thread, 38 tests; testdata/arc/nov25.sb.mysql/dop1) differ by a
// mean −1.0% with a per-test spread of 0.6%, 1.2% root mean square, so
// 0.8% per run; tests repeated within the same runs of those nine builds
// (point-query before and after the writes, …) differ by 0.8% root mean
// square; docs/statistics.md gives the figures.
const DefaultRunNoise = 0.01

// NoiseBound is the largest |ratio − 1| two runs' noise explains: the
// relative half-widths of their intervals and z·√2·run, the run-to-run
// term (run: the relative standard deviation of one run's mean from run
// to run, z the normal quantile of the intervals' level), added in
// quadrature. ok is false when either interval is unknown or
// low-confidence: then no bound is claimed.
func NoiseBound(a, b Interval, run float64) (bound float64, ok bool) {
	ha, hb := a.HalfWidth(), b.HalfWidth()
	if !a.Confident() || !b.Confident() || math.IsNaN(ha) || math.IsNaN(hb) || math.IsNaN(run) || run < 0 {
		return math.NaN(), false
	}
	level := a.Level
	if !(level > 0 && level < 1) {
		level = 0.95
	}
	z := distuv.UnitNormal.Quantile(0.5 + level/2)
	return math.Sqrt(ha*ha + hb*hb + 2*z*z*run*run), true
}

// WithinNoise reports whether ratio, the mean of run a over that of run b,
// differs from 1 by no more than NoiseBound. known is false when the bound
// is not claimed (an interval unknown or low-confidence): such a ratio is
// neither within noise nor judged beyond it.
func WithinNoise(ratio float64, a, b Interval, run float64) (within, known bool) {
	bound, ok := NoiseBound(a, b, run)
	if !ok || math.IsNaN(ratio) {
		return false, false
	}
	return math.Abs(ratio-1) <= bound, true
}

// lmMinN is the fewest samples the long-memory test of overlapping batches
// is made on; below it the test has no power worth its false marks.
const lmMinN = 200

// lmShort and lmLong are the thresholds of the long-memory test: how far
// the overlapping batch means of n/16 and n/4 samples may vary beyond the
// AR(1) model's prediction (obmRatio) before the series is marked. They
// keep the test's false marks on AR(1) series (φ ≤ 0.9, n = 200 and 400)
// near 1–2% (TestMeanIntervalCoverage).
const lmShort, lmLong = 1.5, 2.5

// longMemory tests y for a variance at long scales that the AR(1) model
// with lag-1 autocorrelation phi does not explain: fractional Gaussian
// noise, a drift. It returns the batch length and the ratio that exceeds
// its threshold, or 0, 0.
func longMemory(y []float64, s2, phi float64) (int, float64) {
	n := len(y)
	if n < lmMinN {
		return 0, 0
	}
	if r := obmRatio(y, s2, phi, n/16); r > lmShort {
		return n / 16, r
	}
	if r := obmRatio(y, s2, phi, n/4); r > lmLong {
		return n / 4, r
	}
	return 0, 0
}

// obmRatio is the mean squared deviation of the overlapping batch means of
// b samples from the grand mean, relative to s², over the same ratio's
// expectation under an AR(1) process with lag-1 autocorrelation phi.
func obmRatio(y []float64, s2, phi float64, b int) float64 {
	n := len(y)
	if b < 2 || b >= n {
		return 1
	}
	fn := float64(n)
	m := stat.Mean(y, nil)
	psp, powsp := Floats(n+1), Floats(n)
	defer PutFloats(psp)
	defer PutFloats(powsp)
	ps := *psp
	ps[0] = 0
	for i, v := range y {
		ps[i+1] = ps[i] + v
	}
	k := n - b + 1
	var v float64
	for j := range k {
		d := (ps[j+b]-ps[j])/float64(b) - m
		v += d * d
	}
	v /= float64(k)
	// c[i] sums the autocorrelations of sample i with every sample: the
	// covariance of a batch mean with the grand mean comes from them. It
	// takes the prefix sums' place, which are no longer needed.
	c := ps
	c[0] = 0
	pw := 1.0
	pows := *powsp
	for i := range pows {
		pows[i] = pw
		pw *= phi
	}
	for i := range n {
		ci := 1.0
		if phi > 0 {
			ci += phi*(1-pows[i])/(1-phi) + phi*(1-pows[n-1-i])/(1-phi)
		}
		c[i+1] = c[i] + ci
	}
	fb, fnn := inflation(phi, b)/float64(b), inflation(phi, n)/fn
	var e float64
	for j := range k {
		e += fb + fnn - 2*(c[j+b]-c[j])/(float64(b)*fn)
	}
	e /= float64(k)
	es2 := (fn - inflation(phi, n)) / (fn - 1)
	return (v / s2) / (e / es2)
}
