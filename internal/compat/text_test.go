package compat

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ibreport/ibreport/metrics"
)

// TestEchoAwkRatio covers the relative values of sum_met.sh, sumr.sh,
// sum_qps_csv.sh and pre_vs_post.sh: `echo $o $b | awk ...` on printed
// tokens, where the unquoted echo drops an empty value and awk reads a
// missing or non-numeric field as 0.
func TestEchoAwkRatio(t *testing.T) {
	for _, c := range []struct {
		name, o, b string
		ratio, div string // echoRatio (§4.14 rule), echoDiv (no zero checks)
	}{
		{"plain", "0.06", "0.023", "2.61", "2.61"},
		{"ties to even on the binary value", "1.125", "1", "1.12", "1.12"},
		{"0/0 compares numerically", "0.000", "0", "1", "-nan"},
		{"x/0", "0.001", "0.000", "inf", "inf"},
		{"0/x", "0", "4", "0.00", "0.00"},
		{"missing o: b becomes $1, $2 is absent", "", "0.5", "inf", "inf"},
		{"missing o, b zero: absent $2 is not 0 but divides as 0", "", "0", "-nan", "-nan"},
		{"missing b", "1.5", "", "inf", "inf"},
		{"both missing", "", "", "-nan", "-nan"},
		{"text reads as 0 but is not == 0", "x", "2", "0.00", "0.00"},
		{"0 over text: the text is not == 0 but divides as 0", "0", "x", "-nan", "-nan"},
		{"leading number of a token", "12abc", "4", "3.00", "3.00"},
	} {
		if got := echoRatio(c.o, c.b); got != c.ratio {
			t.Errorf("%s: echoRatio(%q, %q) = %s, want %s", c.name, c.o, c.b, got, c.ratio)
		}
		if got := echoDiv(c.o, c.b); got != c.div {
			t.Errorf("%s: echoDiv(%q, %q) = %s, want %s", c.name, c.o, c.b, got, c.div)
		}
	}
}

func TestAwkTokens(t *testing.T) {
	for _, c := range []struct{ tok, g, f0 string }{
		{"0.000", "0", "0"},
		{"0.051", "0.051", "0"},
		{"1234567", "1.23457e+06", "1234567"},
		{"0.00001234", "1.234e-05", "0"},
		{"999999.5", "1e+06", "1000000"},
		{"8760.12", "8760.12", "8760"},
		{"86956.5", "86956.5", "86956"},
		{"x", "0", "0"},
		{"", "0", "0"},
	} {
		if got := awkG(c.tok); got != c.g {
			t.Errorf("awkG(%q) = %s, want %s", c.tok, got, c.g)
		}
		if got := awkF0(c.tok); got != c.f0 {
			t.Errorf("awkF0(%q) = %s, want %s", c.tok, got, c.f0)
		}
	}
}

func TestFormatValueAndRatio(t *testing.T) {
	k := func(x float64) metrics.Value { return metrics.Known(x, metrics.QueriesPerSec) }
	na := metrics.NA(metrics.QueriesPerSec, "gone")
	for _, c := range []struct {
		v      metrics.Value
		digits int
		want   string
	}{
		{k(1.005), 2, "1.00"},
		{k(math.NaN()), 2, "-nan"},
		{k(math.Inf(1)), 0, "inf"},
		{na, 2, "NA"},
		{k(0).Printed(""), 3, ""},
		{k(math.NaN()).Printed("-nan"), 1, "-nan"},
	} {
		if got := FormatValue(c.v, c.digits); got != c.want {
			t.Errorf("FormatValue(%+v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
	for _, c := range []struct {
		o, b metrics.Value
		want string
	}{
		{k(0), k(0), "1"}, {k(3), k(0), "inf"}, {k(1), k(3), "0.33"}, {na, k(1), "NA"}, {k(1), na, "NA"},
		{k(math.NaN()), k(2), "-nan"}, {k(math.Inf(1)), k(math.Inf(1)), "-nan"}, {k(math.NaN()), k(0), "inf"},
	} {
		if got := FormatRatio(c.o, c.b); got != c.want {
			t.Errorf("FormatRatio(%v, %v) = %s, want %s", c.o.V, c.b.V, got, c.want)
		}
	}
}

func TestShellText(t *testing.T) {
	line := "8760\t101140\tpgsql point-query range=100"
	for _, c := range []struct {
		n    int
		want string
	}{{1, "8760"}, {2, "8760\t101140"}, {3, line}, {5, line}} {
		if got := cutFields(line, c.n); got != c.want {
			t.Errorf("cutFields(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		n    int
		want string
	}{{1, "8760"}, {3, "pgsql"}, {5, "range=100"}, {6, ""}, {0, ""}} {
		if got := field(line, c.n); got != c.want {
			t.Errorf("field(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := paste(",", []string{"a", "b"}, []string{"1"}, nil); !reflect.DeepEqual(got, []string{"a,1,", "b,,"}) {
		t.Errorf("paste: %q", got)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mt := map[string]time.Time{"a": t0.Add(time.Minute), "b": t0, "c": t0, "d": t0.Add(-time.Minute)}
	names := []string{"a", "b", "c", "d"}
	lsrt(names, func(n string) time.Time { return mt[n] }, CollateC)
	if strings.Join(names, " ") != "d c b a" {
		t.Errorf("ls -rt order %v", names)
	}
	// Equal times: reverse name order, by the collation.
	for coll, want := range map[Collation]string{CollateC: "r.range1000.pk1 r.range100.pk1", CollateEnUS: "r.range100.pk1 r.range1000.pk1"} {
		names := []string{"r.range1000.pk1", "r.range100.pk1"}
		lsrt(names, func(string) time.Time { return t0 }, coll)
		if strings.Join(names, " ") != want {
			t.Errorf("ls -rt order with %v: %v", coll, names)
		}
	}
}
