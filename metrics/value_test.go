package metrics_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

func TestValueFormat(t *testing.T) {
	for _, c := range []struct {
		v      metrics.Value
		digits int
		want   string
	}{
		{metrics.Known(27907.4, metrics.InsertsPerSec), 0, "27907"},
		{metrics.Known(0.0685, metrics.RatioUnit), 3, "0.069"},
		{metrics.Known(2.5, metrics.RatioUnit), 0, "2"},
		{metrics.Known(20945, metrics.InsertsPerSec), -1, "20945"},
		{metrics.Known(math.Inf(1), metrics.RatioUnit), 2, "inf"},
		{metrics.NA(metrics.GiB, "no o.dbsz file"), 1, "NA"},
		{metrics.Known(0, metrics.Count).Printed(""), 1, ""},
		{metrics.Known(0.004, metrics.Count).Printed("0.0040"), 3, "0.0040"},
	} {
		if got := c.v.Format(c.digits); got != c.want {
			t.Errorf("%+v.Format(%d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}

func TestRatioRule(t *testing.T) {
	k := func(x float64) metrics.Value { return metrics.Known(x, metrics.QueriesPerSec) }
	na := metrics.NA(metrics.QueriesPerSec, "missing")
	for _, c := range []struct {
		o, b metrics.Value
		text string
		v    float64
	}{
		{k(3), k(2), "1.50", 1.5},
		{k(0), k(0), "1", 1},
		{k(3), k(0), "inf", math.Inf(1)},
		{k(0), k(3), "0.00", 0},
		{na, k(1), "NA", math.NaN()},
		{k(1), na, "NA", math.NaN()},
		{k(0.0014), k(0.0026), "0.54", 0.0014 / 0.0026},
	} {
		r := metrics.Ratio(c.o, c.b)
		if got := metrics.RatioText(c.o, c.b); got != c.text {
			t.Errorf("RatioText(%v, %v) = %q, want %q", c.o.V, c.b.V, got, c.text)
		}
		if !(r.V == c.v || math.IsNaN(r.V) && math.IsNaN(c.v)) || r.Unit != metrics.RatioUnit {
			t.Errorf("Ratio(%v, %v) = %v %s, want %v ratio", c.o.V, c.b.V, r.V, r.Unit, c.v)
		}
	}
	if r := metrics.Ratio(k(1), na); r.Why != "base: missing" {
		t.Errorf("NA base: why = %q", r.Why)
	}
}

func TestValueJSON(t *testing.T) {
	for _, c := range []struct {
		v    metrics.Value
		want string
	}{
		{metrics.Known(1.5, metrics.Millis), `{"value":1.5,"unit":"ms"}`},
		{metrics.NA(metrics.GiB, "no o.dbsz file"), `{"value":null,"unit":"GiB","na":"no o.dbsz file"}`},
		{metrics.Known(math.Inf(1), metrics.RatioUnit), `{"value":null,"unit":"ratio","text":"inf"}`},
		{metrics.Known(0.004, metrics.Count).Printed("0.0040"), `{"value":0.004,"unit":"count","text":"0.0040"}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", c.v, b, err, c.want)
			continue
		}
		var back metrics.Value
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if back.Format(3) != c.v.Format(3) || back.Unit != c.v.Unit || back.Why != c.v.Why {
			t.Errorf("round trip of %s: %+v", b, back)
		}
	}
}
