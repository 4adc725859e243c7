package awk

import (
	"math"
	"testing"
)

func TestF(t *testing.T) {
	for _, c := range []struct {
		v    float64
		n    int
		want string
	}{
		{0.5, 0, "0"}, {1.5, 0, "2"}, {2.5, 0, "2"}, {0.125, 2, "0.12"},
		{0.135, 2, "0.14"}, // 0.135 is 0.13500000000000000888 in binary
		{-0.0001, 1, "-0.0"}, {math.Inf(1), 2, "inf"}, {math.Inf(-1), 0, "-inf"},
		{math.NaN(), 3, "-nan"}, {86956.5, 0, "86956"},
	} {
		if got := F(c.v, c.n); got != c.want {
			t.Errorf("F(%v, %d) = %q, want %q", c.v, c.n, got, c.want)
		}
	}
}

func TestG6(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {0.5, "0.5"}, {123456, "123456"}, {1234567, "1.23457e+06"},
		{0.0001, "0.0001"}, {0.00001234, "1.234e-05"}, {2.255, "2.255"},
		{100, "100"}, {math.NaN(), "-nan"}, {math.Inf(1), "inf"},
	} {
		if got := G6(c.v); got != c.want {
			t.Errorf("G6(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestNum(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"", 0}, {"NA", 0}, {"12", 12}, {" 1.5x", 1.5}, {"-3", -3}, {"+.5", 0.5},
		{"1e3", 1000}, {"1e", 1}, {".", 0}, {"i_qps", 0}, {"NA", 0}, {"na", 0},
		{"inf", math.Inf(1)}, {"-inf", math.Inf(-1)}, {" Infinity", math.Inf(1)},
	} {
		if got := Num(c.s); got != c.want {
			t.Errorf("Num(%q) = %v, want %v", c.s, got, c.want)
		}
	}
	// mawk reads numbers with strtod: a "-nan" an earlier printf wrote is NaN
	// again (echo "-nan 5" | mawk '{ printf "%.2f", $1/$2 }' prints -nan).
	for _, s := range []string{"-nan", "nan", "NaN"} {
		if !math.IsNaN(Num(s)) {
			t.Errorf("Num(%q) = %v, want NaN", s, Num(s))
		}
	}
	if !math.IsInf(Num("1e999"), 1) {
		t.Error("Num(1e999) is not +Inf")
	}
}

func TestStrNum(t *testing.T) {
	for _, c := range []struct {
		s            string
		strnum, zero bool
	}{
		{"0", true, true}, {"0.000", true, true}, {" 0 ", true, true}, {"", false, false},
		{"NA", false, false}, {"-nan", false, false}, {"inf", false, false},
		{"1e999", true, false}, {"00", true, true}, {"0x0", false, false}, {"12", true, false},
	} {
		if got := IsStrNum(c.s); got != c.strnum {
			t.Errorf("IsStrNum(%q) = %v, want %v", c.s, got, c.strnum)
		}
		if got := EqZero(c.s); got != c.zero {
			t.Errorf("EqZero(%q) = %v, want %v", c.s, got, c.zero)
		}
	}
}

func TestBC(t *testing.T) {
	dec := func(s string) Dec {
		d, ok := ParseDec(s)
		if !ok {
			t.Fatalf("ParseDec(%q) failed", s)
		}
		return d
	}
	if _, ok := ParseDec("1e3"); ok {
		t.Error("bc read 1e3 as a number")
	}
	q, _ := Div(Int(2000000), Int(23), 1)
	if q.String() != "86956.5" {
		t.Errorf("2000000/23 at scale 1 = %s, want 86956.5 (truncated)", q)
	}
	q, _ = Div(Int(1), Int(3), 3)
	if q.String() != ".333" {
		t.Errorf("1/3 at scale 3 = %s, want .333", q)
	}
	q, _ = Div(Int(-1), Int(3), 2)
	if q.String() != "-.33" {
		t.Errorf("-1/3 at scale 2 = %s, want -.33", q)
	}
	if _, ok := Div(Int(1), Int(0), 2); ok {
		t.Error("division by zero did not fail")
	}
	// Multiplication keeps min(a+b, max(scale, a, b)) decimals.
	if m := Mul(dec("1.25"), dec("1.5"), 0); m.String() != "1.87" {
		t.Errorf("1.25*1.5 at scale 0 = %s, want 1.87", m)
	}
	if m := Mul(dec("1.25"), dec("1.5"), 6); m.String() != "1.875" {
		t.Errorf("1.25*1.5 at scale 6 = %s, want 1.875", m)
	}
	if z := Mul(Int(0), dec("1.5"), 3); z.String() != "0" || z.Float() != 0 {
		t.Errorf("0*1.5 = %s", z)
	}
}
