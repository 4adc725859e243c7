package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestMannWhitneyUKnown checks U and p against values worked out by hand
// and published results of R's wilcox.test (two-sided, correct = TRUE).
func TestMannWhitneyUKnown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x, y  []float64
		u, p  float64
		tolP  float64
		cross string
	}{
		// Complete separation: only 2 of C(m+n, m) orderings are as extreme.
		{"3v3 separated", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, 2.0 / 20, 1e-12, "R: W = 0, p-value = 0.1"},
		{"4v4 separated", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 0, 2.0 / 70, 1e-12, "R: p-value = 0.02857"},
		{"5v5 separated", []float64{10, 11, 12, 13, 14}, []float64{1, 2, 3, 4, 5}, 25, 2.0 / 252, 1e-12, "R: W = 25, p-value = 0.007937"},
		// Hollander & Wolfe (1973) p. 69, the example of R's ?wilcox.test:
		// one-sided "greater" gives W = 35, p-value = 0.1272.
		{"Hollander-Wolfe", []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46},
			[]float64{1.15, 0.88, 0.90, 0.74, 1.21}, 35, 2 * 0.1272, 2e-4, "R: W = 35, p-value = 0.1272 (greater)"},
		// Ties: U = 0 + 0.5+0.5 + (1+0.5) = 2.5; tie groups {2,2,2} and
		// {3,3} give σ² = 16/12·(9 - 30/56) = 11.2857; z = (2.5-8+0.5)/σ
		// = -1.48836; p = 2Φ(z) = 0.13666.
		{"ties, normal approximation", []float64{1, 2, 2, 3}, []float64{2, 3, 4, 5}, 2.5, 0.13666, 1e-4, "R: W = 2.5, p-value = 0.1367"},
		// 50 values per side is past the exact limit. x = 1..50 against
		// y = 25.5..74.5: U = 1+…+25 = 325, σ² = 2500·101/12,
		// z = (325-1250+0.5)/145.057 = -6.37334, p = erfc(6.37334/√2).
		{"large, normal approximation", seq(1, 50), shift(seq(25, 74), 0.5), 325, 1.8496e-10, 1e-14, "by hand"},
		{"identical values", []float64{3, 3, 3, 3}, []float64{3, 3, 3, 3}, 8, 1, 0, "by hand"},
		{"empty side", nil, []float64{1}, 0, 1, 0, "by definition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, p := MannWhitneyU(tc.x, tc.y)
			if u != tc.u || !near(p, tc.p, tc.tolP) {
				t.Errorf("U = %v, p = %.6g; want U = %v, p = %.6g (%s)", u, p, tc.u, tc.p, tc.cross)
			}
			// Swapping the samples mirrors U and keeps a two-sided p.
			u2, p2 := MannWhitneyU(tc.y, tc.x)
			if len(tc.x) > 0 && (u2 != float64(len(tc.x)*len(tc.y))-u || !near(p2, p, 1e-12)) {
				t.Errorf("swapped: U = %v, p = %v; want %v, %v", u2, p2, float64(len(tc.x)*len(tc.y))-u, p)
			}
		})
	}
}

func shift(s []float64, d float64) []float64 {
	for i := range s {
		s[i] += d
	}
	return s
}

func seq(from, to int) []float64 {
	var s []float64
	for i := from; i <= to; i++ {
		s = append(s, float64(i))
	}
	return s
}

// TestUDistributionBruteForce compares the exact distribution with a count
// over every choice of m ranks out of m+n.
func TestUDistributionBruteForce(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {1, 5}, {3, 3}, {4, 6}, {5, 10}, {7, 7}} {
		m, n := sz[0], sz[1]
		want := make([]float64, m*n+1)
		N := m + n
		for mask := 0; mask < 1<<N; mask++ {
			if popcount(mask) != m {
				continue
			}
			// U counts pairs where the x (bit set) is above a y (bit clear).
			u, ys := 0, 0
			for r := 0; r < N; r++ {
				if mask&(1<<r) != 0 {
					u += ys
				} else {
					ys++
				}
			}
			want[u]++
		}
		got := uDistribution(m, n)
		if len(got) != len(want) {
			t.Fatalf("%dx%d: %d entries, want %d", m, n, len(got), len(want))
		}
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("%dx%d: count of U=%d is %v, want %v", m, n, k, got[k], want[k])
			}
		}
	}
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestHolm checks the adjustment against a hand-computed example: sorted
// p = .005 .01 .03 .04 times 4 3 2 1 = .02 .03 .06 .04, made monotone
// = .02 .03 .06 .06.
func TestHolm(t *testing.T) {
	for _, tc := range []struct {
		in, want []float64
	}{
		{[]float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		{[]float64{0.5, 0.9}, []float64{1, 1}},
		{[]float64{0.02}, []float64{0.02}},
		{nil, []float64{}},
	} {
		got := Holm(tc.in)
		if len(got) != len(tc.want) {
			t.Fatalf("Holm(%v) = %v", tc.in, got)
		}
		for i := range got {
			if !near(got[i], tc.want[i], 1e-12) {
				t.Errorf("Holm(%v) = %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
}

// TestMedianInterval checks the order statistics chosen: with Binomial(n,
// 1/2) tails, n = 6 needs the full range (coverage 1 - 2/64 = .969), n = 10
// gives x(2)..x(9) (.979; x(3)..x(8) has only .891) and n = 20 gives
// x(6)..x(15) (.959).
func TestMedianInterval(t *testing.T) {
	for _, tc := range []struct {
		n      int
		lo, hi float64
		ok     bool
	}{
		{5, math.NaN(), math.NaN(), false},
		{6, 1, 6, true},
		{10, 2, 9, true},
		{20, 6, 15, true},
	} {
		lo, hi, ok := MedianInterval(seq(1, tc.n), 0.95)
		if ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("n=%d: [%v, %v] %v, want [%v, %v] %v", tc.n, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
	if m := Median([]float64{1, 2, 3, 10}); m != 2.5 {
		t.Errorf("median of 1 2 3 10 = %v, want 2.5", m)
	}
}
