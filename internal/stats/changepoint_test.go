package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// planted is a synthetic series: n members of level 1 with Gaussian noise
// of relative standard deviation sd, whose level is multiplied by 1+shift
// at each member of at.
func planted(rng *rand.Rand, n int, sd float64, at []int, shift []float64) []float64 {
	y := make([]float64, n)
	level := 1000.0
	for i := range y {
		for j, a := range at {
			if i == a {
				level *= 1 + shift[j]
			}
		}
		y[i] = level * (1 + sd*rng.NormFloat64())
	}
	return y
}

// foundAll reports whether every planted position has a change point at
// most one member away, and whether there is no other change point.
func foundAll(cps []ChangePoint, at []int) (all, only bool) {
	matched := make([]bool, len(cps))
	all = true
	for _, a := range at {
		hit := false
		for i, c := range cps {
			if !matched[i] && c.Index >= a-1 && c.Index <= a+1 {
				matched[i], hit = true, true
				break
			}
		}
		all = all && hit
	}
	return all, !slices.Contains(matched, false)
}

// TestChangePointsPlanted runs ChangePoints on seeded synthetic series with
// one, two or no planted level shifts at noise levels of 1–5% and asks that
// the shifts be found (±1 member) and flat series have none in at least 95%
// of the cases of every kind and noise level. A single shift is five times
// the noise (5% at 1% noise, 25% at 5%), two shifts seven times, at least
// three members from either end and five apart; -v prints the rates, and
// those of smaller shifts, which are not asserted.
func TestChangePointsPlanted(t *testing.T) {
	const cases = 200
	type kind struct {
		name   string
		n      int
		at     func(rng *rand.Rand) []int
		shift  []float64 // in standard deviations of the noise
		assert bool
	}
	one := func(rng *rand.Rand) []int { return []int{3 + rng.IntN(10)} }
	// Two shifts at least five members apart and three from either end.
	two := func(rng *rand.Rand) []int { a := 3 + rng.IntN(6); return []int{a, a + 5 + rng.IntN(17-a-4)} }
	kinds := []kind{
		{"none", 15, func(*rand.Rand) []int { return nil }, nil, true},
		{"one +5σ", 15, one, []float64{5}, true},
		{"one -5σ", 15, one, []float64{-5}, true},
		{"two +7σ/+7σ", 20, two, []float64{7, 7}, true},
		{"two +7σ/-7σ", 20, two, []float64{7, -7}, true},
		{"two +5σ/+5σ", 20, two, []float64{5, 5}, false},
		{"two +5σ/-5σ", 20, two, []float64{5, -5}, false},
		{"one +4σ", 15, one, []float64{4}, false},
		{"one +3σ", 15, one, []float64{3}, false},
	}
	for _, k := range kinds {
		for sd := 1; sd <= 5; sd++ {
			rng := rand.New(rand.NewPCG(uint64(sd), 7))
			shift := make([]float64, len(k.shift))
			for i, s := range k.shift {
				shift[i] = s * float64(sd) / 100
			}
			found, exact := 0, 0
			for range cases {
				at := k.at(rng)
				y := planted(rng, k.n, float64(sd)/100, at, shift)
				cps := ChangePoints(y, ChangePointOptions{})
				all, only := foundAll(cps, at)
				if all && (len(at) > 0 || only) {
					found++
				}
				if all && only {
					exact++
				}
			}
			t.Logf("%-12s noise %d%%: %5.1f%% found, %5.1f%% with no other change point", k.name, sd, float64(found)*100/cases, float64(exact)*100/cases)
			if k.assert && found < cases*95/100 {
				t.Errorf("%s, noise %d%%: right in %d of %d cases, want ≥ 95%%", k.name, sd, found, cases)
			}
		}
	}
}

func TestChangePointsTable(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		y    []float64
		want []int // change point indexes
	}{
		{"empty", nil, nil},
		{"too short", []float64{1, 1, 2}, nil},
		{"flat", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, nil},
		{"step", []float64{10, 10.1, 9.9, 10, 10.2, 9.8, 20, 20.1, 19.9, 20, 20.2, 19.8}, []int{6}},
		{"two steps", []float64{10, 10.1, 9.9, 10, 10.1, 20, 20.1, 19.9, 20, 20.1, 10, 10.1, 9.9, 10, 10.1}, []int{5, 10}},
		// A one-member level: reported at the member alone (Single).
		{"one outlier", []float64{10, 10.1, 9.9, 10, 10.2, 9.8, 30, 10.1, 9.9, 10, 10.2, 9.8}, []int{6}},
		{"missing members", []float64{10, nan, 10.1, 9.9, 10, 10.2, math.Inf(1), 9.8, 20, 20.1, 19.9, 20, nan, 20.2, 19.8}, []int{8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cps := ChangePoints(tc.y, ChangePointOptions{})
			var got []int
			for _, c := range cps {
				got = append(got, c.Index)
				if c.Stat <= 0 {
					t.Errorf("%v: stat %g", c, c.Stat)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("change points at %v (%v), want %v", got, cps, tc.want)
			}
		})
	}
}

func TestChangePointLevels(t *testing.T) {
	y := []float64{10, 11, 9, 10, 10, 12, 13, 12, 12, 12, 12}
	y = append(y, 20, 21, 19, 20)
	cps := ChangePoints(y, ChangePointOptions{})
	if len(cps) == 0 {
		t.Fatal("no change point")
	}
	last := cps[len(cps)-1]
	if last.Index != 11 || last.After != 20 || math.Abs(last.Shift-(20/last.Before-1)) > 1e-12 {
		t.Errorf("last change point %v, want one at 11 to the median 20", last)
	}
}

func TestMinMembers(t *testing.T) {
	if n := (ChangePointOptions{}).MinMembers(); n != 4 {
		t.Errorf("MinMembers %d, want 4", n)
	}
	if n := (ChangePointOptions{MinSegment: 3}).MinMembers(); n != 6 {
		t.Errorf("MinSegment 3: MinMembers %d, want 6", n)
	}
	// Below it nothing is found, however clear the shift.
	y := []float64{1, 1.01, 9, 9.01}
	if cps := ChangePoints(y[:3], ChangePointOptions{}); cps != nil {
		t.Errorf("3 members: %v", cps)
	}
	if cps := ChangePoints(y, ChangePointOptions{}); len(cps) != 1 || cps[0].Index != 2 {
		t.Errorf("4 members: %v", cps)
	}
}

func TestTTestP(t *testing.T) {
	for _, tc := range []struct {
		a, b   []float64
		lo, hi float64
	}{
		{[]float64{1, 1}, []float64{1, 1}, 1, 1},
		{[]float64{1, 1}, []float64{2, 2}, 0, 0},
		{[]float64{1}, []float64{2}, 1, 1},
		// t = 2.5/√(2.1429·(1/4+1/5)) = 2.5459 with 7 degrees of freedom.
		{[]float64{1, 2, 3, 4}, []float64{3, 4, 5, 6, 7}, 0.0382, 0.0384},
	} {
		if p := tTestP(tc.a, tc.b); p < tc.lo || p > tc.hi {
			t.Errorf("tTestP(%v, %v) = %g, want in [%g, %g]", tc.a, tc.b, p, tc.lo, tc.hi)
		}
	}
}

func BenchmarkChangePoints35(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	y := planted(rng, 35, 0.03, []int{8, 20, 27}, []float64{0.1, -0.1, 0.2})
	for b.Loop() {
		ChangePoints(y, ChangePointOptions{})
	}
}

// FuzzChangePoints feeds ChangePoints series decoded from bytes (NaN,
// infinities and extremes included) and checks what it promises: no
// panic, change points in order at members that are numbers, at least
// MinSegment numbers on either side, levels that are medians of numbers
// of the series, and the same answer twice.
func FuzzChangePoints(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 9, 9, 9, 9}, uint8(0))
	f.Add([]byte{10, 10, 11, 10, 30, 31, 30, 30, 10, 10, 11}, uint8(1))
	f.Add([]byte{0, 0, 0, 0, 0, 0}, uint8(2))
	f.Add([]byte{255, 0, 255, 0, 255, 0, 255}, uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, minSeg uint8) {
		if len(b) > 200 {
			b = b[:200]
		}
		y := make([]float64, len(b))
		for i, c := range b {
			switch c {
			case 250:
				y[i] = math.NaN()
			case 251:
				y[i] = math.Inf(1)
			case 252:
				y[i] = 1e300
			default:
				y[i] = float64(c)
			}
		}
		opt := ChangePointOptions{MinSegment: int(minSeg % 5)}
		cps := ChangePoints(y, opt)
		if again := ChangePoints(y, opt); !slices.Equal(cps, again) && !hasNaNShift(cps) {
			t.Fatalf("two runs differ: %v, %v", cps, again)
		}
		min := opt.WithDefaults().MinSegment
		prev := -1
		for _, c := range cps {
			if c.Index <= prev || c.Index >= len(y) || math.IsNaN(y[c.Index]) || math.IsInf(y[c.Index], 0) {
				t.Fatalf("change point at %d after %d in %v", c.Index, prev, y)
			}
			if n := finiteIn(y[max(prev, 0):c.Index]); n < min {
				t.Fatalf("%d numbers before the change point at %d, want ≥ %d: %v", n, c.Index, min, y)
			}
			if math.IsNaN(c.Before) || math.IsNaN(c.After) {
				t.Fatalf("change point %v", c)
			}
			prev = c.Index
		}
		if len(cps) > 0 && finiteIn(y[prev:]) < min {
			t.Fatalf("fewer than %d numbers after the last change point: %v", min, y)
		}
	})
}

func finiteIn(y []float64) int {
	n := 0
	for _, v := range y {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			n++
		}
	}
	return n
}

func hasNaNShift(cps []ChangePoint) bool {
	for _, c := range cps {
		if math.IsNaN(c.Shift) {
			return true
		}
	}
	return false
}

// TestChangePointsFlat checks that a constant series, one whose members
// differ only in the last bits of a float64 (14285.714… computed along two
// paths) and one that moves by at most its print resolution have no
// change point.
func TestChangePointsFlat(t *testing.T) {
	q := 100000.0 / 7
	bits := []float64{q, q, q, math.Nextafter(q, 0), q, math.Nextafter(q, 1e9), q}
	for _, c := range []struct {
		name string
		y    []float64
		res  float64
	}{
		{"constant", []float64{14285.714285714286, 14285.714285714286, 14285.714285714286, 14285.714285714286, 14285.714285714286, 14285.714285714286}, 0},
		{"last bits", bits, 0},
		{"rounding", []float64{33, 33, 32, 32, 33, 32, 32, 32}, 1},
		{"rounding one unit level", []float64{33, 33, 33, 33, 32, 32, 32, 32}, 1},
	} {
		if cps := ChangePoints(c.y, ChangePointOptions{Resolution: c.res}); len(cps) > 0 {
			t.Errorf("%s: %v: change points %v, want none", c.name, c.y, cps)
		}
	}
	// The resolution does not hide a shift of several units.
	y := []float64{33, 33, 33, 33, 33, 29, 29, 29, 29, 29}
	if cps := ChangePoints(y, ChangePointOptions{Resolution: 1}); len(cps) != 1 || cps[0].Index != 5 {
		t.Errorf("%v: change points %v, want one at 5", y, cps)
	}
}
