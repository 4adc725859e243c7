package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// TestPerfCountersArchive builds the default report of the trimmed
// feb25.pg.perf archive: the counter tables are there, one per part, the
// per-test detail is folded away in HTML, and a finding where cpu/o moved
// cites instructions per operation or IPC.
func TestPerfCountersArchive(t *testing.T) {
	res, _, err := report.Load("../testdata/arc/feb25.pg.perf", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Sysbench.Counters
	if c == nil {
		t.Fatal("no counters")
	}
	if len(c.Tables) != 4 || len(c.Details) < 25 {
		t.Errorf("%d part tables, %d test tables; want 4 and at least 25", len(c.Tables), len(c.Details))
	}
	if !strings.Contains(c.Caption, "one backend") {
		t.Errorf("caption does not state the per-backend assumption: %q", c.Caption)
	}
	cited := false
	for _, b := range rep.Bullets {
		for _, cause := range b.Causes {
			if cause.Name == "cpu/o" && len(cause.Detail) > 0 {
				cited = true
				if !strings.Contains(b.Text, "cpu/o ") || !strings.Contains(b.Text, "("+cause.Detail[0].Name+" ") {
					t.Errorf("finding %q does not print the detail %+v", b.Text, cause.Detail)
				}
			}
		}
	}
	if !cited {
		t.Errorf("no finding cites insn/o or IPC under cpu/o: %v", bulletTexts(rep.Bullets))
	}
	var html bytes.Buffer
	if err := render.WriteHTML(&html, rep); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	i, j := strings.Index(h, `id="sb.perf"`), strings.Index(h, "<summary>Every counter, per test")
	if i < 0 || j < i {
		t.Errorf("HTML: counters section at %d, folded detail at %d", i, j)
	}
}

// TestPerfFlameGraphLinks: flame graphs beside a test are linked by a
// relative path, never inlined.
func TestPerfFlameGraphLinks(t *testing.T) {
	m := fstest.MapFS{}
	dir := "../testdata/arc/feb25.pg.perf/x.pg1110_o2nofp.x10a_c32r128.pk1/"
	for _, n := range []string{"sb.o.read-only.range100.pk1.dop40", "sb.met.read-only.range100.pk1.dop40",
		"sb.perf.hw.read-only.range100.pk1.1", "sb.perf.last.read-only.range100.pk1"} {
		b, err := os.ReadFile(dir + n)
		if err != nil {
			t.Fatal(err)
		}
		m["x.pg1.c.pk1/"+n] = &fstest.MapFile{Data: b}
	}
	m["x.pg1.c.pk1/sb.perf.g.read-only.range100.pk1.1.svg"] = &fstest.MapFile{Data: []byte("<svg><script>alert(1)</script></svg>")}
	res, _, err := report.LoadFS(m, ".", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Sysbench.Counters
	if c == nil || len(c.FlameGraphs) != 1 {
		t.Fatalf("counters %+v", c)
	}
	fg := c.FlameGraphs[0]
	if fg.Href != "x.pg1.c.pk1/sb.perf.g.read-only.range100.pk1.1.svg" || fg.Test != "read-only.range100.pk1" {
		t.Errorf("flame graph %+v", fg)
	}
	var html bytes.Buffer
	if err := render.WriteHTML(&html, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), `href="x.pg1.c.pk1/sb.perf.g.read-only.range100.pk1.1.svg"`) || strings.Contains(html.String(), "alert(1)") {
		t.Error("the flame graph is not linked, or is inlined")
	}
}

// TestPerfCompatTables: in --compat, Tables writes the author's 86 join1
// files of the archive byte for byte (and the 10 empty files of the tests
// the current join_perfstat_sb.sh added).
func TestPerfCompatTables(t *testing.T) {
	dir := "../testdata/arc/feb25.pg.perf"
	list := filepath.Join(t.TempDir(), "dbms")
	if err := os.WriteFile(list, []byte("x.pg1023_o2nofp.x10a_c32r128.pk1\nx.pg110_o2nofp.x10a_c32r128.pk1\nx.pg1110_o2nofp.x10a_c32r128.pk1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _, err := report.Load(dir, report.LoadOptions{Metrics: metrics.Options{Compat: true}, DBMSList: list,
		Sysbench: report.SysbenchOptions{PerfPrefix: "pgcmp", PerfSample: 1}})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		got[f.Name] = f.Data
	}
	want, _ := filepath.Glob(filepath.Join(dir, "join1.*"))
	if len(want) != 86 {
		t.Fatalf("%d archived join1 files", len(want))
	}
	for _, w := range want {
		b, _ := os.ReadFile(w)
		g, ok := got[filepath.Base(w)]
		if !ok || !bytes.Equal(g, b) {
			t.Errorf("%s differs (written: %v)", filepath.Base(w), ok)
		}
	}
	raw, _ := filepath.Glob(filepath.Join(dir, "*", "sb.perf.hw.*.raw"))
	for _, w := range raw {
		b, _ := os.ReadFile(w)
		name := filepath.Base(filepath.Dir(w)) + "/" + filepath.Base(w)
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s differs", name)
		}
	}
}
