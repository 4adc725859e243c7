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
		r := st.Row
		fmt.Println(st.Data.Step.Name, r.Cells[metrics.ColIps], r.Cells[metrics.ColQps], r.Cells[metrics.ColCpupq], r.Cells[metrics.ColP99])
	}
	// Output:
	// l.i0 86956 0 15 26996
	// l.x 333350 0 4 NA
	// l.i1 27907 0 61 8343
	// l.i2 6383 0 263 2059
	// qr100.L1 194 34225 57 80
}

// ExampleRowFromRes recomputes a metrics row from an archived o.res file the
// way the original etl.sh did.
func ExampleRowFromRes() {
	b, err := os.ReadFile("../testdata/example/2m.pg15.c2/qp100.L2/o.res.dop2")
	if err != nil {
		panic(err)
	}
	lines := splitLines(string(b))
	r := metrics.RowFromRes(lines, true, true, "2m.pg15.c2", "postgres", 2)
	fmt.Println(r.Cells[metrics.ColQps], r.Cells[metrics.ColCpupq], r.Cells[metrics.ColMaxop])
	// Output: 20276 91 0.008
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}
