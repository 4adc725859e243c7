package names

import "testing"

func TestQuoted(t *testing.T) {
	for in, want := range map[string]string{
		"2m.pg15.c1":             "2m.pg15.c1",
		"dir/with space/é…":      "dir/with space/é…",
		"2m.pg15\n::error::x":    `"2m.pg15\n::error::x"`,
		"red\x1b[31m":            `"red\x1b[31m"`,
		"bad\xffutf8":            `"bad\xffutf8"`,
		"tab\tin":                `"tab\tin"`,
		"right-to-left\u202eabc": `"right-to-left\u202eabc"`,
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestNaturalLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"pg9", "pg15", true},
		{"pg15", "pg9", false},
		{"2m.pg15.c1", "2m.pg15.c2", true},
		{"2m.pg15.c2", "20m.pg15.c1", true},
		{"my8022.cx6d", "my5649.cx6d", false},
		{"a", "b", true},
		{"a", "ab", true},
		{"ab", "a", false},
		{"", "a", true},
		{"a", "", false},
		{"", "", false},
		{"x1", "x1", false},
		{"x01", "x1", true}, // same value: the text decides
		{"x1", "x01", false},
		{"x0", "x00", true},
		{"x00", "x0", false},
		{"x9a", "x9b", true},
		{"x10", "x9", false},
		{"1u.1tno/20m.pg.c1", "1u.1tyes/2m.pg.c1", true},
	} {
		if got := NaturalLess(tc.a, tc.b); got != tc.want {
			t.Errorf("NaturalLess(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Regression test: NaturalLess compared numbers of more than 18 digits as
// text but shorter ones by value, so the order was not transitive:
// x9 < x10 (by value), x10 < x1234567890123456789 (as text, "10" < "12"),
// x1234567890123456789 < x9 (as text). sort.SliceStable needs a strict
// weak order; tree names with such numbers sorted inconsistently.
func TestNaturalLessIsTransitive(t *testing.T) {
	a, b, c := "x9", "x10", "x1234567890123456789"
	ab, bc, ca := NaturalLess(a, b), NaturalLess(b, c), NaturalLess(c, a)
	if ab && bc && ca {
		t.Errorf("NaturalLess has a cycle: %s < %s < %s < %s", a, b, c, a)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3}, {"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"flaw", "lawn", 2}, {"build", "biuld", 2},
	} {
		if d := EditDistance(tc.a, tc.b); d != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.want)
		}
	}
}
