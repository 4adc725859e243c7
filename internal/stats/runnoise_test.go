package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestRunNoiseCases(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float64
		want float64 // 0: none learned
		why  string
		runs int
	}{
		{"empty", nil, 0, "0 runs, fewer than 5", 0},
		{"four runs", []float64{100, 101, 99, 100}, 0, "4 runs, fewer than 5", 4},
		{"NA left out", []float64{100, math.NaN(), 101, math.Inf(1), 99, 0, -3, 100}, 0, "4 runs, fewer than 5", 4},
		{"identical", []float64{50, 50, 50, 50, 50, 50}, 0, "6 identical runs", 6},
		// Alternating ±1%: every log difference is log(1.01/0.99), so the
		// estimate is that over √2.
		{"alternating", []float64{101, 99, 101, 99, 101, 99}, math.Log(101.0/99) / math.Sqrt2, "", 6},
		// A step of 10% after five identical runs: one difference of n−1.
		{"one step", []float64{100, 100, 100, 100, 100, 110, 110, 110, 110, 110}, math.Log(1.1) / math.Sqrt(18), "", 10},
	} {
		e := RunNoise(c.x)
		if math.Abs(e.Noise-c.want) > 1e-12 || e.Why != c.why || e.Runs != c.runs {
			t.Errorf("%s: %+v, want noise %g, why %q, runs %d", c.name, e, c.want, c.why, c.runs)
		}
		if (e.Noise > 0) != (e.DF > 0) {
			t.Errorf("%s: noise %g with df %g", c.name, e.Noise, e.DF)
		}
	}
}

func TestPoolRunNoise(t *testing.T) {
	a := RunNoiseEstimate{Noise: 0.01, Runs: 10, DF: RunNoiseDF(10)}
	b := RunNoiseEstimate{Noise: 0.03, Runs: 10, DF: RunNoiseDF(10)}
	none := RunNoiseEstimate{Runs: 3, Why: "3 runs, fewer than 5"}
	p := PoolRunNoise([]RunNoiseEstimate{a, none, b})
	if want := math.Sqrt((0.01*0.01 + 0.03*0.03) / 2); math.Abs(p.Noise-want) > 1e-12 || p.Runs != 20 || p.DF != 2*RunNoiseDF(10) {
		t.Errorf("pooled %+v, want noise %g of 20 runs", p, want)
	}
	if p := PoolRunNoise([]RunNoiseEstimate{none}); p.Noise != 0 || p.Why != none.Why || p.Runs != 3 {
		t.Errorf("nothing learned: %+v", p)
	}
	if p := PoolRunNoise(nil); p.Noise != 0 || p.Why == "" {
		t.Errorf("no estimates: %+v", p)
	}
}

// noiseAccuracy is the ratio estimate/truth of RunNoise on sims seeded
// series of n runs of relative noise sd (normal), with a level shift of
// shift in the middle; sdRatio is the same for the standard deviation of
// the logs around their mean.
func noiseAccuracy(seed uint64, n, sims int, sd, shift float64) (mssd, sdRatio []float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	x := make([]float64, n)
	for range sims {
		for i := range x {
			x[i] = 1000 * math.Exp(sd*rng.NormFloat64())
			if i >= n/2 {
				x[i] *= 1 + shift
			}
		}
		mssd = append(mssd, RunNoise(x).Noise/sd)
		m, v := 0.0, 0.0
		for _, y := range x {
			m += math.Log(y) / float64(n)
		}
		for _, y := range x {
			v += (math.Log(y) - m) * (math.Log(y) - m) / float64(n-1)
		}
		sdRatio = append(sdRatio, math.Sqrt(v)/sd)
	}
	return mssd, sdRatio
}

// ratioStats are the median ratio, its 10th and 90th percentiles and the
// root mean square relative error.
func ratioStats(r []float64) (med, p10, p90, rms float64) {
	s := slices.Clone(r)
	slices.Sort(s)
	q := func(p float64) float64 { return s[int(p*float64(len(s)-1)+0.5)] }
	for _, v := range s {
		rms += (v - 1) * (v - 1) / float64(len(s))
	}
	return q(0.5), q(0.1), q(0.9), math.Sqrt(rms)
}

// TestRunNoiseAccuracy measures how close RunNoise comes to the true
// run-to-run noise of a level of N runs, per seed (IBREPORT_NOISE_SEEDS
// seeds, default 3, of 2000 series each), and how a missed 5% level shift
// in the middle of the level moves it and the standard deviation: the
// table of docs/statistics.md.
func TestRunNoiseAccuracy(t *testing.T) {
	seeds := 3
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_NOISE_SEEDS")); err == nil && s > 0 {
		seeds = s
	}
	const sims, sd = 2000, 0.01
	var b strings.Builder
	fmt.Fprintf(&b, "%d series per seed, %d seeds, 1%% noise: estimate/truth, min–max over seeds\n", sims, seeds)
	fmt.Fprintf(&b, "%-22s %-14s %-14s %-14s %-14s\n", "case", "median", "10th pct", "90th pct", "rms rel. error")
	for _, c := range []struct {
		name    string
		n       int
		shift   float64
		sdCol   bool    // the standard deviation, not RunNoise
		maxRMS  float64 // asserted per seed
		medLo   float64
		medHigh float64
	}{
		{"N = 5", 5, 0, false, 0.50, 0.85, 1.05},
		{"N = 10", 10, 0, false, 0.35, 0.90, 1.05},
		{"N = 20", 20, 0, false, 0.25, 0.93, 1.05},
		{"N = 10, 5% shift", 10, 0.05, false, 0.65, 1.30, 1.65},
		{"N = 10, 5% shift, sd", 10, 0.05, true, 10, 2.2, 3.0},
		{"N = 20, 5% shift", 20, 0.05, false, 0.40, 1.10, 1.40},
		{"N = 20, 5% shift, sd", 20, 0.05, true, 10, 2.2, 3.0},
	} {
		var meds, p10s, p90s, rmss []float64
		for s := range seeds {
			m, sdr := noiseAccuracy(uint64(s+1), c.n, sims, sd, c.shift)
			if c.sdCol {
				m = sdr
			}
			med, p10, p90, rms := ratioStats(m)
			if rms > c.maxRMS || med < c.medLo || med > c.medHigh {
				t.Errorf("%s, seed %d: median %.3f (want %.2f–%.2f), rms relative error %.3f (want ≤ %.2f)", c.name, s+1, med, c.medLo, c.medHigh, rms, c.maxRMS)
			}
			meds, p10s, p90s, rmss = append(meds, med), append(p10s, p10), append(p90s, p90), append(rmss, rms)
		}
		span := func(x []float64) string { return fmt.Sprintf("%.2f–%.2f", slices.Min(x), slices.Max(x)) }
		fmt.Fprintf(&b, "%-22s %-14s %-14s %-14s %-14s\n", c.name, span(meds), span(p10s), span(p90s), span(rmss))
	}
	t.Logf("\n%s", b.String())
}
