// Package textdiff helps tests compare output with golden files: Lines
// names the lines that differ, tabs shown, so a failing test says where.
// Only tests import it.
package textdiff

import (
	"strconv"
	"strings"
)

// Lines lists, line by line, where got differs from want: the line
// number and both lines, tabs written as \t. It is "" when they are equal.
func Lines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  want " + quote(a) + "\n  got  " + quote(c) + "\n")
		}
	}
	return b.String()
}

func quote(s string) string { return "\"" + strings.ReplaceAll(s, "\t", "\\t") + "\"" }
