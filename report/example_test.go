package report_test

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// The notes of a results folder, typed: each NA value with the DBMS, step
// and metric it concerns, then the block device the hardware columns use,
// taken from the folder's ibreport.settings: information, not a warning
// (Results.Warnings leaves it out).
func ExampleResults_Notes() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range res.Notes() {
		if n.Info() {
			fmt.Println("info:", n.Text)
			continue
		}
		fmt.Println(n.Kind, n.DBMS, n.Step, n.Metric)
	}
	// Output:
	// na 2m.pg15.c1 l.x p50
	// na 2m.pg15.c1 l.x p99
	// na 2m.pg15.c2 l.i0 p50
	// na 2m.pg15.c2 l.i0 p99
	// na 2m.pg15.c2 l.x p50
	// na 2m.pg15.c2 l.x p99
	// info: block device: vda (ibreport.settings)
}

// Load a results folder: the raw trees of two PostgreSQL configurations,
// every step computed, with the warnings met on the way (here: steps too
// short for the per-interval percentiles).
func ExampleLoad() {
	res, warns, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range res.Trees {
		fmt.Printf("%s: %d steps, %d clients\n", t.Name(), len(t.Steps), t.Dop())
	}
	fmt.Println(len(warns), "warnings, the first:", warns[0])
	// Output:
	// 2m.pg15.c1: 10 steps, 2 clients
	// 2m.pg15.c2: 10 steps, 2 clients
	// 6 warnings, the first: 2m.pg15.c1 l.x: p50 is NA: 2m.pg15.c1/l.x/o.ib.dop2.1 has 1 interval, 0 of them full (the first and last are partial), fewer than 10
}

// Read the typed metrics of one step of one DBMS: each is a Value with its
// unit, printed with the decimals of the mrg tables.
func ExampleTreeResult_Step() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{
		Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	step := res.Tree("2m.pg15.c1").Step("l.i1")
	for _, m := range []metrics.Metric{metrics.IPS, metrics.CPUPQ, metrics.WKBPI, metrics.P99} {
		v := step.Metrics[m]
		fmt.Printf("%s = %s %s\n", m, v.Format(m.Digits()), v.Unit)
	}
	// Output:
	// ips = 27907 inserts/s
	// cpupq = 61 CPU µs/insert
	// wkbpi = 2.255 KiB/insert
	// p99 = 8343 inserts/s
}

// Compare two DBMS step by step: each metric of pg15.c2 relative to
// pg15.c1's, on unrounded values (1 for 0/0, NA when either is NA).
func Example_compareTwoDBMS() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c1, c2 := res.Tree("2m.pg15.c1"), res.Tree("2m.pg15.c2")
	for _, name := range []string{"l.i0", "l.i1", "qr100.L1"} {
		a, b := c1.Step(name).Metrics, c2.Step(name).Metrics
		rel := b.Relative(&a)
		m := metrics.IPS
		if c1.Step(name).Step.Kind.ReadWrite() {
			m = metrics.QPS
		}
		fmt.Printf("%s: %s %s×, cpupq %s×\n", name, m, rel[m].Format(2), rel[metrics.CPUPQ].Format(2))
	}
	// Output:
	// l.i0: ips 1.28×, cpupq 0.77×
	// l.i1: ips 1.54×, cpupq 0.74×
	// qr100.L1: qps 1.28×, cpupq 0.77×
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
