package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// outliersSorted is outliers as the sort it replaced computed it.
func outliersSorted(y []float64) int {
	s := slices.Clone(y)
	slices.Sort(s)
	med := stat.Quantile(0.5, stat.Empirical, s, nil)
	for i, v := range y {
		s[i] = math.Abs(v - med)
	}
	slices.Sort(s)
	mad := 1.4826 * stat.Quantile(0.5, stat.Empirical, s, nil)
	if mad == 0 {
		return 0
	}
	k := 0
	for _, v := range y {
		if math.Abs(v-med) > stallSD*mad {
			k++
		}
	}
	return k
}

// obmRatioFresh is obmRatio with its three arrays allocated, as before they
// came from Floats.
func obmRatioFresh(y []float64, s2, phi float64, b int) float64 {
	n := len(y)
	if b < 2 || b >= n {
		return 1
	}
	fn := float64(n)
	m := stat.Mean(y, nil)
	ps := make([]float64, n+1)
	for i, v := range y {
		ps[i+1] = ps[i] + v
	}
	k := n - b + 1
	var v float64
	for j := range k {
		d := (ps[j+b]-ps[j])/float64(b) - m
		v += d * d
	}
	v /= float64(k)
	c := make([]float64, n+1)
	pw := 1.0
	pows := make([]float64, n)
	for i := range pows {
		pows[i] = pw
		pw *= phi
	}
	for i := range n {
		ci := 1.0
		if phi > 0 {
			ci += phi*(1-pows[i])/(1-phi) + phi*(1-pows[n-1-i])/(1-phi)
		}
		c[i+1] = c[i] + ci
	}
	fb, fnn := inflation(phi, b)/float64(b), inflation(phi, n)/fn
	var e float64
	for j := range k {
		e += fb + fnn - 2*(c[j+b]-c[j])/(float64(b)*fn)
	}
	e /= float64(k)
	es2 := (fn - inflation(phi, n)) / (fn - 1)
	return (v / s2) / (e / es2)
}

// TestScratchSameBits checks that the selection and the reused arrays give
// the numbers of the sort and the fresh arrays to the bit, on series with
// ties, zeros, -0, stalls and of odd and even lengths, the scratch slices
// reused dirty from one series to the next.
func TestScratchSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 39))
	for trial := range 300 {
		n := 30 + rng.IntN(3000)
		y := ar1(rng, n, 1000, 50, 0.9*rng.Float64())
		switch trial % 5 {
		case 1: // ties: rounded rates
			for i := range y {
				y[i] = math.Round(y[i] / 10)
			}
		case 2: // stalls and zeros
			for i := range y {
				if rng.IntN(20) == 0 {
					y[i] = 0
				}
			}
		case 3: // a -0 among them
			y[rng.IntN(n)] = math.Copysign(0, -1)
		case 4: // constant but for one
			for i := range y {
				y[i] = 5
			}
			y[rng.IntN(n)] = 6
		}
		if got, want := outliers(y), outliersSorted(y); got != want {
			t.Fatalf("trial %d: outliers %d, the sort's %d", trial, got, want)
		}
		s2 := stat.Variance(y, nil)
		phi := math.Max(0, lag1(y))
		for _, b := range []int{n / 16, n / 4, 2, n - 1} {
			got, want := obmRatio(y, s2, phi, b), obmRatioFresh(y, s2, phi, b)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("trial %d b %d: obmRatio %v, with fresh arrays %v", trial, b, got, want)
			}
		}
	}
}

// TestMedianOf checks the median against stat.Quantile of the sorted list
// to the bit, with -0 and NaN.
func TestMedianOf(t *testing.T) {
	nz := math.Copysign(0, -1)
	for _, y := range [][]float64{
		{1}, {2, 1}, {3, 1, 2}, {0, nz, 0, nz}, {nz, 0, 1}, {1, math.NaN(), 0}, {5, 5, 5, 4, 6, 5},
	} {
		s := slices.Clone(y)
		slices.Sort(s)
		want := stat.Quantile(0.5, stat.Empirical, s, nil)
		got := medianOf(slices.Clone(y))
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("medianOf(%v) = %v, want %v", y, got, want)
		}
	}
}
