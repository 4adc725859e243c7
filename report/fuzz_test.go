package report_test

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/internal/parse"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// pipelineTree is a small results folder: three steps of both example
// trees. FuzzPipeline replaces one of its files.
func pipelineTree(f *testing.F) (fstest.MapFS, []string) {
	m := fstest.MapFS{}
	for _, tree := range []string{"2m.pg15.c1", "2m.pg15.c2"} {
		for _, step := range []string{"l.i0", "l.x", "qr100.L1"} {
			dir := filepath.Join(example, tree, step)
			ents, err := os.ReadDir(dir)
			if err != nil {
				f.Fatal(err)
			}
			for _, e := range ents {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					f.Fatal(err)
				}
				m[tree+"/"+step+"/"+e.Name()] = &fstest.MapFile{Data: b}
			}
		}
	}
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return m, names
}

// FuzzPipeline loads and builds a small results folder in which one file
// is replaced by the fuzzer's input: never a panic, never a number in the
// model or the report that no measurement could have, and a changed file is
// noticed (an error, or a warning).
func FuzzPipeline(f *testing.F) {
	m, names := pipelineTree(f)
	f.Add(uint16(0), []byte{})
	f.Add(uint16(3), []byte("\x00\x01binary"))
	for i, n := range names {
		// The raw files of one tree, with signs flipped.
		if strings.HasPrefix(n, "2m.pg15.c1/") && !strings.Contains(n, "/o.rt") && !strings.Contains(n, "/o.rate") && !strings.Contains(n, "/o.iostat") {
			f.Add(uint16(i), bytes.Replace(m[n].Data, []byte("\t"), []byte("\t-"), 3))
		}
	}
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		name := names[int(which)%len(names)]
		fsys := fstest.MapFS{}
		for n, file := range m {
			fsys[n] = file
		}
		fsys[name] = &fstest.MapFile{Data: data}
		changed := !bytes.Equal(data, m[name].Data)
		for _, compat := range []bool{false, true} {
			res, _, err := report.LoadFS(fsys, "fuzz", report.LoadOptions{Metrics: metrics.Options{Compat: compat, Cores: 2, Device: "vda"}})
			if err != nil {
				continue // an error is a fine outcome
			}
			if !compat {
				for _, tr := range res.Trees {
					for _, sr := range tr.Steps {
						checkStep(t, sr)
					}
				}
			}
			// The compat pass also builds the series part.
			rep, err := report.Build(res, report.BuildOptions{Series: compat})
			if err != nil {
				continue
			}
			if !compat {
				checkReport(t, rep)
				if changed && len(rep.Notes) == 0 && !unchangedMeaning(m[name].Data, data) {
					t.Errorf("%s replaced by %q: no warning", name, trim(data))
				}
			}
			// HTML draws charts of the same model; the text formats are
			// enough to find what would break a renderer, and fast.
			for _, format := range []string{"md", "text", "json"} {
				if err := render.Write(io.Discard, rep, format); err != nil {
					t.Fatalf("%s: %v", format, err)
				}
			}
		}
	})
}

// unchangedMeaning reports whether new differs from old only in ways no
// reader should notice: trailing blanks, line ends and blank lines.
func unchangedMeaning(old, new []byte) bool {
	norm := func(b []byte) string {
		var out []string
		for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
			if f := strings.Fields(l); len(f) > 0 {
				out = append(out, strings.Join(f, " "))
			}
		}
		return strings.Join(out, "\n")
	}
	return norm(old) == norm(new)
}

func trim(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}

// plausibleValue reports whether a known value could be a measurement.
func plausibleValue(v metrics.Value) bool {
	if !v.OK() {
		return true
	}
	if v.Unit == metrics.RatioUnit && math.IsInf(v.V, 1) {
		return true
	}
	return parse.Plausible(parse.Ratio, v.V) == nil
}

func checkStep(t *testing.T, sr *metrics.StepResult) {
	t.Helper()
	check := func(v metrics.Value, what string) {
		if !plausibleValue(v) {
			t.Errorf("%s %s: %s = %v %s", sr.Tree, sr.Step.Name, what, v.V, v.Unit)
		}
	}
	for i, v := range sr.Metrics {
		check(v, metrics.Metric(i).Name())
	}
	check(sr.InsertRate, "insert rate")
	check(sr.QueryRate, "query rate")
	for i, v := range sr.IostatAvg.Values {
		check(v, "iostat average "+string(rune('0'+i%10)))
	}
	for _, h := range sr.Hist {
		for _, v := range h.Share {
			check(v, "histogram share")
		}
		check(h.Max, "histogram max")
	}
}

func checkReport(t *testing.T, r *report.Report) {
	t.Helper()
	var tables []*report.Table
	tables = append(tables, r.Summary, r.Relative, r.InsertRate)
	tables = append(tables, r.AllMetrics...)
	for _, s := range r.Sections {
		tables = append(tables, s.Metrics, s.Iostat)
		tables = append(tables, s.Histograms...)
	}
	for _, tab := range tables {
		if tab == nil {
			continue
		}
		for _, row := range tab.Rows {
			for _, c := range row.Cells {
				if c.Value != nil && (math.IsNaN(*c.Value) || math.IsInf(*c.Value, 0) || *c.Value < 0 || *c.Value > parse.Ceiling) {
					t.Errorf("table %s: cell %q holds %v", tab.ID, c.Text, *c.Value)
				}
				if len(c.Text) > 40 {
					t.Errorf("table %s: a cell of %d characters: %.40q…", tab.ID, len(c.Text), c.Text)
				}
			}
		}
	}
}
