package compat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ResLines renders the summary in the layout of the driver's o.res file
// (current generation, with the iostat column averages). In compat mode the
// lines equal the driver's own file for the same logs.
func (s *Summary) ResLines() []string {
	var l []string
	add := func(x ...string) { l = append(l, x...) }
	add(fmt.Sprintf("%d processes, %d rows-per-process, %d seconds, %s rows-per-second, %s rows-per-second-per-user, %d queries, %s queries-per-second, %s deletes",
		s.RealDop, s.MaxRows, s.TotSecs, s.InsertRate, s.InsertPer, s.TotalQuery, s.QueryRate, s.Deletes))
	add("", "iostat, vmstat normalized by insert rate",
		"nsamp\tr/s\trMB/s\tw/s\twMB/s\tr/i\trKB/i\tw/i\twKB/i\tips",
		strings.Join(s.ByInsert.Iostat[:], "\t"),
		"", "nsamp\tcs/s\tcpu/s\tcs/q\tcpu/q",
		strings.Join(s.ByInsert.Vmstat[:], "\t"),
		"", "iostat, vmstat normalized by query rate",
		"nsamp\tr/s\trMB/s\tw/s\twMB/s\tr/q\trKB/q\tw/q\twKB/q\tqps",
		strings.Join(s.ByQuery.Iostat[:], "\t"),
		"", "nsamp\tcs/s\tcpu/s\tcs/q\tcpu/q",
		strings.Join(s.ByQuery.Vmstat[:], "\t"),
		"", "average values from iostat for "+s.Device,
		TabTerminated(s.IostatHeader), TabTerminated(s.IostatAvg),
		"", "dbGB\t"+s.DBGB, "dbdirGB\t"+s.DBDirGB+"\t"+s.DBDirPath, "")
	if s.PsLine != "" {
		add(s.PsLine)
	}
	add("")
	for _, k := range parse.HistKinds {
		add("Max " + k.String())
		add(s.Max[k]...)
	}
	for _, k := range parse.HistKinds {
		add("")
		for _, lines := range s.histText {
			for _, t := range lines {
				if strings.Contains(t, k.Label()) {
					add(t)
				}
			}
		}
	}
	add("", "insert, delete and query rate at nth percentile")
	for _, ps := range s.Percentiles {
		for _, p := range ps {
			add(fmt.Sprintf("%dth, %d / %d = %s insert, %s delete, %s query", p.X, p.Off, p.Lines, p.Insert, p.Delete, p.Query))
		}
	}
	add("", "CPU seconds",
		fmt.Sprintf("client: %s user, %s system, %s total", s.ClientCPU[0], s.ClientCPU[1], s.ClientCPU[2]),
		"dbms: "+s.DBMSCPU)
	return l
}

// TabTerminated joins fields with a TAB after each one, the way the original
// awk loops printed iostat columns.
func TabTerminated(f []string) string {
	var b strings.Builder
	for _, x := range f {
		b.WriteString(x)
		b.WriteByte('\t')
	}
	return b.String()
}

// Cells is a metrics row as etl.sh printed it: twenty metrics and the tag.
type Cells [metrics.NumMetrics + 1]string

const colTag = int(metrics.NumMetrics)

// RowFromRes computes the row from the lines of an o.res file exactly as
// etl.sh did: by line number, with bc arithmetic for cpupq. present is false
// when there is no o.res at all (etl.sh then printed a mostly empty row).
func RowFromRes(lines []string, present bool, readWrite bool, tag, user string, ncpu int) Cells {
	var r Cells
	line := func(n int) string { // head -n | tail -1
		if len(lines) == 0 {
			return ""
		}
		if n > len(lines) {
			n = len(lines)
		}
		return lines[n-1]
	}
	tok := func(s string, k int) string {
		f := strings.Fields(s)
		if k-1 < len(f) {
			return f[k-1]
		}
		return ""
	}
	l1 := line(1)
	printf0 := func(s string) string {
		if !present {
			return "" // awk had no input line
		}
		return awk.F(awk.Num(s), 0)
	}
	off1, off2, offq := 5, 8, 7
	r[metrics.IPS] = printf0(tok(l1, 7))
	r[metrics.QPS] = "0"
	if readWrite {
		off1, off2, offq = 12, 15, 13
		r[metrics.QPS] = printf0(tok(l1, 13))
	}
	by, vm, w := line(off1), line(off2), line(5)
	if !present {
		by, vm, w = "", "", ""
	}
	r[metrics.RPS], r[metrics.RMBPS], r[metrics.WPS] = tok(by, 2), tok(by, 3), tok(by, 4)
	r[metrics.WMBPS], r[metrics.RPQ], r[metrics.RKBPQ] = tok(by, 5), tok(by, 6), tok(by, 7)
	r[metrics.WPI], r[metrics.WKBPI] = tok(w, 8), tok(w, 9)
	r[metrics.CSPS], r[metrics.CPUPS], r[metrics.CSPQ] = tok(vm, 2), tok(vm, 3), tok(vm, 4)
	r[metrics.CPUPQ] = cpupq(r[metrics.CPUPS], tok(l1, 5), strconv.Itoa(ncpu), tok(l1, offq))
	first := func(sub string) string {
		for _, l := range lines {
			if strings.Contains(l, sub) {
				return l
			}
		}
		return ""
	}
	if l := first("dbGB"); l != "" {
		r[metrics.DBGB1] = awk.F(awk.Num(tok(l, 2)), 1)
	}
	if l := first("dbdirGB"); l != "" {
		r[metrics.DBGB2] = awk.F(awk.Num(tok(l, 2)), 1)
	}
	u7 := user
	if len(u7) > 7 {
		u7 = u7[:7]
	}
	r[metrics.RSS] = "NA"
	if l := first(u7); l != "" && present {
		r[metrics.RSS] = awk.F(awk.Num(tok(l, 6))/(1024*1024), 1)
	}
	label, ptok := "Max insert", 6
	if readWrite {
		label, ptok = "Max query", 10
	}
	for i, l := range lines {
		if strings.HasPrefix(l, label) {
			if i+1 < len(lines) {
				r[metrics.MaxOp] = lines[i+1]
			}
			break
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "50th") {
			r[metrics.P50] = tok(l, ptok)
			break
		}
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "99th") {
			r[metrics.P99] = tok(l, ptok)
			break
		}
	}
	r[colTag] = tag
	return r
}

// cpupq computes CPU microseconds per operation with etl.sh's bc steps:
// tcpu = %.1f of (cpups/100.0)*nsecs*ncpu at scale 6, then
// %.0f of (tcpu*1000000.0)/(rate*nsecs) at scale 6. Any operand bc cannot
// read, or a zero divisor, gives "" as bc printed nothing.
func cpupq(cpups, nsecs, ncpu, rate string) string {
	c, ok1 := awk.ParseDec(cpups)
	n, ok2 := awk.ParseDec(nsecs)
	p, ok3 := awk.ParseDec(ncpu)
	q, ok4 := awk.ParseDec(rate)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return ""
	}
	frac, _ := awk.Div(c, hundred, 6)
	tcpu := awk.F(awk.Mul(awk.Mul(frac, n, 6), p, 6).Float(), 1)
	t, ok := awk.ParseDec(tcpu)
	if !ok {
		return ""
	}
	million, _ := awk.ParseDec("1000000.0")
	v, ok := awk.Div(awk.Mul(t, million, 6), awk.Mul(q, n, 6), 6)
	if !ok {
		return ""
	}
	return awk.F(v.Float(), 0)
}
