package metrics

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MergeHeader is the header line of mrg.<step> and rel.<step> files.
var MergeHeader = strings.Join(RowColumns, "\t")

// StripPrefix removes the "<N>m." row-count prefix from a tag. Compat mode
// removes every occurrence anywhere in the line, as the original sed did;
// otherwise only a leading prefix is removed.
func StripPrefix(s, prefix string, compat bool) string {
	if prefix == "" {
		return s
	}
	if compat {
		return strings.ReplaceAll(s, prefix+".", "")
	}
	return strings.TrimPrefix(s, prefix+".")
}

// MergeRow renders a row as a line of mrg.<step>: ips, qps and rps rounded to
// integers (a value awk cannot read becomes 0 in compat mode, NA otherwise),
// and the row-count prefix removed.
func MergeRow(r Row, prefix string, compat bool) string {
	cells := r.Cells
	for _, i := range []int{ColIps, ColQps, ColRps} {
		switch {
		case compat:
			cells[i] = ff(awkNum(cells[i]), 0)
		case cells[i] == "NA":
		default:
			cells[i] = ff(awkNum(cells[i]), 0)
		}
	}
	// mrg3.sh re-printed dbgb2 with one decimal when it was at least 10,
	// comparing as text when the cell is not a number.
	v := cells[ColDbgb2]
	if ge10 := isStrNum(v) && awkNum(v) >= 10 || !isStrNum(v) && v != "" && v >= "10"; ge10 && (compat || v != "NA") {
		cells[ColDbgb2] = ff(awkNum(v), 1)
	}
	line := strings.Join(cells[:], "\t")
	if compat {
		return StripPrefix(line, prefix, true)
	}
	cells[ColTag] = StripPrefix(cells[ColTag], prefix, false)
	return strings.Join(cells[:], "\t")
}

// RelLinesCompat applies sum_met.awk to the lines of an mrg file: lines are
// split on blanks; a 21-field line is the header (first field "ips"), a group
// base (remembered, not printed) or a row printed as ratios to the base;
// every other line is printed unchanged and starts a new group.
func RelLinesCompat(lines []string) []string {
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
				b.WriteString(ratio(f[x], base[x]))
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

// ratio is one cell of a relative row, with awk's comparison rules.
func ratio(x, b string) string {
	switch {
	case x == "NA" || b == "NA":
		return "NA"
	case awkEqZero(x) && awkEqZero(b):
		return "1"
	case awkEqZero(b):
		return "inf"
	}
	return ff(awkNum(x)/awkNum(b), 2)
}

// RelLines computes relative rows in the default mode: cells are found by the
// header, the first row after the header or a "-" is the base of its group,
// and a cell that is NA, empty or not a number on either side is NA. Lines
// other than the header, rows and "-" are reported in notes and dropped.
func RelLines(lines []string) (out []string, notes []string) {
	var header []string
	var base []string
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		switch {
		case l == "-":
			out = append(out, l)
			base = nil
		case cells[0] == "ips":
			out = append(out, l)
			header, base = cells, nil
		case header == nil || len(cells) != len(header):
			notes = append(notes, "line "+strconv.Itoa(i+1)+": not a row of the table, skipped")
		case base == nil:
			base = cells
		default:
			var b strings.Builder
			last := len(cells) - 1
			for x := 0; x < last; x++ {
				b.WriteString(ratioStrict(cells[x], base[x]))
				b.WriteByte('\t')
			}
			b.WriteString(cells[last])
			out = append(out, b.String())
		}
	}
	return out, notes
}

func ratioStrict(x, b string) string {
	if !isStrNum(x) || !isStrNum(b) {
		return "NA"
	}
	return ratio(x, b)
}

// TagRegexp returns the original's `grep "<tag>$"` matcher: the tag as a
// regular expression anchored at the end of the line. A tag that is not a
// valid expression matches nothing.
func TagRegexp(tag string) *regexp.Regexp {
	re, err := regexp.Compile("(?:" + tag + ")$")
	if err != nil {
		return regexp.MustCompile(`$.^`)
	}
	return re
}

// CellRatioText is x/b as the relative tables print it: "%.2f", "1" for 0/0, "inf"
// for x/0 and "NA" when either side is NA. In the default mode (strict) a
// cell that is empty or not a number on either side is NA too; compat mode
// reads it as awk would.
func CellRatioText(x, b string, strict bool) string {
	if strict {
		return ratioStrict(x, b)
	}
	return ratio(x, b)
}

// Number reads a table cell. Compat mode reads it as awk would (anything
// that is not a number is 0); the default mode reports whether the cell is a
// finite number.
func Number(s string, compat bool) (float64, bool) {
	if compat {
		return awkNum(s), true
	}
	if !isStrNum(s) {
		return 0, false
	}
	v := awkNum(s)
	return v, !math.IsInf(v, 0) && !math.IsNaN(v)
}
