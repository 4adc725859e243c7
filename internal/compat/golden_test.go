package compat

import (
	"os"
	"path"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/textdiff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

var compatOpts = metrics.Options{Compat: true, Cores: 2, PsUser: "postgres", Device: "vda"}

const example = "../../testdata/example"

func readLines(t *testing.T, p string) []string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// forEachStep reads every step of the example trees.
func forEachStep(t *testing.T, f func(tree *parse.Tree, sd *parse.StepData, opt metrics.Options)) {
	t.Helper()
	fsys := os.DirFS(example)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d trees, want 2", len(trees))
	}
	for _, tr := range trees {
		if len(tr.Steps) != 10 {
			t.Errorf("%s: %d steps, want 10", tr.Name, len(tr.Steps))
		}
		opt := compatOpts
		for _, st := range tr.Steps {
			sd, err := parse.ReadStep(fsys, path.Join(tr.Dir, st.Name), st)
			if err != nil {
				t.Fatal(err)
			}
			if st.Name == "l.i0" {
				for _, c := range sd.Clients {
					opt.ExtraRows += c.IntOption("max_rows", 0)
				}
			}
			f(tr, sd, opt)
		}
	}
}

// TestCompatRes checks that the recomputed o.res of every fixture step equals
// the driver's own file line for line.
func TestCompatRes(t *testing.T) {
	forEachStep(t, func(tr *parse.Tree, sd *parse.StepData, opt metrics.Options) {
		name := path.Join(tr.Name, sd.Step.Name)
		want := readLines(t, path.Join(example, name, "o.res.dop2"))
		got := summarize(sd, opt).ResLines()
		if len(got) < 40 {
			t.Errorf("%s: only %d o.res lines", name, len(got))
		}
		if d := textdiff.Lines(strings.Join(want, "\n"), strings.Join(got, "\n")); d != "" {
			t.Errorf("%s/o.res.dop2 differs:\n%s", name, d)
		}
	})
}

// TestCompatValues checks that every value of a compat step result prints
// as the original's row and that V is awk's reading of that text.
func TestCompatValues(t *testing.T) {
	sums := map[string][]string{}
	forEachStep(t, func(tr *parse.Tree, sd *parse.StepData, opt metrics.Options) {
		if sums[tr.Name] == nil {
			sums[tr.Name] = readLines(t, path.Join(example, "../ibench/reference/sum/o.sum.t."+tr.Name))
		}
		r := Summarize(sd, tr.Name, opt)
		var cells []string
		for i, v := range r.Metrics {
			text, ok := v.Text()
			if !ok || text != v.Format(metrics.Metric(i).Digits()) {
				t.Errorf("%s %s %s: no printed text", tr.Name, sd.Step.Name, metrics.Metric(i))
			}
			cells = append(cells, text)
		}
		line := strings.Join(append(cells, tr.Name), "\t")
		found := false
		for _, l := range sums[tr.Name] {
			found = found || l == line
		}
		if !found {
			t.Errorf("%s %s: row %q is not in o.sum.t", tr.Name, sd.Step.Name, line)
		}
	})
}

// TestRowFromRes recomputes a metrics row from an archived o.res file the
// way the original etl.sh did.
func TestRowFromRes(t *testing.T) {
	lines := readLines(t, example+"/2m.pg15.c2/qp100.L2/o.res.dop2")
	r := RowFromRes(lines, true, true, "2m.pg15.c2", "postgres", 2)
	if r[metrics.QPS] != "20276" || r[metrics.CPUPQ] != "91" || r[metrics.MaxOp] != "0.008" || r[colTag] != "2m.pg15.c2" {
		t.Errorf("qps %q cpupq %q maxop %q tag %q, want 20276 91 0.008 2m.pg15.c2", r[metrics.QPS], r[metrics.CPUPQ], r[metrics.MaxOp], r[colTag])
	}
	empty := RowFromRes(nil, false, false, "x", "postgres", 2)
	if empty[metrics.IPS] != "" || empty[metrics.QPS] != "0" || empty[metrics.RSS] != "NA" {
		t.Errorf("row without o.res: %q", empty)
	}
}

// BenchmarkComputeCompat computes both fixture trees as the original did.
func BenchmarkComputeCompat(b *testing.B) {
	fsys := os.DirFS(example)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := metrics.ComputeTreesWith(fsys, trees, compatOpts, ComputeStep); err != nil {
			b.Fatal(err)
		}
	}
}
