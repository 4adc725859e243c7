package metrics

import (
	"math"
	"math/bits"
	"slices"
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
			selectAsc(a[lo:], k-lo)
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

// selectAsc moves into a[k] the value a sorted ascending holds there, with
// none larger before it and none smaller after it. a holds no NaN. The
// partition is three-way, so lists of many equal values (rates of 0, say)
// cost no more than others; pivots are medians of three, and a range that
// still is not done after 2·log2(n) rounds, which only a list built
// against those pivots does, is sorted.
func selectAsc(a []float64, k int) {
	lo, hi := 0, len(a)
	budget := 2 * bits.Len(uint(len(a)))
	for hi-lo > 12 {
		if budget == 0 {
			slices.Sort(a[lo:hi])
			return
		}
		budget--
		p := median3(a[lo], a[lo+(hi-lo)/2], a[hi-1])
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch v := a[i]; {
			case v < p:
				a[lt], a[i] = v, a[lt]
				lt++
				i++
			case v > p:
				gt--
				a[i], a[gt] = a[gt], v
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return // a[lt:gt] all equal the pivot
		}
	}
	slices.Sort(a[lo:hi])
}

func median3(x, y, z float64) float64 {
	if x > y {
		x, y = y, x
	}
	if y > z {
		y = z
	}
	return max(x, y)
}
