package metrics_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"reflect"
	"slices"
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

// TestDecimatePicks checks which points Decimate keeps against the plain
// rule, on series with ties, NaNs and ±0: per bucket the first lowest and
// the first highest point, compared with < and > (a NaN is never kept
// over another point, and a bucket opening with one keeps it).
func TestDecimatePicks(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	for trial := range 200 {
		n := 1300 + rng.IntN(5000)
		x, y := make([]float64, n), make([]float64, n)
		for i := range y {
			x[i] = float64(i)
			switch r := rng.IntN(20); {
			case r == 0:
				y[i] = math.NaN()
			case r == 1:
				y[i] = math.Copysign(0, -1)
			case r < 10:
				y[i] = float64(rng.IntN(4)) // ties
			default:
				y[i] = rng.NormFloat64()
			}
		}
		got := metrics.Decimate(x, y, 1200)
		var want []float64 // the x of the points the rule keeps
		buckets := 600
		for b := range buckets {
			lo, hi := b*n/buckets, (b+1)*n/buckets
			imin, imax := lo, lo
			for i := lo; i < hi; i++ {
				if y[i] < y[imin] {
					imin = i
				}
				if y[i] > y[imax] {
					imax = i
				}
			}
			want = append(want, x[min(imin, imax)])
			if imin != imax {
				want = append(want, x[max(imin, imax)])
			}
		}
		if !slices.Equal(got.X, want) {
			t.Fatalf("trial %d (n=%d): kept %d points, the rule %d, first difference at %d", trial, n, len(got.X), len(want), firstDiff(got.X, want))
		}
	}
}

func firstDiff(a, b []float64) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
