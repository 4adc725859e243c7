package compat

import (
	"slices"
	"testing"
)

func TestRatioText(t *testing.T) {
	for _, c := range []struct{ x, b, want string }{
		{"3", "2", "1.50"}, {"0", "0", "1"}, {"0.000", "0", "1"}, {"5", "0", "inf"},
		{"NA", "1", "NA"}, {"1", "NA", "NA"},
		{"", "", "-nan"}, // an empty cell is not equal to 0 but reads as 0: 0/0
		{"", "5", "0.00"}, {"i_qps", "3", "0.00"},
		{"-nan", "2", "-nan"}, {"2", "-nan", "-nan"}, {"inf", "2", "inf"}, // mawk reads them back with strtod
	} {
		if got := RatioText(c.x, c.b); got != c.want {
			t.Errorf("RatioText(%q, %q) = %q, want %q", c.x, c.b, got, c.want)
		}
	}
}

func TestRelLines(t *testing.T) {
	hdr := "ips\tqps\trps\trmbps\twps\twmbps\trpq\trkbpq\twpi\twkbpi\tcsps\tcpups\tcspq\tcpupq\tdbgb1\tdbgb2\trss\tmaxop\tp50\tp99\ttag"
	row := func(ips, tag string) string {
		return ips + "\t0\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1\t" + tag
	}
	got := RelLines([]string{hdr, row("100", "a"), row("150", "b"), "-", row("10", "c"), row("5", "d"), "junk"})
	want := []string{hdr,
		"1.50\t1\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\tb",
		"-",
		"0.50\t1\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\t1.00\td",
		"junk"}
	if !slices.Equal(got, want) {
		t.Errorf("RelLines:\n got %q\nwant %q", got, want)
	}
}

func TestFindRowAndPrefix(t *testing.T) {
	lines := []string{"ips\ttag", "1\txpg15.c1", "2\tpg15.c1"}
	for _, c := range []struct {
		tag  string
		want int
	}{{"pg15.c1", 1}, {"xpg15.c1", 1}, {"pg15.c2", -1}, {"(", -1}} {
		if got := FindRow(lines, c.tag); got != c.want {
			t.Errorf("FindRow(%q) = %d, want %d (grep matches longer tags too)", c.tag, got, c.want)
		}
	}
	if got := StripPrefix("1:2m.pg15.c1 2m.x", "2m"); got != "1:pg15.c1 x" {
		t.Errorf("StripPrefix = %q", got)
	}
}
