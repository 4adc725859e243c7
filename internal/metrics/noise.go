package metrics

import (
	"fmt"
	"math"
	"slices"

	"github.com/ibreport/ibreport/internal/stats"
	"gonum.org/v1/gonum/stat"
)

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

// Check refuses thresholds that are set but mean nothing: NaN (which
// fails every comparison), ±Inf, negative or out of range. Zero values
// take the defaults and are accepted.
func (o StallOptions) Check() error {
	switch r, m, f := o.RateFraction, o.RTMultiple, o.SLAFraction; {
	case r != 0 && !(r > 0 && r < 1):
		return fmt.Errorf("stall rate fraction %g: want a fraction between 0 and 1", r)
	case m != 0 && !(m > 1 && !math.IsInf(m, 1)):
		return fmt.Errorf("stall response-time multiple %g: want a finite multiple above 1", m)
	case f != 0 && !(f > 0 && f <= 1):
		return fmt.Errorf("SLA fraction %g: want a fraction above 0, at most 1", f)
	}
	return nil
}

// A Stall is a run of consecutive stalled intervals.
type Stall struct {
	Start, Seconds float64 // offset (end of the interval before) and length, in seconds
	// Rate is the lowest rate in it over the step's median rate; RT the
	// largest response time over the median one.
	Rate, RT float64
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
	if n < stats.MinNoiseSamples || len(secs) != n || (rt != nil && len(rt) != n) {
		return Stalls{Why: fmt.Sprintf("%s, fewer than %d", Plural(n, "interval"), stats.MinNoiseSamples)}
	}
	if why := notIncreasing(secs); why != "" {
		return Stalls{Why: why}
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
	if n < stats.MinNoiseSamples || len(secs) != n || target <= 0 {
		s.Why = fmt.Sprintf("%s, fewer than %d, or no target", Plural(n, "interval"), stats.MinNoiseSamples)
		return s
	}
	if why := notIncreasing(secs); why != "" {
		s.Why = why
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

// notIncreasing says where the interval end times secs go back (or are not
// numbers), "" when they do not: stalls and SLA runs are measured in
// seconds between them, which times that go back would make negative.
func notIncreasing(secs []float64) string {
	for i := 1; i < len(secs); i++ {
		if !(secs[i] >= secs[i-1]) {
			return fmt.Sprintf("interval %d ends at %g s, before interval %d (%g s)", i+1, secs[i], i, secs[i-1])
		}
	}
	return ""
}
