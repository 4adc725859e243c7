package stats_test

import (
	"fmt"

	"github.com/ibreport/ibreport/internal/stats"
)

// ExampleChangePoints finds where a series of releases got faster: the QPS
// of one test in eleven releases, of which the last four are about 20%
// faster.
func ExampleChangePoints() {
	qps := []float64{1000, 1010, 990, 1005, 995, 1002, 998, 1200, 1210, 1195, 1205}
	for _, c := range stats.ChangePoints(qps, stats.ChangePointOptions{}) {
		fmt.Printf("member %d: %.0f → %.0f (%+.0f%%), p < 0.001: %v\n", c.Index, c.Before, c.After, 100*c.Shift, c.P < 0.001)
	}
	// Output:
	// member 7: 1000 → 1202 (+20%), p < 0.001: true
}
