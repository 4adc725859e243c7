package parse_test

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/parse"
)

const sysbenchDir = "../testdata/sysbench/raw"

// sbReport is the final report of sysbench 1.0 with its per-interval lines,
// as run.sh saves it (command line and CPU count first).
const sbReport = `lua/sysbench --db-driver=pgsql --table-size=100000 --tables=1 --threads=2 --time=20 lua/oltp_read_write.lua run
2 CPUs
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 2

[ 5s ] thds: 2 tps: 319.09 qps: 6384.33 (r/w/o: 4469.61/1276.35/638.37) lat (ms,95%): 3.96 err/s: 0.00 reconn/s: 0.00
[ 10s ] thds: 2 tps: 325.25 qps: 6504.91 (r/w/o: 4553.44/1300.98/650.49) lat (ms,95%): 3.82 err/s: 0.00 reconn/s: 0.00
SQL statistics:
    queries performed:
        read:                            86702
        write:                           24772
        other:                           12386
        total:                           123860
    transactions:                        6193   (309.55 per sec.)
    queries:                             123860 (6191.08 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          20.0050s
    total number of events:              6193

Latency (ms):
         min:                                    1.12
         avg:                                    3.23
         max:                                   10.77
         95th percentile:                        4.41
         sum:                                19991.40

Threads fairness:
    events (avg/stddev):           6193.0000/0.00
    execution time (avg/stddev):   19.9914/0.00
`

// sb11Report is the sysbench 1.1 layout (Throughput block, warm-up).
const sb11Report = `sysbench 1.1.0-b68ebab (using bundled LuaJIT 2.1.0-beta3)

Number of threads: 40
Warmup time: 5s
SQL statistics:
    queries performed:
        read:                            214672167
        write:                           61335013
        other:                           30667470
        total:                           306674650
    transactions:                        15333754 (24339.00 per sec.)
    queries:                             306674650 (486779.38 per sec.)
    ignored errors:                      0      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

Throughput:
    events/s (eps):                      24339.0029
    time elapsed:                        630.0076s
    total number of events:              15333754

Latency (ms):
         min:                                    1.33
         avg:                                    1.64
         max:                                  107.62
         99th percentile:                        2.00
         sum:                             25184636.76
`

type sysbenchCase struct {
	name  string
	input string
	check func(t *testing.T, o *parse.SysbenchOutput)
	errs  []string
}

var sysbenchCases = []sysbenchCase{
	{
		name:  "1.0 report with intervals",
		input: sbReport,
		check: func(t *testing.T, o *parse.SysbenchOutput) {
			r := o.Report
			if !o.HasReport || o.CPUs != 2 || o.Threads != 2 || o.Version != "1.0.20" || len(o.Intervals) != 2 {
				t.Errorf("report %v CPUs %d threads %d version %q intervals %d", o.HasReport, o.CPUs, o.Threads, o.Version, len(o.Intervals))
			}
			if r.QPS.Text != "6191.08" || r.QPS.Line != 17 || r.TPS.Text != "309.55" || r.Transactions.Value != 6193 {
				t.Errorf("rates %+v %+v %+v", r.QPS, r.TPS, r.Transactions)
			}
			if r.LatAvg.Text != "3.23" || r.LatMax.Text != "10.77" || r.LatPct.Text != "4.41" || r.Percentile != 95 || r.Elapsed.Value != 20.005 {
				t.Errorf("latency %+v %+v %+v %d elapsed %+v", r.LatAvg, r.LatMax, r.LatPct, r.Percentile, r.Elapsed)
			}
			if r.Reads.Value != 86702 || r.Total.Value != 123860 || r.Events.Value != 6193 {
				t.Errorf("counts %+v %+v %+v", r.Reads, r.Total, r.Events)
			}
			iv := o.Intervals[1]
			if iv.Line != 9 || iv.Sec != 10 || iv.Threads != 2 || iv.TPS != 325.25 || iv.QPS != 6504.91 || iv.Writes != 1300.98 || iv.LatPct != 3.82 || iv.Percentile != 95 {
				t.Errorf("interval %+v", iv)
			}
			if o.IntOption("table-size", 0) != 100000 || o.IntOption("nope", 7) != 7 {
				t.Errorf("options %v", o.Options)
			}
		},
	},
	{
		name:  "1.1 report",
		input: sb11Report,
		check: func(t *testing.T, o *parse.SysbenchOutput) {
			r := o.Report
			if o.Command != "" || o.Warmup != 5 || r.EPS.Text != "24339.0029" || r.Elapsed.Text != "630.0076" || r.Percentile != 99 || r.LatPct.Text != "2.00" {
				t.Errorf("command %q warmup %v eps %+v elapsed %+v pct %d %+v", o.Command, o.Warmup, r.EPS, r.Elapsed, r.Percentile, r.LatPct)
			}
		},
	},
	{
		name:  "run that died midway",
		input: sbReport[:strings.Index(sbReport, "SQL statistics")],
		check: func(t *testing.T, o *parse.SysbenchOutput) {
			if o.HasReport || len(o.Intervals) != 2 || o.Report.QPS.Found() {
				t.Errorf("report %v intervals %d", o.HasReport, len(o.Intervals))
			}
		},
		errs: []string{"test:9: output ends without sysbench's final report (the run died or was stopped)"},
	},
	{
		name:  "report cut before the latency block",
		input: sbReport[:strings.Index(sbReport, "Latency")],
		errs:  []string{"test:24: final report ends before its Latency block (output cut short)"},
	},
	{
		name: "errors only",
		input: strings.Replace(strings.Replace(sbReport, "123860 (6191.08 per sec.)", "0 (0.00 per sec.)", 1),
			"ignored errors:                      0      (0.00 per sec.)", "ignored errors:                      5000      (250.00 per sec.)", 1) +
			"FATAL: `thread_run' function failed\n",
		check: func(t *testing.T, o *parse.SysbenchOutput) {
			if o.Report.QPS.Value != 0 || o.Report.Errors.Value != 5000 || o.Report.ErrorsPerSec.Text != "250.00" || len(o.Fatal) != 1 || o.Fatal[0].Line != 35 {
				t.Errorf("qps %+v errors %+v fatal %v", o.Report.QPS, o.Report.Errors, o.Fatal)
			}
		},
	},
	{
		name:  "bad values",
		input: "2 CPUs\nNumber of threads: x\n[ 5s ] thds: 1 tps: abc qps: 1\n[ xs ] thds: 1\nSQL statistics:\n    queries:  12 (oops per sec.)\n    transactions:\n",
		errs: []string{
			`test:2: thread count "x" is not a positive integer`,
			`test:3: interval line: bad value after "tps:"`,
			`test:4: interval line: elapsed time "xs" is not <N>s`,
			`test:6: queries: rate "(oops" is not a number`,
			`test:7: transactions: value missing`,
			`test:7: final report ends before its Latency block (output cut short)`,
		},
	},
	{
		name: "prepare log",
		input: "Setup for 1 tables\nDrop table sbtest1\nDone drop\nLUA_PATH=lua/?.lua lua/sysbench --table-size=100000 --tables=1 lua/oltp_point_select.lua prepare\n" +
			"Inserting 100000 records into 'sbtest1'\nLoad seconds is 1 for 1 tables, .100 Mips, 100000 ips\n",
		check: func(t *testing.T, o *parse.SysbenchOutput) {
			if o.Load == nil || o.Load.Seconds != 1 || o.Load.Tables != 1 || o.Load.Mips != ".100" || o.Load.IPS.Text != "100000" || o.Load.Line != 6 || o.Rows != 100000 {
				t.Fatalf("load %+v rows %d", o.Load, o.Rows)
			}
			if o.IntOption("table-size", 0) != 100000 {
				t.Errorf("options %v", o.Options)
			}
		},
	},
	{
		name:  "failed load",
		input: "Load seconds is 0 for 1 tables,  Mips,  ips\n",
		errs:  []string{"test:1: malformed Load seconds line"},
	},
	{name: "empty", input: "", errs: []string{"test: empty file"}},
}

func TestReadSysbench(t *testing.T) {
	for _, c := range sysbenchCases {
		t.Run(c.name, func(t *testing.T) {
			o, err := parse.ReadSysbench(strings.NewReader(c.input), testName)
			if o == nil {
				t.Fatal("nil output")
			}
			checkErrors(t, err, c.errs)
			if c.check != nil {
				c.check(t, o)
			}
		})
	}
}

func TestReadSysbenchFixtures(t *testing.T) {
	fsys := os.DirFS(sysbenchDir)
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || dirs[0].Name != "x.pg15.c1.pk1" || dirs[0].DBMS != "pg15" || dirs[0].Config != "c1" || dirs[0].PK != 1 {
		t.Fatalf("dirs %+v", dirs)
	}
	d := dirs[1]
	var names []string
	for _, tst := range d.Tests {
		names = append(names, tst.Sfx)
	}
	want := "update-index.range100.pk1 write-only.range10000.pk1 read-write.range100.pk1 read-only.range100.pk1 point-query.range100.pk1 insert.range100.pk1"
	if strings.Join(names, " ") != want || d.Prepare != "point-query.range100.pk1" {
		t.Errorf("tests %q prepare %q", names, d.Prepare)
	}
	for _, tst := range d.Tests {
		for _, nt := range d.Threads[tst.Sfx] {
			run, err := parse.ReadSysbenchRun(fsys, d.Dir, tst, nt)
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Problems) > 0 {
				t.Errorf("%s dop%d: %v", tst.Sfx, nt, run.Problems)
			}
			if run.Output.Threads != nt || !run.Output.HasReport || len(run.Output.Intervals) < 3 || run.Vmstat == nil || run.Iostat == nil || run.Ps == nil || run.Time == nil {
				t.Errorf("%s dop%d: %+v", tst.Sfx, nt, run)
			}
		}
	}
	p, err := parse.ReadSysbenchPrepare(fsys, d.Dir, d.Prepare)
	if err != nil || len(p.Problems) > 0 || p.Output.Load == nil || p.Output.Load.IPS.Text != "100000" {
		t.Errorf("prepare %+v %v", p, err)
	}
}

func TestParseSysbenchSfx(t *testing.T) {
	for _, c := range []struct {
		in, typ, base string
		phase         parse.SysbenchPhase
		rng, pk       int
		ok            bool
	}{
		{"point-query.range100.pk1", "point-query", "point-query", parse.Post, 100, 1, true},
		{"point-query.pre.range100.pk0", "point-query.pre", "point-query", parse.Pre, 100, 0, true},
		{"scan.warmpre.range100.pk1", "scan.warmpre", "scan", parse.WarmPre, 100, 1, true},
		{"points-covered-si.warm.range100.pk1", "points-covered-si.warm", "points-covered-si", parse.Warm, 100, 1, true},
		{"read-only.range10000.pk1", "read-only", "read-only", parse.Post, 10000, 1, true},
		{".pre.range1.pk1", ".pre", ".pre", parse.Post, 1, 1, true},
		{"read-only.range.pk1", "", "", 0, 0, 0, false},
		{"read-only.range10", "", "", 0, 0, 0, false},
	} {
		got, ok := parse.ParseSysbenchSfx(c.in)
		if ok != c.ok || ok && (got.Type != c.typ || got.Base != c.base || got.Phase != c.phase || got.Range != c.rng || got.PK != c.pk || got.Sfx != c.in) {
			t.Errorf("%s: %+v %v", c.in, got, ok)
		}
	}
	a, _ := parse.ParseSysbenchSfx("read-only.range10000.pk1")
	b, _ := parse.ParseSysbenchSfx("read-only.range100.pk1")
	if !b.Less(a) || a.Less(b) || a.Label() != "read-only range=10000" || a.Key() != "read-only.range10000" || !a.Matches("read-only") || a.Matches("read") {
		t.Errorf("order or names of %+v %+v", a, b)
	}
}

// TestFindSysbenchDirs covers the res.dop grouping, a missing thread count
// and a folder with only a prepare log.
func TestFindSysbenchDirs(t *testing.T) {
	fsys := fstest.MapFS{
		"res.dop8.180.180/x.my8032.z1.pk1/sb.o.insert.range100.pk1.dop8":       {Data: []byte(sbReport)},
		"res.dop8.180.180/x.my8032.z1.pk1/sb.o.insert.range100.pk1.dop16":      {Data: []byte(sbReport)},
		"res.dop8.180.180/x.my8032.z1.pk1/sb.vm.point-query.range100.pk1.dop8": {Data: []byte("")},
		"res.dop8.180.180/x.my8032.z1.pk1/sb.o.point-query.range100.pk1.dop16": {Data: []byte(sbReport)},
		"res.dop8.180.180/x.my8032.z1.pk1/notes":                               {Data: []byte("x")},
		"loadonly/sb.prepare.o.point-query.warm.range100.pk1":                  {Data: []byte("")},
		"other/o.txt": {Data: []byte("")},
	}
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 {
		t.Fatalf("%d dirs", len(dirs))
	}
	if dirs[0].Name != "loadonly" || dirs[0].DBMS != "" || dirs[0].PK != -1 || dirs[0].Prepare != "point-query.warm.range100.pk1" || len(dirs[0].Tests) != 0 {
		t.Errorf("%+v", dirs[0])
	}
	d := dirs[1]
	if d.Group != "res.dop8.180.180" || d.DBMS != "my8032" || len(d.Tests) != 2 {
		t.Errorf("%+v", d)
	}
	if got := d.Threads["point-query.range100.pk1"]; len(got) != 2 || got[0] != 8 || got[1] != 16 {
		t.Errorf("point-query threads %v", got)
	}
	if got := d.AllThreads(); len(got) != 2 || !d.HasFile("sb.o.insert.range100.pk1.dop8") {
		t.Errorf("all threads %v", got)
	}
	run, err := parse.ReadSysbenchRun(fsys, d.Dir, d.Tests[0], 8)
	if err != nil {
		t.Fatal(err)
	}
	if run.Output != nil || len(run.Problems) == 0 || !strings.Contains(run.Problems[0].Error(), "sb.o.point-query.range100.pk1.dop8: missing") {
		t.Errorf("run without sb.o: %+v", run)
	}
}

func TestReadSysbenchGroups(t *testing.T) {
	in := "# my groups\nPoint: point-query random-points.range10\n\nbad line\nPoint: x\nEmpty:\n"
	g, err := parse.ReadSysbenchGroups(strings.NewReader(in), testName)
	checkErrors(t, err, []string{
		"test:4: want <group name>: <test> <test> ...",
		`test:5: group "Point" already defined at line 2`,
		`test:6: group "Empty" lists no test`,
	})
	if len(g) != 2 || g[0].Name != "Point" || strings.Join(g[0].Tests, ",") != "point-query,random-points.range10" || g[0].Pos.Line != 2 {
		t.Errorf("%+v", g)
	}
	_, err = parse.ReadSysbenchGroups(strings.NewReader("# nothing\n"), testName)
	checkErrors(t, err, []string{"test: no group defined"})
}

func TestReadSysbenchExtra(t *testing.T) {
	in := "dbms,test,rows/q,note\nx.a,point-query,1,pk lookup\nx.b,read-only.range100,,\n,scan,5,\nx.a,scan,1\n\"x,1\n"
	x, err := parse.ReadSysbenchExtra(strings.NewReader(in), testName)
	checkErrors(t, err, []string{
		"test:4: dbms and test must not be empty",
		"test:5: wrong number of fields",
		`test:6: extraneous or missing " in quoted-field`,
	})
	if strings.Join(x.Columns, ",") != "rows/q,note" || len(x.Rows) != 2 || x.Rows[0].Values["note"] != "pk lookup" || x.Rows[1].Pos.Line != 3 || x.Rows[0].Threads != 0 {
		t.Errorf("%+v", x)
	}
	x, err = parse.ReadSysbenchExtra(strings.NewReader("dbms,test,threads,rows\nx.a,scan,8,3\nx.a,scan,zero,3\n"), testName)
	checkErrors(t, err, []string{`test:3: threads "zero" is not a positive integer`})
	if len(x.Rows) != 1 || x.Rows[0].Threads != 8 || strings.Join(x.Columns, ",") != "rows" {
		t.Errorf("%+v", x)
	}
	_, err = parse.ReadSysbenchExtra(strings.NewReader("test,rows\nscan,1\n"), testName)
	checkErrors(t, err, []string{"test:1: header must name the columns dbms and test"})
	_, err = parse.ReadSysbenchExtra(strings.NewReader(""), testName)
	checkErrors(t, err, []string{"test: empty file"})
}

// sbMet is an sb.met file of the archives (nov25.sb.mysql, dop1).
const sbMet = "iostat, vmstat normalized by operation rate\n" +
	"samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s\n" +
	"604\t0.2\t0.0\t9.1\t0.1\t0.000\t0.000\t0.003\t24726.83\n\n" +
	"samp\tcs/s\tcpu/s\tcs/o\tcpu/o\n" +
	"633\t94578\t12.6\t3.825\t0.000511\n"

func TestReadSysbenchMet(t *testing.T) {
	m, err := parse.ReadSysbenchMet(strings.NewReader(sbMet), "sb.met")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		iostat     bool
		col, want  string
		wantExists bool
	}{
		{true, "samp", "604", true}, {true, "o/s", "24726.83", true}, {true, "wKB/o", "0.003", true},
		{false, "cpu/o", "0.000511", true}, {false, "cs/s", "94578", true}, {false, "r/o", "", false},
	} {
		get := m.VmstatValue
		if c.iostat {
			get = m.IostatValue
		}
		if got, ok := get(c.col); got != c.want || ok != c.wantExists {
			t.Errorf("%s: %q %v", c.col, got, ok)
		}
	}
	if m.IostatLine != 3 || m.VmstatLine != 6 || len(m.Lines) != 6 {
		t.Errorf("lines %d %d %d", m.IostatLine, m.VmstatLine, len(m.Lines))
	}
	// an.sh printed an empty count and -nan when iostat had no rows.
	empty := strings.Replace(sbMet, "604\t0.2\t0.0\t9.1\t0.1\t0.000\t0.000\t0.003", "\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan", 1)
	m, err = parse.ReadSysbenchMet(strings.NewReader(empty), "sb.met")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := m.IostatValue("samp"); s != "" || m.Iostat != "\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t-nan\t24726.83" {
		t.Errorf("empty count: %q %q", s, m.Iostat)
	}
	for in, want := range map[string]string{
		"Cannot parse: Device foo\n":                "sb.met:1: no iostat or vmstat block",
		sbMet[:strings.Index(sbMet, "\n\n")]:        "sb.met:3: no vmstat block",
		strings.Replace(sbMet, "\t24726.83", "", 1): "sb.met:3: iostat line has 8 cells, its header 9",
	} {
		if _, err := parse.ReadSysbenchMet(strings.NewReader(in), "sb.met"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %s", in, err, want)
		}
	}
}

// TestArchivedSysbenchRun reads a folder that kept only sb.o and sb.met,
// and a run whose sb.o is gone: the folder is found, the missing sb.vm,
// sb.io, sb.ps and sb.time are not problems, a missing sb.o is.
func TestArchivedSysbenchRun(t *testing.T) {
	fsys := fstest.MapFS{
		"x.my8032.z1.pk1/sb.o.insert.range100.pk1.dop1":   {Data: []byte(sbReport)},
		"x.my8032.z1.pk1/sb.met.insert.range100.pk1.dop1": {Data: []byte(sbMet)},
		"x.my8032.z1.pk1/sb.met.scan.range100.pk1.dop1":   {Data: []byte(sbMet)},
		"x.pg.c.pk1/sb.met.scan.range100.pk1.dop1":        {Data: []byte(sbMet)},
	}
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || len(dirs[0].Tests) != 2 || dirs[1].Threads["scan.range100.pk1"][0] != 1 {
		t.Fatalf("%d dirs: %+v", len(dirs), dirs)
	}
	d := dirs[0]
	for _, c := range []struct {
		sfx      string
		problems string
	}{{"insert.range100.pk1", ""}, {"scan.range100.pk1", "x.my8032.z1.pk1/sb.o.scan.range100.pk1.dop1: missing"}} {
		test, _ := parse.ParseSysbenchSfx(c.sfx)
		run, err := parse.ReadSysbenchRun(fsys, d.Dir, test, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range run.Problems {
			got = append(got, p.Error())
		}
		if strings.Join(got, "\n") != c.problems || run.Met == nil || run.Vmstat != nil {
			t.Errorf("%s: problems %q, want %q", c.sfx, got, c.problems)
		}
	}
}
