package diff

import (
	"testing"

	"github.com/ibreport/ibreport/report"
)

// BenchmarkLoadResultSet measures loading one run given as raw trees: the
// steps computed and their mrg and rel tables taken from the model.
func BenchmarkLoadResultSet(b *testing.B) {
	for b.Loop() {
		rs, _, err := LoadResultSet("../testdata/example", report.LoadOptions{})
		if err != nil || len(rs.Tables) == 0 {
			b.Fatal(err)
		}
	}
}
