package metrics_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

var compatOpts = metrics.Options{Compat: true, Cores: 2, PsUser: "postgres", Device: "vda"}

func readLines(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func loadTrees(t *testing.T, opt metrics.Options) []*metrics.TreeResult {
	t.Helper()
	fsys := os.DirFS("../testdata/example")
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []*metrics.TreeResult
	for _, tr := range trees {
		r, err := metrics.ComputeTree(fsys, tr, opt)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestCompatRes checks that the recomputed o.res of every fixture step equals
// the driver's own file line for line.
func TestCompatRes(t *testing.T) {
	for _, tr := range loadTrees(t, compatOpts) {
		for _, st := range tr.Steps {
			name := path.Join(tr.Tree.Name, st.Data.Step.Name)
			want := readLines(t, path.Join("../testdata/example", name, "o.res.dop2"))
			got := st.Summary.ResLines()
			n := max(len(want), len(got))
			for i := 0; i < n; i++ {
				var w, g string
				if i < len(want) {
					w = want[i]
				}
				if i < len(got) {
					g = got[i]
				}
				if w != g {
					t.Errorf("%s o.res line %d:\n got %q\nwant %q", name, i+1, g, w)
				}
			}
		}
	}
}

func TestFixtureShape(t *testing.T) {
	trees := loadTrees(t, compatOpts)
	if len(trees) != 2 {
		t.Fatalf("%d trees, want 2", len(trees))
	}
	for _, tr := range trees {
		if len(tr.Steps) != 10 {
			t.Errorf("%s: %d steps, want 10", tr.Tree.Name, len(tr.Steps))
		}
		for _, st := range tr.Steps {
			if len(st.Summary.ResLines()) < 40 {
				t.Errorf("%s/%s: only %d o.res lines", tr.Tree.Name, st.Data.Step.Name, len(st.Summary.ResLines()))
			}
		}
	}
}
