package metrics_test

import (
	"fmt"
	"os"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/internal/parse"
)

// Example reads a results folder, summarizes every step of the first DBMS
// tree and prints a few columns of its metrics rows.
func Example() {
	fsys := os.DirFS("../../testdata/example")
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		panic(err)
	}
	res, err := metrics.ComputeTree(fsys, trees[0], metrics.Options{Cores: 2, Device: "vda"})
	if err != nil {
		panic(err)
	}
	for _, st := range res.Steps[:5] {
		m := st.Metrics
		fmt.Println(st.Step.Name, m[metrics.IPS].Format(0), m[metrics.QPS].Format(0), m[metrics.CPUPQ].Format(0), m[metrics.P99].Format(0))
	}
	// Output:
	// l.i0 86957 0 15 26996
	// l.x 333350 0 4 NA
	// l.i1 27907 0 61 8343
	// l.i2 6383 0 262 2059
	// qr100.L1 194 34225 58 80
}

// ExampleChangePoints finds where a series of releases got faster: the QPS
// of one test in eleven releases, of which the last four are about 20%
// faster.
func ExampleChangePoints() {
	qps := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1200, 1210, 1195, 1205}
	for _, c := range metrics.ChangePoints(qps, metrics.ChangePointOptions{}) {
		fmt.Printf("member %d: %.0f → %.0f (%+.0f%%), p < 0.001: %v\n", c.Index, c.Before, c.After, 100*c.Shift, c.P < 0.001)
	}
	// Output:
	// member 7: 1000 → 1202 (+20%), p < 0.001: true
}
