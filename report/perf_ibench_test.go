package report_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// ibPerfFS is testdata/example with the perf stat samples of
// testdata/arc/ibperf laid into its step folders (np.sh writes them beside the
// client logs).
func ibPerfFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, dir := range []string{"../testdata/example", "../testdata/arc/ibperf"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			if d.IsDir() {
				if rel == "expected" {
					return filepath.SkipDir
				}
				return nil
			}
			if rel == "README.md" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestIbenchPerfReport builds the default report of the example with
// counters: one compact table per part, every counter per step folded in
// HTML, a cell against a hand calculation, the flame graph linked (never
// inlined, the macOS companion and the per-sample graph left out), and a
// finding that splits cpupq into insn/o and IPC.
func TestIbenchPerfReport(t *testing.T) {
	res, _, err := report.LoadFS(ibPerfFS(t), "example", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Counters
	if c == nil {
		t.Fatal("no counters")
	}
	var labels []string
	for _, tb := range c.Tables {
		labels = append(labels, tb.Label)
	}
	if strings.Join(labels, ",") != "load,create index,read+write" || len(c.Details) != 4 {
		t.Errorf("part tables %v, %d step tables; want load, create index, read+write and 4", labels, len(c.Details))
	}
	if !strings.Contains(c.Caption, "one backend") || !strings.Contains(c.Caption, "rate ÷ D") {
		t.Errorf("caption does not state the per-backend assumption: %q", c.Caption)
	}
	if len(c.Notes) != 0 {
		t.Errorf("notes %q", c.Notes)
	}

	// Hand calculation: pg15.c1 qp100.L2 counted 40e9 instructions in
	// sample 1 (×1.01) and sample 2 (×1.02), each in 10.001380263 s; the
	// backend does 1/2 of the step's queries.
	qps := res.Tree("2m.pg15.c1").Step("qp100.L2").QueryRate
	want := (40e9*1.01 + 40e9*1.02) / (2 * 10.001380263) / (qps.V / 2)
	rw := c.Tables[2]
	var got *float64
	for _, r := range rw.Rows {
		if r.Cells[0].Text == "qp100.L2" && r.Cells[1].Text == "pg15.c1" {
			got = r.Cells[2].Value
		}
	}
	if got == nil || math.Abs(*got-want) > 1e-9*want {
		t.Errorf("pg15.c1 qp100.L2 insn/o = %v, want %g (query rate %v)", got, want, qps)
	}

	if len(c.FlameGraphs) != 1 || c.FlameGraphs[0].Href != "2m.pg15.c2/qp100.L2/o.perf.g.cycles.dop2.all.svg" || c.FlameGraphs[0].Test != "qp100.L2" {
		t.Errorf("flame graphs %+v", c.FlameGraphs)
	}

	cited := false
	for _, b := range rep.Bullets {
		for _, cause := range b.Causes {
			if cause.Name == "cpupq" && len(cause.Detail) > 0 {
				cited = true
				if !strings.Contains(b.Short, "cpupq ") || !strings.Contains(b.Short, "("+cause.Detail[0].Name+" ") {
					t.Errorf("finding %q does not print the detail %+v", b.Short, cause.Detail)
				}
			}
		}
	}
	if !cited {
		t.Errorf("no finding cites insn/o or IPC under cpupq: %v", bulletTexts(rep.Bullets))
	}

	var html, md, txt, js bytes.Buffer
	for _, w := range []struct {
		f   func(*bytes.Buffer, *report.Report) error
		buf *bytes.Buffer
	}{
		{func(b *bytes.Buffer, r *report.Report) error { return render.WriteHTML(b, r) }, &html},
		{func(b *bytes.Buffer, r *report.Report) error { return render.WriteMarkdown(b, r) }, &md},
		{func(b *bytes.Buffer, r *report.Report) error { return render.WriteText(b, r) }, &txt},
		{func(b *bytes.Buffer, r *report.Report) error { return render.WriteJSON(b, r) }, &js},
	} {
		if err := w.f(w.buf, rep); err != nil {
			t.Fatal(err)
		}
	}
	h := html.String()
	i, j := strings.Index(h, `id="ib.perf"`), strings.Index(h, "<summary>Every counter, per step")
	if i < 0 || j < i || !strings.Contains(h, `id="ib.perf.read-write"`) {
		t.Errorf("HTML: counters section at %d, folded detail at %d", i, j)
	}
	if !strings.Contains(h, `href="2m.pg15.c2/qp100.L2/o.perf.g.cycles.dop2.all.svg"`) || strings.Contains(h, "alert(1)") {
		t.Error("HTML: the flame graph is not linked, or is inlined")
	}
	for name, s := range map[string]string{"Markdown": md.String(), "text": txt.String()} {
		if !strings.Contains(s, "perf stat counters per operation: read+write") || !strings.Contains(s, "perf stat counters per step") ||
			!strings.Contains(s, "2m.pg15.c2/qp100.L2/o.perf.g.cycles.dop2.all.svg") {
			t.Errorf("%s: no counter tables or flame graph link", name)
		}
	}
	var decoded struct {
		Counters *report.PerfPart `json:"counters"`
	}
	if err := json.Unmarshal(js.Bytes(), &decoded); err != nil || decoded.Counters == nil || len(decoded.Counters.Tables) != 3 {
		t.Errorf("JSON counters: %v, %+v", err, decoded.Counters)
	}
	found := false
	for _, l := range rep.Legend {
		found = found || l.Name == "perf stat" && strings.Contains(l.Meaning, "rate ÷ D")
	}
	if !found {
		t.Error("the legend does not explain the counters")
	}
}

// TestIbenchPerfCompat: in --compat, Tables writes np.sh's
// o.perf.hw.dop<D>.<n>.raw and .sorted for samples 1 to o.perf.last in
// each step folder, byte for byte as grep_perfstat.sh and `sort -k 1,1`
// (en_US.UTF-8) wrote them (testdata/arc/README.md says how the
// expected files were made), and the report has no counters.
func TestIbenchPerfCompat(t *testing.T) {
	res, _, err := report.LoadFS(ibPerfFS(t), "example", report.LoadOptions{Metrics: metrics.Options{Compat: true}})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		if strings.Contains(f.Name, "o.perf.hw.") {
			got[f.Name] = f.Data
		}
	}
	exp := "../testdata/arc/ibperf/expected"
	n := 0
	err = filepath.WalkDir(exp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(exp, p)
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if g, ok := got[filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s not written", rel)
		} else if !bytes.Equal(g, want) {
			t.Errorf("%s:\n%s\nwant\n%s", rel, g, want)
		}
		delete(got, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 28 || len(got) != 0 {
		t.Errorf("%d expected files; unexpected files written: %v", n, len(got))
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counters != nil {
		t.Error("compat report has counters")
	}
}
