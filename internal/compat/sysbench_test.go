package compat

import (
	"bytes"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

const sbRaw = "../../testdata/sysbench/raw"

const iostatHeader = "Linux 6.18.44-fc-v669 (vm) \t11/29/26 \t_x86_64_\t(2 CPU)\n\n" +
	"Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"

// iostatRow is a device row with the given r/s, rkB/s, w/s and wkB/s.
func iostatRow(dev, rs, rkb, ws, wkb string) string {
	z := func(n int) string { return strings.Repeat(" 0.00", n) }
	return dev + " " + rs + " " + rkb + z(4) + " " + ws + " " + wkb + z(14) + "\n"
}

const vmstatGroup = "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n" +
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"

func vmstatRow(cs, us, sy string) string {
	return " 2  0      0 22310408   7568 2217888    0    0     0  4152 17670 " + cs + " " + us + " " + sy + " 60  0  0\n"
}

func readIostat(t *testing.T, s string) *parse.Iostat {
	io, err := parse.ReadIostat(strings.NewReader(s), "sb.io")
	if err != nil {
		t.Fatal(err)
	}
	return io
}

func readVmstat(t *testing.T, s string) *parse.Vmstat {
	vm, err := parse.ReadVmstat(strings.NewReader(s), "sb.vm")
	if err != nil {
		t.Fatal(err)
	}
	return vm
}

// TestMetLines covers sb.met as an.sh printed it: awk's unset sample
// counter prints as "", divisions by zero print inf or -nan, the rate is
// the text run.sh passed, vmstat counts repeated headers as samples and
// iostat takes every device whose name contains the device's.
func TestMetLines(t *testing.T) {
	io := iostatHeader + iostatRow("vda", "10.00", "40.00", "100.00", "800.00") +
		iostatRow("vda1", "2.00", "8.00", "0.00", "0.00") + iostatRow("vdb", "99.00", "99.00", "99.00", "99.00")
	vm := vmstatGroup + vmstatRow("7673", "29", "14") + vmstatRow("1000", "10", "20") + vmstatGroup + vmstatRow("3000", "20", "10")
	for _, c := range []struct {
		name   string
		io, vm string // file contents; "" for no file
		rate   string
		iostat string // line 3
		vmstat string // line 6
		warns  []string
	}{
		{
			name:   "no samples, no rate",
			iostat: "\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t",
			vmstat: "\t-nan\t-nan\t-nan\t-nan",
		},
		{
			name: "samples, rate 0",
			io:   iostatHeader + iostatRow("vda", "0.00", "0.00", "4.00", "8.00"), vm: vmstatGroup + vmstatRow("7673", "29", "14") + vmstatRow("1000", "0", "0"),
			rate:   "0.00",
			iostat: "1\t0.0\t0.0\t4.0\t0.0\t-nan\t-nan\tinf\t0.00",
			vmstat: "2\t4336\t21.5\tinf\tinf", // 2 = 4 lines - 1 column header - the first line
		},
		{
			name: "substring device, repeated vmstat header",
			io:   io, vm: vm,
			rate:   "100",
			iostat: "2\t6.0\t0.0\t50.0\t0.4\t0.060\t0.240\t4.000\t100",
			vmstat: "4\t2918\t25.8\t29.183\t0.257500",
			warns: []string{`sb.io: device vda1 also matches "vda" and is averaged in (compat)`,
				"sb.vm: 1 repeated vmstat header lines counted as samples (compat)"},
		},
	} {
		run := &parse.SysbenchRun{Dir: "x.a", Test: parse.SysbenchTest{Sfx: "point-query.range100.pk1"}}
		if c.io != "" {
			run.Iostat = readIostat(t, c.io)
		}
		if c.vm != "" {
			run.Vmstat = readVmstat(t, c.vm)
		}
		h, met, warns := normalizeHW(run, c.rate, metrics.QueriesPerSec, 0, "vda", "query")
		lines := met.lines()
		if len(lines) != 6 || lines[2] != c.iostat || lines[5] != c.vmstat {
			t.Errorf("%s: sb.met lines 3 and 6:\n%q\n%q\nwant\n%q\n%q", c.name, lines[2], lines[5], c.iostat, c.vmstat)
		}
		if strings.Join(warns, "\n") != strings.Join(c.warns, "\n") {
			t.Errorf("%s: warnings %q, want %q", c.name, warns, c.warns)
		}
		// The values carry the printed text, and CPU µs/op needs the CPU count.
		if got, _ := h.CPUPerOp.Text(); got != strings.Split(c.vmstat, "\t")[4] || h.CPUMicrosPerOp.OK() {
			t.Errorf("%s: cpu/o %+v µs/o %+v", c.name, h.CPUPerOp, h.CPUMicrosPerOp)
		}
		if rate, _ := h.Rate.Text(); rate != c.rate {
			t.Errorf("%s: rate %+v", c.name, h.Rate)
		}
	}
}

// TestScanRate covers run.sh's scan rates: awk reads a missing token as 0.
func TestScanRate(t *testing.T) {
	out := func(cmd, report string) *parse.SysbenchOutput {
		o, _ := parse.ReadSysbench(strings.NewReader("lua/sysbench "+cmd+" lua/oltp_scan.lua run\nSQL statistics:\n"+report), "sb.o")
		return o
	}
	full := "    queries:                             587 (9.79 per sec.)\nGeneral statistics:\n    total time:                          60.0010s\n" +
		"Latency (ms):\n         avg:                                  102.15\n"
	for _, c := range []struct {
		name string
		o    *parse.SysbenchOutput
		gen  int
		want string
	}{
		{"rows per latency", out("--table-size=10000000 --tables=8", full), 0, "97895"},
		{"rows per run", out("--table-size=10000000 --tables=8", full), metrics.ScanGenRowsPerRun, "1333"},
		{"rows per scan rate", out("--table-size=10000000 --tables=8", full), metrics.ScanGenRowsPerScanRate, "97900"},
		{"no --tables", out("--table-size=10000000", full), metrics.ScanGenRowsPerRun, "0"},
		{"no --table-size", out("--tables=8", full), 0, "0"},
		{"no latency", out("--table-size=10000000", "    queries:    587 (9.79 per sec.)\n"), 0, "inf"},
		{"no rows, no latency", out("--tables=8", "    queries:    587 (9.79 per sec.)\n"), 0, "-nan"},
		{"no sb.o", nil, 0, "-nan"},
	} {
		if got := FormatValue(metrics.Known(scanRate(c.o, c.gen), metrics.KRowsPerSec), 0); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// TestSysbenchRunShift covers sb.r lines of runs that died: run.sh left the
// value out, so the next thread count's value shifts left.
func TestSysbenchRunShift(t *testing.T) {
	good, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	cut := good[:bytes.Index(good, []byte("SQL statistics"))]
	fsys := fstest.MapFS{
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop1": {Data: good},
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop2": {Data: good},
		"x.b.c.pk1/sb.o.point-query.range100.pk1.dop1": {Data: cut},
		"x.b.c.pk1/sb.o.point-query.range100.pk1.dop2": {Data: good},
	}
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := ComputeSysbench(fsys, dirs, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sb.Set.Options.Compat {
		t.Error("the set is not marked compat")
	}
	died := sb.Set.DBMS[1].Result("point-query.range100.pk1", 1)
	if died.QPS.OK() || FormatValue(died.QPS, 0) != "NA" || FormatValue(died.TPS, 0) != "NA" {
		t.Errorf("died: %+v", died.QPS)
	}
	if q, _ := sb.Set.DBMS[0].Result("point-query.range100.pk1", 1).QPS.Text(); q != "8760" {
		t.Errorf("printed QPS %q", q)
	}
	files, _ := SysbenchTables(sb, "sb", CollateC)
	got := map[string]string{}
	for _, f := range files {
		got[f.Name] = strings.Join(f.Lines, "\n")
	}
	for name, want := range map[string]string{
		"x.a.c.pk1/sb.r.qps.point-query.range100.pk1":   "8760\t8760\tpgsql point-query range=100",
		"x.b.c.pk1/sb.r.qps.point-query.range100.pk1":   "8760\tpgsql point-query range=100",
		"x.b.c.pk1/sb.r.rtavg.point-query.range100.pk1": "0.11\tpgsql point-query range=100",
		"x.b.c.pk1/sb.met.point-query.range100.pk1.dop1": "iostat, vmstat normalized by operation rate\n" +
			"samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s\n\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t\n\n" +
			"samp\tcs/s\tcpu/s\tcs/o\tcpu/o\n\t-nan\t-nan\t-nan\t-nan",
		// Pasted by position, b's 1-thread QPS is that of 2 threads; the
		// label is tokens 3..NF of a's line, the engine included when a has
		// two values.
		"sum.sb": "col-1 : x.a.c.pk1\ncol-2 : x.b.c.pk1\n\ncol-1\tcol-2\n8760\t8760\tpgsql point-query range=100 ",
	} {
		if got[name] != want {
			t.Errorf("%s:\n%q\nwant\n%q", name, got[name], want)
		}
	}
}

// TestSysbenchFixture compares the per-run files with those run.sh and
// an.sh wrote for the fixture folders.
func TestSysbenchFixture(t *testing.T) {
	fsys := os.DirFS(sbRaw)
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := ComputeSysbench(fsys, dirs, metrics.Options{Device: "vda"})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := SysbenchTables(sb, "pg", CollateC)
	n := 0
	for _, f := range files {
		if !strings.Contains(f.Name, "/") {
			continue
		}
		want, err := fs.ReadFile(fsys, f.Name)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		if got := strings.Join(f.Lines, "\n") + "\n"; got != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", f.Name, got, want)
		}
		n++
	}
	if want := 2 * (12 + 30 + 1); n != want {
		t.Errorf("%d files compared, want %d", n, want)
	}
}

// archivedMet is an archived sb.met, as the published archive has it
// (nov25.sb.mysql/dop1, x.my5651…, point-query.warm): 604 iostat samples,
// o/s 24726.83, 633 vmstat samples, cs/o 3.825, cpu/o 0.000511.
func archivedMet(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/arc/nov25.sb.mysql/dop1/x.my5651_rel_o2nofp.z12a_c8r32.pk1/sb.met.point-query.warm.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSysbenchArchivedMet covers archived runs: sb.met is written back as
// it is and its values are the run's, a run without sb.o takes its QPS
// from sb.met's o/s, and sum_met.sh splits an sb.met whose sample counts
// an.sh left empty as awk does, shifting the fields (the expected block is
// what sum_met.sh printed for these two files with mawk 1.3.4).
func TestSysbenchArchivedMet(t *testing.T) {
	sbMet := archivedMet(t)
	good, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	empty := strings.Replace(strings.Replace(sbMet, "604\t0.2\t0.0\t9.1\t0.1\t0.000\t0.000\t0.003", "\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan", 1),
		"633\t94578\t12.6\t3.825\t0.000511", "\t-nan\t-nan\t-nan\t-nan", 1)
	fsys := fstest.MapFS{
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop1":   {Data: good},
		"x.a.c.pk1/sb.met.point-query.range100.pk1.dop1": {Data: []byte(sbMet)},
		"x.b.c.pk1/sb.met.point-query.range100.pk1.dop1": {Data: []byte(empty)},
	}
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := ComputeSysbench(fsys, dirs, metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := sb.Set.DBMS[0].Result("point-query.range100.pk1", 1)
	if FormatValue(a.HW.CPUPerOp, 6) != "0.000511" || FormatValue(a.HW.WriteKBPerOp, 3) != "0.003" || FormatValue(a.QPS, 0) != "8760" {
		t.Errorf("archived run: %+v", a.HW)
	}
	b := sb.Set.DBMS[1].Result("point-query.range100.pk1", 1)
	if FormatValue(b.QPS, 0) != "24727" || FormatValue(b.HW.CPUPerOp, 6) != "-nan" ||
		!strings.Contains(strings.Join(metrics.WarningTexts(b.Warnings), "\n"), "x.b.c.pk1/sb.o.point-query.range100.pk1.dop1: missing") {
		t.Errorf("run without sb.o: QPS %v, cpu/o %v, warnings %q", b.QPS, b.HW.CPUPerOp, b.Warnings)
	}
	files, _ := SysbenchTables(sb, "sb", CollateC)
	got := map[string]string{}
	for _, f := range files {
		got[f.Name] = strings.Join(f.Lines, "\n") + "\n"
	}
	for name, want := range map[string]string{
		"x.a.c.pk1/sb.met.point-query.range100.pk1.dop1": sbMet,
		"x.b.c.pk1/sb.met.point-query.range100.pk1.dop1": empty,
		"x.b.c.pk1/sb.r.qps.point-query.range100.pk1":    "24727\tNA point-query range=100\n",
		"o.met.sb.dop1": "sb.met.point-query.range100.pk1.dop1\n--- absolute\ncpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms\n" +
			"0.000511\t3.825\t0\t0\t0.003\t24727\tx.a.c.pk1\n" +
			"\t-nan\t-nan\t-nan\t24726.8\t0\tx.b.c.pk1\n" +
			"--- relative to first result\n" +
			"inf\t\t-nan\tinf\tinf\t8242276.67\t0.00\tx.b.c.pk1\n\n",
	} {
		if got[name] != want {
			t.Errorf("%s:\n%q\nwant\n%q", name, got[name], want)
		}
	}
}
