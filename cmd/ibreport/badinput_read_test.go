package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Implausible samples and lines of the readers: each is named with its
// file and line, and the value is what it is without that line.

const (
	vmBusyRow  = " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 90 90  0  0  0" // us+sy 180
	sbPointRun = "x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1"
)

// deleteLine removes line n (1-based) of a file.
func deleteLine(t *testing.T, p string, n int) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines = append(lines[:n-1], lines[n:]...)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameAsWithout checks that cells of a DBMS's row in mrg.<step> are those
// of the same results with line n of file deleted (the case's own edit of
// that line left out): the bad line was not used. extra are flags of tables.
func sameAsWithout(file string, n int, step, tag string, extra []string, cols ...string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		ref := &work{dir: w.dir, res: filepath.Join(w.dir, "without"), out: filepath.Join(w.dir, "without.out")}
		copyDir(t, example, ref.res)
		os.Remove(ref.path("ibreport.settings"))
		deleteLine(t, ref.path(file), n)
		if code, _, stderr := runCmd(t, ref.tables(extra...)...); code != 0 {
			t.Fatalf("tables without line %d: exit %d\n%s", n, code, stderr)
		}
		for _, col := range cols {
			got, want := cell(t, w.mrg(step), tag, col), cell(t, ref.mrg(step), tag, col)
			if got != want {
				t.Errorf("mrg.%s %s %s = %s, want %s as without %s:%d", step, tag, col, got, want, file, n)
			}
		}
		os.RemoveAll(ref.res)
		os.RemoveAll(ref.out)
	}
}

// differsFromWithout checks the opposite for compat mode, which uses the
// line as the original scripts did.
func differsFromWithout(file string, n int, step, tag string, extra []string, col string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		ref := &work{dir: w.dir, res: filepath.Join(w.dir, "without"), out: filepath.Join(w.dir, "without.out")}
		copyDir(t, example, ref.res)
		os.Remove(ref.path("ibreport.settings"))
		deleteLine(t, ref.path(file), n)
		if code, _, stderr := runCmd(t, ref.tables(extra...)...); code != 0 {
			t.Fatalf("tables without line %d: exit %d\n%s", n, code, stderr)
		}
		if got, without := cell(t, w.mrg(step), tag, col), cell(t, ref.mrg(step), tag, col); got == without {
			t.Errorf("mrg.%s %s %s = %s, as without %s:%d; compat mode should use the line", step, tag, col, got, file, n)
		}
		os.RemoveAll(ref.res)
		os.RemoveAll(ref.out)
	}
}

// sbIntervals replaces the 4 interval lines (15-18) of the point-query run
// of x.pg15.c1.pk1 by 12, enough for the noise table; the fifth, line 19,
// says bad when it is not "". drop leaves that line out instead.
func sbIntervals(t *testing.T, sb, bad string, drop bool) {
	t.Helper()
	p := filepath.Join(sb, sbPointRun)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if !strings.HasPrefix(lines[14], "[ 5s ]") || !strings.HasPrefix(lines[17], "[ 20s ]") {
		t.Fatalf("%s: lines 15-18 are not the interval lines", p)
	}
	var iv []string
	for k := range 12 {
		q := fmt.Sprintf("%.2f", 8700+37*float64(k*7%5))
		line := fmt.Sprintf("[ %ds ] thds: 1 tps: %s qps: %s (r/w/o: %s/0.00/0.00) lat (ms,95%%): 0.16 err/s: 0.00 reconn/s: 0.00", 5*(k+1), q, q, q)
		if k == 4 {
			if drop {
				continue
			}
			line = strings.Replace(line, "qps: "+q, "qps: "+bad, 1)
		}
		iv = append(iv, line)
	}
	lines = append(lines[:14], append(iv, lines[18:]...)...)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sbNoiseCell returns the point-query cell of x.pg15.c1.pk1 in the
// "Noise of the QPS, 1 thread" table of a Markdown report.
func sbNoiseCell(t *testing.T, report string) string {
	t.Helper()
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "### Noise of the QPS, 1 thread\n")
	if !ok {
		t.Fatalf("%s has no noise table", report)
	}
	for _, l := range strings.Split(after, "\n") {
		if strings.HasPrefix(l, "| point-query range=100 |") {
			return strings.TrimSpace(strings.Split(l, "|")[2])
		}
	}
	t.Fatalf("%s: no point-query row in the noise table", report)
	return ""
}

func sbBuildArgs(sb, report string) []string {
	return []string{"build", "--quiet", "--format", "md", "--cores", "2", sb, "-o", report}
}

// sbNoiseWithout checks that the noise of the run is that of the run
// without the bad interval line.
func sbNoiseWithout(t *testing.T, w *work) {
	ref := filepath.Join(w.dir, "sb.without")
	copyDir(t, "../../testdata/sysbench/raw", ref)
	sbIntervals(t, ref, "", true)
	refReport := filepath.Join(w.dir, "without.md")
	if code, _, stderr := runCmd(t, sbBuildArgs(ref, refReport)...); code != 0 {
		t.Fatalf("build without the line: exit %d\n%s", code, stderr)
	}
	got, want := sbNoiseCell(t, filepath.Join(w.dir, "report.md")), sbNoiseCell(t, refReport)
	if got != want || got == "NA" {
		t.Errorf("noise of the QPS %s, want %s as without the line", got, want)
	}
	os.RemoveAll(ref)
	os.Remove(refReport)
}

func init() {
	moreBadCases = append(moreBadCases,
		badCase{name: "vmstat us+sy above 100", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 4, vmBusyRow)
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2:4: us+sy = 180 is more than 101, not a percentage of the CPUs; the sample is left out"},
			check: sameAsWithout(c1+"/l.i1/o.vm.dop2", 4, "l.i1", "pg15.c1", nil, "csps", "cpups", "cspq", "cpupq")},
		badCase{name: "vmstat CPU columns summing above 102", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 5, " 3  0      0 22157776  23960 2106196    0    0    96 145424 3929 11773 45 20 60  0  0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2:5: us+sy+id+wa+st = 125 is more than 102, not a split of the CPUs' time; the sample is left out"},
			check: sameAsWithout(c1+"/l.i1/o.vm.dop2", 5, "l.i1", "pg15.c1", nil, "csps", "cpups", "cspq", "cpupq")},
		badCase{name: "vmstat us+sy above 100 in compat mode", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 4, vmBusyRow)
			return w.tables("--compat")
		}, check: differsFromWithout(c1+"/l.i1/o.vm.dop2", 4, "l.i1", "pg15.c1", []string{"--compat"}, "cpups")},
		badCase{name: "iostat %util above 101", setup: func(t *testing.T, w *work) []string {
			p := w.path(c1, "l.i1", "o.io.dop2")
			b, _ := os.ReadFile(p)
			f := strings.Fields(strings.Split(string(b), "\n")[14])
			if f[0] != "vda" {
				t.Fatalf("line 15 of %s is not a vda row", p)
			}
			f[len(f)-1] = "150.00"
			editLine(t, p, 15, strings.Join(f, " "))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.io.dop2:15: device vda %util 150 is more than 101, not a share of the interval; the row is left out"},
			check: sameAsWithout(c1+"/l.i1/o.io.dop2", 15, "l.i1", "pg15.c1", nil, "rps", "rmbps", "wps", "wmbps", "rpq", "rkbpq", "wpi", "wkbpi")},
		badCase{name: "two step folders for one step", setup: func(t *testing.T, w *work) []string {
			copyDir(t, w.path(c1, "qr100.L1"), w.path(c1, "q.L1.ips100"))
			copyDir(t, w.path(c1, "qr100.L1"), w.path(c1, "q100.1"))
			return w.tables()
		}, code: 2, stderr: []string{c1 + "/q.L1.ips100 and " + c1 + "/q100.1 are both step q100.1; move one of them out of the tree"},
			check: noOutput},
		badCase{name: "two step folders for one step in diff", setup: func(t *testing.T, w *work) []string {
			copyDir(t, w.path(c2, "qr100.L1"), w.path(c2, "q.L2.ips100"))
			copyDir(t, w.path(c2, "qr100.L1"), w.path(c2, "q100.1"))
			return []string{"diff", w.res, w.res}
		}, code: 2, stderr: []string{c2 + "/q.L2.ips100 and " + c2 + "/q100.1 are both step q100.1; move one of them out of the tree"}},
		badCase{name: "sysbench interval line with a negative qps", setup: func(t *testing.T, w *work) []string {
			sbIntervals(t, filepath.Join(w.dir, "sb"), "-8750", false)
			return sbBuildArgs(filepath.Join(w.dir, "sb"), filepath.Join(w.dir, "report.md"))
		}, stderr: []string{sbPointRun + ":19: interval line: qps: -8750 is negative, not a rate; the line is left out"},
			check: sbNoiseWithout},
		badCase{name: "sysbench interval line with a qps of 5e16", setup: func(t *testing.T, w *work) []string {
			sbIntervals(t, filepath.Join(w.dir, "sb"), "5e16", false)
			return sbBuildArgs(filepath.Join(w.dir, "sb"), filepath.Join(w.dir, "report.md"))
		}, stderr: []string{sbPointRun + ":19: interval line: qps: 5e+16 is beyond 1e+15, not a rate; the line is left out"},
			check: sbNoiseWithout},
	)
}
