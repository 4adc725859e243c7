package stats

import (
	"math/rand/v2"
	"testing"
)

// cpSims is how many seeded series each cell of the comparison with Otava
// draws.
const cpSims = 1000

// indexes are the members at which ChangePoints finds a change point.
func indexes(y []float64) []int {
	var out []int
	for _, c := range ChangePoints(y, ChangePointOptions{}) {
		out = append(out, c.Index)
	}
	return out
}

// foundNear reports whether some change point is at a+lo … a+hi.
func foundNear(cps []int, a, lo, hi int) bool {
	for _, c := range cps {
		if c >= a+lo && c <= a+hi {
			return true
		}
	}
	return false
}

// TestVersusOtavaFlat: on flat series of 8–35 members with Gaussian and
// Student-t(3) noise, the share with at least one change point is at most
// Otava's (otavaChangePoints, on the same series) or 2%, whichever is
// larger.
func TestVersusOtavaFlat(t *testing.T) {
	for _, t3 := range []bool{false, true} {
		for _, n := range []int{8, 12, 20, 30, 35} {
			rng := rand.New(rand.NewPCG(uint64(n), 1))
			c := cpCase{n: n, sd: 0.03, t3: t3}
			fo, fi := 0, 0
			for range cpSims {
				y := c.draw(rng)
				if len(otavaChangePoints(y)) > 0 {
					fo++
				}
				if len(indexes(y)) > 0 {
					fi++
				}
			}
			ro, ri := float64(fo)/cpSims, float64(fi)/cpSims
			t.Logf("flat, t3 %-5v n %2d: Otava %.3f, ChangePoints %.3f", t3, n, ro, ri)
			if ri > max(ro, 0.02) {
				t.Errorf("flat, t3 %v, n %d: false alarms %.3f, want ≤ max(Otava %.3f, 0.02)", t3, n, ri, ro)
			}
		}
	}
}

// TestVersusOtavaPower: the planted shift found at its member ±1 no less
// often than Otava finds it less 0.05, in every cell; where Otava is weak
// (a far-off member next to the shift, one-member dips) more often.
func TestVersusOtavaPower(t *testing.T) {
	type cell struct {
		name   string
		c      cpCase
		a      int  // the member the shift starts at
		lo, hi int  // found at a+lo … a+hi
		better bool // must beat Otava
		least  float64
	}
	var cells []cell
	for _, n := range []int{8, 12, 20, 30, 35} {
		cells = append(cells, cell{"+10% in the middle, 3% noise", cpCase{n: n, sd: 0.03, at: []int{n / 2}, shift: []float64{0.1}}, n / 2, -1, 1, false, 0})
	}
	for _, n := range []int{12, 20, 30} {
		for _, sd := range []float64{0.01, 0.02} {
			cells = append(cells, cell{"+5% two members from the start", cpCase{n: n, sd: sd, at: []int{2}, shift: []float64{0.05}}, 2, -1, 1, false, 0})
			cells = append(cells, cell{"+5% two members from the end", cpCase{n: n, sd: sd, at: []int{n - 2}, shift: []float64{0.05}}, n - 2, -1, 1, false, 0})
		}
	}
	// The far-off member is at 5; only a change point at the shift (6, or
	// 7) counts.
	for _, sd := range []float64{0.02, 0.03} {
		cells = append(cells, cell{"−30% member before +10%", cpCase{n: 12, sd: sd, at: []int{6}, shift: []float64{0.1}, out: []int{5}, outShift: []float64{-0.3}}, 6, 0, 1, true, 0})
	}
	// One-member dips, found only at the member.
	for _, n := range []int{10, 15, 20} {
		cells = append(cells, cell{"−15% one member, 2% noise", cpCase{n: n, sd: 0.02, out: []int{n / 2}, outShift: []float64{-0.15}}, n / 2, 0, 0, true, 0})
		cells = append(cells, cell{"−25% one member, 2% noise", cpCase{n: n, sd: 0.02, out: []int{n / 2}, outShift: []float64{-0.25}}, n / 2, 0, 0, true, 0.5})
	}
	for _, cl := range cells {
		rng := rand.New(rand.NewPCG(uint64(cl.c.n), 3))
		fo, fi := 0, 0
		for range cpSims {
			y := cl.c.draw(rng)
			if foundNear(otavaChangePoints(y), cl.a, cl.lo, cl.hi) {
				fo++
			}
			if foundNear(indexes(y), cl.a, cl.lo, cl.hi) {
				fi++
			}
		}
		ro, ri := float64(fo)/cpSims, float64(fi)/cpSims
		t.Logf("%-32s n %2d, noise %.0f%%: Otava %.3f, ChangePoints %.3f", cl.name, cl.c.n, 100*cl.c.sd, ro, ri)
		switch {
		case ri < ro-0.05:
			t.Errorf("%s, n %d, noise %.0f%%: found %.3f, more than 0.05 below Otava's %.3f", cl.name, cl.c.n, 100*cl.c.sd, ri, ro)
		case cl.better && ri <= ro:
			t.Errorf("%s, n %d, noise %.0f%%: found %.3f, want above Otava's %.3f", cl.name, cl.c.n, 100*cl.c.sd, ri, ro)
		case ri < cl.least:
			t.Errorf("%s, n %d, noise %.0f%%: found %.3f, want ≥ %.2f", cl.name, cl.c.n, 100*cl.c.sd, ri, cl.least)
		}
	}
}
