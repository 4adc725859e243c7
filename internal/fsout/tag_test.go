package fsout

import (
	"strings"
	"testing"
)

func TestCheckTag(t *testing.T) {
	for _, tc := range []struct {
		tag, err string // err "" when accepted
	}{
		{"", ""},
		{"sb", ""},
		{"pg16.x10a", ""},
		{"all-dop_8", ""},
		{"größe", ""},
		{"../../evil", `tag "../../evil" has a path separator`},
		{"a/b", "has a path separator"},
		{`a\b`, "has a path separator"},
		{"..", `tag ".." has ".."`},
		{"a..b", `has ".."`},
		{"a\nb", `tag "a\nb" has a control character`},
		{"a\tb", "has a control character"},
		{"a\x00", "has a control character"},
		{"a\u0085", "has a control character"},
		{"a\xffb", "is not UTF-8"},
	} {
		err := CheckTag(tc.tag)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: %v, want %q", tc.tag, err, tc.err)
		}
	}
}
