package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// critSims is how many flat Gaussian series calibrate each entry of the
// threshold tables.
const critSims = 20000

// simLevelCrit is the 1 − FalseAlarmLevel quantile of bestArc's t on
// critSims flat Gaussian series of m members (seed m).
func simLevelCrit(m int, arc bool) float64 {
	rng := rand.New(rand.NewPCG(uint64(m), 2024))
	ts := make([]float64, critSims)
	x := make([]float64, m)
	for s := range ts {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		_, _, single, stretch := bestCut(x, DefaultMinSegment)
		ts[s] = single
		if arc {
			ts[s] = stretch
		}
	}
	slices.Sort(ts)
	alpha := FalseAlarmLevel
	if arc {
		alpha = FalseAlarmArc
	}
	return ts[int(math.Ceil((1-alpha)*critSims))-1]
}

// simSingleCrit is the larger of the 1 − FalseAlarmSingle quantile of
// the largest singleZ (no member marked) on critSims flat Gaussian series
// of n members and its 1 − FalseAlarmSingleT3 quantile on series of
// Student-t(3) noise (seed n).
func simSingleCrit(n int) float64 {
	q := func(t3 bool, alpha float64) float64 {
		rng := rand.New(rand.NewPCG(uint64(n), 2025))
		zs := make([]float64, critSims)
		c := cpCase{n: n, sd: 1, t3: t3}
		marked := make([]bool, n)
		for s := range zs {
			x := c.draw(rng)
			for i := range x {
				zs[s] = max(zs[s], singleZ(x, marked, marked, i))
			}
		}
		slices.Sort(zs)
		return zs[int(math.Ceil((1-alpha)*critSims))-1]
	}
	return max(q(false, FalseAlarmSingle), q(true, FalseAlarmSingleT3))
}

// The table sizes: members 4..63 for levels and 5..63 for singles.
const critTableMax = 63

// TestCritTables recomputes entries of the threshold tables of
// changepoint_tables.go from the seeded simulations that made them and
// asks that they match: those for 5, 8, 12, 20 and 35 members by default,
// all with IBREPORT_FULL=1 (about 100 s); with IBREPORT_CALIBRATE=1 it
// prints the whole file instead.
func TestCritTables(t *testing.T) {
	round := func(x float64) float64 { return math.Round(x*1e4) / 1e4 }
	calibrate := os.Getenv("IBREPORT_CALIBRATE") != ""
	sizes := []int{5, 8, 12, 20, 35}
	if calibrate || os.Getenv("IBREPORT_FULL") != "" {
		sizes = nil
		for m := 4; m <= critTableMax; m++ {
			sizes = append(sizes, m)
		}
	}
	var level, arc, single []float64
	for _, m := range sizes {
		l, a := round(simLevelCrit(m, false)), round(simLevelCrit(m, true))
		level, arc = append(level, l), append(arc, a)
		if !calibrate && (l != levelCritTable[m-4] || a != arcCritTable[m-4]) {
			t.Errorf("%d members: critical t %v and %v in the tables, %v and %v simulated", m, levelCritTable[m-4], arcCritTable[m-4], l, a)
		}
		if m >= 2*SingleNeighbours+1 {
			v := round(simSingleCrit(m))
			single = append(single, v)
			if !calibrate && v != singleCritTable[m-(2*SingleNeighbours+1)] {
				t.Errorf("%d members: single threshold %v in the table, %v simulated", m, singleCritTable[m-(2*SingleNeighbours+1)], v)
			}
		}
	}
	if calibrate {
		list := func(v []float64) string {
			var b strings.Builder
			for i, x := range v {
				if i%8 == 0 {
					b.WriteString("\n\t")
				} else {
					b.WriteString(" ")
				}
				fmt.Fprintf(&b, "%.4f,", x)
			}
			return b.String()
		}
		fmt.Printf("// levelCritTable[m-4] is levelCrit for m members.\nvar levelCritTable = []float64{%s\n}\n\n// arcCritTable[m-4] is the critical t of a stretch for m members.\nvar arcCritTable = []float64{%s\n}\n\n// singleCritTable[n-%d] is singleCrit for n members.\nvar singleCritTable = []float64{%s\n}\n",
			list(level), list(arc), 2*SingleNeighbours+1, list(single))
	}
}
