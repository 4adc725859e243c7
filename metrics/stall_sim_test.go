package metrics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// The planted cases of stall, decline and SLA detection: each is run on
// 500 seeded series whose truth is known, and must come out right in at
// least 95% of them (most in all).

const plantedSims = 500

// poisson draws a Poisson count of mean mu (Knuth's product of uniforms:
// the means here are small).
func poisson(rng *rand.Rand, mu float64) float64 {
	l, k, p := math.Exp(-mu), 0.0, 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}

// series is n one-second intervals of rate level(i) with Gaussian noise of
// relative sd cv; the first and last are partial (half and a third).
func series(rng *rand.Rand, n int, cv float64, level func(i int) float64) (secs, rates []float64) {
	for i := range n {
		secs = append(secs, float64(i+1))
		rates = append(rates, math.Max(0, level(i)*(1+cv*rng.NormFloat64())))
	}
	rates[0], rates[n-1] = rates[0]/2, rates[n-1]/3
	return secs, rates
}

func TestPlantedStalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func(rng *rand.Rand) (secs, rates []float64)
		// ok says whether the detection got the series right.
		ok   func(s metrics.Stalls) bool
		want float64 // the least share of series it must get right
	}{
		{"half the step at 20%: one stall of the slow half", func(rng *rand.Rand) ([]float64, []float64) {
			// 100 intervals, 98 full: the last 49 at 20%.
			return series(rng, 100, 0.05, func(i int) float64 { return map[bool]float64{true: 200, false: 1000}[i >= 50] })
		}, func(s metrics.Stalls) bool {
			return len(s.Events) == 1 && s.Events[0].Start == 50 && s.Events[0].Seconds == 49 && s.Decline == nil
		}, 1},
		{"three quarters at 20% less one interval: still stalls", func(rng *rand.Rand) ([]float64, []float64) {
			return series(rng, 100, 0.05, func(i int) float64 { return map[bool]float64{true: 200, false: 1000}[i >= 27] })
		}, func(s metrics.Stalls) bool { return s.Seconds == 72 && s.Decline == nil }, 1},
		{"a slow phase in the middle", func(rng *rand.Rand) ([]float64, []float64) {
			return series(rng, 300, 0.1, func(i int) float64 { return map[bool]float64{true: 300, false: 1000}[i >= 100 && i < 200] })
		}, func(s metrics.Stalls) bool {
			return len(s.Events) == 1 && s.Events[0].Start == 100 && s.Events[0].Seconds == 100 && s.Decline == nil
		}, 1},
		{"a steady decline from 100% to 20%: a decline, no stall", func(rng *rand.Rand) ([]float64, []float64) {
			return series(rng, 100, 0.05, func(i int) float64 { return 1000 - 800*float64(i-1)/97 })
		}, func(s metrics.Stalls) bool {
			d := s.Decline
			return len(s.Events) == 0 && d != nil && math.Abs(d.From/1000-1) < 0.05 && math.Abs(d.To/200-1) < 0.15 && d.Seconds == 98
		}, 0.95},
		{"a decline with a gap: the gap is a stall", func(rng *rand.Rand) ([]float64, []float64) {
			secs, r := series(rng, 100, 0.05, func(i int) float64 { return 1000 - 800*float64(i-1)/97 })
			r[30], r[31], r[32] = 0, 0, 0
			return secs, r
		}, func(s metrics.Stalls) bool {
			return s.Decline != nil && len(s.Events) == 1 && s.Events[0].Start == 30 && s.Events[0].Seconds == 3
		}, 0.95},
		{"steady, 10% noise: nothing", func(rng *rand.Rand) ([]float64, []float64) {
			return series(rng, 300, 0.1, func(int) float64 { return 1000 })
		}, func(s metrics.Stalls) bool { return len(s.Events) == 0 && s.Decline == nil }, 1},
		{"low rate, Poisson mean 2: no stall", func(rng *rand.Rand) ([]float64, []float64) {
			secs, r := series(rng, 100, 0, func(int) float64 { return 0 })
			for i := range r {
				r[i] = poisson(rng, 2)
			}
			return secs, r
		}, func(s metrics.Stalls) bool { return len(s.Events) == 0 }, 0.95},
		{"low rate, Poisson mean 20: no stall", func(rng *rand.Rand) ([]float64, []float64) {
			secs, r := series(rng, 100, 0, func(int) float64 { return 0 })
			for i := range r {
				r[i] = poisson(rng, 20)
			}
			return secs, r
		}, func(s metrics.Stalls) bool { return len(s.Events) == 0 }, 0.95},
		{"Poisson mean 20, 5 empty intervals: that stall", func(rng *rand.Rand) ([]float64, []float64) {
			secs, r := series(rng, 100, 0, func(int) float64 { return 0 })
			for i := range r {
				r[i] = poisson(rng, 20)
			}
			for i := 40; i < 45; i++ {
				r[i] = 0
			}
			return secs, r
		}, func(s metrics.Stalls) bool {
			return len(s.Events) == 1 && s.Events[0].Start == 40 && s.Events[0].Seconds == 5
		}, 0.95},
	} {
		rng := rand.New(rand.NewPCG(22, uint64(len(tc.name))))
		right := 0
		var bad string
		for range plantedSims {
			secs, rates := tc.gen(rng)
			s := metrics.FindStalls(secs, rates, nil, metrics.StallOptions{})
			if tc.ok(s) {
				right++
			} else if bad == "" {
				bad = fmt.Sprintf("%+v decline %+v", s.Events, s.Decline)
			}
		}
		share := float64(right) / plantedSims
		t.Logf("%s: right in %.3f", tc.name, share)
		if share < tc.want {
			t.Errorf("%s: right in %.3f of %d series, want %.2f; first wrong: %s", tc.name, share, plantedSims, tc.want, bad)
		}
	}
}

// TestPlantedSLA: a client exactly on target with 5% jitter an interval
// passes, one at 90% of it, or on target but with a slow phase, fails.
func TestPlantedSLA(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		level func(i int) float64
		cv    float64
		pass  bool
	}{
		{"on target, 5% jitter, 30 intervals", 30, func(int) float64 { return 100 }, 0.05, true},
		{"on target, 5% jitter, 100 intervals", 100, func(int) float64 { return 100 }, 0.05, true},
		{"on target, 5% jitter, 1800 intervals", 1800, func(int) float64 { return 100 }, 0.05, true},
		{"at 90%, 5% jitter, 30 intervals", 30, func(int) float64 { return 90 }, 0.05, false},
		{"at 90%, 5% jitter, 100 intervals", 100, func(int) float64 { return 90 }, 0.05, false},
		{"at 90%, 5% jitter, 1800 intervals", 1800, func(int) float64 { return 90 }, 0.05, false},
		{"on target but 15 s at half", 300, func(i int) float64 { return map[bool]float64{true: 50, false: 100}[i >= 100 && i < 115] }, 0.05, false},
	} {
		rng := rand.New(rand.NewPCG(95, uint64(tc.n)+uint64(len(tc.name))))
		right := 0
		for range plantedSims {
			secs, rates := series(rng, tc.n, tc.cv, tc.level)
			s := metrics.CheckSLA(secs, rates, 100, metrics.StallOptions{})
			if s.Why != "" {
				t.Fatalf("%s: %s", tc.name, s.Why)
			}
			if s.Pass == tc.pass {
				right++
			}
		}
		share := float64(right) / plantedSims
		t.Logf("%s: right in %.3f", tc.name, share)
		if share < 0.95 {
			t.Errorf("%s: right in %.3f of %d runs, want 0.95", tc.name, share, plantedSims)
		}
	}
}
