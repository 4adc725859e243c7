package diff_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/internal/textdiff"
	"github.com/ibreport/ibreport/report"
)

// archive is the mrg/rel archive the original pipeline wrote for the
// example runs (and other files a diff must skip).
const archive = "../testdata/ibench/reference/res"

// copyTables copies the mrg.* and rel.* files of archive into a new folder.
func copyTables(t testing.TB, dst string) string {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(archive, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// SetCell rewrites one cell of a mrg or rel file: the row whose tag is dbms,
// the column named metric. f, when not nil, computes the new text from the
// old one.
func SetCell(t testing.TB, dir, file, dbms, metric string, f func(old string) string) {
	t.Helper()
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	col := slicesIndex(strings.Split(lines[0], "\t"), metric)
	done := false
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		if col >= 0 && len(cells) > col && cells[len(cells)-1] == dbms {
			cells[col] = f(cells[col])
			lines[i] = strings.Join(cells, "\t")
			done = true
		}
	}
	if !done {
		t.Fatalf("%s: no cell %s %s", p, dbms, metric)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

func slicesIndex(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func set(v string) func(string) string { return func(string) string { return v } }

// scale multiplies a cell by k, keeping its decimals.
func scale(k float64) func(string) string {
	return func(old string) string {
		v, err := strconv.ParseFloat(old, 64)
		if err != nil {
			panic(old)
		}
		dec := 0
		if _, frac, ok := strings.Cut(old, "."); ok {
			dec = len(frac)
		}
		return strconv.FormatFloat(v*k, 'f', dec, 64)
	}
}

// checkGolden compares got with testdata/golden/<name>, or rewrites it.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./diff -update)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(p+".got", got, 0o644)
		t.Errorf("%s differs from the golden file:\n%s", name, textdiff.Lines(string(want), string(got)))
	}
}

// render writes c in every format and compares each with its golden file,
// with the temporary folder replaced by $TMP.
func renderDiff(t *testing.T, name string, c *diff.Comparison, tmp string, formats ...string) {
	for _, format := range formats {
		var b bytes.Buffer
		if err := diff.Write(&b, c, diff.WriteOptions{Format: format}); err != nil {
			t.Fatal(err)
		}
		ext := map[string]string{"text": "txt", "md": "md", "json": "json", "github": "github"}[format]
		checkGolden(t, name+"."+ext, []byte(strings.ReplaceAll(b.String(), tmp, "$TMP")))
	}
}

// TestDiffGolden perturbs a copy of the archived tables: ips of pg15.c2 in
// l.i0 6% lower (fail, in mrg and rel), cpupq of pg15.c1 in qr100.L1 5.6%
// higher (warn), qps of pg15.c2 in qp100.L2 4% higher (improved), p99 of
// pg15.c1 in l.i1 NA (not comparable, warn), and changes below floors.
func TestDiffGolden(t *testing.T) {
	tmp := t.TempDir()
	newer := copyTables(t, filepath.Join(tmp, "new"))
	SetCell(t, newer, "mrg.l.i0", "pg15.c2", "ips", set("104444"))
	SetCell(t, newer, "rel.l.i0", "pg15.c2", "ips", set("1.20"))
	SetCell(t, newer, "mrg.qr100.L1", "pg15.c1", "cpupq", set("57"))
	SetCell(t, newer, "mrg.qp100.L2", "pg15.c2", "qps", scale(1.04))
	SetCell(t, newer, "mrg.l.i1", "pg15.c1", "p99", set("NA"))
	SetCell(t, newer, "mrg.l.i0", "pg15.c1", "maxop", set("0.040"))   // below the floor
	SetCell(t, newer, "mrg.l.i0", "pg15.c1", "cpupq", set("15"))      // one printed unit
	SetCell(t, newer, "mrg.l.x", "pg15.c1", "rps", scale(3))          // informational
	SetCell(t, newer, "rel.qr100.L1", "pg15.c2", "cpupq", set("0.9")) // rel gates throughput only
	c, _, err := diff.Run([]string{archive}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	renderDiff(t, "single", c, tmp, diff.Formats...)
	if got := diff.ExitCode(c, false); got != 1 {
		t.Errorf("exit code %d, want 1", got)
	}
}

// TestDiffGoldenReplicated compares 6 BASE runs with 6 NEW runs of the
// mrg tables: ips of pg15.c1 in l.i0 jitters by 0.2% per run and drops 8%
// (significant fail), qps of pg15.c2 in qr100.L1 jitters without a shift
// (~); then 3+3 runs, too few for the U test, whose 20% drop is
// consistent (every NEW run below every BASE run) and fails.
func TestDiffGoldenReplicated(t *testing.T) {
	tmp := t.TempDir()
	mk := func(side string, n int, ips float64) []string {
		var dirs []string
		for i := range n {
			d := copyTables(t, filepath.Join(tmp, fmt.Sprintf("%s%d", side, i)))
			j := 1 + 0.002*float64(i-n/2)
			SetCell(t, d, "mrg.l.i0", "pg15.c1", "ips", scale(ips*j))
			SetCell(t, d, "mrg.qr100.L1", "pg15.c2", "qps", scale(1/j))
			dirs = append(dirs, d)
		}
		return dirs
	}
	opt := diff.Options{Compare: diff.DefaultCompareOptions()}
	opt.Compare.Tables = []string{"mrg"}
	c, _, err := diff.Run(mk("base", 6, 1), mk("new", 6, 0.92), opt)
	if err != nil {
		t.Fatal(err)
	}
	renderDiff(t, "replicated", c, tmp, "text", "json")

	c, _, err = diff.Run(mk("b3-", 3, 1), mk("n3-", 3, 0.8), opt)
	if err != nil {
		t.Fatal(err)
	}
	renderDiff(t, "replicated3", c, tmp, "text")
	if got := diff.ExitCode(c, false); got != 1 {
		t.Errorf("3+3 runs 20%% lower, every NEW run below every BASE run: exit code %d, want 1", got)
	}
}

// TestDiffTreeEqualsTables checks that a raw tree folder compares equal to
// the tables `ibreport tables` writes for it.
func TestDiffTreeEqualsTables(t *testing.T) {
	lopt := report.LoadOptions{}
	res, _, err := report.Load(example, lopt)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := fsout.WriteFiles(out, fileSet(files)); err != nil {
		t.Fatal(err)
	}
	c, _, err := diff.Run([]string{example}, []string{out}, diff.Options{Load: lopt, Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	// mrg and rel rows of a quantity are one finding.
	if w := c.Worst(); w != diff.LevelOK || len(c.Tables) != 2 || len(c.Findings) < 350 {
		t.Errorf("tree against its own tables: worst %v, tables %v, %d findings", w, c.Tables, len(c.Findings))
	}
}

func TestDiffBadInput(t *testing.T) {
	tmp := t.TempDir()
	garbage := copyTables(t, filepath.Join(tmp, "garbage"))
	os.WriteFile(filepath.Join(garbage, "mrg.l.x"), []byte("\x00\x01binary\n"), 0o644)
	short := copyTables(t, filepath.Join(tmp, "short"))
	os.WriteFile(filepath.Join(short, "mrg.l.i0"), []byte("ips\tqps\ttag\n1\t2\n"), 0o644)
	noStep := copyTables(t, filepath.Join(tmp, "nostep"))
	os.Remove(filepath.Join(noStep, "mrg.qp1000.L6"))
	os.Remove(filepath.Join(noStep, "rel.qp1000.L6"))
	renamed := copyTables(t, filepath.Join(tmp, "renamed"))
	for _, f := range []string{"mrg.l.i0", "rel.l.i0"} {
		SetCell(t, renamed, f, "pg15.c2", "tag", set("pg16.c2"))
	}
	empty := filepath.Join(tmp, "empty")
	os.Mkdir(empty, 0o755)
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"no such folder", filepath.Join(tmp, "nope"), "no such file"},
		{"empty folder", empty, "no DBMS result trees, no sysbench result folders, no mrg.<step> or rel.<step> files and no sysbench summaries"},
		{"binary table", garbage, "mrg.l.x:1: binary data"},
		{"short row", short, "mrg.l.i0:2: row has 2 cells"},
		{"missing step", noStep, "step qp1000.L6 only in BASE (mrg.qp1000.L6, rel.qp1000.L6)"},
		{"renamed DBMS", renamed, "DBMS pg15.c2 only in BASE (mrg.l.i0, rel.l.i0); DBMS pg16.c2 only in NEW"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := diff.Run([]string{archive}, []string{tc.dir}, diff.Options{Compare: diff.DefaultCompareOptions()})
			if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want bad input mentioning %q", err, tc.want)
			}
		})
	}
}

// example holds the raw trees of two PostgreSQL configurations.
const example = "../testdata/example"

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// fileSet converts report files for internal/fsout, which writes them.
func fileSet(files []report.File) []fsout.File {
	out := make([]fsout.File, len(files))
	for i, f := range files {
		out[i] = fsout.File(f)
	}
	return out
}
