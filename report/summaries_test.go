package report_test

import (
	"bufio"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// summaryCases are published studies kept as summary tables only: one
// set, several hosts' folders, and only relative tables (a thread count
// per set).
var summaryCases = []struct {
	name, dir, set string
	builds         int
	threads        int
}{
	{"ma.latin", "../testdata/arc/apr26.pn53.sb.ma.latin", "", 11, 1},
	{"80plus.hetz48", "../testdata/arc/dec25.sb.80plus/hetz48", "", 4, 40},
	{"80plus.dell32", "../testdata/arc/dec25.sb.80plus/dell32", "", 4, 24},
	{"ma.hetz48.8u", "../testdata/arc/oct25.sb.ma.hetz48", "ma106.8u", 5, 0},
}

// TestSummaryGolden builds the report of each summary folder in Markdown
// and JSON and compares them with the golden files.
func TestSummaryGolden(t *testing.T) {
	for _, c := range summaryCases {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := report.Load(c.dir, report.LoadOptions{Sysbench: report.SysbenchOptions{Set: c.set}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Sysbench == nil || len(res.Sysbench.DBMS) != c.builds {
				t.Fatalf("want %d builds, got %v", c.builds, res.Sysbench.Names())
			}
			if got := res.Sysbench.Threads; len(got) != 1 || got[0] != c.threads {
				t.Errorf("threads %v, want [%d]", got, c.threads)
			}
			if res.Summary == nil || !res.Summary.Tables {
				t.Fatalf("no summary choice: %+v", res.Summary)
			}
			rep, err := report.Build(res, report.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct{ format, ext string }{{"md", "md"}, {"json", "json"}} {
				golden(t, filepath.Join("testdata/build", "summary."+c.name+"."+f.ext), renderAs(t, rep, f.format))
			}
		})
	}
}

// TestSummaryRelativeEqualsAuthors checks every relative QPS of each
// report against the author's qps.rel.<set>.tsv, cell for cell, within
// the table's print rounding (%.2f).
func TestSummaryRelativeEqualsAuthors(t *testing.T) {
	for _, c := range summaryCases {
		t.Run(c.name, func(t *testing.T) {
			res, _, err := report.Load(c.dir, report.LoadOptions{Sysbench: report.SysbenchOptions{Set: c.set}})
			if err != nil {
				t.Fatal(err)
			}
			want := readRelTSV(t, filepath.Join(c.dir, "qps.rel."+res.Summary.Set+".tsv"))
			rep, err := report.Build(res, report.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, th := range rep.Sysbench.Threads {
				tab := th.Relative
				if tab == nil {
					t.Fatal("no relative table")
				}
				for _, row := range tab.Rows {
					if len(row.Cells) == 0 {
						continue
					}
					test := row.Cells[0].Text
					for k, cell := range row.Cells[1:] {
						w, ok := want[test+"\x00"+tab.Header[k+1]]
						if !ok {
							continue
						}
						checked++
						if cell.Value == nil || math.Abs(*cell.Value-w) > 0.005+1e-9 {
							t.Errorf("%s, %s: report %v, author %.2f", test, tab.Header[k+1], cell.Value, w)
						}
					}
				}
			}
			if checked < 20*(c.builds-1) {
				t.Errorf("only %d cells compared", checked)
			}
		})
	}
}

// readRelTSV reads an author's qps.rel table: ratio by test label
// ("point-query range=100") and build.
func readRelTSV(t *testing.T, file string) map[string]float64 {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cols []string
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "col-") && strings.Contains(line, " : "):
			_, name, _ := strings.Cut(line, " : ")
			cols = append(cols, name)
			continue
		case line == "" || strings.HasPrefix(line, "col-") || strings.HasPrefix(line, "Relative to:"):
			continue
		}
		fields := strings.Split(line, "\t")
		label := strings.Replace(fields[len(fields)-1], "_range=", " range=", 1)
		for k, v := range fields[:len(fields)-1] {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			out[label+"\x00"+cols[k]] = x
		}
	}
	return out
}

// TestSummaryErrors checks what a folder says when it holds nothing
// readable, and a set that does not exist.
func TestSummaryErrors(t *testing.T) {
	empty := t.TempDir()
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "qps.abs.x.tsv"), []byte("col-1 : a\ncol-2 : b\n\ncol-1\tcol-2\n1\t2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, set string
		want     []string
	}{
		{empty, "", []string{"no DBMS result trees", "qps.abs.<set>.tsv"}},
		{bad, "", []string{"no readable sysbench summary tables", "qps.abs.x.tsv:5", "2 fields, want 3"}},
		{"../testdata/arc/oct25.sb.ma.hetz48", "ma106.3u", []string{`no set "ma106.3u"`, "ma106.1u, ma106.2u"}},
	} {
		_, _, err := report.Load(c.dir, report.LoadOptions{Sysbench: report.SysbenchOptions{Set: c.set}})
		if err == nil {
			t.Errorf("%s: no error", c.dir)
			continue
		}
		if !errors.Is(err, report.ErrBadInput) {
			t.Errorf("%s: %v is not bad input", c.dir, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.dir, err, w)
			}
		}
	}
}

// TestDescriptions: the describe.<code> keys of the settings put the
// codes of the names in words in the key of short names.
func TestDescriptions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hetz48")
	if err := os.CopyFS(dir, os.DirFS("../testdata/arc/dec25.sb.80plus/hetz48")); err != nil {
		t.Fatal(err)
	}
	settings := "describe.z12a = the z12a my.cnf\ndescribe.c32r128 = 32 CPUs, 128 GB\ndescribe.x.my9500_rel_o2nofp.z12a_c32r128.pk1 = the newest release\n"
	if err := os.WriteFile(filepath.Join(dir, "ibreport.settings"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	res, warns, err := report.Load(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		if strings.Contains(w, "unknown key") {
			t.Errorf("warning %q", w)
		}
	}
	rep, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, k := range rep.WithShortNames().Names {
		words = append(words, k.Words)
	}
	all := strings.Join(words, "\n")
	for _, want := range []string{"config z12a (the z12a my.cnf)", "size class c32r128 (32 CPUs, 128 GB)", "; the newest release"} {
		if !strings.Contains(all, want) {
			t.Errorf("key words lack %q:\n%s", want, all)
		}
	}
	if story := strings.Join(rep.Story.Lines, "\n") + rep.Story.Lead; !strings.Contains(story, "config z12a (the z12a my.cnf)") {
		t.Errorf("the story does not describe z12a: %s", story)
	}
	if err := os.WriteFile(filepath.Join(dir, "ibreport.settings"), []byte("describe.x10d = a\x1bb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := report.Load(dir, report.LoadOptions{}); err == nil || !strings.Contains(err.Error(), "describe.x10d") {
		t.Errorf("a description with a control character: %v", err)
	}
}
