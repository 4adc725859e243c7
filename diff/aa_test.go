package diff_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
)

// aaPair is one real pair of runs with no change: the same builds run
// twice by the author, copied into two folders under the same names.
type aaPair struct {
	name     string
	base     func(t *testing.T, dir string)
	new      func(t *testing.T, dir string)
	runNoise float64 // declared; 0 the default (1%)
}

// copyFiles copies files of src into dst, renaming each by rename.
func copyFiles(t *testing.T, src, dst string, keep func(string) bool, rename func(string) string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() || !keep(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rename(e.Name())), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var aaPairs = []aaPair{
	{
		// MySQL 8.4.6 built and run twice, in-memory, 1 thread: QPS moves
		// by 1.2% rms, cpu/o by 5.7%.
		name: "MySQL 8.4.6 twice (nov25.sb.mysql/dop1)",
		base: func(t *testing.T, dir string) {
			build := "x.my8406_rel_o2nofp.z12a_c8r32.pk1"
			if err := os.CopyFS(filepath.Join(dir, build), os.DirFS("../testdata/arc/nov25.sb.mysql/dop1/"+build)); err != nil {
				t.Fatal(err)
			}
		},
		new: func(t *testing.T, dir string) {
			if err := os.CopyFS(filepath.Join(dir, "x.my8406_rel_o2nofp.z12a_c8r32.pk1"), os.DirFS("../testdata/arc/nov25.sb.mysql/dop1/x.my8406v2_rel_o2nofp.z12a_c8r32.pk1")); err != nil {
				t.Fatal(err)
			}
		},
	},
	{
		// Seven PostgreSQL builds, IO-bound, 40 threads, run on two dates:
		// QPS moves by 4.3% rms (3% a run), so the run noise is declared.
		name: "PostgreSQL 12–18 IO-bound on two dates (dec25)",
		base: func(t *testing.T, dir string) {
			copyFiles(t, "../testdata/arc/dec25.hetz.sb.pg.io", dir,
				func(n string) bool { return strings.Contains(n, ".pg.io.latest") },
				func(n string) string { return strings.Replace(n, ".pg.io.latest", ".pg.io", 1) })
		},
		new: func(t *testing.T, dir string) {
			copyFiles(t, "../testdata/arc/dec25.sb.io.hetz/pg", dir, func(string) bool { return true }, func(n string) string { return n })
		},
		runNoise: 0.03,
	},
}

// TestRealAAPairs: every real pair of runs of the same builds in the
// author's archives passes the gate both ways (exit 0), with at most 3
// rows failing, warning or improved each way: the calibration the one-run
// gate's noise rules answer to.
func TestRealAAPairs(t *testing.T) {
	for _, p := range aaPairs {
		a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
		p.base(t, a)
		p.new(t, b)
		for _, way := range [][2]string{{a, b}, {b, a}} {
			opt := diff.DefaultCompareOptions()
			opt.RunNoise = p.runNoise
			c, _, err := diff.Run([]string{way[0]}, []string{way[1]}, diff.Options{Compare: opt})
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			notable := c.Count(diff.VerdictFail) + c.Count(diff.VerdictWarn) + c.Count(diff.VerdictImproved)
			dir := "one way"
			if way[0] == b {
				dir = "the other way"
			}
			if code := diff.ExitCode(c, false); code != 0 || notable > 3 {
				var rows []string
				for _, f := range c.Findings {
					if f.Verdict == diff.VerdictFail || f.Verdict == diff.VerdictWarn || f.Verdict == diff.VerdictImproved {
						rows = append(rows, f.Step+" "+f.DBMS+" "+f.Metric+" "+string(f.Verdict))
					}
				}
				t.Errorf("%s, %s: exit %d, %d notable rows (%d comparisons):\n%s", p.name, dir, code, notable, len(c.Findings), strings.Join(rows, "\n"))
			}
			if len(c.Findings) < 200 {
				t.Errorf("%s, %s: only %d comparisons", p.name, dir, len(c.Findings))
			}
		}
	}
}
