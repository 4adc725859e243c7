package metrics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// Two points a series tell whether it is zero throughout: a series of
// zeros with one spike, up or down, anywhere, keeps the spike (and a zero)
// when decimated to 2 points, so a chart of it is not left out as empty
// (Options.SeriesPoints 2, for reports that draw no charts).
func TestDecimateTwoKeepsSpike(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 35))
		for _, n := range []int{3, 11, 1201, 7500} {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i] = float64(i)
			}
			at, v := rng.IntN(n), float64(1+rng.IntN(1000))
			if rng.IntN(2) == 0 {
				v = -v
			}
			y[at] = v
			s := metrics.Decimate(x, y, 2)
			if len(s.Y) != 2 || len(s.X) != 2 {
				t.Fatalf("seed %d n %d: %d points, want 2", seed, n, len(s.Y))
			}
			spike := -1
			for i, w := range s.Y {
				if w == v {
					spike = i
				} else if w != 0 {
					t.Errorf("seed %d n %d: point %g, want 0 or %g", seed, n, w, v)
				}
			}
			if spike < 0 || s.X[spike] != float64(at) {
				t.Errorf("seed %d n %d: spike %g at %d lost: %v %v", seed, n, v, at, s.X, s.Y)
			}
		}
	}
}
