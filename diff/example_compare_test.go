package diff_test

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/diff"
)

// ExampleCompare compares one step of two runs: NEW inserts 6% fewer rows
// per second, which fails the default 5% threshold, and spends 5.6% more
// CPU per insert, which is within the noise of CPU per operation with one
// run per side ("~": about 4% a run, metrics.Gate.Noise).
func ExampleCompare() {
	load := func(name, mrg string) *diff.ResultSet {
		rt, err := diff.ReadResultTable(strings.NewReader(mrg), "mrg", "l.i0", name+"/mrg.l.i0")
		if err != nil {
			panic(err)
		}
		return &diff.ResultSet{Name: name, Tables: []diff.ResultTable{rt}}
	}
	base := load("base", "ips\tcpupq\ttag\n100000\t54\tpg15.c1\n")
	newer := load("new", "ips\tcpupq\ttag\n94000\t57\tpg15.c1\n")
	c, err := diff.Compare([]*diff.ResultSet{base}, []*diff.ResultSet{newer}, diff.DefaultCompareOptions())
	if err != nil {
		panic(err)
	}
	for _, f := range c.Findings {
		fmt.Printf("%s %s %s %s %+.1f%%\n", f.Verdict, f.Step, f.DBMS, f.Metric, f.Delta*100)
	}
	fmt.Println("worst:", c.Worst())
	// Output:
	// fail l.i0 pg15.c1 ips -6.0%
	// ~ l.i0 pg15.c1 cpupq +5.6%
	// worst: fail
}
