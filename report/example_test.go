package report_test

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// Load a results folder, read the typed metrics of a step, compare two DBMS
// and render the report as Markdown.
func Example() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{
		Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c1 := res.Tree("2m.pg15.c1").Step("l.i1")
	c2 := res.Tree("2m.pg15.c2").Step("l.i1")
	for _, m := range []metrics.Metric{metrics.IPS, metrics.CPUPQ, metrics.WKBPI} {
		v := c1.Metrics[m]
		fmt.Printf("pg15.c1 l.i1 %s = %s %s\n", m, v.Format(m.Digits()), v.Unit)
	}
	rel := c2.Metrics.Relative(&c1.Metrics)
	fmt.Printf("pg15.c2 / pg15.c1: ips %s, cpupq %s\n", rel[metrics.IPS].Format(2), rel[metrics.CPUPQ].Format(2))

	r, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var md strings.Builder
	if err := render.Write(&md, r, "md"); err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "| pg15.c2 | 1.28") { // the relative throughput
			fmt.Println(l)
			break
		}
	}
	// Output:
	// pg15.c1 l.i1 ips = 27907 inserts/s
	// pg15.c1 l.i1 cpupq = 61 CPU µs/insert
	// pg15.c1 l.i1 wkbpi = 2.255 KiB/insert
	// pg15.c2 / pg15.c1: ips 1.54, cpupq 0.74
	// | pg15.c2 | 1.28 △ | 1.20 △ | 1.54 △ | 2.24 △ | 1.28 △ | 1.61 △ | 1.42 △ | 1.26 △ | 1.10 △ \~ | 0.97 \~ |
}

// Build a report from raw result trees and read its summary: the same model
// feeds every output format.
func ExampleBuild() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{
		Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := report.Build(res, report.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Title)
	fmt.Println(strings.Join(r.Summary.Header[:5], " "))
	for _, row := range r.Summary.Rows {
		var cells []string
		for _, c := range row.Cells[:5] {
			cells = append(cells, c.Marked())
		}
		fmt.Println(strings.Join(cells, " | "))
	}
	// Output:
	// 2M docs and 2 clients
	// dbms l.i0 l.x l.i1 l.i2
	// pg15.c1 | 86957 ▼ | 333350 | 27907 ▼ | 6383 ▼
	// pg15.c2 | 111111 ▲ | 400020 ▲ | 42857 ▲ | 14286 ▲
}

// Write a report built from an archived folder of mrg.<step> files as
// Markdown. Archives do not record the client count, so the insert-rate
// targets need it.
func ExampleWrite() {
	res, _, err := report.Load("../testdata/ibench/reference/res", report.LoadOptions{})
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

// ExampleBuildSeries takes the two DBMS of the example as a series: too
// few members to find where a level shifted, which the series says.
func ExampleBuildSeries() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := report.BuildSeries([]report.ResultSet{{Name: "example", Results: res}}, report.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	g := r.Series.Groups[0]
	fmt.Println(r.Title)
	fmt.Println(g.Labels, len(g.Changes), "change points")
	fmt.Println(g.Notes[0])
	// Output:
	// Series of the DBMS of example
	// [1 c1 2 c2] 0 change points
	// Insert benchmark has 2 members: a series needs at least 4 to find where a level shifted (two levels of 2), so no change points are computed.
}
