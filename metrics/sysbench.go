package metrics

import (
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// A SBValue is one number of a sysbench table: the value, the text the report
// prints for it and, when it cannot be known, the reason. V of an NA value
// is NaN, so that a renderer that forgets to check OK draws nothing.
type SBValue struct {
	V    float64
	Text string
	Why  string // non-empty when the value is NA; Text is then "NA"
}

// OK reports whether the value is known.
func (v SBValue) OK() bool { return v.Why == "" }

func sbKnown(v float64, text string) SBValue { return SBValue{V: v, Text: text} }

func sbNA(format string, args ...any) SBValue {
	return SBValue{V: math.NaN(), Text: "NA", Why: fmt.Sprintf(format, args...)}
}

// Scan-rate generations (FORMATS.md §4.14). The "qps" of a scan test is a
// rate of rows, defined three ways over time; compare scan values only
// within one generation.
const (
	// ScanGenRowsPerRun (before 2025-03-13): rows per table × tables ÷ run
	// seconds ÷ 1000, assuming every table is scanned once.
	ScanGenRowsPerRun = 1
	// ScanGenRowsPerScanRate (2025-03-13 to 2025-04-19): rows per table ×
	// scans per second ÷ 1000.
	ScanGenRowsPerScanRate = 2
	// ScanGenRowsPerLatency (since 2025-04-19, the default): rows per table
	// ÷ 1000 ÷ (average latency in seconds), one scan stream.
	ScanGenRowsPerLatency = 3
)

// The sb.r.<metric> files, in the order run.sh writes them.
const (
	RQPS = iota
	RTrx
	RAvg
	RMax
	R95
	numR
)

// RMetrics names the sb.r.<metric> files.
var RMetrics = [numR]string{"qps", "trx", "rtavg", "rtmax", "rt95"}

// SysbenchHW holds the HW metrics of one run normalized by its operation
// rate, the content of sb.met (an.sh): iostat and vmstat averages per
// second and per operation.
type SysbenchHW struct {
	Device        string // iostat device averaged
	Rate          string // the operation rate divided by, as printed (o/s)
	IostatSamples int
	VmstatSamples int

	ReadsPerSec, ReadMBPerSec, WritesPerSec, WriteMBPerSec SBValue
	ReadsPerOp, ReadKBPerOp, WriteKBPerOp                  SBValue
	CsPerSec, CPUPerSec, CsPerOp, CPUPerOp                 SBValue
	// CPUMicrosPerOp is CPUPerOp × CPUs × 10⁴: CPU microseconds per
	// operation. CPUPerOp is a percentage of all CPUs divided by a rate, so
	// it only compares runs on the same host.
	CPUMicrosPerOp SBValue
	CPUs           int    // 0 when unknown
	CPUsSource     string // "option", the sb.o "<N> CPUs" line or the iostat banner

	// Iostat and Vmstat are lines 3 and 6 of sb.met as printed.
	Iostat [9]string
	Vmstat [5]string
}

// MetLines returns the six lines of sb.met.
func (h *SysbenchHW) MetLines() []string {
	return []string{
		"iostat, vmstat normalized by operation rate",
		"samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s",
		strings.Join(h.Iostat[:], "\t"),
		"",
		"samp\tcs/s\tcpu/s\tcs/o\tcpu/o",
		strings.Join(h.Vmstat[:], "\t"),
	}
}

// SysbenchResult is one DBMS × test × thread count.
type SysbenchResult struct {
	DBMS    string // result folder name, the DBMS tag of the summaries
	Test    parse.SysbenchTest
	Threads int
	Source  string // the sb.o file

	// QPS is queries per second; for scan tests the row rate of the chosen
	// generation, in thousands of rows per second.
	QPS, TPS               SBValue
	LatAvg, LatPct, LatMax SBValue // milliseconds
	Percentile             int     // the percentile of LatPct, 95 unless --percentile was used
	Engine                 string  // "pgsql", "innodb", "rocksdb": the label of sb.r.* lines
	ErrorsPerSec           SBValue
	HW                     SysbenchHW

	// R holds each value as its sb.r.<metric> line prints it (index RQPS …
	// R95). In compat mode a value sysbench did not print is "" and the
	// line omits it, as run.sh did; otherwise it is "NA".
	R [numR]string
	// Intervals are sysbench's --report-interval lines, for charts.
	Intervals []parse.SysbenchInterval
	Warnings  []string
}

func (r *SysbenchResult) warn(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// SysbenchLoad is the prepare (load) step of a DBMS.
type SysbenchLoad struct {
	DBMS     string
	Sfx      string // suffix of sb.prepare.o.<sfx>
	Seconds  SBValue
	IPS      SBValue // rows inserted per second
	IPSText  string  // token 10 of the Load seconds line, "" when absent
	HW       SysbenchHW
	Warnings []string
}

// SysbenchDBMS is every result of one DBMS configuration folder.
type SysbenchDBMS struct {
	Dir      *parse.SysbenchDir
	Name     string
	Load     *SysbenchLoad // nil without a prepare step
	Results  []*SysbenchResult
	Warnings []string // missing thread counts and other folder-level problems
	byKey    map[string]*SysbenchResult
}

// Result returns the result of a test (by suffix) at nt threads, or nil.
func (d *SysbenchDBMS) Result(sfx string, nt int) *SysbenchResult {
	return d.byKey[sfx+"\x00"+strconv.Itoa(nt)]
}

// ComputeSysbenchDir reads and computes every run of one folder.
func ComputeSysbenchDir(fsys fs.FS, dir *parse.SysbenchDir, opt Options) (*SysbenchDBMS, error) {
	d := &SysbenchDBMS{Dir: dir, Name: dir.Name, byKey: map[string]*SysbenchResult{}}
	all := dir.AllThreads()
	for _, t := range dir.Tests {
		have := dir.Threads[t.Sfx]
		for _, nt := range all {
			if !containsInt(have, nt) {
				d.Warnings = append(d.Warnings, fmt.Sprintf("%s: %s has no run with %d threads (missing thread count)", dir.Name, t.Sfx, nt))
			}
		}
		for _, nt := range have {
			run, err := parse.ReadSysbenchRun(fsys, dir.Dir, t, nt)
			if err != nil {
				return nil, err
			}
			r := ComputeSysbenchRun(run, dir.Name, opt)
			d.Results = append(d.Results, r)
			d.byKey[t.Sfx+"\x00"+strconv.Itoa(nt)] = r
		}
	}
	if dir.Prepare != "" {
		run, err := parse.ReadSysbenchPrepare(fsys, dir.Dir, dir.Prepare)
		if err != nil {
			return nil, err
		}
		d.Load = computeLoad(run, dir.Name, opt)
	}
	return d, nil
}

func containsInt(l []int, x int) bool {
	for _, v := range l {
		if v == x {
			return true
		}
	}
	return false
}

// ComputeSysbenchRun computes the numbers of one run.
func ComputeSysbenchRun(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchResult {
	r := &SysbenchResult{DBMS: dbms, Test: run.Test, Threads: run.Threads}
	for _, p := range run.Problems {
		r.warn("%v", p)
	}
	o := run.Output
	var rep parse.SysbenchReport
	if o != nil {
		r.Source = o.Name
		r.Engine = engineOf(o)
		r.Intervals = o.Intervals
		rep = o.Report
		if !o.HasReport {
			r.warn("%s: no final report; the run died or was stopped", o.Name)
		}
		if len(o.Fatal) > 0 {
			r.warn("%s: %d FATAL lines, the first at line %d", o.Name, len(o.Fatal), o.Fatal[0].Line)
		}
	}
	missing := func(what string) SBValue {
		if o == nil {
			return sbNA("sb.o file missing")
		}
		return sbNA("%s: sysbench printed no %s (run died?)", o.Name, what)
	}
	measure := func(m parse.Measure, what string, digits int) SBValue {
		if !m.Found() {
			return missing(what)
		}
		if digits < 0 {
			return sbKnown(m.Value, m.Text)
		}
		return sbKnown(m.Value, ff(m.Value, digits))
	}
	r.TPS = measure(rep.TPS, "transaction rate", 0)
	r.LatAvg = measure(rep.LatAvg, "average latency", -1)
	r.LatPct = measure(rep.LatPct, "latency percentile", -1)
	r.LatMax = measure(rep.LatMax, "maximum latency", -1)
	r.ErrorsPerSec = measure(rep.ErrorsPerSec, "error rate", -1)
	r.Percentile = rep.Percentile
	if rep.Errors.Found() && rep.Errors.Value > 0 && rep.Queries.Found() && rep.Queries.Value == 0 {
		r.warn("%s: every query failed (%s errors)", o.Name, rep.Errors.Text)
	}

	// rate is the operation rate as run.sh passed it to an.sh.
	rate := ""
	if run.Test.Scan() {
		v, text, why := scanRate(o, opt)
		rate = text
		if why != "" {
			r.QPS = sbNA("%s", why)
		} else {
			r.QPS = sbKnown(v, text)
		}
	} else {
		r.QPS = measure(rep.QPS, "query rate", 0)
		rate = rep.QPS.Text
	}

	// sb.r cells: %.0f of the raw rate for qps and trx, the raw latency tokens.
	cell := func(m parse.Measure, round bool) string {
		switch {
		case !m.Found() && opt.Compat:
			return ""
		case !m.Found():
			return "NA"
		case round:
			return ff(awkNum(m.Text), 0)
		}
		return m.Text
	}
	if run.Test.Scan() {
		r.R[RQPS] = rate
		if rate == "" && !opt.Compat {
			r.R[RQPS] = "NA"
		}
	} else {
		r.R[RQPS] = cell(rep.QPS, true)
	}
	r.R[RTrx] = cell(rep.TPS, true)
	r.R[RAvg] = cell(rep.LatAvg, false)
	r.R[RMax] = cell(rep.LatMax, false)
	r.R[R95] = cell(rep.LatPct, false)

	cpus, src := 0, ""
	switch {
	case opt.Cores > 0:
		cpus, src = opt.Cores, "option"
	case o != nil && o.CPUs > 0:
		cpus, src = o.CPUs, o.Name+" CPUs line"
	case run.Iostat != nil && run.Iostat.CPUs > 0:
		cpus, src = run.Iostat.CPUs, run.Iostat.Name+" banner"
	}
	var warns []string
	r.HW, warns = normalizeHW(run, rate, cpus, opt)
	r.HW.CPUsSource = src
	r.Warnings = append(r.Warnings, warns...)
	return r
}

// scanRate computes the row rate of a scan test in the chosen generation,
// as run.sh printed it (%.0f). In compat mode a missing input counts as 0,
// as awk does, and the division prints inf or -nan.
func scanRate(o *parse.SysbenchOutput, opt Options) (float64, string, string) {
	if o == nil {
		if opt.Compat {
			return math.NaN(), "-nan", ""
		}
		return 0, "", "sb.o file missing"
	}
	rep := o.Report
	rowsTok, haveRows := o.Option("table-size")
	rows := awkNum(rowsTok)
	var v float64
	var why string
	switch opt.ScanGen {
	case ScanGenRowsPerRun:
		tabs := awkNum(o.Options["tables"])
		if !rep.Elapsed.Found() {
			why = o.Name + ": no elapsed time"
		}
		v = rows * tabs / awkNum(rep.Elapsed.Text) / 1000
	case ScanGenRowsPerScanRate:
		if !rep.QPS.Found() {
			why = o.Name + ": no scan rate (queries: line)"
		}
		v = rows * awkNum(rep.QPS.Text) / 1000
	default:
		if !rep.LatAvg.Found() {
			why = o.Name + ": no average latency"
		}
		v = (rows / 1000) / (awkNum(rep.LatAvg.Text) / 1000)
	}
	if !haveRows && why == "" {
		why = o.Name + ": the command line has no --table-size"
	}
	if opt.Compat {
		return v, ff(v, 0), ""
	}
	if why == "" && (math.IsInf(v, 0) || math.IsNaN(v)) {
		why = o.Name + ": scan rate divides by zero"
	}
	if why != "" {
		return 0, "", why
	}
	return v, ff(v, 0), ""
}

func computeLoad(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchLoad {
	l := &SysbenchLoad{DBMS: dbms, Sfx: run.Test.Sfx}
	for _, p := range run.Problems {
		l.Warnings = append(l.Warnings, p.Error())
	}
	o := run.Output
	switch {
	case o == nil:
		l.Seconds, l.IPS = sbNA("sb.prepare.o file missing"), sbNA("sb.prepare.o file missing")
	case o.Load == nil:
		l.Seconds = sbNA("%s: no Load seconds line (the load failed?)", o.Name)
		l.IPS = l.Seconds
	default:
		l.Seconds = sbKnown(float64(o.Load.Seconds), strconv.FormatInt(o.Load.Seconds, 10))
		l.IPS = sbKnown(o.Load.IPS.Value, o.Load.IPS.Text)
		l.IPSText = o.Load.IPS.Text
	}
	cpus := opt.Cores
	if cpus == 0 && run.Iostat != nil {
		cpus = run.Iostat.CPUs
	}
	var warns []string
	l.HW, warns = normalizeHW(run, l.IPSText, cpus, opt)
	l.Warnings = append(l.Warnings, warns...)
	return l
}

// normalizeHW computes sb.met (an.sh): iostat and vmstat averages divided by
// the operation rate q, given as the string run.sh passed.
func normalizeHW(run *parse.SysbenchRun, q string, cpus int, opt Options) (SysbenchHW, []string) {
	h := SysbenchHW{Rate: q, CPUs: cpus}
	var warns []string
	warn := func(format string, args ...any) { warns = append(warns, fmt.Sprintf(format, args...)) }
	h.Device = opt.Device
	if h.Device == "" && run.Iostat != nil {
		h.Device = run.Iostat.BusiestDevice()
	}
	io := iostatSums(run.Iostat, h.Device, opt.Compat)
	vm := vmstatSums(run.Vmstat, opt.Compat)
	warns = append(warns, io.warnings...)
	warns = append(warns, vm.warnings...)
	h.IostatSamples, h.VmstatSamples = io.n, vm.n
	qv := awkNum(q)
	qOK := q != "" && qv > 0 && !math.IsInf(qv, 0)
	if !opt.Compat && !qOK {
		warn("%s: operation rate %q is not positive; per-operation values are NA", run.Dir+"/"+run.Test.Sfx, q)
	}
	// v builds one value: x is the sum, per divides by the rate too.
	v := func(sum float64, c int, scale float64, digits int, per bool, what string) SBValue {
		fc := float64(c)
		x := sum / fc / scale
		if per {
			x /= qv
		}
		if opt.Compat {
			return sbKnown(x, ff(x, digits))
		}
		switch {
		case c == 0:
			return sbNA("no %s samples", what)
		case per && !qOK:
			return sbNA("operation rate %q is not positive", q)
		}
		return sbKnown(x, ff(x, digits))
	}
	h.ReadsPerSec = v(io.rs, io.n, 1, 1, false, "iostat")
	h.ReadMBPerSec = v(io.rkb, io.n, 1024, 1, false, "iostat")
	h.WritesPerSec = v(io.ws, io.n, 1, 1, false, "iostat")
	h.WriteMBPerSec = v(io.wkb, io.n, 1024, 1, false, "iostat")
	h.ReadsPerOp = v(io.rs, io.n, 1, 3, true, "iostat")
	h.ReadKBPerOp = v(io.rkb, io.n, 1, 3, true, "iostat")
	h.WriteKBPerOp = v(io.wkb, io.n, 1, 3, true, "iostat")
	h.CsPerSec = v(vm.cs, vm.n, 1, 0, false, "vmstat")
	h.CPUPerSec = v(vm.cpu, vm.n, 1, 1, false, "vmstat")
	h.CsPerOp = v(vm.cs, vm.n, 1, 3, true, "vmstat")
	h.CPUPerOp = v(vm.cpu, vm.n, 1, 6, true, "vmstat")
	switch {
	case !h.CPUPerOp.OK():
		h.CPUMicrosPerOp = h.CPUPerOp
	case cpus == 0:
		h.CPUMicrosPerOp = sbNA("CPU count unknown (use --cores)")
	default:
		x := h.CPUPerOp.V * float64(cpus) * 1e4
		h.CPUMicrosPerOp = sbKnown(x, ff(x, 1))
	}
	rateText := q
	if !opt.Compat && q == "" {
		rateText = "NA"
	}
	h.Iostat = [9]string{countStr(io.n), h.ReadsPerSec.Text, h.ReadMBPerSec.Text, h.WritesPerSec.Text, h.WriteMBPerSec.Text,
		h.ReadsPerOp.Text, h.ReadKBPerOp.Text, h.WriteKBPerOp.Text, rateText}
	h.Vmstat = [5]string{countStr(vm.n), h.CsPerSec.Text, h.CPUPerSec.Text, h.CsPerOp.Text, h.CPUPerOp.Text}
	if !opt.Compat {
		if io.n == 0 {
			h.Iostat[0] = "0"
		}
		if vm.n == 0 {
			h.Vmstat[0] = "0"
		}
	}
	return h, warns
}

// ioSums are the sums of the iostat columns the metrics use, over the rows
// of one device.
type ioSums struct {
	n                int
	rs, rkb, ws, wkb float64
	warnings         []string
}

// iostatSums adds up r/s, rkB/s, w/s and wkB/s of the device's rows. Compat
// mode takes every row whose device name contains the name, as the scripts'
// grep did; otherwise only exact matches count.
func iostatSums(s *parse.Iostat, device string, compat bool) ioSums {
	var out ioSums
	if s == nil || device == "" || !s.HasRates() {
		return out
	}
	others := map[string]bool{}
	for _, r := range s.Rows {
		if r.Device != device {
			if !compat || !strings.Contains(r.Device, device) {
				continue
			}
			others[r.Device] = true
		}
		out.rs += r.Values[s.Col.RS]
		out.rkb += r.Values[s.Col.RKB]
		out.ws += r.Values[s.Col.WS]
		out.wkb += r.Values[s.Col.WKB]
		out.n++
	}
	for _, d := range s.Devices() {
		if others[d] {
			out.warnings = append(out.warnings, fmt.Sprintf("%s: device %s also matches %q and is averaged in (compat)", s.Name, d, device))
		}
	}
	if out.n == 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("%s: no iostat rows for device %q", s.Name, device))
	}
	return out
}

// vmSums are the vmstat sums of cs and us+sy.
type vmSums struct {
	n        int
	cs, cpu  float64
	warnings []string
}

// vmstatSums adds up the vmstat samples. The default mode skips the
// since-boot row; compat mode counts as the scripts did: every line but the
// column headers and the first line is a sample, repeated group headers
// included (as zeros).
func vmstatSums(v *parse.Vmstat, compat bool) vmSums {
	var out vmSums
	if v == nil {
		return out
	}
	for _, x := range v.Samples {
		if x.SinceBoot && !compat {
			continue
		}
		out.cs += x.Cs
		out.cpu += x.Us + x.Sy
		out.n++
	}
	if compat {
		out.n = max(v.Lines-v.ColumnHeaders-1, 0)
		if extra := v.GroupHeaders - 1; extra > 0 {
			out.warnings = append(out.warnings, fmt.Sprintf("%s: %d repeated vmstat header lines counted as samples (compat)", v.Name, extra))
		}
	}
	return out
}

// RLine renders one sb.r.<metric>.<sfx> line from the results of one test
// at each thread count, in order: each value followed by a TAB, then
// "<engine> <testType> range=<range>". A nil result is a thread count that
// did not run: compat mode leaves it out (the later values shift left, as
// in run.sh's output), otherwise it prints NA.
func RLine(metric int, results []*SysbenchResult, engine string, t parse.SysbenchTest, compat bool) string {
	var b strings.Builder
	for _, r := range results {
		v := "NA"
		if r != nil {
			v = r.R[metric]
		}
		if compat && (r == nil || v == "") {
			continue
		}
		b.WriteString(v)
		b.WriteByte('\t')
	}
	b.WriteString(engine + " " + t.Label())
	return b.String()
}

// engineOf returns the engine label run.sh writes in sb.r.* lines: the
// --mysql-storage-engine of the command line for MySQL, else the driver
// ("pgsql").
func engineOf(o *parse.SysbenchOutput) string {
	if o == nil {
		return ""
	}
	if e := o.Options["mysql-storage-engine"]; e != "" {
		return e
	}
	return o.Options["db-driver"]
}
