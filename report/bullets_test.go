package report_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestBulletsFromTables checks the Markdown of the fixtures (pg15.c2 vs
// pg15.c1): right after the title come the findings, whose numbers are
// recomputed here from the relative throughput table, and every finding of
// a change beyond the band names an efficiency metric or says unexplained.
func TestBulletsFromTables(t *testing.T) {
	r := buildExample(t, metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, nil, report.BuildOptions{})
	parts := map[string][]float64{}
	for i, st := range r.Steps {
		part := "load"
		switch {
		case st.ReadWrite:
			part = "read+write"
		case st.Name == "l.x":
			part = "create index"
		}
		parts[part] = append(parts[part], *r.Relative.Rows[1].Cells[1+i].Value)
	}
	if len(r.Bullets) != 3 {
		t.Fatalf("%d bullets", len(r.Bullets))
	}
	md := string(renderAs(t, r, "md"))
	// The headline first, the full line under its own heading later.
	head, body, _ := strings.Cut(md, "\n## Summary\n")
	if !strings.HasPrefix(head, "# "+r.Title+"\n") || !strings.Contains(head, "\n- pg15.c2: load ") {
		t.Fatalf("the Markdown does not start with the findings:\n%s", md[:300])
	}
	_, full, ok := strings.Cut(body, "\n## Findings with spread and causes\n")
	if !ok || !strings.Contains(full, "\n- pg15.c2 vs pg15.c1: load: ") {
		t.Fatal("the Markdown lacks the findings with spread and causes")
	}
	for _, b := range r.Bullets {
		vals := slices.Sorted(slices.Values(parts[b.Part]))
		n := len(vals)
		median := vals[n/2]
		if n%2 == 0 {
			median = (vals[n/2-1] + vals[n/2]) / 2
		}
		for name, p := range map[string][2]float64{"min": {b.Min, vals[0]}, "max": {b.Max, vals[n-1]}, "median": {b.Median, median}} {
			if math.Abs(p[0]-p[1]) > 1e-12 {
				t.Errorf("%s %s = %v, the relative table gives %v", b.Part, name, p[0], p[1])
			}
		}
		// The numbers as the bullet prints them.
		iqr := ""
		if n >= report.SpreadMin {
			// Quartiles interpolated between order statistics.
			q := func(p float64) float64 {
				h := p * float64(n-1)
				lo := int(h)
				return vals[lo] + (h-float64(lo))*(vals[min(lo+1, n-1)]-vals[lo])
			}
			iqr = fmt.Sprintf("IQR %.2f–%.2f, ", q(0.25), q(0.75))
		}
		want := fmt.Sprintf("median %.2f× (%smin–max %.2f–%.2f, %d steps)", median, iqr, vals[0], vals[n-1], n)
		if n == 1 || fmt.Sprintf("%.2f", vals[0]) == fmt.Sprintf("%.2f", vals[n-1]) {
			want = fmt.Sprintf("%.2f×", median)
		}
		if !strings.Contains(b.Text, want) || !strings.Contains(full, b.Part+": "+b.Word+", "+want) {
			t.Errorf("%s: %q lacks %q", b.Part, b.Text, want)
		}
		word := "similar"
		if median > 1.03 {
			word = "more"
		} else if median < 0.97 {
			word = "less"
		}
		if b.Word != word {
			t.Errorf("%s: %q, want %q", b.Part, b.Word, word)
		}
		if math.Abs(b.Ratio-1) > metrics.SimilarBand && len(b.Causes) == 0 && !strings.Contains(b.Text, "unexplained") {
			t.Errorf("%s: a change of %.2f with no explanation: %q", b.Part, b.Ratio, b.Text)
		}
		for i, c := range b.Causes {
			if !strings.Contains(b.Text, c.Name+" ") && !strings.Contains(b.Text, "…") {
				// Only the three largest are printed.
				if i < 3 {
					t.Errorf("%s: cause %s not printed: %q", b.Part, c.Name, b.Text)
				}
			}
		}
	}
}

// TestComparability builds results that mix client counts and row counts
// and checks the warnings name both values and both DBMS.
func TestComparability(t *testing.T) {
	m := copyTrees(t, []string{"2m.pg15.c1", "2m.pg15.c2", "3m.pg15.c3"}, []string{c1, c2, c1})
	oneClient(m, "2m.pg15.c2")
	r := buildFS(t, m, nil, report.BuildOptions{})
	wantAll(t, r.Comparability,
		"pg15.c2 ran with 1 client, its base pg15.c1 with 2 clients",
		"3m.pg15.c3 loaded 3M rows (3m.pg15.c3), its base pg15.c1 2M (2m.pg15.c1)")
	for _, format := range []string{"html", "md", "text"} {
		if !strings.Contains(string(renderAs(t, r, format)), "Not comparable") {
			t.Errorf("%s: no comparability warning", format)
		}
	}
	// The same trees under one client count and row count: none.
	if r := buildExample(t, compatOpts, nil, report.BuildOptions{}); len(r.Comparability) != 0 {
		t.Errorf("the example: %q", r.Comparability)
	}
}

// writeFS writes a map of files to a new folder.
func writeFS(t *testing.T, m fstest.MapFS) string {
	t.Helper()
	dir := t.TempDir()
	for p, f := range m {
		path := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDiffComparability compares the example with runs where pg15.c2 ran
// with one client (and pg15.c1's data): diff says they are not comparable, naming both counts; with
// --strict that fails the gate, without it the comparison still reports.
// A failing throughput comparison names the efficiency metrics that moved
// with it, or says unexplained.
func TestDiffComparability(t *testing.T) {
	settings := &fstest.MapFile{Data: []byte("cores = 2\nps-user = postgres\ndevice = vda\n")}
	bm := copyTrees(t, []string{c1, c2}, []string{c1, c2})
	bm["ibreport.settings"] = settings
	nm := copyTrees(t, []string{c1, c2}, []string{c1, c1}) // NEW's pg15.c2 is slower
	oneClient(nm, c2)
	nm["ibreport.settings"] = &fstest.MapFile{Data: []byte("cores = 4\nps-user = postgres\ndevice = vda\n")}
	base, newer := writeFS(t, bm), writeFS(t, nm)
	c, _, err := diff.Run([]string{base}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	want := "pg15.c2: BASE " + base + " ran with 2 clients, NEW " + newer + " with 1 client"
	if !slices.Contains(c.Comparability, want) || !slices.Contains(c.Comparability, "BASE "+base+" ran on 2 CPUs, NEW "+newer+" on 4 CPUs") {
		t.Fatalf("comparability %q, want %q and the CPU counts", c.Comparability, want)
	}
	if diff.ExitCode(c, true) != 1 {
		t.Error("--strict passes runs that are not comparable")
	}
	var text strings.Builder
	if err := diff.Write(&text, c, diff.WriteOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Not comparable: "+want) {
		t.Errorf("the text lacks the warning:\n%s", text.String())
	}
	// Without --strict the findings are still reported, and every failing
	// throughput cell says what moved with it.
	n := 0
	for _, f := range c.Findings {
		if (f.Metric == "ips" || f.Metric == "qps") && f.Level >= diff.LevelWarn {
			n++
			if !strings.Contains(f.Note, "%") && !strings.Contains(f.Note, "unexplained") {
				t.Errorf("%s %s %s %s: note %q names no metric", f.Table, f.Step, f.DBMS, f.Metric, f.Note)
			}
		}
	}
	if n == 0 {
		t.Error("no failing throughput comparison to explain")
	}
}

// TestSysbenchComparability changes the run time of one DBMS's runs and
// removes one of its runs: the report warns, naming both values.
func TestSysbenchComparability(t *testing.T) {
	m := fstest.MapFS{}
	copySysbench(t, m)
	for name, f := range m {
		switch {
		case !strings.HasPrefix(name, "x.pg15.c2.pk1/"):
		case strings.Contains(name, "insert.range100.pk1.dop2"):
			delete(m, name)
		case strings.HasPrefix(name, "x.pg15.c2.pk1/sb.o."):
			m[name] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(f.Data), "--time=20 ", "--time=40 "))}
		}
	}
	res, _, err := report.LoadFS(m, "sb", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantAll(t, r.Comparability,
		"x.pg15.c2.pk1 ran with --time=40, its base x.pg15.c1.pk1 with --time=20",
		"x.pg15.c2.pk1 lacks runs its base x.pg15.c1.pk1 has: insert range=100 at 2 threads")
}

// TestSweepComparable checks that one DBMS swept over clients, with rows
// in proportion to them, is not flagged as not comparable.
func TestSweepComparable(t *testing.T) {
	m := copyTrees(t, []string{"dop1/1m.pg15.c1", "dop2/2m.pg15.c1"}, []string{c1, c1})
	oneClient(m, "dop1/1m.pg15.c1")
	r := buildFS(t, m, nil, report.BuildOptions{})
	if r.Sweep == nil || len(r.Comparability) != 0 {
		t.Errorf("sweep %v, comparability %q", r.Sweep != nil, r.Comparability)
	}
}

// wantAll checks that the warnings hold every wanted text.
func wantAll(t *testing.T, got []string, wants ...string) {
	t.Helper()
	all := strings.Join(got, "\n")
	for _, w := range wants {
		if !strings.Contains(all, w) {
			t.Errorf("comparability lacks %q:\n%s", w, all)
		}
	}
}

// TestBulletCausesMaterial checks the findings of the shipped results for
// the causes that near-zero values and partial intervals gave: the
// example's qp100.L2 (1.61×) was "p99 +6454%, rkbpq -98%, rpq -97%", the
// 5.7.44 read-only-distinct (1.44×) of the nine MySQL releases "wKB/o
// -100%" first, the client sweep's l.i2 "rpq +1101%, maxop +751%" and
// qr500.L3 "p99 +1794%".
func TestBulletCausesMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, dir string
		opt       metrics.Options
		bopt      report.BuildOptions
		dbms      string // the bullet's DBMS (a prefix)
		part      string
		largest   string
		first     string   // the first cause
		never     []string // causes that must not be cited
	}{
		{"example", example, metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, report.BuildOptions{},
			"pg15.c2", "read+write", "qp100.L2", "cpupq", []string{"rpq", "rkbpq", "p99"}},
		// Client 1's p99 of l.i2 comes from 45 and 18 full intervals: the
		// slowest one, not a percentile; it explains nothing.
		{"example load", example, metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, report.BuildOptions{},
			"pg15.c2", "load", "l.i2", "wkbpi", []string{"p99", "rpq", "rkbpq"}},
		{"nine MySQL releases", "../testdata/arc/nov25.sb.mysql/dop1", metrics.Options{Cores: 8}, report.BuildOptions{},
			"x.my5744", "", "read-only-distinct range=1000", "cpu/o", []string{"wKB/o", "rKB/o", "r/o"}},
		{"client sweep l.i2", "../testdata/sweep/ibench", metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, report.BuildOptions{},
			"pg15.c1.dop2", "load", "l.i2", "cpupq", []string{"rpq", "maxop"}},
		{"client sweep qr500.L3", "../testdata/sweep/ibench", metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, report.BuildOptions{},
			"pg15.c1.dop2", "read+write", "qr500.L3", "rpq", []string{"p99"}},
	} {
		r := loadBuild(t, tc.dir, report.LoadOptions{Metrics: tc.opt}, tc.bopt)
		found := false
		for _, b := range r.Bullets {
			if !strings.HasPrefix(b.DBMS, tc.dbms) || (tc.part != "" && b.Part != tc.part) || b.Largest != tc.largest {
				continue
			}
			found = true
			if len(b.Causes) == 0 || b.Causes[0].Name != tc.first {
				t.Errorf("%s: causes %+v, want %s first", tc.name, b.Causes, tc.first)
			}
			for _, c := range b.Causes {
				if slices.Contains(tc.never, c.Name) {
					t.Errorf("%s: cites %s %+.0f%% (%s)", tc.name, c.Name, 100*c.Change, b.Text)
				}
				if c.Change <= -0.995 || c.Change >= 10 || math.IsInf(c.Change, 0) {
					t.Errorf("%s: cites %s %+.0f%%, a change from a near-zero value", tc.name, c.Name, 100*c.Change)
				}
			}
		}
		if !found {
			t.Errorf("%s: no bullet of %s, part %q, largest on %s", tc.name, tc.dbms, tc.part, tc.largest)
		}
	}
}

// bulletTexts are the findings' sentences, one a line, for messages.
func bulletTexts(bs []report.Bullet) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Text)
	}
	return strings.Join(out, "\n")
}
