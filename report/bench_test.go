package report_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// BenchmarkBuild measures `ibreport build` on the example trees: reading and
// parsing every raw file, computing, building the model and writing the
// page with its charts.
func BenchmarkBuild(b *testing.B) {
	for _, format := range []string{"html", "md", "json"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				res, err := report.Load(example, report.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				r, err := report.Build(res, report.BuildOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := report.Write(io.Discard, r, format); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildScaling builds reports of 2, 8 and 32 DBMS (copies of the
// example trees, in memory): time per op should grow in proportion.
func BenchmarkBuildScaling(b *testing.B) {
	for _, n := range []int{2, 8, 32} {
		var names, src []string
		for i := 0; i < n; i++ {
			names = append(names, fmt.Sprintf("2m.db%02d", i))
			src = append(src, []string{c1, c2}[i%2])
		}
		m := copyTrees(b, names, src)
		b.Run(fmt.Sprintf("dbms=%d", n), func(b *testing.B) {
			for b.Loop() {
				r := buildFS(b, m, nil, report.BuildOptions{})
				if err := report.Write(io.Discard, r, "html"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildSysbench measures `ibreport build` on the sysbench fixture
// folders, HTML output.
func BenchmarkBuildSysbench(b *testing.B) {
	for b.Loop() {
		r := buildSysbench(b, sysbenchRaw)
		if err := report.Write(io.Discard, r, "html"); err != nil {
			b.Fatal(err)
		}
	}
}
