package render_test

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// Write a report built from an archived folder of mrg.<step> files as
// Markdown. Archives do not record the client count, so the insert-rate
// targets need it.
func ExampleWrite() {
	res, _, err := report.Load("../../testdata/ibench/reference/res", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := report.Build(res, report.BuildOptions{Clients: 2, Title: "Archived runs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	var md strings.Builder
	if err := render.Write(&md, r, "md"); err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(md.String(), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "### Insert rate") {
			fmt.Println(strings.Join(lines[i:i+10], "\n"))
			break
		}
	}
	// Output:
	// ### Insert rate during read+write steps
	//
	// Average inserts/s during the read+write steps. The target is 2 clients × the per-client rate; values below 95% of the target are marked ✗: that DBMS did not sustain the target.
	//
	// | dbms | qr100.L1 | qp100.L2 | qr500.L3 | qp500.L4 | qr1000.L5 | qp1000.L6 |
	// | --- | ---: | ---: | ---: | ---: | ---: | ---: |
	// | pg15.c1 | 194 | 188 ✗ | 938 ✗ | 938 ✗ | 1875 ✗ | 1875 ✗ |
	// | pg15.c2 | 194 | 188 ✗ | 938 ✗ | 938 ✗ | 1875 ✗ | 1875 ✗ |
	// | target | 200 | 200 | 1000 | 1000 | 2000 | 2000 |
	//
}
