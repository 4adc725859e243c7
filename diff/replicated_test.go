package diff_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
)

// jitteredSet copies the archived mrg tables of the example into dir and
// multiplies every throughput cell (ips qps p50 p99) by k × (1 + u), u
// uniform in ±jitter, drawn per cell. The rel tables are left out: their
// ratios would not follow the jittered values.
func jitteredSet(t *testing.T, rng *rand.Rand, dir string, k, jitter float64) string {
	t.Helper()
	copyTables(t, dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), "rel.") {
			os.Remove(p)
			continue
		}
		if !strings.HasPrefix(e.Name(), "mrg.") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		header := strings.Split(lines[0], "\t")
		for i, l := range lines[1:] {
			cells := strings.Split(l, "\t")
			if len(cells) != len(header) {
				continue
			}
			for j, col := range header {
				if !slices.Contains([]string{"ips", "qps", "p50", "p99"}, col) {
					continue
				}
				v, err := strconv.ParseFloat(cells[j], 64)
				if err != nil || v == 0 {
					continue
				}
				cells[j] = strconv.FormatFloat(v*k*(1+jitter*(2*rng.Float64()-1)), 'f', 0, 64)
			}
			lines[i+1] = strings.Join(cells, "\t")
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReplicatedRegression is the case a new user tried: 5 BASE and 5 NEW
// table sets of the example, throughput jittered by ±1%, every NEW run 10%
// slower, must fail (exit 1), with and without --strict; the same sets
// without the slowdown must pass (exit 0), with --strict too. One run per
// side of the slow sets fails as well: more runs never make the gate
// blinder.
func TestReplicatedRegression(t *testing.T) {
	tmp := t.TempDir()
	rng := rand.New(rand.NewPCG(23, 5))
	sets := func(side string, n int, k float64) []string {
		var out []string
		for i := range n {
			out = append(out, jitteredSet(t, rng, filepath.Join(tmp, fmt.Sprintf("%s%d", side, i)), k, 0.01))
		}
		return out
	}
	base, slow, same := sets("b", 5, 1), sets("slow", 5, 0.9), sets("same", 5, 1)
	for _, tc := range []struct {
		name      string
		base, new []string
		want      int
	}{
		{"5+5, NEW 10% slower", base, slow, 1},
		{"5+5, no change", base, same, 0},
		{"1+1, NEW 10% slower", base[:1], slow[:1], 1},
		{"3+3, NEW 10% slower", base[:3], slow[:3], 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := diff.Run(tc.base, tc.new, diff.Options{Compare: diff.DefaultCompareOptions()})
			if err != nil {
				t.Fatal(err)
			}
			for _, strict := range []bool{false, true} {
				if got := diff.ExitCode(c, strict); got != tc.want {
					t.Errorf("strict %v: exit %d, want %d (%d fail, %d warn)", strict, got, tc.want, c.Count(diff.VerdictFail), c.Count(diff.VerdictWarn))
				}
			}
			if tc.want == 1 {
				// Every throughput cell with a value fell 10%.
				for _, g := range c.Geomeans {
					if g.N > 0 && (g.Ratio < 0.88 || g.Ratio > 0.92) {
						t.Errorf("geomean %s %s: %.4f, want about 0.90", g.Step, g.DBMS, g.Ratio)
					}
				}
			}
		})
	}
}
