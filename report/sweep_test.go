package report_test

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// oneClient turns a copied two-client tree into a one-client run: client 1's
// files under dop1 names, client 2's dropped.
func oneClient(m fstest.MapFS, tree string) {
	for p, f := range m {
		if !strings.HasPrefix(p, tree+"/") {
			continue
		}
		delete(m, p)
		if strings.HasSuffix(p, ".dop2.2") {
			continue
		}
		m[strings.ReplaceAll(p, ".dop2", ".dop1")] = f
	}
}

func TestSweep(t *testing.T) {
	m := copyTrees(t, []string{"dop1/2m.pg15.c1", "dop2/2m.pg15.c1"}, []string{c1, c1})
	oneClient(m, "dop1/2m.pg15.c1")
	r := buildFS(t, m, nil, report.BuildOptions{})
	sw := r.Sweep
	if sw == nil {
		t.Fatal("no sweep")
	}
	if len(sw.Clients) != 2 || sw.Clients[0] != 1 || sw.Clients[1] != 2 || len(sw.DBMS) != 1 || sw.DBMS[0] != "pg15.c1" {
		t.Fatalf("sweep of %v over %v", sw.DBMS, sw.Clients)
	}
	if r.Title != "Insert benchmark with 1 to 2 clients" {
		t.Errorf("title %q", r.Title)
	}
	// The summary has a row per run; the sweep pivots them.
	if got := []string{r.Summary.Rows[0].Cells[0].Text, r.Summary.Rows[1].Cells[0].Text}; got[0] != "pg15.c1.dop1" || got[1] != "pg15.c1.dop2" {
		t.Errorf("summary rows %q", got)
	}
	for i, s := range sw.Steps {
		col := 1 + i // the summary's column of the step
		for j := range sw.Clients {
			want := r.Summary.Rows[j].Cells[col].Text
			if got := s.Rates.Rows[0].Cells[1+j].Text; strings.Fields(want)[0] != got {
				t.Errorf("%s at %d clients: %q, summary %q", s.Step.Name, sw.Clients[j], got, want)
			}
		}
		r1, r2 := *s.Rates.Rows[0].Cells[1].Value, *s.Rates.Rows[0].Cells[2].Value
		if eff := *s.Scaling.Rows[0].Cells[2].Value; math.Abs(eff-r2/(2*r1)) > 1e-12 {
			t.Errorf("%s: scaling %v, want %v/(2×%v)", s.Step.Name, eff, r2, r1)
		}
		if s.Scaling.Rows[0].Cells[1].Text != "1.00" {
			t.Errorf("%s: scaling at 1 client %q", s.Step.Name, s.Scaling.Rows[0].Cells[1].Text)
		}
		if len(s.Chart.Series) != 1 || len(s.Chart.Series[0].Points) != 2 || len(s.Chart.XTicks) != 2 {
			t.Errorf("%s: chart %+v", s.Step.Name, s.Chart)
		}
	}
	// Read+write targets follow each run's clients: the one-client run's
	// target is half the other's.
	var targets []string
	for _, row := range r.InsertRate.Rows {
		if row.Kind == report.TargetRow {
			targets = append(targets, row.Cells[0].Text+"="+row.Cells[1].Text)
		}
	}
	if strings.Join(targets, " ") != "target, 1 client=100 target, 2 clients=200" {
		t.Errorf("targets %q", targets)
	}
	page := string(renderAs(t, r, "html"))
	if !strings.Contains(page, `id="sweep"`) || !strings.Contains(page, `id="fig.sweep.l.i0.chart"`) {
		t.Error("the page has no sweep section or chart")
	}
	md := string(renderAs(t, r, "md"))
	if !strings.Contains(md, "## Scaling with the number of clients") {
		t.Error("the Markdown has no sweep")
	}
}

// TestNoSweep checks that the sweep part is absent, not empty, with one
// client count, and that two trees of one name and one client count are an
// error naming both.
func TestNoSweep(t *testing.T) {
	if r := buildExample(t, compatOpts, nil, report.BuildOptions{}); r.Sweep != nil {
		t.Error("the example has a sweep")
	}
	m := copyTrees(t, []string{"a/2m.pg15.c1", "b/2m.pg15.c1"}, []string{c1, c2})
	_, _, err := report.LoadFS(m, "test", report.LoadOptions{Metrics: metrics.Options{Cores: 2}})
	if err == nil || !strings.Contains(err.Error(), "a/2m.pg15.c1 and b/2m.pg15.c1 are both named 2m.pg15.c1 and both ran with 2 clients") {
		t.Errorf("err = %v", err)
	}
}

func TestSweepTables(t *testing.T) {
	m := copyTrees(t, []string{"dop1/2m.pg15.c1", "dop2/2m.pg15.c1"}, []string{c1, c1})
	oneClient(m, "dop1/2m.pg15.c1")
	res, _, err := report.LoadFS(m, "test", report.LoadOptions{Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, f := range files {
		if f.Name == "sweep.l.i0" {
			got = string(f.Data)
		}
	}
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 2 || lines[0] != "1\t2\ttag" || !strings.HasSuffix(lines[1], "\tpg15.c1") {
		t.Errorf("sweep.l.i0 = %q", got)
	}
}

// TestSysbenchThreadSweep checks the thread-count sweep of the sysbench
// fixtures (1 and 2 threads) against the QPS tables of each thread count.
func TestSysbenchThreadSweep(t *testing.T) {
	for _, dir := range []string{"../testdata/sysbench/raw", "../testdata/sweep/sysbench"} {
		t.Run(dir, func(t *testing.T) { checkThreadSweep(t, dir) })
	}
}

func checkThreadSweep(t *testing.T, dir string) {
	r := loadBuild(t, dir, report.LoadOptions{}, report.BuildOptions{})
	sb := r.Sysbench
	if len(sb.Sweep) != len(sb.DBMS) || len(sb.Threads) < 2 {
		t.Fatalf("%d sweep tables for %d DBMS, %d thread counts", len(sb.Sweep), len(sb.DBMS), len(sb.Threads))
	}
	want := []string{"test"}
	for _, th := range sb.Threads {
		want = append(want, strconv.Itoa(th.Threads))
	}
	for _, th := range sb.Threads[1:] {
		want = append(want, fmt.Sprintf("%d vs %d", th.Threads, sb.Threads[0].Threads))
	}
	nt := len(sb.Threads)
	n := 0
	for di, tab := range sb.Sweep {
		if strings.Join(tab.Header, "|") != strings.Join(want, "|") {
			t.Fatalf("header %q, want %q", tab.Header, want)
		}
		for ri, row := range tab.Rows {
			for ti, th := range sb.Threads {
				qps := th.Absolute[0] // QPS: a row per test, a column per DBMS
				if qps.Rows[ri].Cells[0].Text != row.Cells[0].Text || qps.Rows[ri].Cells[1+di].Text != row.Cells[1+ti].Text {
					t.Errorf("%s %s at %d threads: %q, the QPS table has %q", tab.Title, row.Cells[0].Text, th.Threads, row.Cells[1+ti].Text, qps.Rows[ri].Cells[1+di].Text)
				}
			}
			for k := 1; k < nt; k++ {
				q1, q2, rel := row.Cells[1].Value, row.Cells[1+k].Value, row.Cells[nt+k].Value
				if q1 == nil || q2 == nil || rel == nil || *q1 == 0 {
					continue
				}
				if math.Abs(*rel - *q2 / *q1) > 1e-12 {
					t.Errorf("%s %s: %v, want %v/%v", tab.Title, row.Cells[0].Text, *rel, *q2, *q1)
				}
				n++
			}
		}
	}
	if n < 4 {
		t.Errorf("%d ratios checked", n)
	}
}

// TestSumMetDop checks o.met.sb.dop1.dop2 (sum_met_dop.sh) of the sysbench
// fixtures in compat mode against the sb.met files themselves: each block
// names the base's file at 1 thread and every DBMS's file at 2 threads, and
// its absolute rows are lines 6 and 3 of those files as the script printed
// them.
func TestSumMetDop(t *testing.T) {
	const dir = "../testdata/sysbench/raw"
	res, _, err := report.Load(dir, report.LoadOptions{Metrics: metrics.Options{Compat: true}})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, f := range files {
		if f.Name == "o.met.sb.dop1.dop2" {
			text = string(f.Data)
		}
	}
	row := func(dbms, file string) string {
		b, err := os.ReadFile(dir + "/" + dbms + "/" + file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		io, vm := strings.Fields(lines[2]), strings.Fields(lines[5])
		g := func(s string) string {
			f, _ := strconv.ParseFloat(s, 64)
			return strconv.FormatFloat(f, 'g', 6, 64)
		}
		ops, _ := strconv.ParseFloat(io[8], 64)
		return strings.Join([]string{vm[4], vm[3], g(io[5]), g(io[6]), g(io[7]), strconv.FormatFloat(ops, 'f', 0, 64), dbms}, "\t")
	}
	blocks := strings.Split(strings.TrimSpace(text), "\n\n")
	if len(blocks) < 6 {
		t.Fatalf("%d blocks:\n%s", len(blocks), text)
	}
	for _, blk := range blocks {
		l := strings.Split(blk, "\n")
		name1, name2 := l[0], strings.Replace(l[0], "dop1", "dop2", 1)
		if l[1] != "base1 "+name1+" and base2 "+name2 {
			t.Errorf("block %s: %q", name1, l[1])
		}
		want := []string{row("x.pg15.c1.pk1", name1), row("x.pg15.c1.pk1", name2), row("x.pg15.c2.pk1", name2)}
		if got := l[4:7]; strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("block %s:\n got %q\nwant %q", name1, got, want)
		}
	}
}
