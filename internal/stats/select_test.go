package stats

import (
	"slices"
	"testing"
)

// TestSelectAscAdversarial runs SelectAsc on lists that defeat
// median-of-three pivots, where it falls back to sorting: it must stay
// right.
func TestSelectAscAdversarial(t *testing.T) {
	for _, n := range []int{13, 100, 1000, 4096} {
		// Median-of-3 killer (Musser): pivots are always near the smallest.
		l := make([]float64, n)
		k := n / 2
		for i := 1; i <= k; i++ {
			if i%2 == 1 {
				l[i-1] = float64(i)
				l[i] = float64(k + i)
			}
			l[k+i-1] = float64(2 * i)
		}
		for _, r := range []int{0, n / 4, n / 2, n - 1} {
			a := slices.Clone(l)
			SelectAsc(a, r)
			want := slices.Sorted(slices.Values(l))[r]
			if a[r] != want {
				t.Errorf("n=%d rank %d: got %v, want %v", n, r, a[r], want)
			}
			for i := range a {
				if i < r && a[i] > a[r] || i > r && a[i] < a[r] {
					t.Fatalf("n=%d rank %d: a[%d]=%v on the wrong side", n, r, i, a[i])
				}
			}
		}
	}
}
