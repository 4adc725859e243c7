package compat

import (
	"sort"
	"strings"
	"time"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// This file holds the shell and awk semantics of the original summaries:
// how they printed numbers, divided printed tokens, cut and pasted lines and
// listed files.

// FormatValue prints a value as compat mode shows it: the text the scripts
// printed for it, "NA" for an unknown value, otherwise awk's printf
// "%.<digits>f" (inf, -nan).
func FormatValue(v metrics.Value, digits int) string {
	if t, ok := v.Text(); ok {
		return t
	}
	if !v.OK() {
		return "NA"
	}
	return awk.F(v.V, digits)
}

// FormatRatio prints metrics.Ratio(o, b) as compat mode shows it: "1" for
// 0/0, "NA" when either is NA, otherwise Format with two decimals, so that
// a ratio of a value the scripts printed as -nan is -nan.
func FormatRatio(o, b metrics.Value) string {
	if o.OK() && b.OK() && o.V == 0 && b.V == 0 {
		return "1"
	}
	return FormatValue(metrics.Ratio(o, b), 2)
}

// echoRatio is `echo $o $b | awk '{ if ($1 == 0 && $2 == 0) ... }'` of the
// scripts (the §4.14 rule on printed tokens): the unquoted echo drops an
// empty value, so a missing o makes b the first field and the second one
// absent. An absent field does not compare equal to 0 in mawk, but divides
// as 0.
func echoRatio(o, b string) string {
	return awkRatio(echoFields(o, b))
}

// echoDiv is `echo $a $b | awk '{ printf "%.2f", $1 / $2 }'`.
func echoDiv(a, b string) string { return awkDiv(echoFields(a, b)) }

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

// awkDiv is awk's printf "%.2f" of o/b without checks: mawk prints inf or
// -nan for a zero base.
func awkDiv(o, b string) string { return awk.F(awk.Num(o)/awk.Num(b), 2) }

// awkG is awk's printf "%.6g" of a token.
func awkG(tok string) string { return awk.G6(awk.Num(tok)) }

// awkF0 is awk's printf "%.0f" of a token.
func awkF0(tok string) string { return awk.F(awk.Num(tok), 0) }

// cutFields is `cut -f 1-n` of a line: its first n TAB fields, or the whole
// line when it has fewer.
func cutFields(line string, n int) string {
	f := strings.Split(line, "\t")
	if len(f) <= n {
		return line
	}
	return strings.Join(f[:n], "\t")
}

// field is awk's $n of a line (blank-separated, 1-based), "" when absent.
func field(line string, n int) string {
	f := strings.Fields(line)
	if n < 1 || n > len(f) {
		return ""
	}
	return f[n-1]
}

// paste joins columns line by line as paste(1): shorter columns give empty
// cells.
func paste(sep string, cols ...[]string) []string {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	out := make([]string, n)
	for i := range n {
		cells := make([]string, len(cols))
		for j, c := range cols {
			if i < len(c) {
				cells[j] = c[i]
			}
		}
		out[i] = strings.Join(cells, sep)
	}
	return out
}

// lsrt orders names as `ls -rt` lists them: oldest first; equal times in
// reverse collation order (ls breaks ties by name, and -r reverses its
// whole comparison).
func lsrt(names []string, mtime func(string) time.Time, coll Collation) {
	sort.SliceStable(names, func(i, j int) bool {
		a, b := mtime(names[i]), mtime(names[j])
		if !a.Equal(b) {
			return a.Before(b)
		}
		return coll.Compare(names[i], names[j]) > 0
	})
}

// mtimeOf returns the modification time of a derived file of d, or, when
// the folder does not hold it (the tables recompute it), that of the newest
// file it was computed from.
func mtimeOf(d *parse.SysbenchDir, name string, from ...string) time.Time {
	if m, ok := d.ModTime[name]; ok {
		return m
	}
	var best time.Time
	for _, f := range from {
		if m, ok := d.ModTime[f]; ok && m.After(best) {
			best = m
		}
	}
	return best
}

// sortedTests orders the tests of folder dir by their sb.r.qps file names
// as `ls dir/sb.r.qps.* | sort` and the shell glob dir/sb.r.qps.* list
// them under the collation.
func sortedTests(dir string, tests []parse.SysbenchTest, coll Collation) []parse.SysbenchTest {
	out := append([]parse.SysbenchTest(nil), tests...)
	name := func(t parse.SysbenchTest) string { return dir + "/sb.r.qps." + t.Sfx }
	sort.SliceStable(out, func(i, j int) bool { return coll.Less(name(out[i]), name(out[j])) })
	return out
}
