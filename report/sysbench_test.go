package report_test

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/textdiff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

const (
	sbRaw       = "../testdata/sysbench/raw"
	sbReference = "../testdata/sysbench/reference"
)

// referenceOrder is the order in which sum_met.sh listed the base folder's
// sb.met files (`ls -rt`) when it wrote the reference o.met files. The copies
// in testdata lost their modification times, so sbFS gives them times in
// this order.
var referenceOrder = []string{
	"update-index.range100.pk1.dop1", "read-only.range100.pk1.dop1", "read-write.range100.pk1.dop1",
	"insert.range100.pk1.dop1", "write-only.range10000.pk1.dop1", "point-query.range100.pk1.dop1",
	"point-query.range100.pk1.dop2", "insert.range100.pk1.dop2", "read-write.range100.pk1.dop2",
	"update-index.range100.pk1.dop2", "write-only.range10000.pk1.dop2", "read-only.range100.pk1.dop2",
}

// sbFS loads the fixture folders into memory with the sb.met files of the
// base dated in reference order.
func sbFS(t testing.TB) fstest.MapFS {
	m := fstest.MapFS{}
	t0 := time.Date(2026, 11, 29, 21, 0, 0, 0, time.UTC)
	err := filepath.WalkDir(sbRaw, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(sbRaw, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b, ModTime: t0}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, sfx := range referenceOrder {
		m["x.pg15.c1.pk1/sb.met."+sfx].ModTime = t0.Add(time.Duration(i+1) * time.Minute)
	}
	return m
}

func sbCompute(t testing.TB, fsys fs.FS, opt metrics.Options) *metrics.SysbenchSet {
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

var sbCompat = metrics.Options{Compat: true, Device: "vda"}

// sbTables writes the sysbench tables of fsys: in the default mode from
// the set of metrics.ComputeSysbench, in compat mode through Load, whose
// compat edge computes the runs as the scripts did.
func sbTables(t testing.TB, fsys fs.FS, opt metrics.Options, sopt report.SysbenchOptions) ([]report.File, []string) {
	t.Helper()
	if !opt.Compat {
		files, warns, err := report.SysbenchTables(sbCompute(t, fsys, opt), sopt)
		if err != nil {
			t.Fatal(err)
		}
		return files, warns
	}
	res, _, err := report.LoadFS(fsys, "test", report.LoadOptions{Metrics: opt, Sysbench: sopt})
	if err != nil {
		t.Fatal(err)
	}
	files, warns, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	return files, warns
}

// TestSysbenchCompatReference checks compat mode against every file the
// original scripts wrote for the fixture folders: the per-run sb.met and
// sb.r files in the raw folders and the summaries in the reference folder.
func TestSysbenchCompatReference(t *testing.T) {
	files, _ := sbTables(t, sbFS(t), sbCompat, report.SysbenchOptions{Tag: "pg", Collate: "C"})
	got := map[string][]byte{}
	for _, f := range files {
		got[f.Name] = f.Data
	}
	checked := 0
	compare := func(name, file string) {
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: not written", name)
		case !bytes.Equal(g, want):
			t.Errorf("%s differs from the original:\n%s", name, textdiff.Lines(string(want), string(g)))
		}
		checked++
	}
	for _, dir := range []string{"x.pg15.c1.pk1", "x.pg15.c2.pk1"} {
		ents, err := os.ReadDir(filepath.Join(sbRaw, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if n := e.Name(); strings.HasPrefix(n, "sb.met.") || strings.HasPrefix(n, "sb.r.") || strings.HasPrefix(n, "sb.prepare.met.") {
				compare(path.Join(dir, n), filepath.Join(sbRaw, dir, n))
			}
		}
	}
	for _, n := range []string{"o.met.pg.dop1", "o.met.pg.dop2", "sum.pg", "qps.abs.pg.tsv", "qps.rel.pg.tsv", "qps.abs.pg.csv", "qps.rel.pg.csv"} {
		compare(n, filepath.Join(sbReference, n))
	}
	if checked != 2*(12+30+1)+7 {
		t.Errorf("%d files compared", checked)
	}
}

// TestSysbenchDefaultGolden pins the default-mode output on the fixtures.
func TestSysbenchDefaultGolden(t *testing.T) {
	opt := metrics.Options{Device: "vda"}
	x, err := parse.ReadSysbenchExtra(strings.NewReader("dbms,test,rows/q\nx.pg15.c1.pk1,point-query,1\nx.pg15.c2.pk1,point-query,1\n"), "extra.csv")
	if err != nil {
		t.Fatal(err)
	}
	files, warns, err := report.SysbenchTables(sbCompute(t, sbFS(t), opt), report.SysbenchOptionsWithExtra("pg", x))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, report.File{Name: "warnings", Data: []byte(strings.Join(warns, "\n") + "\n")})
	dir := "testdata/sysbench-default"
	if *update {
		os.RemoveAll(dir)
		if err := fsout.WriteFiles(dir, fileSet(files)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Errorf("%s: %v (run go test ./report -update)", f.Name, err)
			continue
		}
		if !bytes.Equal(f.Data, want) {
			t.Errorf("%s differs from the golden file:\n%s", f.Name, textdiff.Lines(string(want), string(f.Data)))
		}
	}
}

// TestSysbenchMissingTest compares the positional pasting of the original
// scripts (compat) with the join by test name of the default mode when one
// DBMS lacks a test and a thread count.
func TestSysbenchMissingTest(t *testing.T) {
	fsys := sbFS(t)
	for name := range fsys {
		if strings.HasPrefix(name, "x.pg15.c2.pk1/") && strings.Contains(name, ".insert.") ||
			strings.HasPrefix(name, "x.pg15.c2.pk1/") && strings.HasSuffix(name, ".update-index.range100.pk1.dop2") {
			delete(fsys, name)
		}
	}
	tables := func(opt metrics.Options) (map[string]string, []string) {
		files, warns := sbTables(t, fsys, opt, report.SysbenchOptions{Tag: "pg", Collate: "C"})
		out := map[string]string{}
		for _, f := range files {
			out[f.Name] = string(f.Data)
		}
		return out, warns
	}
	compat, _ := tables(sbCompat)
	// Without insert, c2's read-write value moves up into the insert row
	// and the last write row has no c2 value: the shift FORMATS.md §7.7
	// describes.
	if want := "pgsql_insert_range=100,4114,4862\npgsql_read-write_range=100,6191,7472\npgsql_update-index_range=100,4083,6641\npgsql_write-only_range=10000,6302,\n"; !strings.HasSuffix(compat["qps.abs.pg.csv"], want) {
		t.Errorf("compat qps.abs.pg.csv:\n%s", compat["qps.abs.pg.csv"])
	}
	if got := compat["x.pg15.c2.pk1/sb.r.qps.update-index.range100.pk1"]; got != "7472\tpgsql update-index range=100\n" {
		t.Errorf("compat sb.r.qps with a missing thread count: %q", got)
	}
	// sum_met.sh drops the absolute row of a missing file and divides by
	// nothing in its relative row.
	if !strings.Contains(compat["o.met.pg.dop1"], "x.pg15.c1.pk1\n--- relative to first result\ninf\t\tinf\tinf\tinf\tinf\tinf\tx.pg15.c2.pk1\n") {
		t.Errorf("compat o.met:\n%s", compat["o.met.pg.dop1"])
	}
	def, warns := tables(metrics.Options{Device: "vda"})
	if want := "pgsql_update-index_range=100,4083,7472\npgsql_write-only_range=10000,6302,6641\npgsql_read-write_range=100,6191,4862\npgsql_insert_range=100,4114,NA\n"; !strings.HasSuffix(def["qps.abs.pg.csv"], want) {
		t.Errorf("default qps.abs.pg.csv:\n%s", def["qps.abs.pg.csv"])
	}
	if got := def["x.pg15.c2.pk1/sb.r.qps.update-index.range100.pk1"]; got != "7472\tNA\tpgsql update-index range=100\n" {
		t.Errorf("default sb.r.qps with a missing thread count: %q", got)
	}
	if !strings.Contains(def["o.met.pg.dop1"], "sb.met.insert.range100.pk1.dop1\n--- absolute\ncpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms\n0.007") ||
		!strings.Contains(def["o.met.pg.dop1"], "NA\tNA\tNA\tNA\tNA\tNA\tx.pg15.c2.pk1\n--- relative to first result\nNA\t\tNA") {
		t.Errorf("default o.met:\n%s", def["o.met.pg.dop1"])
	}
	all := strings.Join(warns, "\n")
	for _, w := range []string{"x.pg15.c2.pk1: update-index.range100.pk1 has no run with 2 threads (missing thread count)", "o.met.pg.dop1: x.pg15.c2.pk1 has no sb.met.insert.range100.pk1.dop1"} {
		if !strings.Contains(all, w) {
			t.Errorf("no warning %q in:\n%s", w, all)
		}
	}
}

// TestSysbenchTablesCompatSet checks that SysbenchTables refuses a set
// marked compat: its files come from the compat computation, through Load.
func TestSysbenchTablesCompatSet(t *testing.T) {
	if _, _, err := report.SysbenchTables(sbCompute(t, sbFS(t), sbCompat), report.SysbenchOptions{}); err == nil {
		t.Error("no error for a compat set")
	}
}
