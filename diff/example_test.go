package diff_test

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// Gate a run in CI: the tables the original scripts archived for the
// example runs (BASE) against the raw trees of the same runs computed
// again in compat mode (NEW). Nothing moved, so the gate passes.
func ExampleRun() {
	opt := diff.Options{
		Load:    report.LoadOptions{Metrics: metrics.Options{Compat: true}},
		Compare: diff.DefaultCompareOptions(),
	}
	c, _, err := diff.Run([]string{"../testdata/ibench/reference/res"}, []string{"../testdata/example"}, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	var text strings.Builder
	if err := diff.Write(&text, c, diff.WriteOptions{Format: "text"}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.SplitN(text.String(), "\n", 2)[0])
	fmt.Println("worst finding:", c.Worst(), "exit code:", diff.ExitCode(c, false))
	// Output:
	// ibreport diff: PASS (6 not comparable, 274 ok, 120 info)
	// worst finding: ok exit code: 0
}
