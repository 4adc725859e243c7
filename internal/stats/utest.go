package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// exactLimit is the sample size below which, on both sides and without ties,
// the U test uses its exact distribution. It is the limit R's wilcox.test
// uses, so p-values agree with the reference most people check against.
const exactLimit = 50

// MannWhitneyU returns the Mann-Whitney U statistic of x against y (the
// number of pairs with x > y, ties counting one half) and its two-sided
// p-value. Without ties and with fewer than 50 values on each side p comes
// from the exact distribution of U; otherwise from the normal approximation
// with tie and continuity corrections. Empty samples give U = 0 and p = 1.
func MannWhitneyU(x, y []float64) (u, p float64) {
	m, n := len(x), len(y)
	if m == 0 || n == 0 {
		return 0, 1
	}
	all := make([]float64, 0, m+n)
	all = append(all, x...)
	all = append(all, y...)
	slices.Sort(all)
	// Mid-ranks: tied values share the mean of the ranks they span.
	rank := func(v float64) float64 {
		lo, _ := slices.BinarySearch(all, v)
		hi := lo
		for hi < len(all) && all[hi] == v {
			hi++
		}
		return float64(lo+1+hi) / 2
	}
	var rx float64
	for _, v := range x {
		rx += rank(v)
	}
	u = rx - float64(m*(m+1))/2
	var tieTerm float64 // Σ(t³ - t) over groups of tied values
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j] == all[i] {
			j++
		}
		t := float64(j - i)
		tieTerm += t*t*t - t
		i = j
	}
	if tieTerm == 0 && m < exactLimit && n < exactLimit {
		return u, exactUP(m, n, u)
	}
	N := float64(m + n)
	mean := float64(m*n) / 2
	sigma := math.Sqrt(float64(m*n) / 12 * ((N + 1) - tieTerm/(N*(N-1))))
	if sigma == 0 {
		return u, 1 // every value is the same
	}
	d := u - mean
	// The continuity correction moves the statistic half a unit towards the
	// mean, as R does by default.
	switch {
	case d > 0:
		d -= 0.5
	case d < 0:
		d += 0.5
	}
	z := d / sigma
	p = 2 * distuv.UnitNormal.CDF(-math.Abs(z))
	return u, math.Min(p, 1)
}

// exactUP is the two-sided p-value of U = u for samples of m and n values
// without ties: twice the smaller tail of the exact distribution, at most 1.
func exactUP(m, n int, u float64) float64 {
	dist := uDistribution(m, n)
	var total, le, ge float64
	for k, c := range dist {
		total += c
		if float64(k) <= u {
			le += c
		}
		if float64(k) >= u {
			ge += c
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/total)
}

// uDistribution returns, for k = 0..m·n, the number of ways to interleave m
// x-values with n y-values so that exactly k (x, y) pairs have x > y. It
// counts m-subsets of the ranks 1..m+n by their rank sum (U = sum - m(m+1)/2),
// adding one rank at a time. Counts are float64: C(100, 50) ≈ 1e29 fits with
// more precision than a p-value needs.
func uDistribution(m, n int) []float64 {
	N := m + n
	maxSum := 0
	for r := N - m + 1; r <= N; r++ {
		maxSum += r
	}
	// cnt[k][s]: subsets of size k of the ranks seen so far with rank sum s.
	cnt := make([][]float64, m+1)
	for k := range cnt {
		cnt[k] = make([]float64, maxSum+1)
	}
	cnt[0][0] = 1
	for r := 1; r <= N; r++ {
		for k := min(r, m); k >= 1; k-- {
			for s := maxSum; s >= r; s-- {
				cnt[k][s] += cnt[k-1][s-r]
			}
		}
	}
	base := m * (m + 1) / 2
	return slices.Clone(cnt[m][base : base+m*n+1])
}

// Holm returns the Holm–Bonferroni adjusted p-values of ps, in the same
// order: the i-th smallest p is multiplied by (m - i + 1), the results are
// made non-decreasing in that order and capped at 1. Rejecting where the
// adjusted p is below alpha keeps the family-wise error rate at alpha.
func Holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, m)
	running := 0.0
	for rank, i := range idx {
		adj := math.Min(1, float64(m-rank)*ps[i])
		running = math.Max(running, adj)
		out[i] = running
	}
	return out
}

// Median returns the median of sorted values: the middle one, or the mean of
// the two middle ones; NaN for none.
func Median(sorted []float64) float64 {
	n := len(sorted)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// MedianInterval returns a distribution-free confidence interval of the
// median of sorted values: the order statistics x(k) and x(n+1-k) with the
// largest k whose coverage P(k ≤ B ≤ n-k), B ~ Binomial(n, 1/2), is at least
// the confidence level. ok is false when even the full range [x(1), x(n)]
// covers less (n < 6 at 95%).
func MedianInterval(sorted []float64, confidence float64) (lo, hi float64, ok bool) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN(), false
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 0
	for c := 1; 2*c <= n; c++ {
		// The interval [x(c), x(n+1-c)] misses the median when fewer than c
		// values lie below it or fewer than c above it.
		if 1-2*b.CDF(float64(c-1)) < confidence {
			break
		}
		k = c
	}
	if k == 0 {
		return math.NaN(), math.NaN(), false
	}
	return sorted[k-1], sorted[n-k], true
}

// FamilyZ is the one-sided critical z of each of m tests whose family
// together errs with probability at most alpha (Bonferroni: each at
// alpha/m). It is +Inf for alpha outside (0, 1) and 1 test for m < 1.
func FamilyZ(alpha float64, m int) float64 {
	if !(alpha > 0 && alpha < 1) {
		return math.Inf(1)
	}
	return distuv.UnitNormal.Quantile(1 - alpha/float64(max(m, 1)))
}

// TailZ is the quantile at 1−p of a distribution of standard deviation
// 1: the normal for df 0 (or +Inf), else a Student t of df degrees of
// freedom scaled by √((df−2)/df). Run-to-run noise with heavy tails (a run
// now and then far off) is a t of few degrees of freedom: at the small p
// of a family of hundreds of cells its quantile is far beyond the
// normal's (p = 1e-4: 3.7 for the normal, 7.0 for df 3 at the same
// standard deviation). df in (0, 2] has no standard deviation and is
// taken as 2.01. It is +Inf for p outside (0, 1).
func TailZ(p, df float64) float64 {
	if !(p > 0 && p < 1) {
		return math.Inf(1)
	}
	if df == 0 || math.IsInf(df, 1) || math.IsNaN(df) || df < 0 {
		return distuv.UnitNormal.Quantile(1 - p)
	}
	df = math.Max(df, 2.01)
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1-p) * math.Sqrt((df-2)/df)
}

// FamilyTailZ is FamilyZ for noise of TailZ's distribution of df degrees
// of freedom (0: the normal, FamilyZ itself).
func FamilyTailZ(alpha float64, m int, df float64) float64 {
	if !(alpha > 0 && alpha < 1) {
		return math.Inf(1)
	}
	return TailZ(alpha/float64(max(m, 1)), df)
}
