package metrics

import (
	"math"
	"slices"

	"github.com/ibreport/ibreport/internal/stats"
)

// descAt returns, for each 0-based position in pos, the value that list
// sorted in descending order (slices.Sort, then slices.Reverse) holds
// there, without sorting it (sortedAt), on a copy of list kept in
// *scratch.
func descAt(list []float64, pos []int, scratch *[]float64) []float64 {
	a := append((*scratch)[:0], list...)
	*scratch = a
	asc := make([]int, len(pos))
	for i, p := range pos {
		asc[i] = len(a) - 1 - p
	}
	return sortedAt(a, asc)
}

// sortedAt returns, for each 0-based position in pos, the value that a
// sorted in ascending order (slices.Sort) holds there, reordering a: a
// selection per position, O(len(a)) where a sort is O(n log n).
//
// The values are those of the sort to the bit: values that compare equal
// are the same float64 but for 0 and -0, and NaN sorts apart, so a list
// holding either is sorted, which orders them as before.
func sortedAt(a []float64, pos []int) []float64 {
	out := make([]float64, len(pos))
	for _, v := range a {
		if v != v || v == 0 && math.Signbit(v) {
			slices.Sort(a)
			for i, p := range pos {
				out[i] = a[p]
			}
			return out
		}
	}
	// Smallest position first: each selection leaves the values of the
	// positions above it above it, so the next one only searches there.
	order := make([]int, len(pos))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return pos[i] - pos[j] })
	lo := 0
	for _, i := range order {
		k := pos[i]
		if k >= lo {
			stats.SelectAsc(a[lo:], k-lo)
			lo = k + 1
		}
		out[i] = a[k]
	}
	return out
}

// empiricalQuantile is stat.Quantile(p, stat.Empirical, x, nil) of x
// sorted, without sorting it: the value at the first position i of the
// sorted list with i+1 ≥ p·len(x), NaN when x holds a NaN. It reorders x,
// which must not be empty.
func empiricalQuantile(p float64, x []float64) float64 {
	for _, v := range x {
		if v != v {
			return math.NaN()
		}
	}
	i := max(int(math.Ceil(p*float64(len(x))))-1, 0)
	return sortedAt(x, []int{i})[0]
}
