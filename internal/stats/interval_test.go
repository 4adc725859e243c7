package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ar1 is an AR(1) series of mean mu started in its stationary distribution:
// y(t) = mu + phi·(y(t-1) - mu) + sd·√(1−phi²)·e(t), e ~ N(0, 1), so that
// every sample has standard deviation sd.
func ar1(rng *rand.Rand, n int, mu, sd, phi float64) []float64 {
	y := make([]float64, n)
	prev := rng.NormFloat64()
	s := math.Sqrt(1 - phi*phi)
	for i := range y {
		if i > 0 {
			prev = phi*prev + s*rng.NormFloat64()
		}
		y[i] = mu + sd*prev
	}
	return y
}

// fgn draws series of fractional Gaussian noise of Hurst exponent h (long
// memory for h > 0.5): the exact covariance, by its Cholesky factor.
type fgn struct {
	l *mat.TriDense
	n int
}

func newFGN(n int, h float64) fgn {
	g := func(k float64) float64 {
		return 0.5 * (math.Pow(math.Abs(k+1), 2*h) - 2*math.Pow(math.Abs(k), 2*h) + math.Pow(math.Abs(k-1), 2*h))
	}
	c := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			c.SetSym(i, j, g(float64(j-i)))
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(c) {
		panic("fGn covariance is not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	return fgn{&l, n}
}

func (f fgn) draw(rng *rand.Rand, mu, sd float64) []float64 {
	z := make([]float64, f.n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	y := make([]float64, f.n)
	for i := range y {
		s := 0.0
		for j := 0; j <= i; j++ {
			s += f.l.At(i, j) * z[j]
		}
		y[i] = mu + sd*s
	}
	return y
}

// stalled is an AR(1) series (phi 0.3, sd 5% of mu) in which each interval
// not in a stall starts one with probability p; a stall lasts 5 intervals
// at 20% of the rate. It starts in the stationary state of that process,
// whose mean is stalledMean.
func stalled(rng *rand.Rand, n int, mu, p float64) []float64 {
	y, _ := stalledMet(rng, n, mu, p)
	return y
}

// stalledMet is stalled, and whether the series met a stall.
func stalledMet(rng *rand.Rand, n int, mu, p float64) ([]float64, bool) {
	met := false
	y := ar1(rng, n, mu, 0.05*mu, 0.3)
	left := 0
	if rng.Float64() < 5*p/(1-p+5*p) {
		left = 1 + rng.IntN(5)
	}
	for i := range y {
		if left == 0 && rng.Float64() < p {
			left = 5
		}
		if left > 0 {
			y[i] *= 0.2
			left--
			met = true
		}
	}
	return y, met
}

// stalledMean is the mean of the stalled process: a share 5p/(1−p+5p) of
// its intervals is stalled at 20% of the rate.
func stalledMean(mu, p float64) float64 {
	return mu * (1 - 0.8*5*p/(1-p+5*p))
}

type cell struct {
	name            string
	n               int
	gen             func(*rand.Rand) []float64
	mu              float64
	covered, marked int
	coveredUnmarked int
	longMemory      int // marked for long memory or a drift
}

func (c *cell) run(sims int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, uint64(c.n)))
	for range sims {
		iv := MeanInterval(c.gen(rng), 0.95)
		in := iv.Lo <= c.mu && c.mu <= iv.Hi
		if in {
			c.covered++
		}
		if strings.Contains(iv.LowConfidence, "long memory") {
			c.longMemory++
		}
		if iv.LowConfidence != "" {
			c.marked++
		} else if in {
			c.coveredUnmarked++
		}
	}
}

// TestMeanIntervalCoverage is the calibration of MeanInterval on seeded
// series of known mean, 500 simulations per cell:
//   - AR(1) series, φ ∈ {0, 0.3, 0.6, 0.8, 0.9, 0.95}, n ∈ {30, 60, 100,
//     200, 400}: the 95% interval covers the mean in at least 90% of the
//     simulations for φ ≤ 0.8 at n ≥ 60 and φ ≤ 0.9 at n ≥ 200, 85% for
//     φ ≤ 0.6 at n = 30; at most 21% of the series with φ ≤ 0.6 at n ≥ 100
//     are marked low-confidence, and at most 3% of those with φ ≤ 0.9 at
//     n ≥ 200 for long memory (the test's false marks);
//   - in every cell, the intervals not marked low-confidence cover the mean
//     in at least 90% of the simulations (85% at n = 30), or at least 90%
//     of the cell is marked;
//   - fractional Gaussian noise (H = 0.7, long memory) and series with
//     stalls (each interval starts a stall of 5 intervals at 20% of the
//     rate with probability 1%; the mean is that of the process, stalls
//     included) are held to the same rule where it holds, and the cells
//     where it does not are listed in gaps with what they measure, so that
//     a change in either direction is seen. What a stalled run's interval
//     promises is TestMeanIntervalStalls.
func TestMeanIntervalCoverage(t *testing.T) {
	const sims, mu = 500, 100.0
	type key struct {
		name string
		n    int
	}
	// gaps are the cells that miss the rule. Long memory of H = 0.7 at
	// n = 100…400: a series of a few hundred samples does not tell it from
	// short memory at a false-mark rate AR(1) series can afford (the
	// others cover 0.82, 0.70, 0.63; 0, 12 and 46% marked). Stalls: a run
	// that met no stall does not know of the stalls it did not meet (the
	// mean is the process's, stalls included).
	gaps := map[key]bool{
		{"fGn H=0.7", 100}: true, {"fGn H=0.7", 200}: true, {"fGn H=0.7", 400}: true,
		{"stalls 1%", 30}: true, {"stalls 1%", 60}: true, {"stalls 1%", 100}: true, {"stalls 1%", 200}: true,
	}
	var cells []*cell
	for _, n := range []int{30, 60, 100, 200, 400} {
		for _, phi := range []float64{0, 0.3, 0.6, 0.8, 0.9, 0.95} {
			cells = append(cells, &cell{name: fmt.Sprintf("AR(1) φ=%.2f", phi), n: n, mu: mu,
				gen: func(r *rand.Rand) []float64 { return ar1(r, n, mu, 5, phi) }})
		}
		f := newFGN(n, 0.7)
		cells = append(cells, &cell{name: "fGn H=0.7", n: n, mu: mu, gen: func(r *rand.Rand) []float64 { return f.draw(r, mu, 5) }})
		cells = append(cells, &cell{name: "stalls 1%", n: n, mu: stalledMean(mu, 0.01), gen: func(r *rand.Rand) []float64 { return stalled(r, n, mu, 0.01) }})
	}
	for i, c := range cells {
		c.run(sims, uint64(i+1))
		all, marked := float64(c.covered)/sims, float64(c.marked)/sims
		unmarked := math.NaN()
		if c.marked < sims {
			unmarked = float64(c.coveredUnmarked) / float64(sims-c.marked)
		}
		t.Logf("%-14s n %3d: coverage %.3f, marked low-confidence %.3f, coverage of the others %.3f", c.name, c.n, all, marked, unmarked)
		target := 0.90
		if c.n == 30 {
			target = 0.85
		}
		var phi float64
		if _, err := fmt.Sscanf(c.name, "AR(1) φ=%f", &phi); err == nil {
			if (c.n == 30 && phi <= 0.6) || (c.n >= 60 && phi <= 0.8) || (c.n >= 200 && phi <= 0.9) {
				if all < target {
					t.Errorf("%s n %d: coverage %.3f, want ≥ %.2f", c.name, c.n, all, target)
				}
			}
			if c.n >= 100 && phi <= 0.6 && marked > 0.21 {
				t.Errorf("%s n %d: %.3f marked low-confidence, want ≤ 0.21", c.name, c.n, marked)
			}
			if lm := float64(c.longMemory) / sims; c.n >= 200 && phi <= 0.9 && lm > 0.03 {
				t.Errorf("%s n %d: %.3f marked for long memory, want ≤ 0.03", c.name, c.n, lm)
			}
		}
		holds := marked >= 0.9 || unmarked >= target
		switch gap := gaps[key{c.name, c.n}]; {
		case !holds && !gap:
			t.Errorf("%s n %d: %.3f marked low-confidence and the others cover %.3f, want ≥ 0.90 marked or ≥ %.2f", c.name, c.n, marked, unmarked, target)
		case holds && gap:
			t.Errorf("%s n %d: listed as a gap but holds (%.3f marked, others cover %.3f)", c.name, c.n, marked, unmarked)
		}
	}
}

// TestMeanIntervalStalls: what the interval promises on a run with rare
// stalls (each interval starts a stall of 5 intervals at 20% of the rate
// with probability 1%; the truth is the process's mean, stalls included).
// A run that met a stall is marked low-confidence or covers that mean in at
// least 90% of 500 simulations per length; a run that met none measures its
// own steady state, and its interval covers the mean without stalls (the
// AR(1) level) in at least 90%: it is an interval for the steady state the
// run saw, not for stalls it did not meet.
func TestMeanIntervalStalls(t *testing.T) {
	const sims, mu, p = 500, 100.0, 0.01
	truth := stalledMean(mu, p)
	for _, n := range []int{30, 60, 100, 200, 400} {
		rng := rand.New(rand.NewPCG(13, uint64(n)))
		var met, metOK, clean, cleanOK int
		for range sims {
			y, m := stalledMet(rng, n, mu, p)
			iv := MeanInterval(y, 0.95)
			if m {
				met++
				if iv.LowConfidence != "" || (iv.Lo <= truth && truth <= iv.Hi) {
					metOK++
				}
				continue
			}
			clean++
			if iv.Lo <= mu && mu <= iv.Hi {
				cleanOK++
			}
		}
		a, b := float64(metOK)/float64(met), float64(cleanOK)/float64(clean)
		t.Logf("stalls 1%% n %3d: %.3f met a stall, of which %.3f marked or covered; the others cover the steady state %.3f", n, float64(met)/sims, a, b)
		if met > 0 && a < 0.90 {
			t.Errorf("n %d: of the runs that met a stall %.3f marked or covered, want ≥ 0.90", n, a)
		}
		if clean > 0 && b < 0.90 {
			t.Errorf("n %d: runs without a stall cover the steady state %.3f, want ≥ 0.90", n, b)
		}
	}
}

// TestMeanIntervalNoPretest: uncorrelated samples get the same formula (no
// switch to the i.i.d. t-interval), a width within 5–25% above the
// t-interval's at n = 100 and within 10% at n = 1000, because the
// correlation allowed for is raised by its standard error.
func TestMeanIntervalNoPretest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		n        int
		lo, high float64
	}{{100, 1.05, 1.25}, {1000, 1.0, 1.10}} {
		var ratio float64
		const sims = 300
		for range sims {
			y := ar1(rng, c.n, 50, 1, 0)
			iv := MeanInterval(y, 0.95)
			if iv.Method != MethodAR {
				t.Fatalf("method %q", iv.Method)
			}
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(c.n - 1)}.Quantile(0.975)
			ratio += (iv.Hi - iv.Lo) / 2 / (q * stat.StdDev(y, nil) / math.Sqrt(float64(c.n)))
		}
		if r := ratio / sims; r < c.lo || r > c.high {
			t.Errorf("n %d: width %.3f of the t-interval's, want %.2f–%.2f", c.n, r, c.lo, c.high)
		}
	}
}

func TestMeanIntervalEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		y    []float64
		why  string // "" for an interval
		low  string // a word of LowConfidence
	}{
		{"3 samples", []float64{1, 2, 3}, "fewer than 10", ""},
		{"NaN", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.NaN()}, "not a number", ""},
		{"Inf", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.Inf(1)}, "not a number", ""},
		{"constant", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, "", ""},
		{"a stall", append(ar1(rand.New(rand.NewPCG(3, 3)), 200, 100, 2, 0.2), 10, 10, 10), "", "stalls"},
		{"strong correlation", ar1(rand.New(rand.NewPCG(4, 4)), 60, 100, 2, 0.95), "", "effective sample size"},
		{"a drift", func() []float64 {
			y := ar1(rand.New(rand.NewPCG(5, 5)), 400, 100, 1, 0)
			for i := range y {
				y[i] += float64(i) / 100
			}
			return y
		}(), "", "drift"},
	} {
		iv := MeanInterval(c.y, 0.95)
		switch {
		case c.why != "" && (iv.OK() || !strings.Contains(iv.Why, c.why)):
			t.Errorf("%s: %+v, want NA %q", c.name, iv, c.why)
		case c.why == "" && !iv.OK():
			t.Errorf("%s: NA %s", c.name, iv.Why)
		case c.why == "" && c.low == "" && iv.LowConfidence != "":
			t.Errorf("%s: low-confidence %q", c.name, iv.LowConfidence)
		case c.low != "" && !strings.Contains(iv.LowConfidence, c.low):
			t.Errorf("%s: low-confidence %q, want %q", c.name, iv.LowConfidence, c.low)
		}
	}
	a, b := MeanInterval(ar1(rand.New(rand.NewPCG(1, 2)), 500, 10, 1, 0.7), 0.95), MeanInterval(ar1(rand.New(rand.NewPCG(1, 2)), 500, 10, 1, 0.7), 0.95)
	if a != b {
		t.Error("the same series gave two intervals")
	}
}

// TestWithinNoiseAA is the A/A test: two runs of one configuration whose
// means differ by a run-to-run effect of 1–2% (uniform, either sign), each
// an AR(1) series (φ 0.5, sd 5% of the mean, 300 intervals), are within
// noise with the default run-to-run term in at least 90% of 1000 pairs;
// without it far fewer are. A +5% change at φ = 0.9, n = 30 is never
// within noise: its intervals are low-confidence and the verdict unknown.
// A +5% change on well-behaved runs (φ 0.3, 400 intervals) is seen.
func TestWithinNoiseAA(t *testing.T) {
	const pairs = 1000
	for _, c := range []struct {
		name        string
		n           int
		phi, effect float64 // effect: the size of the run effect; negative: 1–2% at random
		run         float64
		minWithin   float64 // share of pairs within noise
		maxWithin   float64
		maxKnown    float64 // share of pairs with a verdict at most
	}{
		{"A/A, run effect 1–2%", 300, 0.5, -1, DefaultRunNoise, 0.90, 1, 1},
		{"A/A, run effect 1–2%, no run term", 300, 0.5, -1, 0, 0, 0.75, 1},
		{"+5%, φ 0.9, n 30", 30, 0.9, 0.05, DefaultRunNoise, 0, 0, 0.05},
		{"+5%, φ 0.3, n 400", 400, 0.3, 0.05, DefaultRunNoise, 0, 0.05, 1},
	} {
		rng := rand.New(rand.NewPCG(11, uint64(c.n)))
		within, known := 0, 0
		for range pairs {
			e := c.effect
			if e < 0 {
				e = 0.01 + 0.01*rng.Float64()
				if rng.IntN(2) == 0 {
					e = -e
				}
			}
			base := MeanInterval(ar1(rng, c.n, 100, 5, c.phi), 0.95)
			other := MeanInterval(ar1(rng, c.n, 100*(1+e), 5*(1+e), c.phi), 0.95)
			w, k := WithinNoise(other.Mean/base.Mean, other, base, c.run)
			if w {
				within++
			}
			if k {
				known++
			}
		}
		w, k := float64(within)/pairs, float64(known)/pairs
		t.Logf("%s: within noise %.3f, verdict known %.3f", c.name, w, k)
		if w < c.minWithin || w > c.maxWithin || k > c.maxKnown {
			t.Errorf("%s: within noise %.3f (want %.2f–%.2f), known %.3f (want ≤ %.2f)", c.name, w, c.minWithin, c.maxWithin, k, c.maxKnown)
		}
	}
}

func TestNoiseBound(t *testing.T) {
	iv := func(mean, h float64, low string) Interval {
		return Interval{Mean: mean, Lo: mean * (1 - h), Hi: mean * (1 + h), Level: 0.95, Method: MethodAR, N: 100, LowConfidence: low}
	}
	for _, c := range []struct {
		name  string
		a, b  Interval
		run   float64
		bound float64
		ok    bool
	}{
		{"no run term", iv(100, 0.03, ""), iv(100, 0.04, ""), 0, 0.05, true},
		{"run term", iv(100, 0, ""), iv(100, 0, ""), 0.01, 1.959964 * math.Sqrt2 * 0.01, true},
		{"low confidence", iv(100, 0.03, "effective sample size 4"), iv(100, 0.04, ""), 0.01, math.NaN(), false},
		{"unknown", Interval{Why: "no client log"}, iv(100, 0.04, ""), 0.01, math.NaN(), false},
		{"negative run", iv(100, 0.03, ""), iv(100, 0.04, ""), -1, math.NaN(), false},
	} {
		b, ok := NoiseBound(c.a, c.b, c.run)
		if ok != c.ok || (ok && math.Abs(b-c.bound) > 1e-6) {
			t.Errorf("%s: %v %v, want %v %v", c.name, b, ok, c.bound, c.ok)
		}
	}
}

// TestMeanIntervalLongMemorySeeds measures the long-memory cells of
// TestMeanIntervalCoverage (fGn, H = 0.7 and 0.8) over several seeds, 500
// simulations each, and states the spread docs/statistics.md gives:
// coverage of the intervals not marked low-confidence, and the share
// marked. It asserts only that the spread is stated from more than one
// seed; the figures are what they are (long memory is a documented gap).
// IBREPORT_FGN_SEEDS sets the seeds (default 2; the docs used 6).
func TestMeanIntervalLongMemorySeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("long-memory spread: a measurement")
	}
	seeds := 2
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_FGN_SEEDS")); err == nil && s > 1 {
		seeds = s
	}
	const sims, mu = 500, 100.0
	for _, h := range []float64{0.7, 0.8} {
		for _, n := range []int{30, 60, 100, 200, 400} {
			f := newFGN(n, h)
			loU, hiU, loM, hiM := 1.0, 0.0, 1.0, 0.0
			for s := range seeds {
				c := &cell{n: n, mu: mu, gen: func(r *rand.Rand) []float64 { return f.draw(r, mu, 5) }}
				c.run(sims, uint64(1000+s))
				m := float64(c.marked) / sims
				u := math.NaN()
				if c.marked < sims {
					u = float64(c.coveredUnmarked) / float64(sims-c.marked)
				}
				loU, hiU, loM, hiM = math.Min(loU, u), math.Max(hiU, u), math.Min(loM, m), math.Max(hiM, m)
			}
			if loU > hiU {
				t.Errorf("H %.1f n %d: no unmarked interval in %d seeds", h, n, seeds)
			}
			t.Logf("fGn H=%.1f n %3d: unmarked cover %.3f–%.3f, marked %.3f–%.3f (%d seeds × %d)", h, n, loU, hiU, loM, hiM, seeds, sims)
		}
	}
}
