package metrics

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ff formats v like C printf "%.Nf" as mawk prints it: ties to even on the
// binary value, "inf", "-inf" and "-nan" for the special values. A NaN here
// always comes from 0/0, which x86 produces with the sign bit set.
func ff(v float64, n int) string {
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

// awkNum converts a string to a number the way awk does: the longest numeric
// prefix after leading blanks, 0 when there is none.
func awkNum(s string) float64 {
	s = strings.TrimLeft(s, " \t\n")
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
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
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		// Out of range: ParseFloat returns ±Inf with the error, as strtod does.
		return v
	}
	return v
}

// isStrNum reports whether awk treats a field as a number in comparisons:
// the whole field (blanks aside) is a decimal number.
func isStrNum(s string) bool {
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

// awkEqZero is awk's `field == 0`: numeric when the field looks numeric,
// otherwise a string comparison with "0".
func awkEqZero(s string) bool {
	if isStrNum(s) {
		return awkNum(s) == 0
	}
	return s == "0"
}

// bcDec is a decimal value as bc holds it: an exact rational with a scale
// (number of decimals kept).
type bcDec struct {
	v     *big.Rat
	scale int
}

// bcParse reads a decimal number token. ok is false for anything bc would not
// read as a plain number.
func bcParse(s string) (bcDec, bool) {
	if s == "" || strings.ContainsAny(s, "eExXnNiI_") {
		return bcDec{}, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return bcDec{}, false
	}
	sc := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		sc = len(s) - i - 1
	}
	return bcDec{r, sc}, true
}

func bcInt(n int64) bcDec { return bcDec{new(big.Rat).SetInt64(n), 0} }

// bcMul multiplies as bc does under `scale`: the result keeps
// min(a+b, max(scale, a, b)) decimals, truncated.
func bcMul(a, b bcDec, scale int) bcDec {
	s := min(a.scale+b.scale, max(scale, a.scale, b.scale))
	return bcTrunc(new(big.Rat).Mul(a.v, b.v), s)
}

// bcDiv divides as bc does: the quotient truncated toward zero to `scale`
// decimals. ok is false for division by zero (bc prints an error and no
// value).
func bcDiv(a, b bcDec, scale int) (bcDec, bool) {
	if b.v.Sign() == 0 {
		return bcDec{}, false
	}
	return bcTrunc(new(big.Rat).Quo(a.v, b.v), scale), true
}

func bcTrunc(r *big.Rat, scale int) bcDec {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	n := new(big.Int).Mul(r.Num(), p)
	n.Quo(n, r.Denom()) // Quo truncates toward zero
	return bcDec{new(big.Rat).SetFrac(n, p), scale}
}

// String prints the value as bc does: exactly `scale` decimals, no leading
// zero before the point, and a bare "0" for zero.
func (d bcDec) String() string {
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
func (d bcDec) Float() float64 { return awkNum(d.String()) }
