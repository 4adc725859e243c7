package metrics_test

import (
	"math"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func TestRelativeTo(t *testing.T) {
	known := func(x float64) metrics.Value { return metrics.Known(x, metrics.InsertsPerSec) }
	for _, tc := range []struct {
		name      string
		o, b      metrics.Value
		text, why string
	}{
		{"plain", known(110), known(100), "1.10", ""},
		{"0/0 is 1", known(0), known(0), "1.00", ""},
		{"x/0", known(5), known(0), "NA", "base ips is 0"},
		{"negative base", known(5), known(-5), "NA", "base ips: -5 is negative, not a ratio"},
		{"NaN base", known(5), known(math.NaN()), "NA", "base ips: NaN is not a finite ratio"},
		{"absurd base", known(5), known(1e300), "NA", "base ips: 1e+300 is beyond 1e+15, not a ratio"},
		{"absurd value", known(1e300), known(5), "NA", "ips: 1e+300 is beyond 1e+15, not a ratio"},
		{"tiny base", known(5), known(1e-300), "NA", "ips relative to its base: 5e+300 is beyond 1e+15, not a ratio"},
		{"NA value", metrics.NA(metrics.InsertsPerSec, "no o.res"), known(5), "NA", "no o.res"},
		{"NA base", known(5), metrics.NA(metrics.InsertsPerSec, "no o.res"), "NA", "base: no o.res"},
	} {
		r := metrics.RelativeTo(tc.o, tc.b, "ips")
		if got := r.Format(2); got != tc.text || r.Why != tc.why {
			t.Errorf("%s: %q (%q), want %q (%q)", tc.name, got, r.Why, tc.text, tc.why)
		}
	}
}

func TestMetricQuantity(t *testing.T) {
	for m, want := range map[metrics.Metric]parse.Quantity{
		metrics.IPS: parse.Rate, metrics.P99: parse.Rate, metrics.WMBPS: parse.Rate,
		metrics.CPUPS: parse.Percent, metrics.RSS: parse.Size, metrics.DBGB1: parse.Size,
		metrics.MaxOp: parse.Duration, metrics.CPUPQ: parse.Count, metrics.WKBPI: parse.Count,
	} {
		if got := m.Quantity(); got != want {
			t.Errorf("%s: %s, want %s", m, got, want)
		}
	}
}
