package compat

import (
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Sysbench is a set of sysbench results as run.sh and an.sh computed them:
// the typed set, each value carrying the text the scripts printed for it,
// and the printed tokens the summaries read back (SysbenchTables). A
// value's number is the one computed before printing (the unrounded QPS,
// for one), so that the report's relative values compare as in the default
// mode; the summaries read the printed tokens, as the scripts did.
type Sysbench struct {
	Set   *metrics.SysbenchSet
	mu    sync.Mutex // runs and loads are filled by concurrent computations
	runs  map[*metrics.SysbenchResult]*runText
	loads map[*metrics.SysbenchLoad]*metText
}

// The sb.r.<metric> files, in the order run.sh writes them.
const (
	rQPS = iota
	rTrx
	rAvg
	rMax
	r95
	numR
)

var rMetrics = [numR]string{"qps", "trx", "rtavg", "rtmax", "rt95"}

// runText is what run.sh printed for one run.
type runText struct {
	met metText
	// r holds each value as its sb.r.<metric> line prints it (index rQPS …
	// r95); "" when sysbench printed none, and the line then omits it.
	r [numR]string
}

// metText is one sb.met file as an.sh printed it, computed or archived.
type metText struct {
	rate string // the operation rate run.sh passed to an.sh, as given
	// iostat and vmstat are lines 3 and 6, as printed: samp r/s rMB/s w/s
	// wMB/s r/o rKB/o wKB/o o/s and samp cs/s cpu/s cs/o cpu/o, TAB
	// separated. The summaries split them as awk does, so an empty sample
	// count shifts the later fields.
	iostat, vmstat string
	// archived holds the lines of an archived sb.met file, written back
	// as they are; nil for a computed one.
	archived []string
}

// line is line n of sb.met as awk's NR == n reads it, "" when the file is
// shorter.
func (m *metText) line(n int) string {
	l := m.lines()
	if n > len(l) {
		return ""
	}
	return l[n-1]
}

// lines are the six lines of sb.met.
func (m *metText) lines() []string {
	if m.archived != nil {
		return m.archived
	}
	return []string{
		"iostat, vmstat normalized by operation rate",
		"samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s",
		m.iostat,
		"",
		"samp\tcs/s\tcpu/s\tcs/o\tcpu/o",
		m.vmstat,
	}
}

// ComputeSysbench computes every folder as the scripts did, in the given
// order (the first is the base). The set's Options.Compat is true.
func ComputeSysbench(fsys fs.FS, dirs []*parse.SysbenchDir, opt metrics.Options) (*Sysbench, error) {
	opt.Compat = true
	sb := &Sysbench{runs: map[*metrics.SysbenchResult]*runText{}, loads: map[*metrics.SysbenchLoad]*metText{}}
	set, err := metrics.ComputeSysbenchWith(fsys, dirs, opt, metrics.SysbenchRules{Run: sb.run, Load: sb.load})
	if err != nil {
		return nil, err
	}
	sb.Set = set
	return sb, nil
}

// run computes one run as run.sh and an.sh did: a scan rate from awk's
// reading of the tokens (inf or -nan when it divides by zero), the sb.r
// cells and sb.met.
func (sb *Sysbench) run(run *parse.SysbenchRun, dbms string, opt metrics.Options) *metrics.SysbenchResult {
	r := metrics.NewSysbenchResult(run, dbms)
	var rep parse.SysbenchReport
	if run.Output != nil {
		rep = run.Output.Report
	}
	t := &runText{}
	// rate is the operation rate as run.sh passed it to an.sh.
	var rate string
	rateUnit := metrics.QueriesPerSec
	switch {
	case run.Output == nil && run.Met != nil:
		// No sb.o: the rate run.sh passed to an.sh is in sb.met (and
		// NewSysbenchResult said so).
		if run.Test.Scan() {
			rateUnit = metrics.KRowsPerSec
		}
		rate, _ = run.Met.IostatValue("o/s")
		r.QPS = metrics.Known(awk.Num(rate), rateUnit).Printed(awk.F(awk.Num(rate), 0))
		t.r[rQPS] = awk.F(awk.Num(rate), 0)
	case run.Test.Scan():
		v := scanRate(run.Output, opt.ScanGen)
		rate, rateUnit = awk.F(v, 0), metrics.KRowsPerSec
		r.QPS = metrics.Known(v, metrics.KRowsPerSec).Printed(rate)
		t.r[rQPS] = rate
	default:
		rate = rep.QPS.Text
		r.QPS = printed(r.QPS, 0)
		t.r[rQPS] = rCell(rep.QPS, true)
	}
	r.TPS = printed(r.TPS, 0)
	t.r[rTrx] = rCell(rep.TPS, true)
	t.r[rAvg] = rCell(rep.LatAvg, false)
	t.r[rMax] = rCell(rep.LatMax, false)
	t.r[r95] = rCell(rep.LatPct, false)

	cpus, src := metrics.SysbenchCPUs(run, opt)
	var warns []string
	r.HW, t.met, warns = normalizeHW(run, rate, rateUnit, cpus, opt.Device, metrics.SysbenchOp(run.Test))
	r.HW.CPUsSource = src
	r.Warnings = append(r.Warnings, runWarnings(dbms, run.Test.Sfx, warns)...)
	sb.mu.Lock()
	sb.runs[r] = t
	sb.mu.Unlock()
	return r
}

// printed gives a known value the text printf "%.<digits>f" printed.
func printed(v metrics.Value, digits int) metrics.Value {
	if !v.OK() {
		return v
	}
	return v.Printed(awk.F(v.V, digits))
}

// rCell is one sb.r cell: "%.0f" of awk's reading of the rate for qps and
// trx, the raw latency token otherwise; "" when sysbench printed none.
func rCell(m parse.Measure, round bool) string {
	switch {
	case !m.Found():
		return ""
	case round:
		return awk.F(awk.Num(m.Text), 0)
	}
	return m.Text
}

// scanRate computes the row rate of a scan test in the chosen generation
// as run.sh did: a missing token reads as 0, so the division may give inf
// or NaN (-nan), and a missing sb.o gives NaN.
func scanRate(o *parse.SysbenchOutput, gen int) float64 {
	if o == nil {
		return math.NaN()
	}
	rep := o.Report
	rows := awk.Num(o.Options["table-size"])
	switch gen {
	case metrics.ScanGenRowsPerRun:
		return rows * awk.Num(o.Options["tables"]) / awk.Num(rep.Elapsed.Text) / 1000
	case metrics.ScanGenRowsPerScanRate:
		return rows * awk.Num(rep.QPS.Text) / 1000
	}
	return (rows / 1000) / (awk.Num(rep.LatAvg.Text) / 1000)
}

// load computes the prepare step: sb.prepare.met divides by token 10 of the
// Load seconds line.
// runWarnings types the warnings of a run, each about its DBMS and test.
func runWarnings(dbms, test string, texts []string) []metrics.Warning {
	out := metrics.TextWarnings(texts)
	for i := range out {
		out[i].DBMS, out[i].Step = dbms, test
	}
	return out
}

func (sb *Sysbench) load(run *parse.SysbenchRun, dbms string, opt metrics.Options) *metrics.SysbenchLoad {
	l := metrics.NewSysbenchLoad(run, dbms)
	ips := ""
	if o := run.Output; o != nil && o.Load != nil {
		l.Seconds = l.Seconds.Printed(strconv.FormatInt(o.Load.Seconds, 10))
		ips = o.Load.IPS.Text
	}
	cpus := opt.Cores
	if cpus == 0 && run.Iostat != nil {
		cpus = run.Iostat.CPUs
	}
	hw, met, warns := normalizeHW(run, ips, metrics.InsertsPerSec, cpus, opt.Device, "insert")
	l.HW = hw
	l.Warnings = append(l.Warnings, runWarnings(dbms, run.Test.Sfx, warns)...)
	sb.mu.Lock()
	sb.loads[l] = &met
	sb.mu.Unlock()
	return l
}

// normalizeHW computes sb.met as an.sh did: iostat and vmstat averages
// divided by awk's reading of the rate q, printed with printf (inf and
// -nan for a division by zero).
func normalizeHW(run *parse.SysbenchRun, q string, rateUnit metrics.Unit, cpus int, device, op string) (metrics.SysbenchHW, metText, []string) {
	h := metrics.SysbenchHW{CPUs: cpus, Device: device}
	if h.Device == "" && run.Iostat != nil {
		h.Device = run.Iostat.BusiestDevice()
	}
	io := iostatSums(run.Iostat, h.Device)
	vm := vmstatSums(run.Vmstat)
	warns := append(io.Warnings, vm.warnings...)
	h.IostatSamples, h.VmstatSamples = io.Rows, vm.n
	qv := awk.Num(q)
	h.Rate = metrics.Known(qv, rateUnit).Printed(q)
	v := func(sum float64, c int, scale float64, digits int, per bool, u metrics.Unit) metrics.Value {
		x := sum / float64(c) / scale
		if per {
			x /= qv
		}
		return metrics.Known(x, u).Printed(awk.F(x, digits))
	}
	h.ReadsPerSec = v(io.RS, io.Rows, 1, 1, false, metrics.ReadsPerSec)
	h.ReadMBPerSec = v(io.RKB, io.Rows, 1024, 1, false, metrics.MiBPerSec)
	h.WritesPerSec = v(io.WS, io.Rows, 1, 1, false, metrics.WritesPerSec)
	h.WriteMBPerSec = v(io.WKB, io.Rows, 1024, 1, false, metrics.MiBPerSec)
	h.ReadsPerOp = v(io.RS, io.Rows, 1, 3, true, sbUnit("r/o", op))
	h.ReadKBPerOp = v(io.RKB, io.Rows, 1, 3, true, sbUnit("rKB/o", op))
	h.WriteKBPerOp = v(io.WKB, io.Rows, 1, 3, true, sbUnit("wKB/o", op))
	h.CsPerSec = v(vm.cs, vm.n, 1, 0, false, metrics.CSPerSec)
	h.CPUPerSec = v(vm.cpu, vm.n, 1, 1, false, metrics.CPUPercent)
	h.CsPerOp = v(vm.cs, vm.n, 1, 3, true, sbUnit("cs/o", op))
	h.CPUPerOp = v(vm.cpu, vm.n, 1, 6, true, sbUnit("cpu/o", op))
	h.CPUMicrosPerOp = printed(metrics.CPUMicros(h.CPUPerOp, cpus, op), 1)
	t := func(v metrics.Value) string { s, _ := v.Text(); return s }
	met := metText{
		rate: q,
		iostat: strings.Join([]string{countStr(io.Rows), t(h.ReadsPerSec), t(h.ReadMBPerSec), t(h.WritesPerSec), t(h.WriteMBPerSec),
			t(h.ReadsPerOp), t(h.ReadKBPerOp), t(h.WriteKBPerOp), q}, "\t"),
		vmstat: strings.Join([]string{countStr(vm.n), t(h.CsPerSec), t(h.CPUPerSec), t(h.CsPerOp), t(h.CPUPerOp)}, "\t"),
	}
	if run.Iostat != nil {
		h.IostatSource = run.Iostat.Name
	}
	if run.Vmstat != nil {
		h.VmstatSource = run.Vmstat.Name
	}
	if m := run.Met; m != nil && (run.Iostat == nil || run.Vmstat == nil) {
		archivedHW(&h, &met, m, op, cpus, run.Iostat == nil, run.Vmstat == nil)
	}
	return h, met, warns
}

// archivedHW takes the iostat values, the vmstat values or both from an
// archived sb.met (where sb.io or sb.vm is missing): the lines as an.sh
// printed them and values that keep those texts. A run with neither file
// keeps the sb.met file as it is.
func archivedHW(h *metrics.SysbenchHW, met *metText, m *parse.SysbenchMet, op string, cpus int, iostat, vmstat bool) {
	v := func(tok string, u metrics.Unit) metrics.Value { return metrics.Known(awk.Num(tok), u).Printed(tok) }
	if iostat {
		h.IostatSource, met.iostat = m.Name, m.Iostat
		c := func(col string) string { tok, _ := m.IostatValue(col); return tok }
		h.IostatSamples = int(awk.Num(c("samp")))
		h.ReadsPerSec, h.ReadMBPerSec = v(c("r/s"), metrics.ReadsPerSec), v(c("rMB/s"), metrics.MiBPerSec)
		h.WritesPerSec, h.WriteMBPerSec = v(c("w/s"), metrics.WritesPerSec), v(c("wMB/s"), metrics.MiBPerSec)
		h.ReadsPerOp = v(c("r/o"), sbUnit("r/o", op))
		h.ReadKBPerOp = v(c("rKB/o"), sbUnit("rKB/o", op))
		h.WriteKBPerOp = v(c("wKB/o"), sbUnit("wKB/o", op))
	}
	if vmstat {
		h.VmstatSource, met.vmstat = m.Name, m.Vmstat
		c := func(col string) string { tok, _ := m.VmstatValue(col); return tok }
		h.VmstatSamples = int(awk.Num(c("samp")))
		h.CsPerSec, h.CPUPerSec = v(c("cs/s"), metrics.CSPerSec), v(c("cpu/s"), metrics.CPUPercent)
		h.CsPerOp, h.CPUPerOp = v(c("cs/o"), sbUnit("cs/o", op)), v(c("cpu/o"), sbUnit("cpu/o", op))
		h.CPUMicrosPerOp = printed(metrics.CPUMicros(h.CPUPerOp, cpus, op), 1)
	}
	if iostat && vmstat {
		met.archived = m.Lines
	}
}

// iostatSums adds up the iostat rows of every device whose name contains
// the name, as the scripts' grep did, and warns about each other device
// that is averaged in.
func iostatSums(s *parse.Iostat, device string) metrics.IostatSums {
	out := metrics.SumIostat(s, device, strings.Contains)
	if out.Rows == 0 {
		return out
	}
	out.Warnings = append(out.Warnings, alsoMatching(s, device)...)
	return out
}

// alsoMatching warns about each device other than the one named whose name
// contains it: the scripts' grep averaged its rows in.
func alsoMatching(s *parse.Iostat, device string) []string {
	var out []string
	for _, d := range s.Devices() {
		if d != device && strings.Contains(d, device) {
			out = append(out, fmt.Sprintf("%s: device %s also matches %q and is averaged in (compat)", s.Name, d, device))
		}
	}
	return out
}

// vmSums are the vmstat sums of cs and us+sy.
type vmSums struct {
	n        int
	cs, cpu  float64
	warnings []string
}

// vmstatSums adds up the vmstat samples and counts them as the scripts
// did: every line but the column headers and the first line is a sample,
// repeated group headers included (as zeros).
func vmstatSums(v *parse.Vmstat) vmSums {
	var out vmSums
	if v == nil {
		return out
	}
	for _, x := range v.Samples {
		out.cs += x.Cs
		out.cpu += x.Us + x.Sy
	}
	out.n = max(v.Lines-v.ColumnHeaders-1, 0)
	if extra := v.GroupHeaders - 1; extra > 0 {
		out.warnings = append(out.warnings, fmt.Sprintf("%s: %d repeated vmstat header lines counted as samples (compat)", v.Name, extra))
	}
	return out
}

// Sub is the compat computation of set, a part of sb.Set (a group of its
// DBMS): it shares sb's texts of the runs.
func (sb *Sysbench) Sub(set *metrics.SysbenchSet) *Sysbench {
	return &Sysbench{Set: set, runs: sb.runs, loads: sb.loads}
}

// sbUnit is the unit of a sysbench column (metrics.Props.UnitOf) in a test
// whose operation is op.
func sbUnit(name, op string) metrics.Unit {
	p, _ := metrics.PropsByName(name)
	return p.UnitOf(op, metrics.NoUnit)
}
