package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// An Interval is a confidence interval for the mean of a per-interval
// series: the run's throughput with its noise.
type Interval struct {
	Mean, Lo, Hi float64
	Level        float64 // 0.95
	// Method is "t" (the samples are not autocorrelated) or "batch means";
	// Batches of BatchLen samples each for the latter.
	Method            string
	Batches, BatchLen int
	N                 int    // samples
	Why               string // why there is no interval; "" when there is
}

// OK reports whether the interval is known.
func (iv Interval) OK() bool { return iv.Why == "" }

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

// MeanInterval is a confidence interval at level for the mean of y, a
// series whose successive samples may be correlated (the rate of one
// interval predicts the next). When the lag-1 autocorrelation is not
// significant (|r1| < 2/√n) it is Student's t-interval. Otherwise it is the
// method of batch means: the series is cut into k consecutive batches long
// enough to be nearly independent — b = max(√n, 3τ) samples, τ = (1+r1)/(1−r1)
// the integrated autocorrelation time of an AR(1) process with that r1, at
// least 5 batches — and the t-interval is taken over the batch means with
// k−1 degrees of freedom. It is deterministic: the same series gives the
// same interval.
func MeanInterval(y []float64, level float64) Interval {
	n := len(y)
	iv := Interval{Level: level, N: n}
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
	r1 := lag1(y)
	q := func(df int) float64 {
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.5 + level/2)
	}
	if math.IsNaN(r1) || math.Abs(r1) < 2/math.Sqrt(float64(n)) {
		h := q(n-1) * stat.StdDev(y, nil) / math.Sqrt(float64(n))
		iv.Method, iv.Lo, iv.Hi = "t", iv.Mean-h, iv.Mean+h
		return iv
	}
	tau := 1.0
	if r1 > 0 {
		tau = (1 + r1) / (1 - math.Min(r1, 0.99))
	}
	b := int(math.Ceil(math.Max(math.Sqrt(float64(n)), 3*tau)))
	k := n / b
	if k < 5 {
		k = 5
		b = n / k
	}
	means := make([]float64, k)
	// The batches end at the series' end; the first n-k·b samples, the
	// warm-up, are left out.
	off := n - k*b
	for j := range means {
		means[j] = stat.Mean(y[off+j*b:off+(j+1)*b], nil)
	}
	h := q(k-1) * stat.StdDev(means, nil) / math.Sqrt(float64(k))
	iv.Method, iv.Batches, iv.BatchLen = "batch means", k, b
	iv.Lo, iv.Hi = iv.Mean-h, iv.Mean+h
	return iv
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

// WithinNoise reports whether a ratio of two means differs from 1 by no
// more than their noise: the relative half-widths of their intervals
// (Interval.HalfWidth) added in quadrature. Unknown noise is not within.
func WithinNoise(ratio, h1, h2 float64) bool {
	return !math.IsNaN(h1) && !math.IsNaN(h2) && math.Abs(ratio-1) <= math.Hypot(h1, h2)
}
