package metrics

import (
	"strings"
)

// This file renders the lines of the original sysbench summaries from
// printed tokens, with the scripts' shell and awk semantics where compat
// mode needs them. The callers (package report) choose files and order.

// echoRatio is `echo $o $b | awk '{ if ($1 == 0 && $2 == 0) ... }'` of the
// scripts: the unquoted echo drops an empty value, so a missing o makes b
// the first field and the second one absent. An absent field does not
// compare equal to 0 in mawk, but divides as 0.
func echoRatio(o, b string) string {
	x, y := echoFields(o, b)
	eq0 := func(s string) bool { return s != "" && awkEqZero(s) }
	switch {
	case eq0(x) && eq0(y):
		return "1"
	case eq0(y):
		return "inf"
	}
	return AwkDiv(x, y)
}

// echoDiv is `echo $a $b | awk '{ printf "%.2f", $1 / $2 }'`.
func echoDiv(a, b string) string { return AwkDiv(echoFields(a, b)) }

// echoFields are awk's $1 and $2 of `echo $a $b`: an empty value is
// dropped by the unquoted echo, and an absent field is "".
func echoFields(a, b string) (x, y string) {
	f := strings.Fields(a + " " + b)
	if len(f) > 0 {
		x = f[0]
	}
	if len(f) > 1 {
		y = f[1]
	}
	return x, y
}

// OMetRow is one DBMS of an o.met block: the HW metrics of the run, or nil
// when the DBMS has no such file.
type OMetRow struct {
	DBMS string
	HW   *SysbenchHW
}

// OMetBlock renders one block of o.met (sum_met.sh): the file name, the
// absolute rows of the base and each other DBMS, and the relative rows.
// In compat mode the values come from the printed sb.met tokens and a
// missing file drops its absolute row and divides by nothing (inf);
// otherwise values are unrounded, a missing run is a row of NA and ratios
// follow Ratio.
func OMetBlock(basename string, base OMetRow, others []OMetRow, compat bool) []string {
	out := []string{basename, "--- absolute", "cpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms"}
	abs := func(r OMetRow) (string, bool) {
		if r.HW == nil {
			if compat {
				return "", false
			}
			return "NA\tNA\tNA\tNA\tNA\tNA\t" + r.DBMS, true
		}
		h := r.HW
		if compat {
			return strings.Join([]string{h.Vmstat[4], h.Vmstat[3], AwkG(h.Iostat[5]), AwkG(h.Iostat[6]), AwkG(h.Iostat[7]), AwkF0(h.Iostat[8]), r.DBMS}, "\t"), true
		}
		g := func(v SBValue) string {
			if !v.OK() {
				return "NA"
			}
			return fg6(v.V)
		}
		rate := "NA"
		if q := awkNum(h.Rate); h.Rate != "" {
			rate = ff(q, 0)
		}
		return strings.Join([]string{h.CPUPerOp.Text, h.CsPerOp.Text, g(h.ReadsPerOp), g(h.ReadKBPerOp), g(h.WriteKBPerOp), rate, r.DBMS}, "\t"), true
	}
	for _, r := range append([]OMetRow{base}, others...) {
		if l, ok := abs(r); ok {
			out = append(out, l)
		}
	}
	out = append(out, "--- relative to first result")
	for _, r := range others {
		var rel [6]string
		switch {
		case compat:
			var o, b [6]string
			tok := func(h *SysbenchHW) [6]string {
				if h == nil {
					return [6]string{}
				}
				return [6]string{h.Vmstat[4], h.Vmstat[3], h.Iostat[5], h.Iostat[6], h.Iostat[7], AwkF0(h.Iostat[8])}
			}
			o, b = tok(r.HW), tok(base.HW)
			for i := range rel {
				rel[i] = echoRatio(o[i], b[i])
			}
		case r.HW == nil || base.HW == nil:
			rel = [6]string{"NA", "NA", "NA", "NA", "NA", "NA"}
		default:
			h, b := r.HW, base.HW
			vals := [][2]SBValue{{h.CPUPerOp, b.CPUPerOp}, {h.CsPerOp, b.CsPerOp}, {h.ReadsPerOp, b.ReadsPerOp},
				{h.ReadKBPerOp, b.ReadKBPerOp}, {h.WriteKBPerOp, b.WriteKBPerOp}, {rateValue(h.Rate), rateValue(b.Rate)}}
			for i, p := range vals {
				rel[i] = SBRatio(p[0], p[1]).Text
			}
		}
		out = append(out, rel[0]+"\t\t"+strings.Join(rel[1:], "\t")+"\t"+r.DBMS)
	}
	return append(out, "")
}

func rateValue(q string) SBValue {
	if q == "" {
		return sbNA("no operation rate")
	}
	v := awkNum(q)
	return sbKnown(v, q)
}

// CutFields is `cut -f 1-n` of a line: its first n TAB fields, or the whole
// line when it has fewer.
func CutFields(line string, n int) string {
	f := strings.Split(line, "\t")
	if len(f) <= n {
		return line
	}
	return strings.Join(f[:n], "\t")
}

// Field is awk's $n of a line (blank-separated, 1-based), "" when absent.
func Field(line string, n int) string {
	f := strings.Fields(line)
	if n < 1 || n > len(f) {
		return ""
	}
	return f[n-1]
}

// SumrRatio is one relative cell of sumr.sh: the §4.14 rule on the tokens
// as the script's unquoted echo passes them.
func SumrRatio(o, b string) string { return echoRatio(o, b) }

// SumrLoadRatio is the relative value of the load rate in sumr.sh: "%.2f"
// without zero checks.
func SumrLoadRatio(o, b string) string { return echoDiv(o, b) }
