package metrics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
)

// ar1 is an AR(1) series of mean mu started in its stationary distribution:
// y(t) = mu + phi·(y(t-1) - mu) + e(t), e ~ N(0, 1).
func ar1(rng *rand.Rand, n int, mu, phi float64) []float64 {
	y := make([]float64, n)
	prev := rng.NormFloat64() / math.Sqrt(1-phi*phi)
	for i := range y {
		prev = phi*prev + rng.NormFloat64()
		y[i] = mu + prev
	}
	return y
}

// TestMeanIntervalCoverage is the calibration: on AR(1) series of known
// mean, for several autocorrelations and lengths, the 95% interval covers
// the mean in 90–98% of 500 seeded simulations (90–99% at n = 100, where
// the margin on φ that also covers moderate long memory is widest).
func TestMeanIntervalCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("500 simulations per case")
	}
	const sims, mu = 500, 100.0
	for _, phi := range []float64{0, 0.3, 0.6, 0.8} {
		for _, n := range []int{100, 400, 1200, 3600} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(phi*1000)))
			covered := 0
			for range sims {
				iv := stats.MeanInterval(ar1(rng, n, mu, phi), 0.95)
				if !iv.OK() {
					t.Fatalf("phi %v n %d: %s", phi, n, iv.Why)
				}
				if iv.Lo <= mu && mu <= iv.Hi {
					covered++
				}
			}
			c := float64(covered) / sims
			t.Logf("phi %.1f n %4d: coverage %.3f", phi, n, c)
			hi := 0.98
			if n <= 100 {
				hi = 0.99
			}
			if c < 0.90 || c > hi {
				t.Errorf("phi %.1f n %d: coverage %.3f, want 0.90–%.2f", phi, n, c, hi)
			}
		}
	}
}

func TestMeanIntervalEdges(t *testing.T) {
	if iv := stats.MeanInterval([]float64{1, 2, 3}, 0.95); iv.OK() {
		t.Error("3 samples gave an interval")
	}
	if iv := stats.MeanInterval([]float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, 0.95); !iv.OK() || iv.Lo != 5 || iv.Hi != 5 {
		t.Errorf("a constant series: %+v", iv)
	}
	y := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, math.NaN()}
	if iv := stats.MeanInterval(y, 0.95); iv.OK() {
		t.Error("a NaN sample gave an interval")
	}
	a, b := stats.MeanInterval(ar1(rand.New(rand.NewPCG(1, 2)), 500, 10, 0.7), 0.95), stats.MeanInterval(ar1(rand.New(rand.NewPCG(1, 2)), 500, 10, 0.7), 0.95)
	if a != b {
		t.Error("the same series gave two intervals")
	}
}

// steady is a series of n one-second intervals around rate, with noise of
// ±2%, and response times around rt.
func steady(n int, rate, rt float64) (secs, rates, rts []float64) {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	for i := range n {
		secs = append(secs, float64(i+1))
		rates = append(rates, rate*(1+0.02*(2*rng.Float64()-1)))
		rts = append(rts, rt*(1+0.2*(2*rng.Float64()-1)))
	}
	rates[0], rates[n-1] = rate/2, rate/3 // partial first and last intervals
	return
}

// TestFindStalls plants stalls in steady series — a gap with no inserts, a
// response-time spike, a slow drift to a third of the rate — and checks
// that exactly those are found, and none in the steady series.
func TestFindStalls(t *testing.T) {
	opt := metrics.StallOptions{}
	for _, tc := range []struct {
		name  string
		plant func(rates, rts []float64)
		want  string // start+seconds of each stall
	}{
		{"steady", func([]float64, []float64) {}, ""},
		{"a zero-rate gap", func(r, _ []float64) { r[50], r[51], r[52] = 0, 0, 0 }, "50+3"},
		{"a response-time spike", func(_, rt []float64) { rt[100] *= 40 }, "100+1"},
		{"a slow drift", func(r, _ []float64) {
			for i := 150; i < 199; i++ {
				r[i] *= 1 - 0.67*float64(i-150)/49
			}
		}, "187+12"}, // where it fell below half the reference (the upper quartile)
		{"two gaps", func(r, _ []float64) { r[20], r[120] = 1, 1 }, "20+1 120+1"},
	} {
		secs, rates, rts := steady(200, 1000, 5000)
		tc.plant(rates, rts)
		st := metrics.FindStalls(secs, rates, rts, opt)
		var got []string
		for _, e := range st.Events {
			got = append(got, fmt.Sprintf("%.0f+%.0f", e.Start, e.Seconds))
		}
		if s := fmt.Sprint(got); s != fmt.Sprint(strings.Fields(tc.want)) {
			t.Errorf("%s: stalls %v, want %v", tc.name, got, tc.want)
		}
		if st.Why != "" {
			t.Errorf("%s: %s", tc.name, st.Why)
		}
	}
}

func TestCheckSLA(t *testing.T) {
	secs, rates, _ := steady(100, 100, 1)
	if s := metrics.CheckSLA(secs, rates, 100, metrics.StallOptions{}); !s.Pass || s.Met != 1 || s.Longest != 0 {
		t.Errorf("steady at the target: %+v", s)
	}
	for i := 30; i < 40; i++ {
		rates[i] = 50
	}
	s := metrics.CheckSLA(secs, rates, 100, metrics.StallOptions{})
	if s.Pass || s.Longest != 10 || math.Abs(s.Met-88.0/98) > 1e-12 {
		t.Errorf("10 s at half the target: %+v", s)
	}
}

// TestTimesGoingBack: interval end times that go back (a log edited or
// cut and pasted) would give stalls and SLA runs negative seconds; both
// are unknown instead, saying where.
func TestTimesGoingBack(t *testing.T) {
	secs, rates, rts := steady(100, 1000, 5000)
	rates[40], rates[41] = 1, 1
	secs[41] = secs[39] - 3
	st := metrics.FindStalls(secs, rates, rts, metrics.StallOptions{})
	if len(st.Events) != 0 || st.Seconds != 0 || !strings.Contains(st.Why, "interval 42 ends at") {
		t.Errorf("stalls %+v", st)
	}
	sla := metrics.CheckSLA(secs, rates, 1000, metrics.StallOptions{})
	if sla.Longest != 0 || sla.Pass || !strings.Contains(sla.Why, "before interval 41") {
		t.Errorf("SLA %+v", sla)
	}
	secs, rates, rts = steady(100, 1000, 5000)
	secs[10] = secs[9] // equal times are harmless
	if st := metrics.FindStalls(secs, rates, rts, metrics.StallOptions{}); st.Why != "" {
		t.Errorf("equal times: %s", st.Why)
	}
}
