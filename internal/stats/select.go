package stats

import (
	"math"
	"math/bits"
	"slices"
	"sync"
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

// SelectWhole sets out[i] to the value a sorted ascending holds at position
// pos[i], for each i, when every value of a is a whole number below 2^53 in
// size (no NaN, no -0, no infinity) and they span at most 4·len(a)+64
// values: it counts them, in two passes over a and one over their range
// up to the largest position, where selections partition a about six
// times over for five positions. Rates per interval are mostly whole
// numbers (operations counted in a second) within a narrow range. It
// reports whether it did; when not, it has changed nothing. It never
// reorders a. out must be as long as pos.
func SelectWhole(a []float64, pos []int, out []float64) bool {
	if len(a) == 0 || len(a) > math.MaxInt32 || len(out) < len(pos) {
		return false
	}
	// Whole numbers are those an int64 holds exactly (the conversion is
	// inlined, math.Trunc a call); -0 is not one, as a sort may order it
	// before or after 0.
	const whole = 1 << 53
	lo, hi := int64(a[0]), int64(a[0])
	for _, v := range a {
		n := int64(v)
		if float64(n) != v || uint64(n+whole) >= 2*whole || math.Float64bits(v) == 1<<63 {
			return false
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	span := hi - lo + 1
	if span > int64(4*len(a)+64) {
		return false
	}
	// The positions in ascending order, found by one walk up the counts.
	var buf [8]int
	order := buf[:0]
	for i, p := range pos {
		if p < 0 || p >= len(a) {
			return false
		}
		order = append(order, i)
	}
	slices.SortFunc(order, func(i, j int) int { return pos[i] - pos[j] })
	cp := counts.Get().(*[]int32)
	defer counts.Put(cp)
	c := slices.Grow((*cp)[:0], int(span))[:int(span)]
	*cp = c
	clear(c)
	for _, v := range a {
		c[int64(v)-lo]++
	}
	// After the walk has added c[j-1], sum values are at most lo+j-1:
	// position p holds the first value that takes sum past p.
	j, sum := 0, 0
	for _, i := range order {
		for sum <= pos[i] {
			sum += int(c[j])
			j++
		}
		out[i] = float64(lo + int64(j-1))
	}
	return true
}

var counts = sync.Pool{New: func() any { return new([]int32) }}
