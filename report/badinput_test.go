package report_test

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

// exampleFS copies the fixture trees into a MapFS that a test may edit.
func exampleFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	src := os.DirFS(example)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		m[p] = &fstest.MapFile{Data: b}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func tables(t *testing.T, fsys fs.FS, opt metrics.Options, list []report.Entry) (map[string]string, []string) {
	t.Helper()
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var res []*metrics.TreeResult
	for _, tr := range trees {
		r, err := report.ComputeTree(fsys, tr, opt)
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
	}
	if list == nil {
		list = report.DefaultList(trees)
	}
	files, warns, err := report.Tables(res, list, report.TablesOptions{Metrics: opt})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Name] = string(f.Data)
	}
	return out, warns
}

func removeDir(m fstest.MapFS, dir string) {
	for p := range m {
		if strings.HasPrefix(p, dir+"/") {
			delete(m, p)
		}
	}
}

func rowOf(t *testing.T, table, tag string) []string {
	t.Helper()
	for _, l := range strings.Split(table, "\n") {
		c := strings.Split(l, "\t")
		if c[len(c)-1] == tag {
			return c
		}
	}
	t.Fatalf("no row for %s in\n%s", tag, table)
	return nil
}

func hasWarning(warns []string, sub string) bool {
	for _, w := range warns {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

var defaultOpts = metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(m fstest.MapFS)
		check func(t *testing.T, files map[string]string, warns []string)
	}{
		{
			name: "missing step in one tree",
			edit: func(m fstest.MapFS) { removeDir(m, "2m.pg15.c2/qp500.L4") },
			check: func(t *testing.T, files map[string]string, warns []string) {
				row := rowOf(t, files["mrg.qp500.L4"], "pg15.c2")
				for i, c := range row[:20] {
					if c != "NA" {
						t.Errorf("column %s = %q, want NA", metrics.RowColumns[i], c)
					}
				}
				if !hasWarning(warns, "2m.pg15.c2: step qp500.L4 is missing") {
					t.Errorf("no warning for the missing step: %q", warns)
				}
			},
		},
		{
			name: "step folder without client logs",
			edit: func(m fstest.MapFS) {
				delete(m, "2m.pg15.c1/l.i1/o.ib.dop2.1")
				delete(m, "2m.pg15.c1/l.i1/o.ib.dop2.2")
			},
			check: func(t *testing.T, files map[string]string, warns []string) {
				row := rowOf(t, files["mrg.l.i1"], "pg15.c1")
				if row[metrics.IPS] != "NA" || row[metrics.P50] != "NA" || row[metrics.MaxOp] != "NA" {
					t.Errorf("ips %q p50 %q maxop %q, want NA", row[metrics.IPS], row[metrics.P50], row[metrics.MaxOp])
				}
				if !hasWarning(warns, "2m.pg15.c1/l.i1: no client logs") {
					t.Errorf("no warning naming the step: %q", warns)
				}
			},
		},
		{
			name: "unknown iostat header",
			edit: func(m fstest.MapFS) {
				p := "2m.pg15.c1/l.i0/o.io.dop2"
				m[p].Data = []byte(strings.ReplaceAll(string(m[p].Data), "rkB/s", "rMB/s"))
			},
			check: func(t *testing.T, files map[string]string, warns []string) {
				if !hasWarning(warns, "2m.pg15.c1/l.i0/o.io.dop2:7: unknown iostat column layout") {
					t.Errorf("no positioned error for the header: %q", warns)
				}
				row := rowOf(t, files["mrg.l.i0"], "pg15.c1")
				if row[metrics.RPS] != "NA" || row[metrics.WKBPI] != "NA" {
					t.Errorf("rps %q wkbpi %q, want NA", row[metrics.RPS], row[metrics.WKBPI])
				}
			},
		},
		{
			name: "truncated client log and NaN token",
			edit: func(m fstest.MapFS) {
				p := "2m.pg15.c1/l.i1/o.ib.dop2.1"
				lines := strings.Split(string(m[p].Data), "\n")
				f := strings.Split(lines[10], "\t")
				f[2] = "NaN"
				lines[10] = strings.Join(f, "\t")
				m[p].Data = []byte(strings.Join(lines[:20], "\n"))
			},
			check: func(t *testing.T, files map[string]string, warns []string) {
				if !hasWarning(warns, "2m.pg15.c1/l.i1/o.ib.dop2.1:20: log ends without the closing Done line") {
					t.Errorf("no warning for the truncated log: %q", warns)
				}
				if !hasWarning(warns, "2m.pg15.c1/l.i1/o.ib.dop2.1:11:") {
					t.Errorf("no warning for the malformed line 11: %q", warns)
				}
				for _, f := range files {
					if strings.Contains(f, "NaN") {
						t.Fatalf("NaN leaked into the output")
					}
				}
			},
		},
		{
			name: "clients with different line counts",
			edit: func(m fstest.MapFS) {
				p := "2m.pg15.c2/qr100.L1/o.ib.dop2.2"
				lines := strings.Split(string(m[p].Data), "\n")
				m[p].Data = []byte(strings.Join(append(lines[:8:8], lines[len(lines)-12:]...), "\n"))
			},
			check: func(t *testing.T, files map[string]string, warns []string) {
				rate := files["mrg.qr100.L1.rate.insert"]
				if !strings.Contains(rate, "NA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\t2:pg15.c2") {
					t.Errorf("client 2 with 4 intervals should have NA rates:\n%s", rate)
				}
			},
		},
		{
			name: "empty vmstat file",
			edit: func(m fstest.MapFS) { m["2m.pg15.c1/l.i2/o.vm.dop2"].Data = nil },
			check: func(t *testing.T, files map[string]string, warns []string) {
				row := rowOf(t, files["mrg.l.i2"], "pg15.c1")
				if row[metrics.CPUPS] != "NA" || row[metrics.CPUPQ] != "NA" {
					t.Errorf("cpups %q cpupq %q, want NA", row[metrics.CPUPS], row[metrics.CPUPQ])
				}
				if !hasWarning(warns, "2m.pg15.c1/l.i2/o.vm.dop2: empty file") {
					t.Errorf("no warning for the empty file: %q", warns)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := exampleFS(t)
			tc.edit(m)
			files, warns := tables(t, m, defaultOpts, nil)
			tc.check(t, files, warns)
			// Compat mode must not fail on the same input either.
			cf, _ := tables(t, m, compatOpts, nil)
			if len(cf["mrg.l.i0"]) == 0 {
				t.Errorf("compat mode wrote no mrg.l.i0")
			}
		})
	}
}

// TestCompatMissingStep checks the row etl.sh printed for a missing o.res and
// how sum_met.awk then treats the short row: copied unchanged, new group.
func TestCompatMissingStep(t *testing.T) {
	m := exampleFS(t)
	removeDir(m, "2m.pg15.c1/qp500.L4")
	files, _ := tables(t, m, compatOpts, nil)
	mrg := strings.Split(files["mrg.qp500.L4"], "\n")
	if want := "0\t0\t0" + strings.Repeat("\t", 14) + "NA\t\t\t\tpg15.c1"; mrg[1] != want {
		t.Errorf("missing-step row %q, want %q", mrg[1], want)
	}
	rel := strings.Split(files["rel.qp500.L4"], "\n")
	if rel[1] != mrg[1] || len(rel) != 3 {
		t.Errorf("rel of a short row: %q", rel)
	}
}

// TestDuplicatesAndGroups: duplicates stay, groups restart the base, and a
// DBMS named like markup is kept as text.
func TestDuplicatesAndGroups(t *testing.T) {
	m := exampleFS(t)
	for p, f := range m {
		if strings.HasPrefix(p, "2m.pg15.c2/") {
			m[path.Join("2m.<script>&\"", strings.TrimPrefix(p, "2m.pg15.c2/"))] = f
		}
	}
	list := []report.Entry{{Name: "2m.pg15.c1"}, {Name: "2m.pg15.c2"}, {Break: true}, {Name: "2m.pg15.c1"}, {Name: "2m.<script>&\""}}
	files, _ := tables(t, m, defaultOpts, list)
	mrg := strings.Split(strings.TrimSuffix(files["mrg.l.i0"], "\n"), "\n")
	if len(mrg) != 6 || mrg[3] != "-" || !strings.HasSuffix(mrg[5], "\t<script>&\"") {
		t.Errorf("mrg.l.i0:\n%s", strings.Join(mrg, "\n"))
	}
	rel := strings.Split(strings.TrimSuffix(files["rel.l.i0"], "\n"), "\n")
	if len(rel) != 4 || rel[2] != "-" {
		t.Fatalf("rel.l.i0:\n%s", strings.Join(rel, "\n"))
	}
	// pg15.c2 and the copy have the same data: equal ratios against pg15.c1.
	if a, b := strings.SplitN(rel[1], "\t", 2)[0], strings.SplitN(rel[3], "\t", 2)[0]; a != b || a != "1.28" {
		t.Errorf("ips ratios %q and %q, want 1.28 twice", a, b)
	}
}
