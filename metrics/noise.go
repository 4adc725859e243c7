package metrics

import (
	"fmt"
	"math"

	"github.com/ibreport/ibreport/internal/stats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// StallOptions are the thresholds of stall detection and of the SLA of
// rate-limited steps; zero values take the defaults.
type StallOptions struct {
	// RateFraction: an interval whose rate is below this fraction of the
	// step's reference rate (StallReferenceQuantile of its full intervals'
	// rates, or of the trend after a decline) is a stall (default 0.5),
	// when its count is also significantly low (StallPoissonP).
	RateFraction float64
	// RTMultiple: an interval whose largest response time exceeds this
	// multiple of the step's median one is a stall (default 10).
	RTMultiple float64
	// SLAFraction: a rate-limited step meets its target when the mean
	// insert rate of its full intervals reaches this fraction of it and
	// no SLARun consecutive intervals stay below it (default 0.95).
	SLAFraction float64
}

// DefaultStallOptions are the documented defaults.
var DefaultStallOptions = StallOptions{RateFraction: 0.5, RTMultiple: 10, SLAFraction: 0.95}

// The fixed parts of stall, decline and SLA detection, documented in
// docs/statistics.md; the planted cases of stall_sim_test.go hold them to their
// promises.
const (
	// StallReferenceQuantile is the quantile of the full intervals' rates
	// that stalls are measured against. Not the median: when a slow phase
	// takes half the step the median is the slow rate and nothing is
	// below half of it. The upper quartile stays the fast level until
	// slow phases take three quarters of the step.
	StallReferenceQuantile = 0.75
	// StallPoissonP is the minimum count rule: an interval below the rate
	// fraction is a stall only when, were its operations a Poisson count
	// at the reference rate, so few would have a probability below
	// StallPoissonP over the step's full intervals (Bonferroni: below
	// StallPoissonP/m for each of m). At 2 operations an interval an empty
	// one is ordinary (p = 0.14 at a reference of 2); at 20, five empty
	// intervals are not (p = 2e-9 each); with thousands any interval
	// below half the reference is significant.
	StallPoissonP = 0.001
	// DeclineDrop: a decline is a linear trend of the full intervals whose
	// end is at most this fraction of its start (a fall of 25% or more)…
	DeclineDrop = 0.75
	// DeclineR2: …that explains at least this share of the rates' variance
	// and at least as much as the best single step between two levels
	// does (a long slow phase is a step: its stalls are stalls).
	DeclineR2 = 0.5
	// SLARun is the shortest run of consecutive intervals below the SLA
	// fraction of the target that fails the SLA even when the mean meets
	// it: single intervals below are jitter (a commit of 50 rows lands in
	// the next second; at 5% jitter a run of 10 has odds of 1 in 10^8), a
	// run this long is a slow phase.
	SLARun = 10
)

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
	// Rate is the lowest rate in it over the reference rate there; RT the
	// largest response time over the median one.
	Rate, RT float64
}

// A Decline is a steady fall of the rate over the step's full intervals:
// a trend, not a stall.
type Decline struct {
	Start, Seconds float64 // the full intervals: start offset and length, in seconds
	From, To       float64 // the trend's rate at the end of the first and of the last full interval
}

// Stalls is what stall detection found in a series.
type Stalls struct {
	Events  []Stall
	Seconds float64 // all stalled time
	Worst   *Stall  // the lowest rate (then the largest response time); nil without stalls
	// Decline is the step's decline, nil when its rate did not fall
	// steadily; its stalls are then measured against the trend.
	Decline *Decline
	Why     string // why it could not be judged; "" when it was
}

// FindStalls finds the intervals of a step whose rate falls below
// RateFraction of the reference rate with a count significantly below it,
// or whose largest response time exceeds RTMultiple of its median, and
// joins consecutive ones into stalls. secs are the interval ends in
// seconds, rate the rates (operations per second: times the interval's
// length, a count), rt the largest response times (nil to judge by rate
// only). The first and the last interval are partial (the clients start
// and stop within them) and are never stalls.
//
// The reference is StallReferenceQuantile of the full intervals' rates.
// When the rates decline steadily (see DeclineDrop, DeclineR2) the step
// has a Decline and the reference follows the trend: the same quantile of
// the rates over the trend, times the trend.
func FindStalls(secs, rate, rt []float64, opt StallOptions) Stalls {
	opt = opt.WithDefaults()
	n := len(rate)
	if n < stats.MinNoiseSamples || len(secs) != n || (rt != nil && len(rt) != n) {
		return Stalls{Why: fmt.Sprintf("%s, fewer than %d", Plural(n, "interval"), stats.MinNoiseSamples)}
	}
	if why := notIncreasing(secs); why != "" {
		return Stalls{Why: why}
	}
	var out Stalls
	// level is the shape of the reference: 1 (level nil), or the trend of
	// a decline.
	var level []float64
	if d, line := findDecline(secs, rate); d != nil {
		out.Decline = d
		level = line
	}
	// The quantiles are selected in copies, held only until they are known.
	tmp := stats.Floats(n - 2)
	scaled := (*tmp)[:0]
	for i := 1; i < n-1; i++ {
		switch {
		case level == nil:
			scaled = append(scaled, rate[i]) // rate[i]/1
		case level[i] > 0:
			scaled = append(scaled, rate[i]/level[i])
		}
	}
	q := math.NaN()
	if len(scaled) > 0 {
		q = empiricalQuantile(StallReferenceQuantile, scaled)
	}
	medRT := math.NaN()
	if rt != nil {
		medRT = empiricalQuantile(0.5, append((*tmp)[:0], rt[1:n-1]...))
	}
	stats.PutFloats(tmp)
	var cur *Stall
	for i := 1; i < n-1; i++ {
		dt := secs[i] - secs[i-1]
		ref := q
		if level != nil {
			ref = q * level[i]
		}
		low := ref > 0 && rate[i] < opt.RateFraction*ref && poissonLow(rate[i]*dt, ref*dt, StallPoissonP/float64(n-2))
		slow := medRT > 0 && rt[i] > opt.RTMultiple*medRT
		if !low && !slow {
			cur = nil
			continue
		}
		if cur == nil {
			out.Events = append(out.Events, Stall{Start: secs[i-1], Rate: 1})
			cur = &out.Events[len(out.Events)-1]
		}
		cur.Seconds += dt
		out.Seconds += dt
		if ref > 0 {
			cur.Rate = math.Min(cur.Rate, rate[i]/ref)
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

// poissonLow reports whether a count is significantly below a Poisson
// count of mean mu: P(X ≤ count) < p. Counts are whole operations; a rate
// times an interval length that is not whole is rounded down.
func poissonLow(count, mu, p float64) bool {
	if !(mu > 0) || math.IsInf(mu, 0) {
		return false
	}
	if count < 0 {
		return true
	}
	return distuv.Poisson{Lambda: mu}.CDF(math.Floor(count+1e-9)) < p
}

// findDecline fits a straight line to the full intervals' rates against
// their end times and calls it a decline when it falls to DeclineDrop of
// its start or less, explains DeclineR2 of the variance, and fits at least
// as well as the best split of the intervals into two levels. It returns
// the decline and the line at every interval (the partial first and last
// included, unused), or nil.
func findDecline(secs, rate []float64) (*Decline, []float64) {
	n := len(rate)
	t, y := secs[1:n-1], rate[1:n-1]
	m := len(y)
	if m < 4 {
		return nil, nil
	}
	a, b := stat.LinearRegression(t, y, nil, false)
	if !(b < 0) {
		return nil, nil
	}
	mean := stat.Mean(y, nil)
	var sst, sseLine float64
	for i := range y {
		sst += (y[i] - mean) * (y[i] - mean)
		r := y[i] - (a + b*t[i])
		sseLine += r * r
	}
	from, to := a+b*t[0], a+b*t[m-1]
	if !(sst > 0) || !(from > 0) || to > DeclineDrop*from || 1-sseLine/sst < DeclineR2 {
		return nil, nil
	}
	// The best two-level split: prefix sums give each split's SSE.
	var sum, sum2 float64
	for _, v := range y {
		sum += v
		sum2 += v * v
	}
	var ls, ls2 float64
	for k := 1; k < m; k++ {
		ls += y[k-1]
		ls2 += y[k-1] * y[k-1]
		rs, rs2 := sum-ls, sum2-ls2
		sse := ls2 - ls*ls/float64(k) + rs2 - rs*rs/float64(m-k)
		if sse < sseLine {
			return nil, nil
		}
	}
	line := make([]float64, n)
	for i := range line {
		line[i] = a + b*secs[i]
	}
	return &Decline{Start: secs[0], Seconds: secs[n-2] - secs[0], From: from, To: to}, line
}

// SLA is how a rate-limited step kept its insert-rate target.
type SLA struct {
	Target float64 // inserts/s per client
	// Mean is the mean insert rate of the full intervals.
	Mean float64
	// Met is the share of full intervals at SLAFraction of the target or
	// more (shown; the verdict does not count single intervals).
	Met float64
	// Longest is the seconds of the longest run of consecutive intervals
	// below SLAFraction of the target, LongestRun its intervals.
	Longest    float64
	LongestRun int
	// Pass: Mean reached SLAFraction of the target and no run below it
	// lasted SLARun intervals.
	Pass bool
	Why  string // why there is no verdict; "" when there is
}

// CheckSLA judges a client's per-interval insert rates against its target
// rate: secs are the interval ends. The first and last, partial,
// intervals are left out. The step passes when the mean rate of its full
// intervals reaches SLAFraction of the target and no run of SLARun
// consecutive intervals stays below it: a client exactly on target with
// 5% jitter an interval passes, one at 90% of it, or with a slow phase of
// SLARun intervals, fails. The intervals of a step are of equal length
// (secs_per_report), so the mean is that of the rates.
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
	goal := opt.SLAFraction * target
	met, run, secsRun := 0, 0, 0.0
	for i := 1; i < n-1; i++ {
		if rate[i] >= goal {
			met++
			run, secsRun = 0, 0
			continue
		}
		run++
		secsRun += secs[i] - secs[i-1]
		s.Longest = math.Max(s.Longest, secsRun)
		s.LongestRun = max(s.LongestRun, run)
	}
	s.Mean = stat.Mean(rate[1:n-1], nil)
	s.Met = float64(met) / float64(n-2)
	s.Pass = s.Mean >= goal && s.LongestRun < SLARun
	return s
}

// fullInsertRate sums over the clients the mean insert rate of their full
// intervals: what the clients sustained once started, the rate a target
// is judged against (the first and last intervals are partial: the
// clients start and stop within them).
func (s *summarizer) fullInsertRate() {
	s.r.FullInsertRate = NA(InsertsPerSec, "no client log")
	if len(s.acc.clients) == 0 {
		return
	}
	sum := 0.0
	for i, c := range s.acc.clients {
		r := c.rates[0]
		if len(r) < 3 {
			s.r.FullInsertRate = NAf(InsertsPerSec, "client %d has %s, no full one", i+1, Plural(len(r), "interval"))
			return
		}
		sum += stat.Mean(r[1:len(r)-1], nil)
	}
	s.r.FullInsertRate = Known(sum, InsertsPerSec)
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
