package metrics_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/metrics"
)

// row is a row of the insert benchmark with every efficiency metric at 1.
func row(set map[metrics.Metric]float64) metrics.Row {
	var r metrics.Row
	for i := range r {
		r[i] = metrics.Known(1, metrics.NoUnit)
	}
	for m, v := range set {
		r[m] = metrics.Known(v, metrics.NoUnit)
	}
	return r
}

func TestAttribute(t *testing.T) {
	base := row(nil)
	for _, tc := range []struct {
		name  string
		other map[metrics.Metric]float64
		ratio float64
		want  string // causes by name, in rank order; "" is unexplained
	}{
		{"only cpupq rises", map[metrics.Metric]float64{metrics.CPUPQ: 1.14}, 0.9, "cpupq"},
		{"only wkbpi rises", map[metrics.Metric]float64{metrics.WKBPI: 1.5}, 0.8, "wkbpi"},
		{"only rkbpq rises", map[metrics.Metric]float64{metrics.RKBPQ: 3}, 0.7, "rkbpq"},
		{"only p99 falls", map[metrics.Metric]float64{metrics.P99: 0.5}, 0.9, "p99"},
		{"nothing moves", nil, 0.8, ""},
		{"within the band", map[metrics.Metric]float64{metrics.CPUPQ: 1.02}, 0.9, ""},
		{"ranked by size", map[metrics.Metric]float64{metrics.CPUPQ: 1.1, metrics.RPQ: 2, metrics.CSPQ: 0.5}, 0.8, "rpq cpupq"},
		{"a rise explained by less CPU", map[metrics.Metric]float64{metrics.CPUPQ: 0.7, metrics.WKBPI: 1.2}, 1.3, "cpupq"},
		{"a similar throughput needs none", map[metrics.Metric]float64{metrics.CPUPQ: 2}, 1.01, ""},
		{"NA and 0 bases are skipped", map[metrics.Metric]float64{metrics.CPUPQ: 5}, 0.5, "cpupq"},
	} {
		b := base
		if tc.name == "NA and 0 bases are skipped" {
			b[metrics.RPQ] = metrics.Known(0, metrics.NoUnit)
			b[metrics.WKBPI] = metrics.NA(metrics.NoUnit, "no iostat")
		}
		var got []string
		for _, c := range metrics.Attribute(metrics.RowMeasures(b, row(tc.other)), tc.ratio, metrics.SimilarBand) {
			got = append(got, c.Name)
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%s: causes %q, want %q", tc.name, s, tc.want)
		}
	}
}
