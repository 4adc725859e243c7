package report

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// TestSuperLinearNotes plants rates at growing thread counts: only a ratio
// beyond superLinear × the ratio of the counts is noted, between consecutive
// known counts.
func TestSuperLinearNotes(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name   string
		counts []int
		rates  []float64
		want   []string // a substring of each note, in order
	}{
		// The point-query runs of testdata/sysbench/raw: 11.55× for 2×.
		{"point-query", []int{1, 2}, []float64{8760.12, 101140.25}, []string{"8,760 → 101,140 queries/s from 1 thread to 2 (11.55× for 2× the threads)"}},
		{"linear", []int{1, 2, 4}, []float64{1000, 2000, 4000}, nil},
		// 2.6× for 2× is exactly 1.3 × linear: not beyond it.
		{"at the limit", []int{1, 2}, []float64{1000, 2600}, nil},
		{"just beyond", []int{1, 2}, []float64{1000, 2601}, []string{"(2.60× for 2× the threads)"}},
		{"sub-linear", []int{1, 8}, []float64{1000, 3000}, nil},
		// An unknown rate is skipped: 4 is compared with 1 (12× for 4×).
		{"gap", []int{1, 2, 4}, []float64{1000, nan, 12000}, []string{"from 1 thread to 4 (12.00× for 4× the threads)"}},
		// Only the second step is super-linear.
		{"second step", []int{1, 2, 4}, []float64{1000, 1900, 5000}, []string{"from 2 threads to 4 (2.63× for 2× the threads)"}},
		{"zero base", []int{1, 2}, []float64{0, 5000}, nil},
		{"non-integer ratio", []int{2, 3}, []float64{100, 300}, []string{"(3.00× for 1.5× the threads)"}},
	} {
		got := superLinearNotes("pg "+c.name, "queries/s", "thread", c.counts, c.rates)
		if len(got) != len(c.want) {
			t.Errorf("%s: notes %q, want %d", c.name, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) || !strings.HasPrefix(got[i], "pg "+c.name+": ") {
				t.Errorf("%s: note %q, want it to name the DBMS and hold %q", c.name, got[i], w)
			}
		}
	}
}

func TestRateText(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{101140.25, "101,140"}, {8760.12, "8,760"}, {999.6, "1,000"}, {100, "100"}, {12.345, "12.3"}, {1234567, "1,234,567"}, {-4321, "-4,321"}} {
		if got := rateText(c.x); got != c.want {
			t.Errorf("rateText(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// TestShortPercentile: a percentile needs one value beyond it.
func TestShortPercentile(t *testing.T) {
	for _, c := range []struct {
		x     int
		n     metrics.Value
		short bool
	}{
		{99, metrics.Known(99, metrics.Count), true},
		{99, metrics.Known(100, metrics.Count), false},
		{95, metrics.Known(19, metrics.Count), true},
		{95, metrics.Known(20, metrics.Count), false},
		{95, metrics.Known(80, metrics.Count), false}, // the MySQL scan test: 80 events
		{50, metrics.Known(1, metrics.Count), true},
		{50, metrics.Known(2, metrics.Count), false},
		{99, metrics.NA(metrics.Count, "no sb.o"), false},
		{0, metrics.Known(5, metrics.Count), false},
	} {
		got := shortPercentile(c.x, c.n)
		if (got != "") != c.short {
			t.Errorf("p%d of %v: %q, want short %v", c.x, c.n, got, c.short)
		}
	}
}

// TestConfigChanges plants configuration changes inside series and reads
// the PostgreSQL release list of the archive, where x10a becomes x10b at
// 18.0.
func TestConfigChanges(t *testing.T) {
	for _, c := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"one release part", []string{"x.pg1222_o2nofp.x10a", "x.pg1322_o2nofp.x10a", "x.pg1419_o2nofp.x10a"}, nil},
		{"config change", []string{"my8043_rel.z12a", "my8044_rel.z12a", "my9500_rel.z12b"},
			[]string{"part z12a of the names changes to z12b inside a series, from my8044_rel.z12a to my9500_rel.z12b (members 2 and 3)"}},
		{"change and back", []string{"v1.c1", "v2.c2", "v3.c1", "v4.c1"},
			[]string{"c1 of the names changes to c2", "c2 of the names changes to c1"}},
		{"different part counts", []string{"v1.c1", "v2.c2.x"}, nil},
		{"one member", []string{"v1.c1"}, nil},
		{"identical", []string{"a.b", "a.b"}, nil},
	} {
		got := configChanges(c.names)
		if len(got) != len(c.want) {
			t.Errorf("%s: %q, want %d notes", c.name, got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: %q, want %q", c.name, got[i], w)
			}
		}
	}
	b, err := os.ReadFile("../testdata/arc/nov25.sb.pg/dop40.series")
	if err != nil {
		t.Fatal(err)
	}
	got := configChanges(strings.Fields(string(b)))
	if len(got) != 1 || !strings.Contains(got[0], "x10a of the names changes to x10b inside a series, from x.pg177_o2nofp.x10a_c32r128.pk1 to x.pg180_o2nofp.x10b_c32r128.pk1 (members 11 and 12)") {
		t.Errorf("PostgreSQL series: %q", got)
	}
}

// TestQuartile checks the interpolated quartiles against hand computations.
func TestQuartile(t *testing.T) {
	for _, c := range []struct {
		x      []float64
		q1, q3 float64
	}{
		{[]float64{1}, 1, 1},
		{[]float64{1, 2}, 1.25, 1.75},
		{[]float64{1, 2, 3, 4}, 1.75, 3.25},
		{[]float64{0.8, 0.9, 1.0, 1.1, 1.2}, 0.9, 1.1},
		{[]float64{0.5, 1, 1, 1, 1, 1, 1, 4}, 1, 1},
	} {
		if q1, q3 := quartile(c.x, 0.25), quartile(c.x, 0.75); math.Abs(q1-c.q1) > 1e-12 || math.Abs(q3-c.q3) > 1e-12 {
			t.Errorf("%v: quartiles %v %v, want %v %v", c.x, q1, q3, c.q1, c.q3)
		}
	}
	if !math.IsNaN(quartile(nil, 0.5)) {
		t.Error("quartile of nothing is not NaN")
	}
}

// TestSpreadText: the median and spread a finding prints, by count.
func TestSpreadText(t *testing.T) {
	ratios := func(xs ...float64) []partRatio {
		var out []partRatio
		for i, x := range xs {
			out = append(out, partRatio{name: string(rune('a' + i)), ratio: x})
		}
		return out
	}
	for _, c := range []struct {
		name    string
		threads int
		rs      []partRatio
		want    string
	}{
		{"one", 1, ratios(0.79), "point: less, 0.79×"},
		{"alike", 1, ratios(1.101, 1.104), "point: more, 1.10×"},
		{"three tests", 1, ratios(0.85, 0.93, 1.01), "point: less, median 0.93× (min–max 0.85–1.01, 3 tests)"},
		{"eight tests", 2, ratios(0.85, 0.9, 0.9, 0.92, 0.94, 0.95, 0.96, 1.01), "point: less, median 0.93× (IQR 0.90–0.95, min–max 0.85–1.01, 8 tests)"},
		{"steps", 0, ratios(1.28, 1.41, 1.5, 2.24), "point: more, median 1.46× (IQR 1.38–1.69, min–max 1.28–2.24, 4 steps)"},
	} {
		b, ok := bulletOf("pg15.c2", "pg15.c1", "point", c.threads, c.rs)
		if !ok || !strings.HasPrefix(b.Short, c.want) {
			t.Errorf("%s: %q, want it to start with %q", c.name, b.Short, c.want)
		}
		if b.N != len(c.rs) {
			t.Errorf("%s: N %d", c.name, b.N)
		}
	}
}

// TestSysbenchShortPercentileNote plants a run of 15 events into the
// sysbench fixture: its 95th-percentile latency gets a note naming the DBMS,
// the test, the thread count and the numbers; the runs of thousands of
// events get none.
func TestSysbenchShortPercentileNote(t *testing.T) {
	m := sysbenchFixtureFS(t)
	build := func() *Report {
		res, _, err := LoadFS(m, "sb", LoadOptions{Metrics: metrics.Options{Cores: 2, Device: "vda"}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Build(res, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, n := range build().Plausibility {
		if strings.Contains(n, "percentile") {
			t.Errorf("a note on the fixture's percentiles: %q", n)
		}
	}
	const f = "x.pg15.c2.pk1/sb.o.read-only.range100.pk1.dop1"
	m[f].Data = regexp.MustCompile(`total number of events: +[0-9]+`).ReplaceAll(m[f].Data, []byte("total number of events:              15"))
	want := "x.pg15.c2.pk1 read-only range=100, 1 thread: the 95th-percentile latency (3.25 ms) comes from 15 events, fewer than the 20 a 95th percentile needs"
	if notes := build().Plausibility; !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, want) }) {
		t.Errorf("no %q in %q", want, notes)
	}
}
