package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// TestRTMergeKindsUnion empties the base DBMS's l.i1 folder: the default
// mode still merges the other DBMS's insert and delete histograms, with an
// NA row for the base and a warning; compat mode keeps the original's
// rule, the kinds of the first DBMS (none of deletes here).
func TestRTMergeKindsUnion(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../testdata/example")); err != nil {
		t.Fatal(err)
	}
	step := filepath.Join(dir, "2m.pg15.c1", "l.i1")
	ents, err := os.ReadDir(step)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := os.Remove(filepath.Join(step, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	const naRow = "NA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tNA\tpg15.c1"
	for _, tc := range []struct {
		name   string
		compat bool
		delete []string // the lines of mrg.l.i1.rt.delete; nil: no such file
		warns  []string
	}{
		{"default", false, []string{
			"256us\t1ms\t4ms\t16ms\t64ms\t256ms\t1s\t4s\t16s\tgt\tmax\ttag", naRow,
			"0.688\t95.433\t3.658\t0.200\t0.013\t0.008\t0.000\t0.000\t0.000\t0.000\t0.083\tpg15.c2"},
			[]string{"2m.pg15.c1 l.i1: no insert histogram", "2m.pg15.c1 l.i1: no delete histogram"}},
		{"compat", true, nil, []string{"l.i1: no delete histogram merge: 2m.pg15.c1, the first DBMS, has none (compat: the original's rule; the default mode merges the others')"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := metrics.Options{Cores: 2, Device: "vda", PsUser: "postgres", Compat: tc.compat}
			res, _, err := Load(dir, LoadOptions{Metrics: opt})
			if err != nil {
				t.Fatal(err)
			}
			files, warns, err := res.Tables(nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				if f.Name == "mrg.l.i1.rt.delete" {
					got = strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
				}
				if f.Name == "mrg.l.i1.rt.insert" && !tc.compat && !strings.Contains(string(f.Data), "\n"+naRow+"\n") {
					t.Errorf("mrg.l.i1.rt.insert lacks the NA row of pg15.c1:\n%s", f.Data)
				}
			}
			if !slices.Equal(got, tc.delete) {
				t.Errorf("mrg.l.i1.rt.delete:\n%q\nwant\n%q", got, tc.delete)
			}
			for _, w := range tc.warns {
				if !slices.Contains(warns, w) {
					t.Errorf("warnings lack %q", w)
				}
			}
			rep, err := Build(res, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, sec := range rep.Sections {
				if sec.Step.Name == "l.i1" {
					for _, h := range sec.Histograms {
						titles = append(titles, h.Title)
					}
				}
			}
			if hasDelete := slices.Contains(titles, "l.i1: delete response time histogram"); hasDelete == tc.compat {
				t.Errorf("l.i1 histograms %q", titles)
			}
		})
	}
}
