package compat

import (
	"fmt"
	"slices"
	"strings"
)

// Collation is the order in which the original scripts' `sort`, `ls` and
// shell globs listed file names: that of the user's locale. Summaries of
// real archives were written under en_US.UTF-8; the shared fixtures under
// LC_ALL=C.
type Collation int

// The collations. The zero value is en_US, the locale of the archives.
const (
	// CollateEnUS is glibc's en_US.UTF-8 order (ISO 14651): letters and
	// digits first, case and punctuation ignored (digits before letters);
	// then lower case before upper case; then punctuation, compared
	// character by character.
	CollateEnUS Collation = iota
	// CollateC is byte order (LC_ALL=C or POSIX).
	CollateC
)

// ParseCollation reads a collation name: "en_US" (also "en_US.UTF-8",
// "en_US.utf8") or "C" (also "POSIX").
func ParseCollation(s string) (Collation, error) {
	switch s {
	case "en_US", "en_US.UTF-8", "en_US.utf8":
		return CollateEnUS, nil
	case "C", "POSIX":
		return CollateC, nil
	}
	return 0, fmt.Errorf("collation %q: want en_US or C", s)
}

func (c Collation) String() string {
	if c == CollateC {
		return "C"
	}
	return "en_US"
}

// Compare orders two names as `sort` did under the collation: -1, 0 or +1.
// Names that collate equal (only identical strings, for ASCII) are compared
// byte by byte, as sort's last resort does.
func (c Collation) Compare(a, b string) int {
	if c == CollateEnUS {
		if r := compareEnUS(a, b); r != 0 {
			return r
		}
	}
	return strings.Compare(a, b)
}

// Less reports whether a sorts before b.
func (c Collation) Less(a, b string) bool { return c.Compare(a, b) < 0 }

// Sort orders names as `sort` did under the collation.
func (c Collation) Sort(names []string) { slices.SortStableFunc(names, c.Compare) }

// The en_US order is glibc's strcoll over the ISO 14651 table, emulated
// for the characters of file and test names. Four levels are compared one
// after the other, each as a sequence of weights (a shorter sequence that
// is a prefix of the other sorts first):
//
//  1. letters (either case) and digits, after '$'; punctuation, space and
//     tab are ignored;
//  2. one equal weight per letter, digit and '$'. Digits, '$' and
//     punctuation belong to a section compared backward at this level:
//     glibc's strcoll walks each run of them right to left and, when a
//     letter follows the run, skips the run's second-to-last character,
//     so "10.p" weighs two characters here where "1.0p" weighs one. This
//     is how real sort orders names, so it is reproduced;
//  3. case: lower before upper;
//  4. every character, punctuation included: tab, space and
//     !"#%&'()*+,-./:;<=>?@[\]^_`{|}~ in this order, then '$', digits,
//     lower case and upper case letters.
//
// Characters outside ASCII do not occur in result names; they are given
// weights after the ASCII letters by code point (glibc orders them by the
// whole table), which only keeps the order total.

// enUSPunct lists the characters ignored at the first three levels, in
// their fourth-level order.
const enUSPunct = "\t !\"#%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// enUSWeight is the weight of r at a level (0: ignored there) and whether
// it belongs to the section compared backward at level 2.
func enUSWeight(r rune, level int) (w int32, backward bool) {
	var l [4]int32
	switch {
	case r >= 'a' && r <= 'z':
		l = [4]int32{12 + r - 'a', 1, 1, 300 + r - 'a'}
	case r >= 'A' && r <= 'Z':
		l = [4]int32{12 + r - 'A', 1, 2, 400 + r - 'A'}
	case r >= '0' && r <= '9':
		return [4]int32{2 + r - '0', 1, 1, 200 + r - '0'}[level], true
	case r == '$':
		return [4]int32{1, 1, 1, 199}[level], true
	case r < 0x80:
		// punctuation; other control characters come first at level 4
		return [4]int32{0, 0, 0, int32(strings.IndexRune(enUSPunct, r)) + 2}[level], true
	default:
		l = [4]int32{1000 + r, 1, 1, 1000 + r}
	}
	return l[level], false
}

// compareEnUS compares level by level.
func compareEnUS(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for level := range 4 {
		wa, wb := enUSLevel(ra, level), enUSLevel(rb, level)
		if r := slices.Compare(wa, wb); r != 0 {
			return r
		}
	}
	return 0
}

// enUSLevel returns the weights of s at one level in the order strcoll
// visits its characters (see the comment above on level 2).
func enUSLevel(s []rune, level int) []int32 {
	var out []int32
	add := func(i int) {
		if w, _ := enUSWeight(s[i], level); w != 0 {
			out = append(out, w)
		}
	}
	for i := 0; i < len(s); {
		if level != 1 {
			add(i)
			i++
			continue
		}
		j := i
		for j < len(s) {
			if _, back := enUSWeight(s[j], level); !back {
				break
			}
			j++
		}
		switch {
		case j == i: // a character compared forward
			add(i)
			i++
		case j == len(s): // a backward run that ends the name
			for k := j - 1; k >= i; k-- {
				add(k)
			}
			i = j
		default: // a backward run, then a forward character
			add(j - 1)
			for k := j - 3; k >= i; k-- {
				add(k)
			}
			add(j)
			i = j + 1
		}
	}
	return out
}
