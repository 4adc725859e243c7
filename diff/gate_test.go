package diff

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestGeomeanPerDBMS checks that opposite moves of two DBMS do not cancel:
// a 10% faster and b 10% slower give one geomean each, not 1.0000.
func TestGeomeanPerDBMS(t *testing.T) {
	c, err := Compare([]*ResultSet{run(t, "base")}, []*ResultSet{run(t, "new", "a.ips=110000", "b.ips=45000")}, DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, g := range c.Geomeans {
		got[g.Step+" "+g.DBMS] = g.Ratio
	}
	// a: ips 1.1 and p99 1.0; b: ips 0.9 (its p99 is NA).
	want := map[string]float64{"l.i0 a": math.Sqrt(1.1), "l.i0 b": 0.9}
	if len(got) != len(want) {
		t.Fatalf("geomeans %v, want %v", got, want)
	}
	for k, w := range want {
		if !near(got[k], w, 1e-9) {
			t.Errorf("geomean %s: %v, want %v", k, got[k], w)
		}
	}
}

// TestFoldRel checks that a throughput in mrg and rel tables is one row,
// with the worse verdict and the rel change in its note.
func TestFoldRel(t *testing.T) {
	mk := func(name, ips, rel string) *ResultSet {
		r := run(t, name, "a.ips="+ips)
		r.Tables = append(r.Tables, table(t, "rel", "l.i0", "ips\tqps\ttag\n"+rel+"\t1.00\tb\n"))
		return r
	}
	c, err := Compare([]*ResultSet{mk("base", "100000", "1.00")}, []*ResultSet{mk("new", "98000", "0.90")}, DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range c.Findings {
		if f.Step == "l.i0" && f.Metric == "ips" && f.DBMS == "b" {
			n++
			if f.Table != "mrg" || f.Verdict != VerdictFail || f.Rel == nil || !strings.Contains(f.Note, "rel 1.00 → 0.90 -10.00%") {
				t.Errorf("folded finding %s %s rel %v note %q; want mrg fail with the rel change", f.Table, f.Verdict, f.Rel != nil, f.Note)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d rows for b ips, want 1", n)
	}
}

// TestGitHubAnnotationCap checks the github format: at most MaxAnnotations
// error and warning annotations, failures first, one warning saying how
// many more, and a notice with the verdict; cells of tables built in
// memory name no file.
func TestGitHubAnnotationCap(t *testing.T) {
	mk := func(name string, k float64, built bool) *ResultSet {
		var rows []string
		for i := range 15 {
			rows = append(rows, fmt.Sprintf("%.0f\t%.0f\td%02d", 100000*k, 50*k*k, i))
		}
		r := &ResultSet{Name: name, Tables: []ResultTable{table(t, "mrg", "l.i0", "ips\tcpupq\ttag\n"+strings.Join(rows, "\n")+"\n")}}
		r.Tables[0].Built = built
		return r
	}
	for _, built := range []bool{false, true} {
		// ips 10% lower fails; cpupq 0.9² = 0.81, no warning; 15 DBMS.
		c, err := Compare([]*ResultSet{mk("base", 1, built)}, []*ResultSet{mk("new", 0.9, built)}, DefaultCompareOptions())
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, c, WriteOptions{Format: "github"}); err != nil {
			t.Fatal(err)
		}
		var errs, warns, notices int
		for _, l := range strings.Split(b.String(), "\n") {
			switch {
			case strings.HasPrefix(l, "::error "):
				errs++
				if built == strings.Contains(l, "file=") {
					t.Errorf("built %v: %s", built, l)
				}
			case strings.HasPrefix(l, "::warning "):
				warns++
				if !strings.Contains(l, "5 more rows") || !strings.Contains(l, "job summary") {
					t.Errorf("summary annotation: %s", l)
				}
			case strings.HasPrefix(l, "::notice "):
				notices++
				if !strings.Contains(l, "ibreport diff: FAIL (15 fail") {
					t.Errorf("verdict notice: %s", l)
				}
			}
		}
		if errs != MaxAnnotations || warns != 1 || notices != 1 {
			t.Errorf("built %v: %d errors, %d warnings, %d notices; want %d, 1, 1\n%s", built, errs, warns, notices, MaxAnnotations, b.String())
		}
	}
}
