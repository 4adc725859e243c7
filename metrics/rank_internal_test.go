package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sortedDescAt is what the percentiles did before descAt: sort a copy,
// reverse it, index it.
func sortedDescAt(list []float64, pos []int) []float64 {
	l := slices.Clone(list)
	slices.Sort(l)
	slices.Reverse(l)
	out := make([]float64, len(pos))
	for i, p := range pos {
		out[i] = l[p]
	}
	return out
}

// rankLists are seeded lists of the shapes per-interval rates take, and
// shapes that are hard on a selection.
func rankLists(rng *rand.Rand, n int) map[string][]float64 {
	gen := func(f func(i int) float64) []float64 {
		l := make([]float64, n)
		for i := range l {
			l[i] = f(i)
		}
		return l
	}
	return map[string][]float64{
		"uniform":     gen(func(int) float64 { return rng.Float64() * 1e5 }),
		"rates":       gen(func(int) float64 { return math.Round(rng.NormFloat64()*300+5000) / 10 }),
		"ties":        gen(func(int) float64 { return float64(rng.IntN(3)) }),
		"zeros":       gen(func(i int) float64 { return float64(rng.IntN(2) * rng.IntN(1000)) }),
		"equal":       gen(func(int) float64 { return 42 }),
		"ascending":   gen(func(i int) float64 { return float64(i) }),
		"descending":  gen(func(i int) float64 { return float64(n - i) }),
		"organ pipe":  gen(func(i int) float64 { return float64(min(i, n-i)) }),
		"sawtooth":    gen(func(i int) float64 { return float64(i % 7) }),
		"negative":    gen(func(int) float64 { return -rng.Float64() }),
		"signed zero": gen(func(i int) float64 { return []float64{0, math.Copysign(0, -1), 1}[rng.IntN(3)] }),
		"NaN":         gen(func(i int) float64 { return []float64{math.NaN(), 1, 2, math.Inf(1)}[rng.IntN(4)] }),
		// Whole numbers, counted rather than selected when their range is
		// narrow (stats.SelectWhole): per-second counts, a wide range
		// that is selected, negative ones, and ones near 2^53.
		"counts":         gen(func(int) float64 { return math.Round(rng.NormFloat64()*300 + 5000) }),
		"wide":           gen(func(int) float64 { return float64(rng.IntN(1e9)) }),
		"negative whole": gen(func(int) float64 { return float64(-rng.IntN(50)) }),
		"huge":           gen(func(int) float64 { return float64(1<<53 - 1 - rng.IntN(100)) }),
	}
}

// TestDescAtSameAsSort checks descAt against sorting on 500 seeded lists
// of each shape and random lengths, at the percentiles' positions and at
// random ones: the values must be the same to the bit.
func TestDescAtSameAsSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 7))
	var scratch []float64
	cases := 0
	for trial := range 500 {
		n := 10 + rng.IntN(3000)
		if trial%50 == 0 {
			n = 10 + trial/50 // the shortest lists
		}
		pos := make([]int, len(percentileRanks))
		for r, x := range percentileRanks {
			pos[r] = min(max(int(math.RoundToEven(float64(x*n)/100)), 1), n) - 1
		}
		for range 3 {
			pos = append(pos, rng.IntN(n))
		}
		// The mirrored positions make sortedAt take the other way up or
		// down the list.
		mirror := make([]int, len(pos))
		for i, p := range pos {
			mirror[i] = n - 1 - p
		}
		for shape, list := range rankLists(rng, n) {
			for _, pos := range [][]int{pos, mirror} {
				orig := slices.Clone(list)
				got := descAt(list, pos, &scratch)
				want := sortedDescAt(list, pos)
				for i := range pos {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%s n=%d position %d: got %v, sorting gives %v", shape, n, pos[i], got[i], want[i])
					}
				}
				if !slices.EqualFunc(list, orig, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
					t.Fatalf("%s n=%d: descAt changed its list", shape, n)
				}
				cases++
			}
		}
	}
	if shapes := len(rankLists(rand.New(rand.NewPCG(0, 0)), 1)); cases != 500*shapes*2 {
		t.Fatalf("%d cases", cases)
	}
}

// percentilePositions are the positions percentiles picks in the
// descending list of n rates.
func percentilePositions(n int) []int {
	pos := make([]int, len(percentileRanks))
	for r, x := range percentileRanks {
		pos[r] = x*n/100 - 1
	}
	return pos
}

func BenchmarkPercentilePick(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := rankLists(rng, 20000)["rates"]
	pos := percentilePositions(len(list))
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			sortedDescAt(list, pos)
		}
	})
	b.Run("select", func(b *testing.B) {
		var scratch []float64
		for b.Loop() {
			descAt(list, pos, &scratch)
		}
	})
}

// TestEmpiricalQuantileSameAsGonum checks empiricalQuantile against
// stat.Quantile of the sorted list, as FindStalls computed it, on 500
// seeded lists of each shape and the quantiles FindStalls uses and others.
func TestEmpiricalQuantileSameAsGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 8))
	for trial := range 500 {
		n := 1 + rng.IntN(2000)
		if trial%50 == 0 {
			n = 1 + trial/50
		}
		for shape, list := range rankLists(rng, n) {
			for _, p := range []float64{0, 0.5, StallReferenceQuantile, 0.99, 1, rng.Float64()} {
				want := stat.Quantile(p, stat.Empirical, slices.Sorted(slices.Values(list)), nil)
				got := empiricalQuantile(p, slices.Clone(list))
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%s n=%d p=%v: got %v, gonum gives %v", shape, n, p, got, want)
				}
			}
		}
	}
}

// BenchmarkPercentileCounts picks the percentiles of per-second counts,
// whole numbers in a narrow range, as client logs print them: counted
// (stats.SelectWhole) where the list of BenchmarkPercentilePick, tenths,
// is selected.
func BenchmarkPercentileCounts(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	list := rankLists(rng, 7500)["counts"]
	pos := percentilePositions(len(list))
	var scratch []float64
	for b.Loop() {
		descAt(list, pos, &scratch)
	}
}
