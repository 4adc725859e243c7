// Package awk reproduces how the original report scripts turned numbers
// into text and text back into numbers: mawk's printf (ties to even on the
// binary value, "inf" and "-nan"), awk's string-to-number conversion and
// comparisons, and bc's truncating decimal arithmetic.
//
// Only the compat edge (package internal/compat) may use it; the default
// mode computes with float64 and prints with strconv. A test in the module
// root enforces that.
package awk

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// F formats v like C printf "%.Nf" as mawk prints it: ties to even on the
// binary value, "inf", "-inf" and "-nan" for the special values. A NaN here
// always comes from 0/0, which x86 produces with the sign bit set.
func F(v float64, n int) string {
	if s, ok := special(v); ok {
		return s
	}
	return strconv.FormatFloat(v, 'f', n, 64)
}

// special spells the values printf cannot print as digits, as mawk does.
func special(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "-nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}

// G6 formats like C "%.6g": six significant digits, exponent form when the
// decimal exponent is below -4 or at least 6, trailing zeros removed.
func G6(v float64) string {
	if s, ok := special(v); ok {
		return s
	}
	e := strconv.FormatFloat(v, 'e', 5, 64) // d.ddddde±XX, rounded as printf does
	i := strings.IndexByte(e, 'e')
	x, _ := strconv.Atoi(e[i+1:])
	if x < -4 || x >= 6 {
		return trimZeros(e[:i]) + e[i:]
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 5-x, 64))
}

func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// Num converts a string to a number the way mawk does (with C's strtod):
// the longest numeric prefix after leading blanks, 0 when there is none;
// "nan" and "inf" or "infinity" (any case, after an optional sign) read as
// NaN and infinity, so that a "-nan" that an earlier printf wrote stays
// -nan.
func Num(s string) float64 {
	s = strings.TrimLeft(s, " \t\n")
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	switch word := strings.ToLower(s[i:min(i+3, len(s))]); word {
	case "nan":
		return math.NaN()
	case "inf":
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	// Out of range, ParseFloat returns ±Inf with the error, as strtod does.
	v, _ := strconv.ParseFloat(s[:i], 64)
	return v
}

// IsStrNum reports whether awk treats a field as a number in comparisons:
// the whole field (blanks aside) is a decimal number.
func IsStrNum(s string) bool {
	t := strings.Trim(s, " \t\n")
	if t == "" {
		return false
	}
	if strings.ContainsAny(t, "xXnNiI_") {
		return false
	}
	_, err := strconv.ParseFloat(t, 64)
	return err == nil || strings.Contains(err.Error(), "range")
}

// EqZero is awk's `field == 0`: numeric when the field looks numeric,
// otherwise a string comparison with "0".
func EqZero(s string) bool {
	if IsStrNum(s) {
		return Num(s) == 0
	}
	return s == "0"
}

// Dec is a decimal value as bc holds it: an exact rational with a scale
// (number of decimals kept).
type Dec struct {
	v     *big.Rat
	scale int
}

// ParseDec reads a decimal number token. ok is false for anything bc would
// not read as a plain number.
func ParseDec(s string) (Dec, bool) {
	if s == "" || strings.ContainsAny(s, "eExXnNiI_") {
		return Dec{}, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return Dec{}, false
	}
	sc := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		sc = len(s) - i - 1
	}
	return Dec{r, sc}, true
}

// Int is the integer n as bc holds it.
func Int(n int64) Dec { return Dec{new(big.Rat).SetInt64(n), 0} }

// Mul multiplies as bc does under `scale`: the result keeps
// min(a+b, max(scale, a, b)) decimals, truncated.
func Mul(a, b Dec, scale int) Dec {
	s := min(a.scale+b.scale, max(scale, a.scale, b.scale))
	return trunc(new(big.Rat).Mul(a.v, b.v), s)
}

// Div divides as bc does: the quotient truncated toward zero to `scale`
// decimals. ok is false for division by zero (bc prints an error and no
// value).
func Div(a, b Dec, scale int) (Dec, bool) {
	if b.v.Sign() == 0 {
		return Dec{}, false
	}
	return trunc(new(big.Rat).Quo(a.v, b.v), scale), true
}

func trunc(r *big.Rat, scale int) Dec {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	n := new(big.Int).Mul(r.Num(), p)
	n.Quo(n, r.Denom()) // Quo truncates toward zero
	return Dec{new(big.Rat).SetFrac(n, p), scale}
}

// String prints the value as bc does: exactly `scale` decimals, no leading
// zero before the point, and a bare "0" for zero.
func (d Dec) String() string {
	if d.v.Sign() == 0 {
		return "0"
	}
	s := d.v.FloatString(d.scale)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if strings.HasPrefix(s, "0.") {
		s = s[1:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Float returns the value as awk would read bc's printed output.
func (d Dec) Float() float64 { return Num(d.String()) }
