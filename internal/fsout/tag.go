package fsout

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CheckTag refuses a tag that is not a plain part of a file name: the
// summaries are named o.met.<tag>.dop<nt>, sum.<tag>, ..., so a '/' or
// '..' would place them outside the output folder, and a control
// character would break the names in listings and logs. "" (the default,
// sb) is accepted.
func CheckTag(tag string) error {
	switch {
	case !utf8.ValidString(tag):
		return fmt.Errorf("tag %q is not UTF-8", tag)
	case strings.ContainsAny(tag, `/\`):
		return fmt.Errorf("tag %q has a path separator; want a plain part of a file name", tag)
	case strings.Contains(tag, ".."):
		return fmt.Errorf("tag %q has \"..\"; want a plain part of a file name", tag)
	}
	for _, r := range tag {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return fmt.Errorf("tag %q has a control character; want a plain part of a file name", tag)
		}
	}
	return nil
}
