package report_test

import (
	"bufio"
	"maps"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

const sysbenchRaw = "../testdata/sysbench/raw"

func buildSysbench(t testing.TB, dir string) *report.Report {
	t.Helper()
	return buildFrom(t, os.DirFS(dir), metrics.Options{Device: "vda"}, nil, report.BuildOptions{})
}

// refColumns reads a summary of the original scripts: value columns, then
// the test name ("pgsql insert range=100" or "pgsql_insert_range=100").
func refColumns(t *testing.T, name string) map[string][]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join("../testdata/sysbench/reference", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.NewReplacer("_", " ").Replace(sc.Text()))
		var vals []float64
		for _, x := range fields {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				break
			}
			vals = append(vals, v)
		}
		if len(vals) == 0 || len(fields) < len(vals)+3 {
			continue
		}
		test := strings.Join(fields[len(vals)+1:], " ") // drop the engine word
		out[test] = vals
	}
	return out
}

func cellsByTest(tab *report.Table) map[string][]string {
	out := map[string][]string{}
	for _, r := range tab.Rows {
		var v []string
		for _, c := range r.Cells[1:] {
			v = append(v, c.Text)
		}
		out[r.Cells[0].Text] = v
	}
	return out
}

// TestSysbenchReportMatchesOriginal checks the report's QPS and relative
// QPS at the first thread count against the original summaries (sum.pg and
// qps.rel.pg.tsv), and the group statistics against values computed here
// from the original's QPS.
func TestSysbenchReportMatchesOriginal(t *testing.T) {
	r := buildSysbench(t, sysbenchRaw)
	sb := r.Sysbench
	if sb == nil || len(sb.Threads) != 2 || sb.Threads[0].Threads != 1 {
		t.Fatalf("sysbench part: %+v", sb)
	}
	th := sb.Threads[0]
	abs := cellsByTest(th.Absolute[0])
	want := refColumns(t, "sum.pg")
	if len(want) != 6 {
		t.Fatalf("read %d tests from sum.pg", len(want))
	}
	for test, vals := range want {
		for i, v := range vals {
			if got := abs[test]; len(got) != 2 || got[i] != strconv.Itoa(int(v)) {
				t.Errorf("QPS %s: got %v, want %v", test, got, vals)
			}
		}
	}
	rel := cellsByTest(th.Relative)
	for test, vals := range refColumns(t, "qps.rel.pg.tsv") {
		if got := rel[test]; len(got) != 1 || strings.Fields(got[0])[0] != strconv.FormatFloat(vals[0], 'f', 2, 64) {
			t.Errorf("relative QPS %s: got %v, want %.2f", test, got, vals[0])
		}
	}
	// Writes: insert, read-write, update-index, write-only.
	var xs []float64
	for _, test := range []string{"insert range=100", "read-write range=100", "update-index range=100", "write-only range=10000"} {
		xs = append(xs, want[test][1]/want[test][0])
	}
	mean := 0.0
	for _, x := range xs {
		mean += x / float64(len(xs))
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	sort.Float64s(xs)
	median := (xs[1] + xs[2]) / 2
	stats := map[string]float64{}
	for _, row := range th.Groups.Rows {
		if row.Cells[0].Text == metrics.PartWrites { // the findings' part, as the group table's
			v, _ := strconv.ParseFloat(strings.Fields(row.Cells[2].Text)[0], 64)
			stats[row.Cells[1].Text] = v
		}
	}
	// The report uses unrounded QPS, sum.pg rounded ones: allow for that.
	for name, w := range map[string]float64{"Average": mean, "Median": median, "Min": xs[0], "Max": xs[3], "Stddev": sd} {
		if math.Abs(stats[name]-w) > 0.006 {
			t.Errorf("Writes %s = %v, want %.3f", name, stats[name], w)
		}
	}
	if stats["Tests"] != 4 {
		t.Errorf("Writes has %v tests", stats["Tests"])
	}
}

func TestSysbenchReportGolden(t *testing.T) {
	r := buildSysbench(t, sysbenchRaw)
	for _, f := range []struct{ format, ext string }{{"html", "html"}, {"md", "md"}, {"text", "txt"}, {"json", "json"}} {
		t.Run(f.format, func(t *testing.T) {
			got := renderAs(t, r, f.format)
			golden(t, filepath.Join("testdata/build", "sysbench."+f.ext), got)
			if f.format == "html" {
				checkHTML(t, got)
			}
		})
	}
}

// TestBuildBothKinds builds one report from a folder with insert-benchmark
// trees and sysbench folders side by side.
func TestBuildBothKinds(t *testing.T) {
	m := copyTrees(t, []string{c1, c2}, []string{c1, c2})
	copySysbench(t, m)
	r := buildFS(t, m, nil, report.BuildOptions{})
	if r.Summary == nil || r.Sysbench == nil {
		t.Fatalf("summary %v, sysbench %v", r.Summary != nil, r.Sysbench != nil)
	}
	if len(r.Summary.Rows) != 2 || len(r.Sysbench.DBMS) != 2 {
		t.Errorf("%d insert-benchmark DBMS, %d sysbench DBMS", len(r.Summary.Rows), len(r.Sysbench.DBMS))
	}
	page := renderAs(t, r, "html")
	checkHTML(t, page)
	for _, id := range []string{`id="summary"`, `id="sysbench"`, `id="sb.dop2"`} {
		if !strings.Contains(string(page), id) {
			t.Errorf("page lacks %s", id)
		}
	}
}

// TestSysbenchPrePost adds a point-query run before the writes (a copy of
// the run after them) and checks the pre-vs-post table.
func TestSysbenchPrePost(t *testing.T) {
	m := fstest.MapFS{}
	copySysbench(t, m)
	const d = "x.pg15.c1.pk1"
	pre := fstest.MapFS{}
	for p, f := range m {
		if name, ok := strings.CutPrefix(p, d+"/"); ok && strings.Contains(name, ".point-query.range100.pk1") {
			pre[d+"/"+strings.Replace(name, ".point-query.range100", ".point-query.pre.range100", 1)] = f
		}
	}
	maps.Copy(m, pre)
	r := buildFrom(t, m, metrics.Options{Device: "vda"}, nil, report.BuildOptions{})
	if len(r.Sysbench.PrePost) != 1 {
		t.Fatalf("%d pre-vs-post tables, want 1 (only c1 has a .pre run)", len(r.Sysbench.PrePost))
	}
	tab := r.Sysbench.PrePost[0]
	if len(tab.Rows) != 1 {
		t.Fatalf("rows: %+v", tab.Rows)
	}
	c := tab.Rows[0].Cells
	if c[0].Text != "point-query range=100" || c[1].Text != c[2].Text || c[3].Text != "1.00" {
		t.Errorf("row %+v: the same run before and after should give 1.00", c)
	}
	checkHTML(t, renderAs(t, r, "html"))
}

// copySysbench adds the two sysbench fixture folders to m.
func copySysbench(t *testing.T, m fstest.MapFS) {
	t.Helper()
	for _, d := range []string{"x.pg15.c1.pk1", "x.pg15.c2.pk1"} {
		ents, err := os.ReadDir(filepath.Join(sysbenchRaw, d))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(sysbenchRaw, d, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[d+"/"+e.Name()] = &fstest.MapFile{Data: b}
		}
	}
}

// TestSysbenchCompatReport builds the report in compat mode with no vmstat
// file (and no sb.met to stand in for it) for one test: the values show the
// texts the scripts printed (-nan for 0/0), and so do their ratios; the
// default mode shows NA.
func TestSysbenchCompatReport(t *testing.T) {
	m := fstest.MapFS{}
	copySysbench(t, m)
	for _, d := range []string{"x.pg15.c1.pk1", "x.pg15.c2.pk1"} {
		delete(m, d+"/sb.vm.read-only.range100.pk1.dop1")
		delete(m, d+"/sb.met.read-only.range100.pk1.dop1")
	}
	const id = "sb.dop1.hw.read-only.range100.pk1"
	for _, c := range []struct {
		opt            metrics.Options
		base, rel, qps string
	}{
		{metrics.Options{Compat: true, Device: "vda"}, "-nan", "-nan", "9362"},
		{metrics.Options{Device: "vda"}, "NA", "NA", "9362"},
	} {
		r := buildFrom(t, m, c.opt, nil, report.BuildOptions{})
		var tab *report.Table
		for _, x := range r.Sysbench.Threads[0].Efficiency {
			if x.ID == id {
				tab = x
			}
		}
		if tab == nil || len(tab.Rows) != 3 {
			t.Fatalf("compat %v: no table %s", c.opt.Compat, id)
		}
		// cpu/o of the base, cpu/o of the ratio row, and the base's QPS.
		if got := [3]string{tab.Rows[0].Cells[1].Text, tab.Rows[2].Cells[1].Text, tab.Rows[0].Cells[7].Text}; got != [3]string{c.base, c.rel, c.qps} {
			t.Errorf("compat %v: %v, want %s %s %s", c.opt.Compat, got, c.base, c.rel, c.qps)
		}
		if band := tab.Rows[2].Cells[1].Band; c.opt.Compat == (band == report.NotANumber) {
			t.Errorf("compat %v: ratio band %q", c.opt.Compat, band)
		}
	}
}

// TestSysbenchReportArchive builds the report of published results that
// kept only sb.o and sb.met (testdata/arc): one section for the one thread
// count, HW tables filled from sb.met, and a note saying so.
func TestSysbenchReportArchive(t *testing.T) {
	for _, compatMode := range []bool{false, true} {
		r := buildFrom(t, os.DirFS("../testdata/arc/nov25.sb.mysql/dop1"), metrics.Options{Cores: 8, Compat: compatMode}, nil, report.BuildOptions{})
		sb := r.Sysbench
		if len(sb.DBMS) != 9 || len(sb.Threads) != 1 || sb.Threads[0].Threads != 1 {
			t.Fatalf("compat %v: %d DBMS, %d thread counts", compatMode, len(sb.DBMS), len(sb.Threads))
		}
		cells := 0
		for _, tab := range sb.Threads[0].Efficiency {
			for _, row := range tab.Rows {
				for _, c := range row.Cells[1:] {
					if c.Text == "NA" || c.Text == "-nan" {
						t.Errorf("compat %v: %s %s: %s", compatMode, tab.ID, row.Cells[0].Text, c.Text)
					}
					cells++
				}
			}
		}
		if cells == 0 || !strings.Contains(strings.Join(sb.Notes, "\n"), "come from the archived sb.met files, as an.sh printed them: the folders have no sb.vm or sb.io files") {
			t.Errorf("compat %v: %d HW cells, notes %q", compatMode, cells, sb.Notes)
		}
	}
}

// TestSysbenchReportWarmup checks that a warm-up run with its own thread
// count (point-query.warm runs with as many threads as tables) makes no
// section of the report.
func TestSysbenchReportWarmup(t *testing.T) {
	m := fstest.MapFS{}
	copySysbench(t, m)
	for _, d := range []string{"x.pg15.c1.pk1", "x.pg15.c2.pk1"} {
		m[d+"/sb.o.point-query.warm.range100.pk1.dop8"] = m[d+"/sb.o.point-query.range100.pk1.dop1"]
	}
	r := buildFrom(t, m, metrics.Options{Device: "vda"}, nil, report.BuildOptions{})
	var nts []int
	for _, th := range r.Sysbench.Threads {
		nts = append(nts, th.Threads)
	}
	if len(nts) != 2 || nts[0] != 1 || nts[1] != 2 {
		t.Errorf("thread counts %v, want [1 2]", nts)
	}
	if n := strings.Join(metrics.WarningTexts(r.Notes), "\n"); strings.Contains(n, "8 threads") {
		t.Errorf("notes about the warm-up's thread count:\n%s", n)
	}
}
