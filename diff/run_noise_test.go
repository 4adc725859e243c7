package diff_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// A baseline folder of archived tables carries the run-to-run noise in its
// settings (key run-noise); --run-noise (CompareOptions.RunNoise) wins over
// it, and a value that is not a fraction is bad input.
func TestRunNoiseSettings(t *testing.T) {
	dir := copyTables(t, t.TempDir())
	set := func(v string) {
		if err := os.WriteFile(dir+"/ibreport.settings", []byte("run-noise = "+v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set("0.03")
	base, _, err := diff.LoadResultSet(dir, report.LoadOptions{})
	if err != nil || base.RunNoise != 0.03 {
		t.Fatalf("run noise %v, %v; want 0.03", base, err)
	}
	newer, _, err := diff.LoadResultSet(archive, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := diff.DefaultCompareOptions()
	for _, tc := range []struct {
		opt, want float64
	}{{0, 0.03}, {0.005, 0.005}} {
		opt.RunNoise = tc.opt
		c, err := diff.Compare([]*diff.ResultSet{base}, []*diff.ResultSet{newer}, opt)
		if err != nil || c.RunNoise != tc.want {
			t.Errorf("option %v: run noise %v, %v; want %v", tc.opt, c.RunNoise, err, tc.want)
		}
	}
	for _, bad := range []string{"2", "-0.01", "NaN", "1%"} {
		set(bad)
		if _, _, err := diff.LoadResultSet(dir, report.LoadOptions{}); err == nil || !strings.Contains(err.Error(), "run-noise") {
			t.Errorf("run-noise = %s: %v, want an error naming the key", bad, err)
		}
	}
	opt.RunNoise = math.NaN()
	if _, err := diff.Compare([]*diff.ResultSet{base}, []*diff.ResultSet{newer}, opt); err == nil {
		t.Error("a NaN run noise is accepted")
	}
}

// TestRawTreeStepNoise: a raw tree's throughput cells carry the one-run
// noise of their step (ips for load steps, qps for read+write steps), and
// no other cell does.
func TestRawTreeStepNoise(t *testing.T) {
	rs, _, err := diff.LoadResultSet("../testdata/example", report.LoadOptions{Metrics: metrics.Options{Cores: 2}})
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for _, tb := range rs.Tables {
		if tb.Kind != "mrg" {
			continue
		}
		want := metrics.IPS.Name()
		if strings.HasPrefix(tb.Step, "q") {
			want = metrics.QPS.Name()
		}
		for _, row := range tb.Rows {
			for i, n := range row.Noise {
				if math.IsNaN(n) {
					continue
				}
				if tb.Columns[i] != want || !(n > 0 && n < 1) {
					t.Errorf("%s %s: noise %g on %s", tb.Step, row.DBMS, n, tb.Columns[i])
				}
				with++
			}
		}
	}
	// l.x has no per-interval rates; the other nine steps of both DBMS do.
	if with < 16 {
		t.Errorf("%d throughput cells with a one-run noise, want at least 16", with)
	}
}
