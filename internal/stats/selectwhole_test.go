package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// SelectWhole gives the sorted list's values at the positions, to the bit,
// for whole numbers in a narrow range, leaving the list as it was; it
// declines (false, list and out untouched) for anything else.
func TestSelectWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 39))
	negZero := math.Copysign(0, -1)
	// last puts a value last in a list of ones: a list of it alone when
	// n is 1.
	last := func(v float64) func(i, n int) float64 {
		return func(i, n int) float64 {
			if i == n-1 {
				return v
			}
			return 1
		}
	}
	for _, tc := range []struct {
		name string
		gen  func(i, n int) float64
		ok   bool
	}{
		{"counts", func(_, n int) float64 { return float64(5000 + rng.IntN(n)) }, true},
		{"zeros", func(int, int) float64 { return 0 }, true},
		{"negative", func(int, int) float64 { return float64(-rng.IntN(40)) }, true}, // 0, not -0
		{"near 2^53", func(int, int) float64 { return float64(1<<53 - 1 - rng.IntN(9)) }, true},
		{"span 4n+64", func(i, n int) float64 { return float64([]int{0, 4*n + 63}[i%2]) }, true},
		{"span 4n+65", func(i, n int) float64 { return float64([]int{0, 4*n + 64}[i%2]) }, false},
		{"fraction", last(0.5), false},
		{"-0", last(negZero), false},
		{"NaN", last(math.NaN()), false},
		{"+Inf", last(math.Inf(1)), false},
		{"2^53", last(1 << 53), false},
	} {
		for _, n := range []int{2, 7, 100, 7500} {
			a := make([]float64, n)
			for i := range a {
				a[i] = tc.gen(i, n)
			}
			rng.Shuffle(n, func(i, j int) { a[i], a[j] = a[j], a[i] })
			before := slices.Clone(a)
			pos := []int{n - 1, 0, n / 2, n / 4, (n * 99) / 100}
			out := make([]float64, len(pos))
			got := SelectWhole(a, pos, out)
			if !slices.EqualFunc(a, before, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
				t.Errorf("%s n %d: the list was reordered", tc.name, n)
			}
			if got != tc.ok {
				t.Errorf("%s n %d: %v, want %v", tc.name, n, got, tc.ok)
				continue
			}
			if !got {
				if slices.ContainsFunc(out, func(v float64) bool { return v != 0 }) {
					t.Errorf("%s n %d: out written when declined: %v", tc.name, n, out)
				}
				continue
			}
			sorted := slices.Sorted(slices.Values(a))
			for i, p := range pos {
				if math.Float64bits(out[i]) != math.Float64bits(sorted[p]) {
					t.Errorf("%s n %d: position %d is %v, sorted %v", tc.name, n, p, out[i], sorted[p])
				}
			}
		}
	}
	out := make([]float64, 1)
	if !SelectWhole([]float64{7}, []int{0}, out) || out[0] != 7 {
		t.Errorf("one value: %v", out)
	}
	if SelectWhole(nil, nil, nil) || SelectWhole([]float64{1, 2}, []int{2}, make([]float64, 1)) || SelectWhole([]float64{1, 2}, []int{0, 1}, nil) {
		t.Error("SelectWhole accepted an empty list, a position past the end or a short out")
	}
}
