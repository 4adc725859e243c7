package compat

import (
	"regexp"
	"strings"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
)

// StripPrefix removes every "<prefix>." from s, as the original sed did
// (anywhere in the line, not only at the start of a tag).
func StripPrefix(s, prefix string) string {
	if prefix == "" {
		return s
	}
	return strings.ReplaceAll(s, prefix+".", "")
}

// MergeRow renders a row as mrg3.sh wrote it into mrg.<step>: ips, qps and
// rps through awk's %.0f (anything awk cannot read becomes 0), dbgb2
// re-printed with one decimal when it is at least 10 (compared as text when
// the cell is not a number), and the row-count prefix removed. It returns
// the line and its cells, each keeping its text.
func MergeRow(r *metrics.Row, tag, prefix string) (string, []metrics.Value) {
	var cells [metrics.NumMetrics + 1]string
	for i, v := range r {
		cells[i] = v.Format(metrics.Metric(i).Digits())
	}
	cells[metrics.NumMetrics] = tag
	for _, m := range []metrics.Metric{metrics.IPS, metrics.QPS, metrics.RPS} {
		cells[m] = awk.F(awk.Num(cells[m]), 0)
	}
	v := cells[metrics.DBGB2]
	if awk.IsStrNum(v) && awk.Num(v) >= 10 || !awk.IsStrNum(v) && v != "" && v >= "10" {
		cells[metrics.DBGB2] = awk.F(awk.Num(v), 1)
	}
	out := make([]metrics.Value, 0, len(cells))
	for i := range cells {
		cells[i] = StripPrefix(cells[i], prefix)
		u := metrics.NoUnit
		if i < int(metrics.NumMetrics) {
			u = r[i].Unit
		}
		out = append(out, CellValue(cells[i], u))
	}
	return strings.Join(cells[:], "\t"), out
}

// RelLines applies sum_met.awk to the lines of an mrg file: lines are split
// on blanks; a 21-field line is the header (first field "ips"), a group base
// (remembered, not printed) or a row printed as ratios to the base; every
// other line is printed unchanged and starts a new group.
func RelLines(lines []string) []string {
	var out []string
	var base []string
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) == 21 && f[0] == "ips":
			out = append(out, l)
			base = nil
		case len(f) == 21 && base == nil:
			base = f
		case len(f) == 21:
			var b strings.Builder
			for x := 0; x < 20; x++ {
				b.WriteString(RatioText(f[x], base[x]))
				b.WriteByte('\t')
			}
			b.WriteString(f[20])
			out = append(out, b.String())
		default:
			out = append(out, l)
			base = nil
		}
	}
	return out
}

// RatioText is one relative cell as sum_met.awk and the report scripts
// printed it, with awk's comparison rules: NA when either is "NA", 1 when
// both compare equal to 0, inf for a zero base, else %.2f of the quotient
// of awk's readings.
func RatioText(x, b string) string {
	switch {
	case x == "NA" || b == "NA":
		return "NA"
	}
	return awkRatio(x, b)
}

// awkRatio is the scripts' ratio of two tokens as awk read them: 1 for
// 0/0, inf for x/0, else the quotient with two decimals.
func awkRatio(x, b string) string {
	switch {
	case awk.EqZero(x) && awk.EqZero(b):
		return "1"
	case awk.EqZero(b):
		return "inf"
	}
	return awkDiv(x, b)
}

// FindRow is `grep "<tag>$"` over lines: the index of the first line the
// tag, read as a regular expression anchored at the end of the line,
// matches (it also matches longer tags ending the same way), or -1. A tag
// that is not a valid expression matches nothing.
func FindRow(lines []string, tag string) int {
	re, err := regexp.Compile("(?:" + tag + ")$")
	if err != nil {
		return -1
	}
	for i, l := range lines {
		if re.MatchString(l) {
			return i
		}
	}
	return -1
}
