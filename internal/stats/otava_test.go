package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// This file re-implements, for comparison only, the change-point method of
// Apache Otava (github.com/apache/otava, otava/analysis.py and
// otava/change_point_divisive/*.py at 1ceb153, April 2026) with its
// defaults (AnalysisOptions in otava/series.py: window_len 50, max_pvalue
// 0.001, min_magnitude 0). It is written from reading that source, step by
// step, so that the tests can run Otava's own algorithm on the same seeded
// series as ChangePoints.

// otavaCP is a change point of the harness: its index and the statistics
// of the t-test between the levels on either side.
type otavaCP struct {
	index  int
	qhat   float64
	p      float64
	m1, m2 float64
}

// otavaTTest mirrors TTestSignificanceTester.compare (analysis.py): the
// standard deviations are np.std, the population ones (ddof 0; 0 for one
// member), handed to scipy's ttest_ind_from_stats with its default
// equal_var=True, which takes them as sample deviations: pooled variance
// ((n1−1)s1² + (n2−1)s2²)/(n1+n2−2), two-sided. Two members in all give
// p = 1.
func otavaTTest(a, b []float64) otavaCP {
	popStd := func(x []float64) (mean, sd float64) {
		for _, v := range x {
			mean += v
		}
		mean /= float64(len(x))
		if len(x) < 2 {
			return mean, 0
		}
		for _, v := range x {
			sd += (v - mean) * (v - mean)
		}
		return mean, math.Sqrt(sd / float64(len(x)))
	}
	m1, s1 := popStd(a)
	m2, s2 := popStd(b)
	n1, n2 := float64(len(a)), float64(len(b))
	p := 1.0
	if n1+n2 > 2 {
		df := n1 + n2 - 2
		sv := ((n1-1)*s1*s1 + (n2-1)*s2*s2) / df
		t := (m1 - m2) / math.Sqrt(sv*(1/n1+1/n2))
		// scipy: ±inf gives p 0, 0/0 gives NaN (never significant).
		p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
		if math.IsInf(t, 0) {
			p = 0
		}
	}
	return otavaCP{p: p, m1: m1, m2: m2}
}

// otavaCandidate mirrors PairDistanceCalculator.get_candidate_change_point
// (calculator.py): over lo < τ < κ ≤ hi it maximises
//
//	Q(τ,κ) = 2/(m+n) Σ|X−Y| − 2m/((m+n)(n−1)) Σ_{i<k}|X_i−X_k| − 2n/((m+n)(m−1)) Σ_{j<k}|Y_j−Y_k|
//
// with X = x[lo:τ] (n members) and Y = x[τ:κ] (m), a within-sum's term
// being 0 when its part has one member (numpy's masked division), so
// either part may be a single member. numpy's argmax takes the first
// maximum in row-major order (τ, then κ); the matrix's lower triangle is
// 0, which never beats Q(lo+1, lo+2) = |x_lo − x_lo+1| ≥ 0.
func otavaCandidate(x []float64, lo, hi int) (int, float64) {
	bestT, best := lo+1, math.Inf(-1)
	for tau := lo + 1; tau < hi; tau++ {
		n := float64(tau - lo)
		withinX := 0.0
		for i := lo; i < tau; i++ {
			for k := i + 1; k < tau; k++ {
				withinX += math.Abs(x[i] - x[k])
			}
		}
		between, withinY := 0.0, 0.0
		for kappa := tau + 1; kappa <= hi; kappa++ {
			y := kappa - 1 // the member Y gains
			for i := lo; i < tau; i++ {
				between += math.Abs(x[i] - x[y])
			}
			for j := tau; j < y; j++ {
				withinY += math.Abs(x[j] - x[y])
			}
			m := float64(kappa - tau)
			q := 2 / (m + n) * between
			if n > 1 {
				q -= 2 * m / ((m + n) * (n - 1)) * withinX
			}
			if m > 1 {
				q -= 2 * n / ((m + n) * (m - 1)) * withinY
			}
			if q > best {
				bestT, best = tau, q
			}
		}
	}
	return bestT, best
}

// otavaIntervals mirrors SignificanceTester.get_intervals (base.py): the
// levels between sorted change points, as [lo, hi) pairs.
func otavaIntervals(cps []otavaCP, n int) [][2]int {
	var out [][2]int
	lo := 0
	for _, c := range cps {
		if c.index != lo {
			out = append(out, [2]int{lo, c.index})
		}
		lo = c.index
	}
	if lo != n {
		out = append(out, [2]int{lo, n})
	}
	return out
}

// otavaStats mirrors TTestSignificanceTester.change_point: a candidate
// inside an interval is tested as a split of that whole interval (split
// step); one at an interval's end, between that interval and the next
// (merge step).
func otavaStats(x []float64, idx int, qhat float64, iv [][2]int) otavaCP {
	for i, v := range iv {
		if v[1] == idx {
			c := otavaTTest(x[v[0]:v[1]], x[iv[i+1][0]:iv[i+1][1]])
			c.index, c.qhat = idx, qhat
			return c
		}
		if v[0] < idx && idx < v[1] {
			c := otavaTTest(x[v[0]:idx], x[idx:v[1]])
			c.index, c.qhat = idx, qhat
			return c
		}
	}
	panic("candidate outside the intervals")
}

// otavaDetect mirrors ChangePointDetector.get_change_points (detector.py)
// on the window x: the best candidate over all intervals of more than one
// member (the first on ties, as Python's max) is tested; if p ≤ maxP it is
// kept and the search goes on, otherwise the search stops, even if a
// weaker candidate of another interval would pass.
func otavaDetect(x []float64, maxP float64) []otavaCP {
	var cps []otavaCP
	for {
		iv := otavaIntervals(cps, len(x))
		idx, q, ok := 0, math.Inf(-1), false
		for _, v := range iv {
			if v[1]-v[0] > 1 {
				if i, qi := otavaCandidate(x, v[0], v[1]); !ok || qi > q {
					idx, q, ok = i, qi, true
				}
			}
		}
		if !ok {
			return cps
		}
		c := otavaStats(x, idx, q, iv)
		if !(c.p <= maxP) {
			return cps
		}
		cps = append(cps, c)
		slices.SortFunc(cps, func(a, b otavaCP) int { return a.index - b.index })
	}
}

// otavaSplit mirrors split (analysis.py) for a whole series (no new
// points): windows of windowLen members from start, the next starting
// at the later of the last change point found and start + windowLen/2;
// the change points of all windows joined (by index) and their t-tests
// recomputed between adjacent levels.
func otavaSplit(x []float64, windowLen int, maxP float64) []otavaCP {
	step := windowLen / 2
	var cps []otavaCP
	for start := 0; start < len(x); {
		end := min(start+windowLen, len(x))
		found := otavaDetect(x[start:end], maxP)
		last := 0
		for _, c := range found {
			c.index += start
			last = c.index
			if !slices.ContainsFunc(cps, func(o otavaCP) bool { return o.index == c.index }) {
				cps = append(cps, c)
			}
		}
		start = max(last, start+step)
	}
	slices.SortFunc(cps, func(a, b otavaCP) int { return a.index - b.index })
	iv := otavaIntervals(cps, len(x))
	out := make([]otavaCP, len(cps))
	for i, c := range cps {
		out[i] = otavaStats(x, c.index, c.qhat, iv)
	}
	return out
}

// otavaMagnitude mirrors TTestStats.change_magnitude: the larger of the
// forward and backward relative changes, 0 for a mean of 0.
func (c otavaCP) otavaMagnitude() float64 {
	f, b := 0.0, 0.0
	if c.m1 != 0 {
		f = math.Abs(c.m2/c.m1 - 1)
	}
	if c.m2 != 0 {
		b = math.Abs(c.m1/c.m2 - 1)
	}
	return max(f, b)
}

// otavaMerge mirrors merge (analysis.py): while some change point has
// p ≥ maxP, the one with the largest p (the first on ties) is removed;
// once all are below it, the one of least magnitude is removed if its
// magnitude is at most minMagnitude. After a removal Otava recomputes the
// change points now at the removed one's position and the next (the right
// neighbour and the one after it), not the left neighbour, whose right
// level grew too: reproduced as is.
func otavaMerge(x []float64, cps []otavaCP, maxP, minMagnitude float64) []otavaCP {
	for len(cps) > 0 {
		w := 0
		for i, c := range cps {
			if c.p > cps[w].p {
				w = i
			}
		}
		if cps[w].p < maxP {
			w = 0
			for i, c := range cps {
				if c.otavaMagnitude() < cps[w].otavaMagnitude() {
					w = i
				}
			}
			if cps[w].otavaMagnitude() > minMagnitude {
				return cps
			}
		}
		cps = slices.Delete(cps, w, w+1)
		iv := otavaIntervals(cps, len(x))
		for _, i := range []int{w, w + 1} {
			if i < len(cps) {
				cps[i] = otavaStats(x, cps[i].index, cps[i].qhat, iv)
			}
		}
	}
	return cps
}

// otavaChangePoints mirrors compute_change_points (analysis.py) with
// Otava's defaults: the split step at ten times maxP (the "weak" change
// points), then the merge step at maxP. It returns the indexes.
func otavaChangePoints(x []float64) []int {
	const windowLen, maxP, minMagnitude = 50, 0.001, 0.0
	first := maxP * 10 // for maxP < 0.05
	cps := otavaMerge(x, otavaSplit(x, windowLen, first), maxP, minMagnitude)
	out := make([]int, len(cps))
	for i, c := range cps {
		out[i] = c.index
	}
	return out
}
