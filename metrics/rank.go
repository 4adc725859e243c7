package metrics

import (
	"math"
	"slices"

	"github.com/ibreport/ibreport/internal/stats"
)

// descAt returns, for each 0-based position in pos, the value that list
// sorted in descending order (slices.Sort, then slices.Reverse) holds
// there, without sorting it: counted in list when it holds whole numbers
// in a narrow range (stats.SelectWhole, which leaves it as it is), else
// selected (sortedAt) in a copy of list kept in *scratch.
func descAt(list []float64, pos []int, scratch *[]float64) []float64 {
	asc := make([]int, len(pos))
	for i, p := range pos {
		asc[i] = len(list) - 1 - p
	}
	out := make([]float64, len(pos))
	if stats.SelectWhole(list, asc, out) {
		return out
	}
	a := append((*scratch)[:0], list...)
	*scratch = a
	return sortedAt(a, asc)
}

// sortedAt returns, for each 0-based position in pos, the value that a
// sorted in ascending order (slices.Sort) holds there, reordering a: a
// selection per position, O(len(a)) where a sort is O(n log n).
//
// The values are those of the sort to the bit: values that compare equal
// are the same float64 but for 0 and -0, and NaN sorts apart, so a list
// holding either is sorted, which orders them as before. Its callers count
// a list of whole numbers in a narrow range (rates counted per second)
// instead (stats.SelectWhole).
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
	// A selection at k leaves the values of the positions below k below it
	// and those above above it, so the next selection only searches one
	// side. Going up from the smallest position, each searches what is
	// above the last; going down from the largest, what is below it. The
	// way that searches less is taken: for the percentiles of a descending
	// list (ascending positions at 1%, 5% … 50%) going down searches about
	// 1.9 lists where going up searches 4.5.
	order := make([]int, len(pos))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return pos[i] - pos[j] })
	up, down := 0, 0
	lo, hi := 0, len(a)
	for r := range order {
		if k := pos[order[r]]; k >= lo {
			up += len(a) - lo
			lo = k + 1
		}
		if k := pos[order[len(order)-1-r]]; k < hi {
			down += hi
			hi = k
		}
	}
	if down < up {
		hi = len(a)
		for r := len(order) - 1; r >= 0; r-- {
			i := order[r]
			if k := pos[i]; k < hi {
				stats.SelectAsc(a[:hi], k)
				hi = k
			}
			out[i] = a[pos[i]]
		}
		return out
	}
	lo = 0
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
	i := max(int(math.Ceil(p*float64(len(x))))-1, 0)
	// Whole numbers in a narrow range are counted: no NaN among them.
	var out [1]float64
	if stats.SelectWhole(x, []int{i}, out[:]) {
		return out[0]
	}
	for _, v := range x {
		if v != v {
			return math.NaN()
		}
	}
	return sortedAt(x, []int{i})[0]
}
