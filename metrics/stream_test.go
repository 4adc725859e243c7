package metrics_test

import (
	"encoding/json"
	"math"
	"os"
	"path"
	"reflect"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// TestComputeStepEqualsSummarize checks that reading a step in one pass
// (ComputeStep, no records kept) gives exactly what summarizing its records
// read whole gives, on every step of the example trees.
func TestComputeStepEqualsSummarize(t *testing.T) {
	fsys := os.DirFS("../testdata/example")
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	opt := metrics.Options{Cores: 2}
	res, err := metrics.ComputeTrees(fsys, trees, opt)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for ti, tr := range trees {
		o := opt
		for _, st := range tr.Steps {
			if st.Name == "l.i0" {
				sd, _ := parse.ReadStep(fsys, path.Join(tr.Dir, st.Name), st)
				for _, c := range sd.Clients {
					o.ExtraRows += c.IntOption("max_rows", 0)
				}
			}
		}
		for si, st := range tr.Steps {
			sd, err := parse.ReadStep(fsys, path.Join(tr.Dir, st.Name), st)
			if err != nil {
				t.Fatal(err)
			}
			want := metrics.Summarize(sd, tr.Name, o)
			got := res[ti].Steps[si]
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			if string(wj) != string(gj) || !reflect.DeepEqual(want.Series, got.Series) {
				t.Errorf("%s %s: one pass differs from the records read whole:\n got %s\nwant %s", tr.Name, st.Name, gj, wj)
			}
			n++
		}
	}
	if n != 20 {
		t.Errorf("%d steps compared, want 20", n)
	}
}

// TestComputeTreesDeterministic computes the trees concurrently several
// times: the results must not depend on the scheduling (run with -race).
func TestComputeTreesDeterministic(t *testing.T) {
	fsys := os.DirFS("../testdata/example")
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for range 5 {
		res, err := metrics.ComputeTrees(fsys, trees, metrics.Options{Cores: 2})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		if first == nil {
			first = b
		} else if string(b) != string(first) {
			t.Fatal("two computations of the same trees differ")
		}
	}
}

func TestDecimate(t *testing.T) {
	n := 100000
	x, y := make([]float64, n), make([]float64, n)
	for i := range y {
		x[i], y[i] = float64(i), float64(i%7)
	}
	y[54321], y[777] = 1000, -5 // a spike and a dip
	d := metrics.Decimate(x, y, 1200)
	if len(d.X) > 1200 || len(d.X) != len(d.Y) {
		t.Fatalf("%d/%d points, want at most 1200", len(d.X), len(d.Y))
	}
	var spike, dip bool
	for i := range d.Y {
		spike = spike || d.Y[i] == 1000 && d.X[i] == 54321
		dip = dip || d.Y[i] == -5 && d.X[i] == 777
		if i > 0 && d.X[i-1] >= d.X[i] {
			t.Fatalf("points out of order at %d", i)
		}
	}
	if !spike || !dip {
		t.Errorf("spike kept %v, dip kept %v", spike, dip)
	}
	short := metrics.Decimate(x[:10], y[:10], 1200)
	if len(short.Y) != 10 || short.Y[3] != 3 || math.IsNaN(short.X[9]) {
		t.Errorf("a short series changed: %v", short)
	}
	short.Y[0] = 99
	if y[0] != 0 {
		t.Error("Decimate shares its input")
	}
}
