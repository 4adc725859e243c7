package metrics_test

import (
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

const sbRaw = "../testdata/sysbench/raw"

func sbSet(t testing.TB, fsys fstest.MapFS, opt metrics.Options) *metrics.SysbenchSet {
	t.Helper()
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	set, err := metrics.ComputeSysbench(fsys, dirs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func fixtureSet(t testing.TB, opt metrics.Options) *metrics.SysbenchSet {
	t.Helper()
	fsys := os.DirFS(sbRaw)
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	set, err := metrics.ComputeSysbench(fsys, dirs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestSysbenchDefaultValues checks one fixture run against values worked out
// by hand from its files (awk over sb.vm and sb.io, the report lines of sb.o).
func TestSysbenchDefaultValues(t *testing.T) {
	set := fixtureSet(t, metrics.Options{Device: "vda"})
	if len(set.DBMS) != 2 || len(set.Tests) != 6 || len(set.Threads) != 2 {
		t.Fatalf("%d DBMS, %d tests, threads %v", len(set.DBMS), len(set.Tests), set.Threads)
	}
	r := set.DBMS[0].Result("point-query.range100.pk1", 1)
	lat, printed := r.LatAvg.Text()
	if r.QPS.Format(0) != "8760" || r.QPS.V != 8760.12 || r.QPS.Unit != metrics.QueriesPerSec || r.TPS.Format(0) != "8760" ||
		!printed || lat != "0.11" || r.LatAvg.Unit != metrics.Millis || r.Percentile != 95 || r.Engine != "pgsql" {
		t.Errorf("point-query dop1: %+v", r)
	}
	// The operation rate keeps sysbench's text: sb.met prints it as is.
	if rate, ok := r.HW.Rate.Text(); !ok || rate != "8760.12" || r.HW.Rate.V != 8760.12 {
		t.Errorf("operation rate %+v", r.HW.Rate)
	}
	h := r.HW
	// sb.vm has 23 lines: 2 headers, the since-boot row and 20 samples;
	// awk 'NR>3 {cs += $12; cpu += $13 + $14}' gives these sums.
	vm, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.vm.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	var cs, cpu, n float64
	for i, l := range strings.Split(strings.TrimSpace(string(vm)), "\n") {
		f := strings.Fields(l)
		if i < 3 {
			continue
		}
		x, _ := strconv.ParseFloat(f[11], 64)
		u, _ := strconv.ParseFloat(f[12], 64)
		s, _ := strconv.ParseFloat(f[13], 64)
		cs, cpu, n = cs+x, cpu+u+s, n+1
	}
	if h.VmstatSamples != int(n) || math.Abs(h.CsPerSec.V-cs/n) > 1e-9 || math.Abs(h.CPUPerOp.V-cpu/n/8760.12) > 1e-12 {
		t.Errorf("vmstat: %d samples cs/s %v cpu/o %v; want %v %v %v", h.VmstatSamples, h.CsPerSec.V, h.CPUPerOp.V, n, cs/n, cpu/n/8760.12)
	}
	// 2 CPUs from the sb.o "2 CPUs" line: µs per op = cpu/o × 2 × 10⁴.
	if h.CPUs != 2 || math.Abs(h.CPUMicrosPerOp.V-cpu/n/8760.12*2e4) > 1e-9 || !strings.Contains(h.CPUsSource, "CPUs line") {
		t.Errorf("cpu µs/op %+v from %d CPUs (%s)", h.CPUMicrosPerOp, h.CPUs, h.CPUsSource)
	}
	// 20 vda rows averaging 446.2 wkB/s.
	if h.IostatSamples != 20 || math.Abs(h.WriteKBPerOp.V-446.2/8760.12) > 1e-12 || h.WriteKBPerOp.Unit != "KiB written/query" || h.Device != "vda" {
		t.Errorf("iostat %+v", h)
	}
	rel := set.Relative(set.DBMS[1], r.Test, 1)
	if rel.QPS.Format(2) != "0.79" || rel.QPS.Unit != metrics.RatioUnit || rel.Result == nil || rel.Base != r {
		t.Errorf("relative %+v", rel.QPS)
	}
}

// describe computes the statistics by their textbook definitions, without
// gonum, to check Describe.
func describe(xs []float64) (avg, med, lo, hi, sd float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := float64(len(s))
	for _, x := range s {
		avg += x
	}
	avg /= n
	if len(s)%2 == 1 {
		med = s[len(s)/2]
	} else {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	for _, x := range s {
		sd += (x - avg) * (x - avg)
	}
	sd = math.Sqrt(sd / (n - 1))
	return avg, med, s[0], s[len(s)-1], sd
}

func TestDescribe(t *testing.T) {
	for _, xs := range [][]float64{
		{0.79, 1.10, 1.83, 1.05, 0.79, 1.80},
		{1.2, 0.9, 1.4},
		{2, 1},
		{0.5, 0.5, 0.5, 0.5},
	} {
		a, m, lo, hi, sd := metrics.Describe(xs)
		wa, wm, wlo, whi, wsd := describe(xs)
		for i, p := range [][2]float64{{a.V, wa}, {m.V, wm}, {lo.V, wlo}, {hi.V, whi}, {sd.V, wsd}} {
			if math.Abs(p[0]-p[1]) > 1e-12 {
				t.Errorf("%v: statistic %d = %v, want %v", xs, i, p[0], p[1])
			}
		}
		if a.Unit != metrics.RatioUnit || sd.Unit != metrics.RatioUnit || !sd.OK() {
			t.Errorf("%v: %+v %+v", xs, a, sd)
		}
	}
	a, _, _, _, sd := metrics.Describe([]float64{1.27})
	if a.V != 1.27 || sd.OK() || sd.Format(3) != "NA" {
		t.Errorf("one value: %+v %+v", a, sd)
	}
	if a, _, _, _, _ = metrics.Describe(nil); a.OK() {
		t.Errorf("no value: %+v", a)
	}
}

func tests(t *testing.T, sfx ...string) []parse.SysbenchTest {
	var out []parse.SysbenchTest
	for _, s := range sfx {
		x, ok := parse.ParseSysbenchSfx(s)
		if !ok {
			t.Fatal(s)
		}
		out = append(out, x)
	}
	parse.SortSysbenchTests(out)
	return out
}

func TestDefaultSysbenchGroups(t *testing.T) {
	var sfx []string
	for _, r := range []int{10, 100, 1000} {
		sfx = append(sfx, "random-points.range"+strconv.Itoa(r)+".pk1", "random-points.pre.range"+strconv.Itoa(r)+".pk1")
	}
	sfx = append(sfx, "point-query.range100.pk1", "point-query.pre.range100.pk1", "point-query.warm.range100.pk1", "hot-points.range100.pk1",
		"points-covered-pk.range100.pk1", "read-only.range10.pk1", "scan.range100.pk1", "scan.warm.range100.pk1",
		"update-index.range100.pk1", "update-one.range100.pk1", "update-zipf.range100.pk1", "update-inlist.range100.pk1",
		"update-nonindex.range100.pk1", "delete.range100.pk1", "insert.range100.pk1", "write-only.range10000.pk1",
		"read-write.range10.pk1", "read-write.range100.pk1")
	g := metrics.DefaultSysbenchGroups(tests(t, sfx...), 0)
	var got []string
	for _, x := range g {
		got = append(got, x.Name+":"+strconv.Itoa(len(x.Tests)))
	}
	// 10 point tests (warm-up left out) split 5 + 5; 2 range tests; 10 writes stay whole.
	if strings.Join(got, " ") != "Point-1:5 Point-2:5 Range:2 Writes:10" {
		t.Errorf("groups %v", got)
	}
	if g[0].Tests[0].Sfx != "point-query.pre.range100.pk1" || g[1].Tests[4].Sfx != "points-covered-pk.range100.pk1" {
		t.Errorf("point order %v / %v", g[0].Tests, g[1].Tests)
	}
	custom, warns := metrics.CustomSysbenchGroups([]parse.SysbenchGroup{
		{Name: "Lookups", Tests: []string{"point-query", "random-points.range10", "nope"}},
	}, tests(t, "point-query.range100.pk1", "random-points.range10.pk1", "random-points.range100.pk1"))
	if len(custom) != 1 || len(custom[0].Tests) != 2 || len(warns) != 2 ||
		!strings.Contains(warns[0], `no test "nope"`) || !strings.Contains(warns[1], "random-points.range100.pk1 is in no group") {
		t.Errorf("custom %+v warnings %q", custom, warns)
	}
}

// TestSysbenchGroupStats checks the statistics of the fixture against ratios
// computed here from the QPS of each run.
func TestSysbenchGroupStats(t *testing.T) {
	set := fixtureSet(t, metrics.Options{Device: "vda"})
	groups := metrics.DefaultSysbenchGroups(set.Tests, 0)
	stats := set.GroupStats(groups, 2)
	if len(stats) != 3 || stats[2].Group != "Writes" || len(stats[2].Ratios) != 4 {
		t.Fatalf("%+v", stats)
	}
	var xs []float64
	for _, sfx := range []string{"update-index.range100.pk1", "write-only.range10000.pk1", "read-write.range100.pk1", "insert.range100.pk1"} {
		xs = append(xs, set.DBMS[1].Result(sfx, 2).QPS.V/set.DBMS[0].Result(sfx, 2).QPS.V)
	}
	wa, wm, _, _, wsd := describe(xs)
	s := stats[2]
	if math.Abs(s.Average.V-wa) > 1e-12 || math.Abs(s.Median.V-wm) > 1e-12 || math.Abs(s.Stddev.V-wsd) > 1e-12 {
		t.Errorf("Writes: %+v, want %v %v %v", s, wa, wm, wsd)
	}
}

// TestSysbenchBadInput covers runs that died, failed or are missing.
func TestSysbenchBadInput(t *testing.T) {
	good, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	cut := good[:strings.Index(string(good), "SQL statistics")]
	errorsOnly := strings.Replace(strings.Replace(string(good), "175258 (8760.12 per sec.)", "0 (0.00 per sec.)", 2),
		"ignored errors:                      0      (0.00 per sec.)", "ignored errors:                      9000   (450.00 per sec.)", 1)
	fsys := fstest.MapFS{
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop1":  {Data: good},
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop2":  {Data: good},
		"x.a.c.pk1/sb.o.insert.range100.pk1.dop1":       {Data: good},
		"x.a.c.pk1/sb.o.read-only.range100.pk1.dop1":    {Data: []byte(errorsOnly)},
		"x.b.c.pk1/sb.o.point-query.range100.pk1.dop1":  {Data: cut},
		"x.b.c.pk1/sb.o.point-query.range100.pk1.dop2":  {Data: good},
		"x.b.c.pk1/sb.vm.insert.range100.pk1.dop1":      {Data: []byte("")},
		"x.b.c.pk1/sb.o.read-only.range100.pk1.dop1":    {Data: good},
		"x.b.c.pk1/sb.o.update-index.range100.pk1.dop1": {Data: good},
	}
	set := sbSet(t, fsys, metrics.Options{})
	a, b := set.DBMS[0], set.DBMS[1]
	died := b.Result("point-query.range100.pk1", 1)
	if died.QPS.OK() || !strings.Contains(died.QPS.Why, "printed no query rate") || died.HW.Rate.OK() || died.HW.CPUPerOp.OK() {
		t.Errorf("died: %+v %+v", died.QPS, died.HW)
	}
	if !strings.Contains(strings.Join(metrics.WarningTexts(died.Warnings), "\n"), "sb.o.point-query.range100.pk1.dop1:18: output ends without sysbench's final report") {
		t.Errorf("died warnings %q", died.Warnings)
	}
	// The warning says where, for programs too.
	found := false
	for _, w := range died.Warnings {
		found = found || w.Line == 18 && strings.HasSuffix(w.File, "sb.o.point-query.range100.pk1.dop1") &&
			w.DBMS == died.DBMS && w.Step == "point-query.range100.pk1"
	}
	if !found {
		t.Errorf("no warning at sb.o.point-query.range100.pk1.dop1:18 with its DBMS and test: %+v", died.Warnings)
	}
	noOut := b.Result("insert.range100.pk1", 1)
	if noOut == nil || noOut.QPS.Why != "sb.o file missing" {
		t.Errorf("no sb.o: %+v", noOut)
	}
	fail := a.Result("read-only.range100.pk1", 1)
	if w := strings.Join(metrics.WarningTexts(fail.Warnings), "\n"); fail.QPS.Format(0) != "0" || !strings.Contains(w, "every query failed (9000 errors)") ||
		fail.HW.CPUPerOp.OK() || !strings.Contains(w, `read-only.range100.pk1: operation rate "0.00" is not positive`) {
		t.Errorf("errors only: %+v %q %+v", fail.QPS, fail.Warnings, fail.HW.CPUPerOp)
	}
	if !strings.Contains(strings.Join(metrics.WarningTexts(a.Warnings), "\n"), "insert.range100.pk1 has no run with 2 threads (missing thread count)") {
		t.Errorf("missing thread count: %q", a.Warnings)
	}
	one := set.Relative(b, tests(t, "update-index.range100.pk1")[0], 1)
	if one.QPS.OK() || !strings.Contains(one.QPS.Why, "base DBMS has no update-index") {
		t.Errorf("test in one DBMS only: %+v", one.QPS)
	}
}

func TestSysbenchScanGenerations(t *testing.T) {
	out := "lua/sysbench --table-size=10000000 --tables=8 --threads=1 lua/oltp_scan.lua run\n2 CPUs\nSQL statistics:\n" +
		"    queries:                             587 (9.79 per sec.)\nGeneral statistics:\n    total time:                          60.0010s\n" +
		"Latency (ms):\n         avg:                                  102.15\n         max:                                  130.00\n"
	fsys := fstest.MapFS{"x.a.c.pk1/sb.o.scan.range100.pk1.dop1": {Data: []byte(out)}}
	for gen, want := range map[int]float64{
		metrics.ScanGenRowsPerRun:      10e6 * 8 / 60.001 / 1000,
		metrics.ScanGenRowsPerScanRate: 97900,
		0:                              10000 / 0.10215,
	} {
		r := sbSet(t, fsys, metrics.Options{ScanGen: gen}).DBMS[0].Results[0]
		// The per-operation values divide by the rate rounded to an integer,
		// as run.sh passed it.
		if math.Abs(r.QPS.V-want) > 1e-9 || r.QPS.Unit != metrics.KRowsPerSec || r.HW.Rate.V != math.RoundToEven(want) ||
			r.HW.CsPerOp.Unit != "cs/krow" {
			t.Errorf("generation %d: %+v rate %+v, want %v", gen, r.QPS, r.HW.Rate, want)
		}
	}
	bad := strings.Replace(out, "--table-size=10000000", "--table-size=10M", 1)
	fsys["x.a.c.pk1/sb.o.scan.range100.pk1.dop1"] = &fstest.MapFile{Data: []byte(bad)}
	r := sbSet(t, fsys, metrics.Options{}).DBMS[0].Results[0]
	if r.QPS.OK() || !strings.Contains(r.QPS.Why, `--table-size="10M" is not a number`) || r.HW.Rate.OK() {
		t.Errorf("bad --table-size: %+v", r.QPS)
	}
	noTables := strings.Replace(out, "--tables=8 ", "", 1)
	fsys["x.a.c.pk1/sb.o.scan.range100.pk1.dop1"] = &fstest.MapFile{Data: []byte(noTables)}
	if r := sbSet(t, fsys, metrics.Options{ScanGen: metrics.ScanGenRowsPerRun}).DBMS[0].Results[0]; r.QPS.OK() || !strings.Contains(r.QPS.Why, "--tables") {
		t.Errorf("no --tables: %+v", r.QPS)
	}
	if r := sbSet(t, fsys, metrics.Options{}).DBMS[0].Results[0]; !r.QPS.OK() {
		t.Errorf("no --tables, generation 3: %+v", r.QPS)
	}
}

func TestEngineTable(t *testing.T) {
	set := fixtureSet(t, metrics.Options{Device: "vda"})
	x, err := parse.ReadSysbenchExtra(strings.NewReader("dbms,test,rows/q\nx.pg15.c1.pk1,read-only,18\nx.pg15.c2.pk1,read-only.range100,20\nx.nope.pk1,scan,1\n"), "extra.csv")
	if err != nil {
		t.Fatal(err)
	}
	tab, warns := set.EngineTable(1, x)
	if len(tab.Blocks) != 6 || len(warns) != 1 || !strings.HasPrefix(warns[0], "extra.csv:4:") {
		t.Fatalf("%d blocks, warnings %q", len(tab.Blocks), warns)
	}
	b := tab.Blocks[3]
	if b.Test.Type != "read-only" || b.Rows[0].Extra[0] != "18" || b.Rows[1].Extra[0] != "20" || b.Rows[0].QPS.Format(0) != "9362" || b.PercentileLabel() != "p95" {
		t.Errorf("%+v", b)
	}
	if tab.Blocks[0].Rows[0].Extra[0] != "NA" {
		t.Errorf("unset extra %+v", tab.Blocks[0].Rows[0])
	}
}

// TestSysbenchWarmupThreads checks that a warm-up run does not make a
// thread count: point-query.warm runs with as many threads as tables.
func TestSysbenchWarmupThreads(t *testing.T) {
	good, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"x.a.c.pk1/sb.o.point-query.warm.range100.pk1.dop8": {Data: good},
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop40":     {Data: good},
		"x.a.c.pk1/sb.o.insert.range100.pk1.dop40":          {Data: good},
		"x.a.c.pk1/sb.o.scan.warm.range100.pk1.dop40":       {Data: good},
	}
	set := sbSet(t, fsys, metrics.Options{})
	if len(set.Threads) != 1 || set.Threads[0] != 40 {
		t.Errorf("thread counts %v, want [40]", set.Threads)
	}
	if w := set.Warnings(); strings.Contains(strings.Join(w, "\n"), "missing thread count") {
		t.Errorf("warnings %q", w)
	}
	if set.DBMS[0].Result("point-query.warm.range100.pk1", 8) == nil {
		t.Error("the warm-up run is not computed")
	}
}

// archivedMet is an archived sb.met, as the published archive has it
// (nov25.sb.mysql/dop1, x.my5651…, point-query.warm): 604 iostat samples,
// o/s 24726.83, 633 vmstat samples, cs/o 3.825, cpu/o 0.000511.
func archivedMet(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/arc/nov25.sb.mysql/dop1/x.my5651_rel_o2nofp.z12a_c8r32.pk1/sb.met.point-query.warm.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSysbenchArchivedMet covers archives that kept sb.o and sb.met but not
// the vmstat and iostat files: the HW values come from sb.met, and a run
// whose sb.o is gone keeps them and its QPS (sb.met's o/s).
func TestSysbenchArchivedMet(t *testing.T) {
	sbMet := archivedMet(t)
	good, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{
		"x.a.c.pk1/sb.o.point-query.range100.pk1.dop1":   {Data: good},
		"x.a.c.pk1/sb.met.point-query.range100.pk1.dop1": {Data: []byte(sbMet)},
		"x.a.c.pk1/sb.met.insert.range100.pk1.dop1":      {Data: []byte(sbMet)},
		"x.a.c.pk1/sb.met.scan.range100.pk1.dop1":        {Data: []byte(strings.Replace(sbMet, "24726.83", "6553", 1))},
	}
	set := sbSet(t, fsys, metrics.Options{Cores: 8})
	d := set.DBMS[0]
	r := d.Result("point-query.range100.pk1", 1)
	h := r.HW
	if h.CPUPerOp.V != 0.000511 || h.CsPerOp.V != 3.825 || h.WriteKBPerOp.V != 0.003 || h.ReadsPerOp.V != 0 || h.CsPerSec.V != 94578 ||
		h.IostatSamples != 604 || h.VmstatSamples != 633 || math.Abs(h.CPUMicrosPerOp.V-0.000511*8e4) > 1e-9 {
		t.Errorf("HW from sb.met: %+v", h)
	}
	if !h.FromMet() || h.VmstatSource != "x.a.c.pk1/sb.met.point-query.range100.pk1.dop1" || r.QPS.Format(0) != "8760" {
		t.Errorf("sources %q %q, QPS %v", h.IostatSource, h.VmstatSource, r.QPS)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings of an archived run: %q", r.Warnings)
	}
	noOut := d.Result("insert.range100.pk1", 1)
	if noOut == nil || noOut.QPS.V != 24726.83 || noOut.HW.Rate.Format(0) != "24726.83" || noOut.HW.CPUPerOp.V != 0.000511 || noOut.TPS.OK() {
		t.Fatalf("no sb.o: %+v", noOut)
	}
	w := strings.Join(metrics.WarningTexts(noOut.Warnings), "\n")
	if !strings.Contains(w, "x.a.c.pk1/sb.o.insert.range100.pk1.dop1: missing") ||
		!strings.Contains(w, "x.a.c.pk1/sb.met.insert.range100.pk1.dop1: QPS 24726.83 from its o/s") {
		t.Errorf("no sb.o: warnings %q", noOut.Warnings)
	}
	if scan := d.Result("scan.range100.pk1", 1); scan.QPS.V != 6553 || scan.QPS.Unit != metrics.KRowsPerSec || scan.HW.CsPerOp.Unit != "cs/krow" {
		t.Errorf("scan without sb.o: %+v", scan.QPS)
	}
	// A value an.sh could not compute is NA with the reason.
	fsys["x.a.c.pk1/sb.met.point-query.range100.pk1.dop1"] = &fstest.MapFile{Data: []byte(strings.Replace(sbMet, "3.825\t0.000511", "-nan\t-nan", 1))}
	h = sbSet(t, fsys, metrics.Options{}).DBMS[0].Result("point-query.range100.pk1", 1).HW
	if h.CPUPerOp.OK() || !strings.Contains(h.CPUPerOp.Why, `cpu/o is "-nan"`) || h.CPUMicrosPerOp.OK() {
		t.Errorf("-nan in sb.met: %+v", h.CPUPerOp)
	}
}

// TestSysbenchEngineLabel covers the engine of the sb.r labels: run.sh
// passed --mysql-storage-engine to the prepare only, and its default
// engine was InnoDB.
func TestSysbenchEngineLabel(t *testing.T) {
	run, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	if err != nil {
		t.Fatal(err)
	}
	prep, err := os.ReadFile(sbRaw + "/x.pg15.c1.pk1/sb.prepare.o.point-query.range100.pk1")
	if err != nil {
		t.Fatal(err)
	}
	mysql := func(b []byte, extra string) []byte {
		return []byte(strings.ReplaceAll(string(b), "--db-driver=pgsql", "--db-driver=mysql"+extra))
	}
	fsys := fstest.MapFS{
		"x.pg.c.pk1/sb.o.point-query.range100.pk1.dop1":    {Data: run},
		"x.my.c.pk1/sb.o.point-query.range100.pk1.dop1":    {Data: mysql(run, "")},
		"x.rx.c.pk1/sb.o.point-query.range100.pk1.dop1":    {Data: mysql(run, "")},
		"x.rx.c.pk1/sb.prepare.o.point-query.range100.pk1": {Data: mysql(prep, " --mysql-storage-engine=rocksdb")},
		"x.rx2.c.pk1/sb.o.point-query.range100.pk1.dop1":   {Data: mysql(run, " --mysql-storage-engine=rocksdb")},
	}
	var got []string
	for _, d := range sbSet(t, fsys, metrics.Options{}).DBMS {
		got = append(got, d.Name+"="+d.Engine())
	}
	if want := "x.my.c.pk1=innodb x.pg.c.pk1=pgsql x.rx.c.pk1=rocksdb x.rx2.c.pk1=rocksdb"; strings.Join(got, " ") != want {
		t.Errorf("engines %q, want %s", got, want)
	}
	for _, d := range sbSet(t, fsys, metrics.Options{Engine: "myisam"}).DBMS {
		if d.Engine() != "myisam" {
			t.Errorf("%s: engine %q with Options.Engine", d.Name, d.Engine())
		}
	}
}
