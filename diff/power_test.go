package diff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// simRuns builds n one-cell runs (mrg.l.i0, DBMS a, column ips) whose
// throughput is centre × (1 + noise·z), z standard normal, printed as the
// mrg tables print it (no decimals).
func simRuns(rng *rand.Rand, name string, n int, centre, noise float64) []*ResultSet {
	out := make([]*ResultSet, n)
	for i := range out {
		v := centre * (1 + noise*rng.NormFloat64())
		out[i] = &ResultSet{Name: name + strconv.Itoa(i), Tables: []ResultTable{{
			Kind: "mrg", Step: "l.i0", Columns: []string{"ips"},
			Rows: []ResultRow{{DBMS: "a", Line: 2, Cells: []metrics.Value{fileCell(strconv.FormatFloat(v, 'f', 0, 64), metrics.InsertsPerSec)}}},
		}}}
	}
	return out
}

// failRate is the share of sims comparisons of n BASE and n NEW runs with
// 2% run-to-run noise, NEW lower by drop, that exit 1.
func failRate(t *testing.T, seed uint64, n int, drop float64, sims int) float64 {
	rng := rand.New(rand.NewPCG(seed, uint64(n)*1000+uint64(drop*1000)))
	fails := 0
	for range sims {
		c, err := Compare(simRuns(rng, "b", n, 100000, 0.02), simRuns(rng, "n", n, 100000*(1-drop), 0.02), DefaultCompareOptions())
		if err != nil {
			t.Fatal(err)
		}
		fails += ExitCode(c, false)
	}
	return float64(fails) / float64(sims)
}

// TestReplicatedPower measures the replicated-runs rule on simulated runs
// with a known change: n BASE and n NEW runs of one throughput cell, 2%
// run-to-run noise (normal), NEW lower by 0 to 12%, the default fail level
// of 5%. It states the smallest drop (in whole percent) that fails in at
// least 80% of the comparisons, the figures docs/diff.md gives, and checks
// that replicated runs fail no change more than 1% of the time, a 3% drop
// (below the fail level) no more often than one run per side does, and a
// drop beyond the fail level (6% and up) at least as often as one run per
// side: more runs never make the gate blinder. At exactly the fail level
// either is a coin toss, as the median lands on either side of it.
//
// 1000 comparisons per cell by default; IBREPORT_POWER_SIMS raises it.
func TestReplicatedPower(t *testing.T) {
	sims := 1000
	if s, err := strconv.Atoi(os.Getenv("IBREPORT_POWER_SIMS")); err == nil && s > 0 {
		sims = s
	}
	want80 := map[int]int{1: 8, 3: 7, 5: 7, 10: 6}
	var table strings.Builder
	fmt.Fprintf(&table, "runs  fail rate at a drop of 0%% … 12%% (%d comparisons each)   smallest drop failing >= 80%%\n", sims)
	single := map[int]float64{}
	for _, n := range []int{1, 3, 5, 10} {
		smallest := -1
		fmt.Fprintf(&table, "%4d ", n)
		for d := 0; d <= 12; d++ {
			r := failRate(t, 23, n, float64(d)/100, sims)
			fmt.Fprintf(&table, " %4.2f", r)
			if n == 1 {
				single[d] = r
			}
			if smallest < 0 && r >= 0.8 {
				smallest = d
			}
			switch {
			case d == 0 && n > 1 && r > 0.01:
				t.Errorf("%d runs, no change: fails %.3f of the time, want <= 0.01", n, r)
			case d == 3 && n > 1 && r > single[3]:
				t.Errorf("%d runs, 3%% drop (below the fail level): fails %.3f, more than one run per side (%.3f)", n, r, single[3])
			case d >= 6 && n > 1 && r < single[d]-0.02:
				t.Errorf("%d runs, %d%% drop: fails %.3f, less than one run per side (%.3f)", n, d, r, single[d])
			case d == 10 && n > 1 && r < 0.99:
				t.Errorf("%d runs, 10%% drop: fails %.3f, want >= 0.99", n, r)
			}
		}
		fmt.Fprintf(&table, "   %d%%\n", smallest)
		if smallest != want80[n] {
			t.Errorf("%d runs: the smallest drop failing >= 80%% is %d%%, docs/diff.md says %d%%", n, smallest, want80[n])
		}
	}
	t.Logf("\n%s", table.String())
}
