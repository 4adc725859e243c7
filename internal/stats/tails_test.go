package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTailZ(t *testing.T) {
	for _, c := range []struct {
		p, df, want float64
	}{
		{0.025, 0, 1.95996},
		{1e-4, 0, 3.71902},
		{1e-4, math.Inf(1), 3.71902},
		// t3 quantile 22.204 at 1e-4, times √(1/3).
		{1e-4, 3, 12.8196},
		{0.5, 5, 0},
	} {
		if got := TailZ(c.p, c.df); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("TailZ(%v, %v) = %.5f, want %.5f", c.p, c.df, got, c.want)
		}
	}
	if !math.IsInf(TailZ(0, 3), 1) || !math.IsInf(FamilyTailZ(0, 10, 3), 1) {
		t.Error("p 0 is not +Inf")
	}
	if FamilyTailZ(0.01, 100, 0) != FamilyZ(0.01, 100) {
		t.Error("df 0 is not the normal")
	}
}

// TestLearnTailDF: histories of 10 runs of 30 tests, normal or t3 noise
// of different sizes per test: the normal reads as light (0, or 20 at the
// heaviest), t3 as 3–5, in most seeds.
func TestLearnTailDF(t *testing.T) {
	for _, c := range []struct {
		df     float64
		ok     func(float64) bool
		atMost int // seeds of 20 that may miss
	}{
		{0, func(d float64) bool { return d == 0 || d >= 10 }, 2},
		{3, func(d float64) bool { return d > 0 && d <= 5 }, 2},
	} {
		miss := 0
		for seed := range 20 {
			rng := rand.New(rand.NewPCG(uint64(seed), 3))
			var tests [][]float64
			for range 30 {
				sd := 0.005 + 0.04*rng.Float64()
				x := make([]float64, 20)
				for i := range x {
					x[i] = 1000 * (1 + sd*TailDraw(rng, c.df))
				}
				tests = append(tests, x)
			}
			got, ok := LearnTailDF(tests)
			if !ok {
				t.Fatalf("df %v: %d tests learn nothing", c.df, len(tests))
			}
			if !c.ok(got) {
				miss++
				t.Logf("df %v seed %d: learned %v", c.df, seed, got)
			}
		}
		if miss > c.atMost {
			t.Errorf("df %v: %d of 20 seeds learn a wrong tail", c.df, miss)
		}
	}
	if _, ok := LearnTailDF([][]float64{{1, 2, math.NaN()}, nil}); ok {
		t.Error("3 values learned a tail")
	}
	if d := LeaveOneOutDiffs([]float64{1, 2, 3, 4}); d != nil {
		t.Errorf("3 runs: %v", d)
	}
}
