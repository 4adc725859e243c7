package stats

import (
	"math/bits"
	"slices"
)

// SelectAsc moves into a[k] the value a sorted ascending holds there, with
// none larger before it and none smaller after it. a holds no NaN. The
// partition is three-way, so lists of many equal values (rates of 0, say)
// cost no more than others; pivots are medians of three, and a range that
// still is not done after 2·log2(n) rounds, which only a list built
// against those pivots does, is sorted: O(len(a)) expected,
// O(n log n) at worst, so a hostile input cannot make it quadratic.
func SelectAsc(a []float64, k int) {
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
