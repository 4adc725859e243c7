package diff_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/report"
)

const (
	sbRaw    = "../testdata/sysbench/raw"       // two PostgreSQL configs, 6 tests, 1 and 2 threads
	sbTables = "../testdata/sysbench/reference" // the summaries the scripts wrote for them
)

// copyDir copies a folder tree.
func copyDir(t testing.TB, src, dst string) string {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

var rePerSec = regexp.MustCompile(`\(([0-9.]+) per sec\.\)`)

// slowSbO makes the transactions and queries of a sysbench output k times
// their rate.
func slowSbO(t testing.TB, file string, k float64) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "transactions:") || strings.Contains(l, "queries:") {
			l = rePerSec.ReplaceAllStringFunc(l, func(m string) string {
				v, _ := strconv.ParseFloat(rePerSec.FindStringSubmatch(m)[1], 64)
				return "(" + strconv.FormatFloat(v*k, 'f', 2, 64) + " per sec.)"
			})
		}
		out = append(out, l)
	}
	if err := os.WriteFile(file, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// slowQPSAbs makes the QPS of one test of one column of qps.abs.pg.tsv
// k times its value.
func slowQPSAbs(t testing.TB, file, test string, col int, k float64) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	done := false
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) > col && strings.Contains(f[len(f)-1], "_"+test+"_") {
			v, _ := strconv.ParseFloat(f[col], 64)
			f[col] = strconv.FormatFloat(v*k, 'f', 0, 64)
			lines[i], done = strings.Join(f, "\t"), true
		}
	}
	if !done {
		t.Fatalf("%s: no test %s", file, test)
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSysbenchDiff gates sysbench results as raw DBMS folders and as the
// summary tables: each against itself passes (exit 0); one test of one
// DBMS planted 10% slower fails (exit 1) on that test, its group and
// nothing else; a test missing in NEW is an error (exit 2) unless
// --allow-missing, which lists it.
func TestSysbenchDiff(t *testing.T) {
	tmp := t.TempDir()
	rawSlow := copyDir(t, sbRaw, filepath.Join(tmp, "raw-slow"))
	slowSbO(t, filepath.Join(rawSlow, "x.pg15.c2.pk1", "sb.o.read-only.range100.pk1.dop1"), 0.9)
	rawGone := copyDir(t, sbRaw, filepath.Join(tmp, "raw-gone"))
	for _, f := range []string{"sb.o", "sb.met", "sb.vm", "sb.io", "sb.ps", "sb.r.qps", "sb.time"} {
		os.Remove(filepath.Join(rawGone, "x.pg15.c2.pk1", f+".read-only.range100.pk1.dop1"))
	}
	tabSlow := copyDir(t, sbTables, filepath.Join(tmp, "tab-slow"))
	slowQPSAbs(t, filepath.Join(tabSlow, "qps.abs.pg.tsv"), "read-only", 1, 0.9)
	tabGone := filepath.Join(tmp, "tab-gone")
	os.MkdirAll(tabGone, 0o755)
	b, _ := os.ReadFile(filepath.Join(sbTables, "qps.abs.pg.tsv"))
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "_read-only_") {
			keep = append(keep, l)
		}
	}
	os.WriteFile(filepath.Join(tabGone, "qps.abs.pg.tsv"), []byte(strings.Join(keep, "\n")), 0o644)

	for _, tc := range []struct {
		name         string
		base, new    string
		allowMissing bool
		want         int    // exit code; 2 for an error
		fails        string // the failing quantities, sorted by severity
	}{
		{"raw self", sbRaw, sbRaw, false, 0, ""},
		{"tables self", sbTables, sbTables, false, 0, ""},
		{"tables against raw", sbTables, sbRaw, false, 0, ""},
		// The same vmstat and iostat over 10% fewer queries: cpu/o, cs/o
		// and wKB/o per query rise by 11% too (r/o and rKB/o are below
		// their floors); cpu/o's rise is within its own noise of one run.
		{"raw, read-only 10% slower", sbRaw, rawSlow, false, 1, "sb read-only.range100.dop1 x.pg15.c2.pk1 qps; " +
			"sb read-only.range100.dop1 x.pg15.c2.pk1 cs/o; sb read-only.range100.dop1 x.pg15.c2.pk1 wKB/o; sbgroup Range.dop1 x.pg15.c2.pk1 qps"},
		{"tables, read-only 10% slower", sbTables, tabSlow, false, 1, "sb read-only.range100.dop1 x.pg15.c2.pk1 qps; sbgroup Range.dop1 x.pg15.c2.pk1 qps"},
		{"raw, test missing", sbRaw, rawGone, false, 2, ""},
		{"raw, test missing, allowed", sbRaw, rawGone, true, 0, ""},
		{"tables, test missing", sbTables, tabGone, false, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := diff.Options{Compare: diff.DefaultCompareOptions()}
			opt.Compare.AllowMissing = tc.allowMissing
			c, _, err := diff.Run([]string{tc.base}, []string{tc.new}, opt)
			if tc.want == 2 {
				if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), "read-only") {
					t.Fatalf("err %v, want bad input naming read-only", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := diff.ExitCode(c, false); got != tc.want {
				t.Errorf("exit %d, want %d", got, tc.want)
			}
			var fails []string
			for _, f := range c.Findings {
				if f.Verdict == diff.VerdictFail {
					fails = append(fails, strings.Join([]string{f.Table, f.Step, f.DBMS, f.Metric}, " "))
				}
			}
			if got := strings.Join(fails, "; "); got != tc.fails {
				t.Errorf("fails %q, want %q", got, tc.fails)
			}
			if tc.allowMissing && c.Count(diff.VerdictMissing) == 0 {
				t.Error("the missing test is not listed")
			}
		})
	}
}
