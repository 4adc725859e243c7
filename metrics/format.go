package metrics

import (
	"strconv"

	"github.com/ibreport/ibreport/internal/awk"
)

// These wrappers keep the older string-based code compiling while it moves
// to the compat edge.

func ff(v float64, n int) string                    { return awk.F(v, n) }
func awkNum(s string) float64                       { return awk.Num(s) }
func isStrNum(s string) bool                        { return awk.IsStrNum(s) }
func awkEqZero(s string) bool                       { return awk.EqZero(s) }
func fg6(v float64) string                          { return awk.G6(v) }
func bcParse(s string) (awk.Dec, bool)              { return awk.ParseDec(s) }
func bcInt(n int64) awk.Dec                         { return awk.Int(n) }
func bcMul(a, b awk.Dec, scale int) awk.Dec         { return awk.Mul(a, b, scale) }
func bcDiv(a, b awk.Dec, scale int) (awk.Dec, bool) { return awk.Div(a, b, scale) }

func countStr(c int) string {
	if c == 0 {
		return ""
	}
	return strconv.Itoa(c)
}
