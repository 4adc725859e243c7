// Package names holds how names from the input (DBMS, folders, steps,
// settings keys) are shown, sorted and matched: quoted in messages when
// they are not printable, in natural order, and by edit distance for the
// nearest known name to a mistyped one. parse, report, diff and the
// command share them.
package names

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Quoted is s as messages show a name or a path from the input: unchanged
// when it is printable, else quoted with Go escapes (strconv.Quote), so that
// no control character of the input (a newline starting a CI annotation, a
// terminal escape) reaches a terminal or a log.
func Quoted(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// NaturalLess compares strings so that embedded numbers sort by value
// ("pg9" before "pg15"). Digit runs compare by value (leading zeros
// ignored, then by length), then by their text; other bytes compare as bytes.
func NaturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da != "" && db != "" {
			ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
			if da != db {
				return da < db
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// EditDistance is the Levenshtein distance of a and b, in bytes: how
// near a mistyped name (a settings key, a flag, a command) is to a known one.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
