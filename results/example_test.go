package results_test

import (
	"fmt"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/results"
)

// A folder of a published study: the QPS of two builds, and the ratios
// the author printed.
func ExampleReadSummaries() {
	fsys := fstest.MapFS{
		"qps.abs.latest.tsv": {Data: []byte("col-1 : x.my8044.z12a.pk1\ncol-2 : x.my9500.z12a.pk1\n\ncol-1\tcol-2\n20741\t19742\tpoint-query_range=100\n")},
		"qps.rel.latest.tsv": {Data: []byte("Relative to: x.my8044.z12a.pk1\ncol-1 : x.my9500.z12a.pk1\n\ncol-1\n0.95\tpoint-query_range=100\n")},
	}
	sum, err := results.ReadSummaries(fsys, ".", "study")
	if err != nil {
		panic(err)
	}
	set := results.DefaultSet(sum.Sets)
	fmt.Println(set.Name, set.Builds, len(sum.Warnings), "warnings")
	model := set.Sysbench(metrics.Options{})
	r := model.DBMS[1].Result("point-query.range100.pk1", 0)
	fmt.Println(r.QPS.Format(0), r.QPS.Unit)
	// Output:
	// latest [x.my8044.z12a.pk1 x.my9500.z12a.pk1] 0 warnings
	// 19742 queries/s
}
