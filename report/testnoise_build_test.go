package report_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// quietRun writes the read-only dop1 run of one DBMS of a copy of the
// sysbench fixture as 60 report intervals of 1% independent noise around
// qps (the fixture's 3 intervals give a low-confidence interval, which
// claims no ~), with the summary lines to match.
func quietRun(t *testing.T, dir string, rng *rand.Rand, qps float64) {
	t.Helper()
	f := filepath.Join(dir, "sb.o.read-only.range100.pk1.dop1")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	interval := regexp.MustCompile(`(?m)^\[ \d+s \] .*\n`)
	lines := interval.FindAllString(string(b), -1)
	if len(lines) == 0 {
		t.Fatal("no interval lines")
	}
	var iv strings.Builder
	sum := 0.0
	for i := range 60 {
		q := qps * (1 + 0.01*rng.NormFloat64())
		sum += q
		fmt.Fprintf(&iv, "[ %ds ] thds: 1 tps: %.2f qps: %.2f (r/w/o: %.2f/0.00/%.2f) lat (ms,95%%): 2.35 err/s: 0.00 reconn/s: 0.00\n",
			5*(i+1), q/16, q, q*14/16, q/8)
	}
	mean := sum / 60
	s := strings.Replace(string(b), strings.Join(lines, ""), iv.String(), 1)
	s = regexp.MustCompile(`transactions: +(\d+) +\([0-9.]+ per sec\.\)`).ReplaceAllString(s, fmt.Sprintf("transactions:                        $1  (%.2f per sec.)", mean/16))
	s = regexp.MustCompile(`queries: +(\d+) +\([0-9.]+ per sec\.\)`).ReplaceAllString(s, fmt.Sprintf("queries:                             $1 (%.2f per sec.)", mean))
	if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildTestRunNoise: build's ~ takes a test's own run-to-run noise
// from the settings (run-noise.<step>.<metric>, as diff does) in place
// of the report's: two DBMS 2% apart with quiet intervals are within the
// default 1% per run, not within a test's own 0.1%, and within again at a
// test's own 5% when the report's figure is 0.1%; a key of another test
// changes nothing; the caption names the keys used; a bad value is bad
// input naming the file and key.
func TestBuildTestRunNoise(t *testing.T) {
	raw, err := filepath.Abs("../testdata/sysbench/raw")
	if err != nil {
		t.Fatal(err)
	}
	const key = "read-only.range100.dop1.qps"
	for _, tc := range []struct {
		name, settings string
		within         bool
		caption        string
		err            string
	}{
		{"the report's 1%", "", true, "", ""},
		{"the test's own 0.1%", "run-noise." + key + " = 0.001\n", false, key + " 0.1%", ""},
		{"another test's", "run-noise.point-query.range100.dop1.qps = 0.001\n", true, "point-query.range100.dop1.qps 0.1%", ""},
		{"the test's own 5%, the report's 0.1%", "run-noise = 0.001\nrun-noise." + key + " = 0.05\n", true, key + " 5%", ""},
		{"the report's 0.1%", "run-noise = 0.001\n", false, "", ""},
		{"not a fraction", "run-noise." + key + " = 2\n", false, "", "ibreport.settings: run-noise." + key + ` = "2": want a test`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "raw")
			if out, err := exec.Command("cp", "-r", raw, dir).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			rng := rand.New(rand.NewPCG(7, 36))
			quietRun(t, filepath.Join(dir, "x.pg15.c1.pk1"), rng, 9000)
			quietRun(t, filepath.Join(dir, "x.pg15.c2.pk1"), rng, 9180)
			if err := os.WriteFile(filepath.Join(dir, "ibreport.settings"), []byte(tc.settings), 0o644); err != nil {
				t.Fatal(err)
			}
			res, _, err := report.Load(dir, report.LoadOptions{})
			if tc.err != "" {
				if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("load: %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := report.Build(res, report.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var rel *report.Table
			for _, th := range r.Sysbench.Threads {
				if th.Threads == 1 {
					rel = th.Relative
				}
			}
			if rel == nil {
				t.Fatal("no relative table at 1 thread")
			}
			found := false
			for _, row := range rel.Rows {
				if row.Cells[0].Text != "read-only range=100" {
					continue
				}
				found = true
				c := row.Cells[1]
				if v, _ := strconv.ParseFloat(c.Text, 64); v < 1.01 || v > 1.03 {
					t.Fatalf("relative QPS %s, want about 1.02", c.Text)
				}
				if c.WithinNoise != tc.within {
					t.Errorf("%s within noise: %v, want %v", c.Text, c.WithinNoise, tc.within)
				}
			}
			if !found {
				t.Fatal("no read-only row")
			}
			has := strings.Contains(rel.Caption, "Tests with their own run-to-run noise in the settings")
			if has != (tc.caption != "") || !strings.Contains(rel.Caption, tc.caption) {
				t.Errorf("caption %q, want it to name %q", rel.Caption, tc.caption)
			}
		})
	}
}
