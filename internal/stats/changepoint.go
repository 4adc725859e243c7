package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ChangePointOptions set the change-point search of ChangePoints. The zero
// value means the defaults.
type ChangePointOptions struct {
	// MinSegment is the fewest members a level holds: no change point
	// leaves fewer on either side. Default 2, so one odd member (a noisy
	// run) is not a level of its own.
	MinSegment int
	// MaxP is the significance threshold: a split is kept when Student's
	// t-test of the two parts gives a p-value at most this. Default
	// 0.0005, half of Otava's 0.001: the split tested is the most divergent
	// of many, and on short series Otava's threshold gave 3–5% false
	// alarms.
	MaxP float64
}

// The defaults of ChangePointOptions.
const (
	DefaultMinSegment = 2
	DefaultMaxP       = 0.0005
)

// WithDefaults fills in the options left zero.
func (o ChangePointOptions) WithDefaults() ChangePointOptions {
	if o.MinSegment <= 0 {
		o.MinSegment = DefaultMinSegment
	}
	if o.MaxP <= 0 || o.MaxP >= 1 {
		o.MaxP = DefaultMaxP
	}
	return o
}

// MinMembers is the shortest series searched: two levels of MinSegment
// members each, 4 with the defaults.
func (o ChangePointOptions) MinMembers() int { return 2 * o.WithDefaults().MinSegment }

// ChangePoint is a member of a series at which its level shifted.
type ChangePoint struct {
	// Index is the first member of the new level, an index into the series
	// given (missing members included).
	Index int
	// Before and After are the medians of the levels on either side: from
	// the previous change point (or the start) to this one, and from this
	// one to the next (or the end).
	Before, After float64
	// Shift is After/Before − 1 (+0.12 for 12% higher); NaN when Before is 0.
	Shift float64
	// P is the p-value of Student's t-test between the two parts the split
	// was found between.
	P float64
	// Divergence is the E-statistic of the split (the scaled energy
	// distance of the members before and after).
	Divergence float64
}

// ChangePoints finds the members of a series at which its level shifted,
// by E-divisive means as Otava (formerly Hunter; Fleming et al., ICPE 2023)
// applies it to performance histories: the split is located by E-divisive
// (Matteson and James, 2014) and judged by Student's t-test, which Hunter
// put in place of the original permutation test because the latter is
// slow and random, and weak on short series.
//
// A segment is split where the energy distance between the members before
// and after is largest (α = 1: the distance of two members is |x−y|; the
// part after may end before the segment does, so a level between two
// others is found too). The split is kept when Student's t-test of the two
// parts gives p ≤ MaxP. Each kept split's segments are searched again, the
// most divergent first, until no split is significant. Members that are NaN
// or infinite are left out and cannot be change points. There is no
// randomness: a series always gives the same change points.
//
// What it cannot do, by construction: find a level shorter than MinSegment
// members (a single slow release is noise to it); find anything in a
// series shorter than MinMembers; and, near either end, find a shift
// unless it is large against the noise, since the few members beyond it
// give the t-test few degrees of freedom. The test says the two levels
// differ in mean more than their spread explains; it does not say the
// shift matters: read Shift for that. On seeded series of 15–20 members
// with 1–5% noise (TestChangePointsPlanted) it finds no change point in
// 96–99.5% of flat series, a single shift of five times the noise in
// 97.5–100% of cases, two of seven times in 97.5–100%; shifts of four
// times the noise in 90–95%, three times in 63–76%.
func ChangePoints(y []float64, opt ChangePointOptions) []ChangePoint {
	opt = opt.WithDefaults()
	var idx []int
	var x []float64
	for i, v := range y {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			idx = append(idx, i)
			x = append(x, v)
		}
	}
	if len(x) < opt.MinMembers() {
		return nil
	}
	type segment struct{ lo, hi int }
	type found struct {
		at, end int // the split and the end of its second part
		stat    float64
		p       float64
	}
	segs := []segment{{0, len(x)}}
	best := map[segment]found{}
	var cuts []found
	for {
		// The most divergent split over every segment not yet split.
		var top segment
		topStat := 0.0
		for _, s := range segs {
			f, ok := best[s]
			if !ok {
				at, end, stat := bestSplit(x[s.lo:s.hi], opt.MinSegment)
				f = found{at: s.lo + at, end: s.lo + end, stat: stat, p: 1}
				if at >= 0 {
					f.p = tTestP(x[s.lo:f.at], x[f.at:f.end])
				}
				// NaN p (a sum of squares that overflowed) is not significant.
				if at < 0 || !(f.p <= opt.MaxP) {
					f.stat = 0
				}
				best[s] = f
			}
			if f.stat > topStat {
				top, topStat = s, f.stat
			}
		}
		if topStat <= 0 {
			break
		}
		f := best[top]
		cuts = append(cuts, f)
		segs = slices.DeleteFunc(segs, func(s segment) bool { return s == top })
		segs = append(segs, segment{top.lo, f.at}, segment{f.at, top.hi})
	}
	slices.SortFunc(cuts, func(a, b found) int { return a.at - b.at })
	out := make([]ChangePoint, len(cuts))
	for i, c := range cuts {
		lo, hi := 0, len(x)
		if i > 0 {
			lo = cuts[i-1].at
		}
		if i+1 < len(cuts) {
			hi = cuts[i+1].at
		}
		before, after := sortedMedian(x[lo:c.at]), sortedMedian(x[c.at:hi])
		shift := math.NaN()
		if before != 0 {
			shift = after/before - 1
		}
		out[i] = ChangePoint{Index: idx[c.at], Before: before, After: after, Shift: shift, P: c.p, Divergence: c.stat}
	}
	return out
}

// tTestP is the two-sided p-value of Student's t-test of the means of a
// and b with pooled variance (one benchmark's noise is about the same in
// every release; pooling gives the short part at either end of a series
// the degrees of freedom of both): 0 when neither has spread and they
// differ, 1 when the means are equal.
func tTestP(a, b []float64) float64 {
	na, nb := float64(len(a)), float64(len(b))
	if na+nb < 3 || na == 0 || nb == 0 {
		return 1
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	if na == 1 {
		va = 0
	}
	if nb == 1 {
		vb = 0
	}
	df := na + nb - 2
	pooled := ((na-1)*va + (nb-1)*vb) / df
	se := math.Sqrt(pooled * (1/na + 1/nb))
	switch {
	case ma == mb:
		return 1
	case se == 0:
		return 0
	}
	t := math.Abs(ma-mb) / se
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
}

// sortedMedian is the median of a copy of x.
func sortedMedian(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return Median(s)
}

// bestSplit returns the split τ of x (the first member of the second part)
// with the largest E-statistic
//
//	Q(τ,κ) = m·k/(m+k) · (2/(m·k) Σ|a−b| − 1/C(m,2) Σ|a−a'| − 1/C(k,2) Σ|b−b'|)
//
// of the members a = x[0:τ] (m of them) and b = x[τ:κ] (k), at least min
// each, over every κ: as in Matteson and James, the second part may stop
// before the end, so that a level between two others (a release that was
// faster than those before and after it) is found. It returns that
// statistic and κ; τ is −1 when x is too short. Sums of distances over any
// two ranges come from a prefix-sum table, so the search is O(len(x)²).
func bestSplit(x []float64, min int) (int, int, float64) {
	n := len(x)
	if n < 2*min {
		return -1, -1, 0
	}
	// p[i][j] = Σ_{a<i, b<j} |x_a − x_b|, stored row-major with stride n+1.
	w := n + 1
	p := make([]float64, w*w)
	for i := 1; i <= n; i++ {
		row := 0.0
		for j := 1; j <= n; j++ {
			row += math.Abs(x[i-1] - x[j-1])
			p[i*w+j] = p[(i-1)*w+j] + row
		}
	}
	sum := func(a0, a1, b0, b1 int) float64 {
		return p[a1*w+b1] - p[a0*w+b1] - p[a1*w+b0] + p[a0*w+b0]
	}
	at, end, top := -1, -1, math.Inf(-1)
	for t := min; t <= n-min; t++ {
		m := float64(t)
		withinA := sum(0, t, 0, t) / (m * (m - 1))
		for e := t + min; e <= n; e++ {
			k := float64(e - t)
			between := 2 * sum(0, t, t, e) / (m * k)
			q := m * k / (m + k) * (between - withinA - sum(t, e, t, e)/(k*(k-1)))
			if q > top {
				at, end, top = t, e, q
			}
		}
	}
	return at, end, top
}

// String prints a change point for logs and tests.
func (c ChangePoint) String() string {
	return fmt.Sprintf("at %d: %.4g → %.4g (%+.1f%%, p=%.3f)", c.Index, c.Before, c.After, 100*c.Shift, c.P)
}
