package metrics

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

// StallOptions are the thresholds of stall detection and of the SLA of
// rate-limited steps; zero values take the defaults.
type StallOptions struct {
	// RateFraction: an interval whose rate is below this fraction of the
	// step's median rate is a stall (default 0.5).
	RateFraction float64
	// RTMultiple: an interval whose largest response time exceeds this
	// multiple of the step's median one is a stall (default 10).
	RTMultiple float64
	// SLAFraction: a rate-limited interval meets its target when its
	// insert rate reaches this fraction of it (default 0.95); the step
	// passes when that many of its intervals do.
	SLAFraction float64
}

// DefaultStallOptions are the documented defaults.
var DefaultStallOptions = StallOptions{RateFraction: 0.5, RTMultiple: 10, SLAFraction: 0.95}

// WithDefaults fills the thresholds left at zero from DefaultStallOptions.
func (o StallOptions) WithDefaults() StallOptions {
	d := DefaultStallOptions
	if o.RateFraction > 0 {
		d.RateFraction = o.RateFraction
	}
	if o.RTMultiple > 0 {
		d.RTMultiple = o.RTMultiple
	}
	if o.SLAFraction > 0 {
		d.SLAFraction = o.SLAFraction
	}
	return d
}

// A Stall is a run of consecutive stalled intervals.
type Stall struct {
	Start, Seconds float64 // offset (end of the interval before) and length, in seconds
	// Rate is the lowest rate in it over the step's median rate; RT the
	// largest response time over the median one.
	Rate, RT float64
}

// WithinNoise reports whether a ratio of two means differs from 1 by no
// more than their noise: the relative half-widths of their intervals
// (Interval.HalfWidth) added in quadrature. Unknown noise is not within.
func WithinNoise(ratio, h1, h2 float64) bool {
	return !math.IsNaN(h1) && !math.IsNaN(h2) && math.Abs(ratio-1) <= math.Hypot(h1, h2)
}

// Stalls is what stall detection found in a series.
type Stalls struct {
	Events  []Stall
	Seconds float64 // all stalled time
	Worst   *Stall  // the lowest rate (then the largest response time); nil without stalls
	Why     string  // why it could not be judged; "" when it was
}

// FindStalls finds the intervals of a step whose rate falls below
// RateFraction of the step's median rate, or whose largest response time
// exceeds RTMultiple of its median, and joins consecutive ones into stalls.
// secs are the interval ends in seconds, rate the rates, rt the largest
// response times (nil to judge by rate only). The first and the last
// interval are partial (the clients start and stop within them) and are
// never stalls.
func FindStalls(secs, rate, rt []float64, opt StallOptions) Stalls {
	opt = opt.WithDefaults()
	n := len(rate)
	if n < MinNoiseSamples || len(secs) != n || (rt != nil && len(rt) != n) {
		return Stalls{Why: fmt.Sprintf("%s, fewer than %d", Plural(n, "interval"), MinNoiseSamples)}
	}
	inner := func(v []float64) []float64 { return slices.Sorted(slices.Values(v[1 : n-1])) }
	medRate := stat.Quantile(0.5, stat.Empirical, inner(rate), nil)
	medRT := math.NaN()
	if rt != nil {
		medRT = stat.Quantile(0.5, stat.Empirical, inner(rt), nil)
	}
	var out Stalls
	var cur *Stall
	for i := 1; i < n-1; i++ {
		low := medRate > 0 && rate[i] < opt.RateFraction*medRate
		slow := medRT > 0 && rt[i] > opt.RTMultiple*medRT
		if !low && !slow {
			cur = nil
			continue
		}
		dt := secs[i] - secs[i-1]
		if cur == nil {
			out.Events = append(out.Events, Stall{Start: secs[i-1], Rate: 1})
			cur = &out.Events[len(out.Events)-1]
		}
		cur.Seconds += dt
		out.Seconds += dt
		if medRate > 0 {
			cur.Rate = math.Min(cur.Rate, rate[i]/medRate)
		}
		if medRT > 0 {
			cur.RT = math.Max(cur.RT, rt[i]/medRT)
		}
	}
	for i := range out.Events {
		e := &out.Events[i]
		if out.Worst == nil || e.Rate < out.Worst.Rate || (e.Rate == out.Worst.Rate && e.RT > out.Worst.RT) {
			out.Worst = e
		}
	}
	return out
}

// SLA is how a rate-limited step kept its insert-rate target.
type SLA struct {
	Target  float64 // inserts/s per client
	Met     float64 // share of intervals at SLAFraction of the target or more
	Longest float64 // seconds of the longest run of intervals below it
	Pass    bool    // Met reached SLAFraction
	Why     string  // why there is no verdict; "" when there is
}

// CheckSLA judges a client's per-interval insert rates against its target
// rate: secs are the interval ends. The first and last, partial,
// intervals are left out.
func CheckSLA(secs, rate []float64, target float64, opt StallOptions) SLA {
	opt = opt.WithDefaults()
	s := SLA{Target: target}
	n := len(rate)
	if n < MinNoiseSamples || len(secs) != n || target <= 0 {
		s.Why = fmt.Sprintf("%s, fewer than %d, or no target", Plural(n, "interval"), MinNoiseSamples)
		return s
	}
	met, run := 0, 0.0
	for i := 1; i < n-1; i++ {
		if rate[i] >= opt.SLAFraction*target {
			met++
			run = 0
			continue
		}
		run += secs[i] - secs[i-1]
		s.Longest = math.Max(s.Longest, run)
	}
	s.Met = float64(met) / float64(n-2)
	s.Pass = s.Met >= opt.SLAFraction
	return s
}
