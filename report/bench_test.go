package report_test

import (
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
