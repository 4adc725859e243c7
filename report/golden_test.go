package report_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/textdiff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const example = "../testdata/example"

var compatOpts = metrics.Options{Compat: true, Cores: 2, PsUser: "postgres", Device: "vda"}

func computeExample(t testing.TB, opt metrics.Options) []*metrics.TreeResult {
	t.Helper()
	fsys := os.DirFS(example)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []*metrics.TreeResult
	for _, tr := range trees {
		r, err := report.ComputeTree(fsys, tr, opt)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func exampleList(t *testing.T) []report.Entry {
	f, err := os.Open("../testdata/ibench/reference/x.2m.pg.etldirs")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := report.ReadDBMSList(f, "x.2m.pg.etldirs")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCompatReference checks that compat mode reproduces every text file
// the original pipeline wrote for the fixture runs, byte for byte.
func TestCompatReference(t *testing.T) {
	files, _, err := report.Tables(computeExample(t, compatOpts), exampleList(t), report.TablesOptions{Metrics: compatOpts})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		got[f.Name] = f.Data
	}
	checked := 0
	for _, sub := range []string{"res", "rt", "sum"} {
		ents, err := os.ReadDir(filepath.Join("../testdata/ibench/reference", sub))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			want, err := os.ReadFile(filepath.Join("../testdata/ibench/reference", sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			g, ok := got[e.Name()]
			if !ok {
				t.Errorf("%s: not written", e.Name())
				continue
			}
			if !bytes.Equal(g, want) {
				t.Errorf("%s differs from the original:\n%s", e.Name(), textdiff.Lines(string(want), string(g)))
			}
			checked++
		}
	}
	if checked != 119 {
		t.Errorf("only %d reference files compared", checked)
	}
}

// TestDefaultGolden pins the default-mode output on the fixture runs.
func TestDefaultGolden(t *testing.T) {
	opt := metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}
	files, warns, err := report.Tables(computeExample(t, opt), exampleList(t), report.TablesOptions{Metrics: opt})
	if err != nil {
		t.Fatal(err)
	}
	dir := "testdata/default"
	if *update {
		os.RemoveAll(dir)
		if err := fsout.WriteFiles(dir, fileSet(append(files, report.File{Name: "warnings", Data: []byte(strings.Join(warns, "\n") + "\n")}))); err != nil {
			t.Fatal(err)
		}
	}
	files = append(files, report.File{Name: "warnings", Data: []byte(strings.Join(warns, "\n") + "\n")})
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Errorf("%s: %v (run go test ./report -update)", f.Name, err)
			continue
		}
		if !bytes.Equal(f.Data, want) {
			os.WriteFile(filepath.Join(dir, f.Name+".got"), f.Data, 0o644)
			t.Errorf("%s differs from the golden file:\n%s", f.Name, textdiff.Lines(string(want), string(f.Data)))
		}
	}
}

// TestArchiveRoundTrip regenerates rel files from the archived mrg files the
// original pipeline wrote and compares them with sum_met.awk's output.
func TestArchiveRoundTrip(t *testing.T) {
	fsys := os.DirFS("../testdata/ibench/reference/res")
	steps, err := report.ArchivedSteps(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 10 {
		t.Fatalf("found %d archived steps, want 10", len(steps))
	}
	for _, compat := range []bool{true, false} {
		a, err := report.ReadArchive(fsys, ".", steps, compat)
		if err != nil {
			t.Fatal(err)
		}
		files, warns := report.TablesFromArchive(a, report.TablesOptions{Metrics: metrics.Options{Compat: compat}})
		if len(warns) != 0 {
			t.Errorf("compat=%v: warnings %q", compat, warns)
		}
		n := 0
		for _, f := range files {
			if !strings.HasPrefix(f.Name, "rel.") || f.Name == "rel.some" {
				continue
			}
			want, err := os.ReadFile(filepath.Join("../testdata/ibench/reference/res", f.Name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f.Data, want) {
				t.Errorf("compat=%v %s:\n%s", compat, f.Name, textdiff.Lines(string(want), string(f.Data)))
			}
			n++
		}
		if n != 10 {
			t.Errorf("compat=%v: %d rel files, want 10", compat, n)
		}
	}
}

// TestSeriesGolden renders the series report of the published PostgreSQL
// releases (BuildSeries of one folder with its release list) as Markdown
// and text against golden files, and checks its HTML.
func TestSeriesGolden(t *testing.T) {
	const dir = "../testdata/arc/nov25.sb.pg/dop40"
	res, _, err := report.Load(dir, report.LoadOptions{DBMSList: dir + ".series"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.BuildSeries([]report.ResultSet{{Name: "dop40", Results: res}}, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ format, ext string }{{"md", "md"}, {"text", "txt"}} {
		golden(t, filepath.Join("testdata/build", "series."+f.ext), renderAs(t, r, f.format))
	}
	checkHTML(t, renderAs(t, r, "html"))
}

// fileSet converts report files for internal/fsout, which writes them.
func fileSet(files []report.File) []fsout.File {
	out := make([]fsout.File, len(files))
	for i, f := range files {
		out[i] = fsout.File(f)
	}
	return out
}
