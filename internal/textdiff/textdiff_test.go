package textdiff

import "testing"

func TestLines(t *testing.T) {
	for _, c := range []struct{ want, got, diff string }{
		{"a\nb", "a\nb", ""},
		{"a\tb\nc", "a\tb\nC", "line 2:\n  want \"c\"\n  got  \"C\"\n"},
		{"a", "a\nextra", "line 2:\n  want \"\"\n  got  \"extra\"\n"},
		{"x\ty", "x y", "line 1:\n  want \"x\\ty\"\n  got  \"x y\"\n"},
	} {
		if d := Lines(c.want, c.got); d != c.diff {
			t.Errorf("Lines(%q, %q) = %q, want %q", c.want, c.got, d, c.diff)
		}
	}
}
