package metrics_test

import (
	"fmt"
	"os"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Example reads a results folder, summarizes every step of the first DBMS
// tree and prints a few columns of its metrics rows.
func Example() {
	fsys := os.DirFS("../testdata/example")
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
	// l.i0 86957 0 15 66789
	// l.x 333350 0 4 NA
	// l.i1 27907 0 61 8343
	// l.i2 6383 0 262 2059
	// qr100.L1 194 34225 58 13451
}
