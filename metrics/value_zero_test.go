package metrics_test

import (
	"encoding/json"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// TestZeroValueNA checks that the zero Value (a missing map entry) is NA
// everywhere a value is read: never a measured 0.
func TestZeroValueNA(t *testing.T) {
	var zero metrics.Value
	if zero.OK() {
		t.Error("zero Value is OK")
	}
	if got := zero.Format(2); got != "NA" {
		t.Errorf("zero Value prints %q, want NA", got)
	}
	m := map[string]metrics.Value{}
	if m["ips"].OK() {
		t.Error("missing map entry is OK")
	}
	b, err := json.Marshal(zero)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"value":null,"na":"no value"}`; string(b) != want {
		t.Errorf("zero Value as JSON: %s, want %s", b, want)
	}
	var back metrics.Value
	if err := json.Unmarshal(b, &back); err != nil || back.OK() || back.Why != "no value" {
		t.Errorf("zero Value read back: %+v, %v", back, err)
	}
	for _, tc := range []struct {
		name string
		v    metrics.Value
		ok   bool
		text string
	}{
		{"known 0", metrics.Known(0, metrics.Count), true, "0.00"},
		{"known 0 without unit", metrics.Known(0, metrics.NoUnit), true, "0.00"},
		{"NA", metrics.NA(metrics.Count, "why"), false, "NA"},
		{"ratio of zero", metrics.Ratio(zero, metrics.Known(1, metrics.Count)), false, "NA"},
		{"ratio to zero", metrics.Ratio(metrics.Known(1, metrics.Count), zero), false, "NA"},
		{"known 0 read back", roundTrip(t, metrics.Known(0, metrics.Count)), true, "0.00"},
	} {
		if tc.v.OK() != tc.ok || tc.v.Format(2) != tc.text {
			t.Errorf("%s: OK %v, %q; want %v, %q", tc.name, tc.v.OK(), tc.v.Format(2), tc.ok, tc.text)
		}
	}
	if r := metrics.Ratio(zero, metrics.Known(1, metrics.Count)); r.Why != "no value" {
		t.Errorf("ratio of the zero Value: reason %q, want %q", r.Why, "no value")
	}
}

func roundTrip(t *testing.T, v metrics.Value) metrics.Value {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out metrics.Value
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNilStepLookups: the chained lookups of a step that does not exist
// give NA with the reason, never a panic.
func TestNilStepLookups(t *testing.T) {
	var s *metrics.StepResult
	var tree *metrics.TreeResult
	if v := tree.Step("l.i1").Value(metrics.CPUPQ); v.OK() || v.Why != "no such step" {
		t.Errorf("nil tree's step: %+v", v)
	}
	if v := (&metrics.StepResult{}).Value(metrics.Metric(-1)); v.OK() || v.Why != "no such metric" {
		t.Errorf("metric -1: %+v", v)
	}
	if r := s.RelativeTo(&metrics.StepResult{}); r[metrics.IPS].OK() || r[metrics.IPS].Why != "no such step" {
		t.Errorf("nil step relative: %+v", r[metrics.IPS])
	}
	ok := &metrics.StepResult{}
	ok.Metrics[metrics.IPS] = metrics.Known(10, metrics.InsertsPerSec)
	base := &metrics.StepResult{}
	base.Metrics[metrics.IPS] = metrics.Known(5, metrics.InsertsPerSec)
	if r := ok.RelativeTo(base); r[metrics.IPS].V != 2 {
		t.Errorf("10/5 = %v", r[metrics.IPS])
	}
}
