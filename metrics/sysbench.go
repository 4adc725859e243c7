package metrics

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/parse"
)

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

// SysbenchHW holds the HW metrics of one run normalized by its operation
// rate, the content of sb.met (an.sh): iostat and vmstat averages per
// second and per operation.
type SysbenchHW struct {
	Device string // iostat device averaged
	// Rate is the operation rate the per-operation values are divided by:
	// the query rate as sysbench printed it, for a scan test the row rate
	// rounded to an integer (run.sh passed it so), for the load the rows
	// inserted per second.
	Rate          Value
	IostatSamples int
	VmstatSamples int

	ReadsPerSec, ReadMBPerSec, WritesPerSec, WriteMBPerSec Value
	ReadsPerOp, ReadKBPerOp, WriteKBPerOp                  Value
	CsPerSec, CPUPerSec, CsPerOp, CPUPerOp                 Value
	// CPUMicrosPerOp is CPUPerOp × CPUs × 10⁴: CPU microseconds per
	// operation. CPUPerOp is a percentage of all CPUs divided by a rate, so
	// it only compares runs on the same host.
	CPUMicrosPerOp Value
	CPUs           int    // 0 when unknown
	CPUsSource     string // "option", the sb.o "<N> CPUs" line or the iostat banner
	// IostatSource and VmstatSource name the files the iostat and vmstat
	// values come from: sb.io and sb.vm, or, in archives that kept only
	// the results, the sb.met that an.sh wrote from them; "" when there is
	// none.
	IostatSource, VmstatSource string
}

// FromMet reports whether any value comes from an archived sb.met file.
func (h *SysbenchHW) FromMet() bool {
	if h == nil {
		return false
	}
	return isMet(h.IostatSource) || isMet(h.VmstatSource)
}

// isMet reports whether a file is an archived sb.met (sb.prepare.met is
// never read).
func isMet(file string) bool { return strings.HasPrefix(path.Base(file), "sb.met.") }

// SysbenchResult is one DBMS × test × thread count.
type SysbenchResult struct {
	DBMS    string // result folder name, the DBMS tag of the summaries
	Test    parse.SysbenchTest
	Threads int
	Source  string // the sb.o file

	// QPS is queries per second; for scan tests the row rate of the chosen
	// generation, in thousands of rows per second.
	QPS, TPS Value
	// LatAvg, LatPct and LatMax are in milliseconds, with the text sysbench
	// printed for them.
	LatAvg, LatPct, LatMax Value
	Percentile             int    // the percentile of LatPct, 95 unless --percentile was used
	Engine                 string // "pgsql", "innodb", "rocksdb": the label of sb.r.* lines
	ErrorsPerSec           Value
	HW                     SysbenchHW
	// Events is sysbench's "total number of events": the latencies LatPct
	// is a percentile of.
	Events Value

	// Intervals are sysbench's --report-interval lines, for charts.
	Intervals []parse.SysbenchInterval
	// Warnings are the problems met reading and computing the run, each
	// with the DBMS and test (Step) and, where there is one, its file.
	Warnings []Warning
	// Tables, TableSize and Seconds are the --tables, --table-size and
	// --time of the sb.o command line: what a comparison must share; 0
	// when not given.
	Tables, TableSize, Seconds int
	// CPUs and Version are what sysbench printed of the host and itself
	// ("8 CPUs", "sysbench 1.1.0-3ceba0b"), for the report's setup; 0 and
	// "" when it did not.
	CPUs    int
	Version string

	// qpsNoise, when noiseDone, is QPSNoise computed once by the reader's
	// worker, so that the tables that compare runs do not redo it.
	qpsNoise  Interval
	noiseDone bool
}

// QPSNoise is the 95% interval of the run's mean QPS from its interval
// lines (EPS where a test reports events, not queries), the last line left
// out because it may cover a partial interval; unknown without enough of
// them.
func (r *SysbenchResult) QPSNoise() Interval {
	if r == nil {
		return Interval{Why: "no run"}
	}
	if r.noiseDone {
		return r.qpsNoise
	}
	n := len(r.Intervals)
	if n > 0 {
		n--
	}
	y := make([]float64, 0, n)
	for _, iv := range r.Intervals[:n] {
		q := iv.QPS
		if q == 0 && iv.EPS != 0 {
			q = iv.EPS
		}
		y = append(y, q)
	}
	return intervalOf(stats.MeanInterval(y, 0.95))
}

// warn adds a warning about file of the run ("" for none): the text is
// "file: " and the message.
func (r *SysbenchResult) warn(file, format string, args ...any) {
	w := Warning{File: file, DBMS: r.DBMS, Step: r.Test.Sfx, Text: fmt.Sprintf(format, args...)}
	if file != "" {
		w.Text = file + ": " + w.Text
	}
	r.Warnings = append(r.Warnings, w)
}

// sysbenchWarnings types the warnings of code that makes texts, each about
// the DBMS and the test (Step).
func sysbenchWarnings(dbms, test string, texts []string) []Warning {
	out := TextWarnings(texts)
	for i := range out {
		out[i].DBMS, out[i].Step = dbms, test
	}
	return out
}

// problemWarning is the warning of a non-fatal reading error of a run.
func problemWarning(dbms, test string, err error) Warning {
	w := ErrWarning(err)
	w.DBMS, w.Step = dbms, test
	return w
}

// SysbenchLoad is the prepare (load) step of a DBMS.
type SysbenchLoad struct {
	DBMS string
	Sfx  string // suffix of sb.prepare.o.<sfx>
	// Engine is the --mysql-storage-engine of the prepare command, ""
	// without one. run.sh passed it to the prepare only, not to the runs.
	Engine   string
	Seconds  Value
	IPS      Value // rows inserted per second, with the text of the Load seconds line
	HW       SysbenchHW
	Warnings []Warning
}

// SysbenchDBMS is every result of one DBMS configuration folder.
type SysbenchDBMS struct {
	Dir      *parse.SysbenchDir
	Name     string
	Load     *SysbenchLoad // nil without a prepare step
	Results  []*SysbenchResult
	Warnings []Warning // missing thread counts and other folder-level problems
	byKey    map[string]*SysbenchResult
	engine   string // Options.Engine
}

// Result returns the result of a test (by suffix) at nt threads, or nil.
func (d *SysbenchDBMS) Result(sfx string, nt int) *SysbenchResult {
	if d == nil {
		return nil
	}
	return d.byKey[sfx+"\x00"+strconv.Itoa(nt)]
}

// SysbenchRules compute one run and one prepare step from their files.
// ComputeSysbench computes with those of the default mode; the compat edge
// computes them as the original scripts did.
type SysbenchRules struct {
	Run  func(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchResult
	Load func(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchLoad
}

// defaultSysbenchRules are computeSysbenchRun and computeSysbenchLoad.
var defaultSysbenchRules = SysbenchRules{Run: computeSysbenchRun, Load: computeSysbenchLoad}

// computeSysbenchDirs computes every run of every folder, concurrently on
// up to GOMAXPROCS goroutines, and puts them together in folder, test and
// thread order.
func computeSysbenchDirs(fsys fs.FS, dirs []*parse.SysbenchDir, opt Options, rules SysbenchRules) ([]*SysbenchDBMS, error) {
	if fsys == nil {
		return nil, errors.New("nil file system")
	}
	for _, d := range dirs {
		if d == nil {
			return nil, errors.New("nil sysbench folder")
		}
	}
	type job struct {
		dir     int
		test    parse.SysbenchTest
		threads int
		prepare bool
	}
	var jobs []job
	for di, dir := range dirs {
		for _, t := range dir.Tests {
			for _, nt := range dir.Threads[t.Sfx] {
				jobs = append(jobs, job{dir: di, test: t, threads: nt})
			}
		}
		if dir.Prepare != "" {
			jobs = append(jobs, job{dir: di, prepare: true})
		}
	}
	results := make([]*SysbenchResult, len(jobs))
	loads := make([]*SysbenchLoad, len(jobs))
	errs := make([]error, len(jobs))
	ios := make([]deviceIO, len(jobs))
	// compute computes job i with the options o; with no device given it
	// keeps the I/O of each device, from which the folder's is chosen.
	compute := func(i int, o Options) {
		j := jobs[i]
		dir := dirs[j.dir]
		var run *parse.SysbenchRun
		var err error
		if j.prepare {
			run, err = parse.ReadSysbenchPrepare(fsys, dir.Dir, dir.Prepare)
		} else {
			run, err = parse.ReadSysbenchRun(fsys, dir.Dir, j.test, j.threads)
		}
		if errs[i] = err; err != nil {
			return
		}
		if opt.Device == "" && o.Device == "" {
			ios[i] = runDeviceIO(run.Iostat)
		}
		if j.prepare {
			loads[i] = rules.Load(run, dir.Name, o)
		} else {
			results[i] = rules.Run(run, dir.Name, o)
			if r := results[i]; r != nil && !o.Compat {
				// In the worker: the noise test is the costliest part of
				// the tables built later, one run at a time.
				r.qpsNoise, r.noiseDone = r.QPSNoise(), true
			}
		}
	}
	Parallel(len(jobs), func(i int) { compute(i, opt) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// One device per folder: the runs of a DBMS ran on one host with one
	// database device, but a run's own choice can go to another device
	// when that run did little I/O (a cached read-only test beside a busy
	// log disk). The folder's device is chosen from the I/O summed over its
	// runs; the runs that chose otherwise are computed again with it.
	var redo []int
	dirWarn := make([]string, len(dirs))
	if opt.Device == "" {
		byDir := make([][]int, len(dirs))
		for i, j := range jobs {
			byDir[j.dir] = append(byDir[j.dir], i)
		}
		for di, idx := range byDir {
			var sum deviceIO
			for _, i := range idx {
				sum.add(ios[i])
			}
			dev := parse.ChooseDevice(sum.names, sum.kib)
			if dev == "" {
				continue
			}
			var other []int
			chose := map[string]int{}
			for _, i := range idx {
				had := ""
				if jobs[i].prepare {
					had = loads[i].HW.Device
				} else {
					had = results[i].HW.Device
				}
				if had != "" && had != dev {
					other = append(other, i)
					chose[had]++
				}
			}
			if len(other) == 0 {
				continue
			}
			redo = append(redo, other...)
			var parts []string
			for _, n := range sum.names {
				if chose[n] > 0 {
					parts = append(parts, fmt.Sprintf("%s in %d", n, chose[n]))
				}
			}
			dirWarn[di] = fmt.Sprintf("%s: runs chose different block devices (%s of %d); all use %s, the choice from the I/O of all its runs (--device overrides)", dirs[di].Name, strings.Join(parts, ", "), len(idx), dev)
			for _, i := range other {
				ios[i].chosen = dev
			}
		}
	}
	if len(redo) > 0 {
		Parallel(len(redo), func(k int) {
			i := redo[k]
			o := opt
			o.Device = ios[i].chosen
			compute(i, o)
		})
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	out := make([]*SysbenchDBMS, len(dirs))
	for di, dir := range dirs {
		d := &SysbenchDBMS{Dir: dir, Name: dir.Name, byKey: map[string]*SysbenchResult{}, engine: opt.Engine}
		all := dir.AllThreads()
		for _, t := range dir.Tests {
			if t.Warmup() {
				continue
			}
			have := dir.Threads[t.Sfx]
			for _, nt := range all {
				if !containsInt(have, nt) {
					d.Warnings = append(d.Warnings, Warning{DBMS: dir.Name, Step: t.Sfx,
						Text: fmt.Sprintf("%s: %s has no run with %s (missing thread count)", dir.Name, t.Sfx, Plural(nt, "thread"))})
				}
			}
		}
		if dirWarn[di] != "" {
			d.Warnings = append(d.Warnings, Warning{DBMS: dir.Name, Text: dirWarn[di]})
		}
		out[di] = d
	}
	for i, j := range jobs {
		d := out[j.dir]
		switch {
		case j.prepare:
			d.Load = loads[i]
		default:
			r := results[i]
			d.Results = append(d.Results, r)
			d.byKey[j.test.Sfx+"\x00"+strconv.Itoa(j.threads)] = r
		}
	}
	return out, nil
}

// deviceIO is the I/O of each device of a run (KiB read plus written over
// its plausible iostat rows), the devices in the order iostat printed them.
type deviceIO struct {
	names  []string
	kib    map[string]float64
	chosen string // the folder's device, when the run is computed again
}

func runDeviceIO(s *parse.Iostat) deviceIO {
	var io deviceIO
	if s == nil || !s.HasRates() {
		return io
	}
	io.kib = map[string]float64{}
	for _, r := range s.Rows {
		if r.Implausible != "" {
			continue
		}
		if _, ok := io.kib[r.Device]; !ok {
			io.names = append(io.names, r.Device)
		}
		io.kib[r.Device] += r.Values[s.Col.RKB] + r.Values[s.Col.WKB]
	}
	return io
}

func (io *deviceIO) add(o deviceIO) {
	if io.kib == nil {
		io.kib = map[string]float64{}
	}
	for _, n := range o.names {
		if _, ok := io.kib[n]; !ok {
			io.names = append(io.names, n)
		}
		io.kib[n] += o.kib[n]
	}
}

func containsInt(l []int, x int) bool {
	for _, v := range l {
		if v == x {
			return true
		}
	}
	return false
}

// SysbenchOp names the operation of a run's per-operation values: a query,
// or for a scan test a thousand rows. The load's operation is an inserted
// row ("insert").
func SysbenchOp(t parse.SysbenchTest) string {
	if t.Scan() {
		return "krow"
	}
	return "query"
}

// computeSysbenchRun computes the numbers of one run.
func computeSysbenchRun(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchResult {
	if run == nil {
		return NewSysbenchResult(nil, dbms)
	}
	r := NewSysbenchResult(run, dbms)
	if run.Test.Scan() && (run.Output != nil || run.Met == nil) {
		r.QPS, r.HW.Rate = scanRate(run.Output, opt.ScanGen)
	}
	cpus, src := SysbenchCPUs(run, opt)
	var warns []string
	r.HW, warns = normalizeHW(run, r.HW.Rate, cpus, opt.Device, SysbenchOp(run.Test))
	r.HW.CPUsSource = src
	r.Warnings = append(r.Warnings, sysbenchWarnings(dbms, run.Test.Sfx, warns)...)
	return r
}

// NewSysbenchResult returns what a run's sb.o file tells without
// computation: the run, the values sysbench printed (QPS, TPS, latencies,
// error rate; NA with the reason when it printed none) and the warnings
// about the run. HW holds only the operation rate, the query rate; for a
// scan test QPS and HW.Rate are NA, left to the caller's scan-rate rule.
func NewSysbenchResult(run *parse.SysbenchRun, dbms string) *SysbenchResult {
	if run == nil {
		r := &SysbenchResult{DBMS: dbms}
		r.warn("", "no run")
		return r
	}
	r := &SysbenchResult{DBMS: dbms, Test: run.Test, Threads: run.Threads}
	for _, p := range run.Problems {
		r.Warnings = append(r.Warnings, problemWarning(dbms, run.Test.Sfx, p))
	}
	o := run.Output
	var rep parse.SysbenchReport
	if o != nil {
		r.Source = o.Name
		r.Engine = engineOf(o)
		r.Tables, r.TableSize, r.Seconds = int(o.IntOption("tables", 0)), int(o.IntOption("table-size", 0)), int(o.IntOption("time", 0))
		r.CPUs, r.Version = o.CPUs, o.Version
		r.Intervals = o.Intervals
		rep = o.Report
		if !o.HasReport {
			r.warn(o.Name, "no final report; the run died or was stopped")
		}
		if len(o.Fatal) > 0 {
			r.warn(o.Name, "%d FATAL lines, the first at line %d", len(o.Fatal), o.Fatal[0].Line)
		}
	}
	// measure reads one value of the report; printed keeps sysbench's text.
	measure := func(m parse.Measure, what string, u Unit, printed bool) Value {
		switch {
		case o == nil:
			return NA(u, "sb.o file missing")
		case !m.Found():
			return NAf(u, "%s: sysbench printed no %s (run died?)", o.Name, what)
		case printed:
			return Known(m.Value, u).Printed(m.Text)
		}
		return Known(m.Value, u)
	}
	r.TPS = measure(rep.TPS, "transaction rate", TxPerSec, false)
	r.LatAvg = measure(rep.LatAvg, "average latency", Millis, true)
	r.LatPct = measure(rep.LatPct, "latency percentile", Millis, true)
	r.LatMax = measure(rep.LatMax, "maximum latency", Millis, true)
	r.ErrorsPerSec = measure(rep.ErrorsPerSec, "error rate", ErrorsPerSec, true)
	r.Percentile = rep.Percentile
	r.Events = measure(rep.Events, "event count", Count, false)
	if rep.Errors.Found() && rep.Errors.Value > 0 && rep.Queries.Found() && rep.Queries.Value == 0 {
		r.warn(o.Name, "every query failed (%s errors)", rep.Errors.Text)
	}
	if o == nil && run.Met != nil {
		// The rate run.sh passed to an.sh: the query rate, or the row
		// rate of a scan test.
		u := QueriesPerSec
		if run.Test.Scan() {
			u = KRowsPerSec
		}
		r.QPS, r.HW.Rate = metRate(run.Met, u)
		if r.QPS.OK() {
			r.warn(run.Met.Name, "QPS %s from its o/s (no sb.o: TPS and latencies are NA)", r.HW.Rate.Format(-1))
		}
		return r
	}
	if run.Test.Scan() {
		r.QPS = NA(KRowsPerSec, "scan rate not computed")
		r.HW.Rate = r.QPS
		return r
	}
	r.QPS = measure(rep.QPS, "query rate", QueriesPerSec, false)
	r.HW.Rate = measure(rep.QPS, "query rate", QueriesPerSec, true)
	return r
}

// metRate is the operation rate of an archived sb.met (its o/s, the rate
// run.sh passed to an.sh) as the run's rate: the value, and the value with
// the text an.sh printed.
func metRate(m *parse.SysbenchMet, u Unit) (v, printed Value) {
	if m == nil {
		v = NA(u, "no sb.met file")
		return v, v
	}
	tok, _ := m.IostatValue("o/s")
	v = metNumber(m, tok, "o/s", u)
	if !v.OK() {
		return v, v
	}
	return v, v.Printed(tok)
}

// metNumber reads one cell of an archived sb.met: NA when it is absent,
// empty or not a finite number (an.sh printed -nan or inf for a division
// by zero).
func metNumber(m *parse.SysbenchMet, tok, col string, u Unit) Value {
	x, err := strconv.ParseFloat(tok, 64)
	switch {
	case tok == "":
		return NAf(u, "%s: no %s value", m.Name, col)
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return NAf(u, "%s: %s is %q", m.Name, col, tok)
	}
	return Known(x, u)
}

// SysbenchCPUs returns the CPU count of a run's host and where it comes
// from: the option, else the "<N> CPUs" line of sb.o, else the iostat
// banner; 0 and "" when none tells.
func SysbenchCPUs(run *parse.SysbenchRun, opt Options) (int, string) {
	if run == nil {
		run = &parse.SysbenchRun{}
	}
	o := run.Output
	switch {
	case opt.Cores > 0:
		return opt.Cores, "option"
	case o != nil && o.CPUs > 0:
		return o.CPUs, o.Name + " CPUs line"
	case run.Iostat != nil && run.Iostat.CPUs > 0:
		return run.Iostat.CPUs, run.Iostat.Name + " banner"
	}
	return 0, ""
}

// scanRate computes the row rate of a scan test in the chosen generation
// and the operation rate run.sh passed on: the row rate rounded to an
// integer.
func scanRate(o *parse.SysbenchOutput, gen int) (qps, rate Value) {
	if o == nil {
		v := NA(KRowsPerSec, "sb.o file missing")
		return v, v
	}
	rep := o.Report
	rowsTok, haveRows := o.Option("table-size")
	rows, rowsErr := strconv.ParseFloat(rowsTok, 64)
	tabsTok := o.Options["tables"]
	tabs, tabsErr := strconv.ParseFloat(tabsTok, 64)
	var v float64
	var why string
	switch gen {
	case ScanGenRowsPerRun:
		if !rep.Elapsed.Found() {
			why = o.Name + ": no elapsed time"
		}
		v = rows * tabs / rep.Elapsed.Value / 1000
	case ScanGenRowsPerScanRate:
		if !rep.QPS.Found() {
			why = o.Name + ": no scan rate (queries: line)"
		}
		v = rows * rep.QPS.Value / 1000
	default:
		if !rep.LatAvg.Found() {
			why = o.Name + ": no average latency"
		}
		v = (rows / 1000) / (rep.LatAvg.Value / 1000)
	}
	switch {
	case why != "":
	case !haveRows:
		why = o.Name + ": the command line has no --table-size"
	case rowsErr != nil:
		why = fmt.Sprintf("%s: --table-size=%q is not a number", o.Name, rowsTok)
	case gen == ScanGenRowsPerRun && tabsErr != nil:
		why = fmt.Sprintf("%s: --tables=%q is not a number", o.Name, tabsTok)
	case math.IsInf(v, 0) || math.IsNaN(v):
		why = o.Name + ": scan rate divides by zero"
	}
	if why != "" {
		x := NA(KRowsPerSec, why)
		return x, x
	}
	return Known(v, KRowsPerSec), Known(math.RoundToEven(v), KRowsPerSec)
}

// computeSysbenchLoad computes the prepare step.
func computeSysbenchLoad(run *parse.SysbenchRun, dbms string, opt Options) *SysbenchLoad {
	if run == nil {
		return NewSysbenchLoad(nil, dbms)
	}
	l := NewSysbenchLoad(run, dbms)
	cpus := opt.Cores
	if cpus == 0 && run.Iostat != nil {
		cpus = run.Iostat.CPUs
	}
	var warns []string
	l.HW, warns = normalizeHW(run, l.IPS, cpus, opt.Device, "insert")
	l.Warnings = append(l.Warnings, sysbenchWarnings(dbms, run.Test.Sfx, warns)...)
	return l
}

// NewSysbenchLoad returns what the Load seconds line of a prepare step
// tells, NA with the reason without one, and the warnings about its files.
func NewSysbenchLoad(run *parse.SysbenchRun, dbms string) *SysbenchLoad {
	if run == nil {
		return &SysbenchLoad{DBMS: dbms, Warnings: []Warning{{DBMS: dbms, Text: "no prepare run"}}}
	}
	l := &SysbenchLoad{DBMS: dbms, Sfx: run.Test.Sfx}
	for _, p := range run.Problems {
		l.Warnings = append(l.Warnings, problemWarning(dbms, run.Test.Sfx, p))
	}
	o := run.Output
	if o != nil {
		l.Engine = o.Options["mysql-storage-engine"]
	}
	switch {
	case o == nil:
		l.Seconds, l.IPS = NA(Seconds, "sb.prepare.o file missing"), NA(InsertsPerSec, "sb.prepare.o file missing")
	case o.Load == nil:
		why := o.Name + ": no Load seconds line (the load failed?)"
		l.Seconds, l.IPS = NA(Seconds, why), NA(InsertsPerSec, why)
	default:
		l.Seconds = Known(float64(o.Load.Seconds), Seconds)
		l.IPS = Known(o.Load.IPS.Value, InsertsPerSec).Printed(o.Load.IPS.Text)
	}
	return l
}

// rateText is the operation rate as run.sh passed it to an.sh: "" when
// there is none.
func rateText(rate Value) string {
	if !rate.OK() {
		return ""
	}
	return rate.Format(0)
}

// normalizeHW computes sb.met (an.sh): iostat and vmstat averages, per
// second and divided by the operation rate. op names the operation of the
// per-operation units.
func normalizeHW(run *parse.SysbenchRun, rate Value, cpus int, device, op string) (SysbenchHW, []string) {
	h := SysbenchHW{Rate: rate, CPUs: cpus, Device: device}
	iostat, vmstat, warns := plausibleOnly(run.Iostat, run.Vmstat)
	if h.Device == "" && iostat != nil {
		h.Device = iostat.BusiestDevice()
	}
	io := SumIostat(iostat, h.Device, nil)
	vm := vmstatSums(vmstat)
	warns = append(warns, io.Warnings...)
	h.IostatSamples, h.VmstatSamples = io.Rows, vm.samples
	q := rateText(rate)
	qOK := rate.OK() && rate.V > 0 && !math.IsInf(rate.V, 0)
	// Values from an archived sb.met were divided by an.sh already.
	fromMet := run.Met != nil && run.Iostat == nil && run.Vmstat == nil
	if !qOK && !fromMet {
		warns = append(warns, fmt.Sprintf("%s: operation rate %q is not positive; per-operation values are NA", run.Dir+"/"+run.Test.Sfx, q))
	}
	// v builds one value: the average of sum over c samples, divided by
	// scale and, for a per-operation value, by the rate.
	v := func(sum float64, c int, scale float64, per bool, what string, u Unit) Value {
		switch {
		case c == 0:
			return NAf(u, "no %s samples", what)
		case per && !qOK:
			return NAf(u, "operation rate %q is not positive", q)
		}
		x := sum / float64(c) / scale
		if per {
			x /= rate.V
		}
		return Known(x, u)
	}
	h.ReadsPerSec = v(io.RS, io.Rows, 1, false, "iostat", ReadsPerSec)
	h.ReadMBPerSec = v(io.RKB, io.Rows, 1024, false, "iostat", MiBPerSec)
	h.WritesPerSec = v(io.WS, io.Rows, 1, false, "iostat", WritesPerSec)
	h.WriteMBPerSec = v(io.WKB, io.Rows, 1024, false, "iostat", MiBPerSec)
	h.ReadsPerOp = v(io.RS, io.Rows, 1, true, "iostat", sbUnit("r/o", op))
	h.ReadKBPerOp = v(io.RKB, io.Rows, 1, true, "iostat", sbUnit("rKB/o", op))
	h.WriteKBPerOp = v(io.WKB, io.Rows, 1, true, "iostat", sbUnit("wKB/o", op))
	h.CsPerSec = v(vm.cs, vm.samples, 1, false, "vmstat", CSPerSec)
	h.CPUPerSec = v(vm.cpu, vm.samples, 1, false, "vmstat", CPUPercent)
	h.CsPerOp = v(vm.cs, vm.samples, 1, true, "vmstat", sbUnit("cs/o", op))
	h.CPUPerOp = v(vm.cpu, vm.samples, 1, true, "vmstat", sbUnit("cpu/o", op))
	if run.Iostat != nil {
		h.IostatSource = run.Iostat.Name
	} else if m := run.Met; m != nil {
		h.IostatSource = m.Name
		h.IostatSamples = metSamples(m.IostatValue)
		get := metCells(m, m.IostatValue)
		h.ReadsPerSec, h.ReadMBPerSec = get("r/s", ReadsPerSec), get("rMB/s", MiBPerSec)
		h.WritesPerSec, h.WriteMBPerSec = get("w/s", WritesPerSec), get("wMB/s", MiBPerSec)
		h.ReadsPerOp, h.ReadKBPerOp = get("r/o", sbUnit("r/o", op)), get("rKB/o", sbUnit("rKB/o", op))
		h.WriteKBPerOp = get("wKB/o", sbUnit("wKB/o", op))
	}
	if run.Vmstat != nil {
		h.VmstatSource = run.Vmstat.Name
	} else if m := run.Met; m != nil {
		h.VmstatSource = m.Name
		h.VmstatSamples = metSamples(m.VmstatValue)
		get := metCells(m, m.VmstatValue)
		h.CsPerSec, h.CPUPerSec = get("cs/s", CSPerSec), get("cpu/s", CPUPercent)
		h.CsPerOp, h.CPUPerOp = get("cs/o", sbUnit("cs/o", op)), get("cpu/o", sbUnit("cpu/o", op))
	}
	h.CPUMicrosPerOp = CPUMicros(h.CPUPerOp, cpus, op)
	return h, warns
}

// metSamples is a sample count of sb.met (the samp cell of its iostat or
// vmstat line), 0 when an.sh printed none.
func metSamples(cell func(col string) (string, bool)) int {
	tok, _ := cell("samp")
	n, _ := strconv.Atoi(tok)
	return n
}

// metCells reads the cells of one line of an archived sb.met (its iostat
// or vmstat line) as values (metNumber).
func metCells(m *parse.SysbenchMet, cell func(col string) (string, bool)) func(col string, u Unit) Value {
	return func(col string, u Unit) Value {
		tok, _ := cell(col)
		return metNumber(m, tok, col, u)
	}
}

// CPUMicros is CPU microseconds per operation from cpu/o (a percentage of
// all CPUs per operation) and the CPU count: NA when either is unknown.
func CPUMicros(cpuPerOp Value, cpus int, op string) Value {
	u := sbUnit("µs/o", op)
	switch {
	case !cpuPerOp.OK():
		return NA(u, cpuPerOp.Why)
	case cpus == 0:
		return NA(u, "CPU count unknown (use --cores)")
	}
	return Known(cpuPerOp.V*float64(cpus)*1e4, u)
}

// IostatSums are the sums of the iostat columns the metrics use (r/s,
// rkB/s, w/s and wkB/s) over the rows of one device, and the count of
// those rows.
type IostatSums struct {
	Rows             int
	RS, RKB, WS, WKB float64
	Warnings         []string
}

// SumIostat adds up the rows of the device. match decides whether a row's
// device is the one asked for; nil means the exact name. A sum of no rows
// carries a warning.
func SumIostat(s *parse.Iostat, device string, match func(rowDevice, device string) bool) IostatSums {
	var out IostatSums
	if s == nil || device == "" || !s.HasRates() {
		return out
	}
	for _, r := range s.Rows {
		if r.Device != device && (match == nil || !match(r.Device, device)) {
			continue
		}
		out.RS += r.Values[s.Col.RS]
		out.RKB += r.Values[s.Col.RKB]
		out.WS += r.Values[s.Col.WS]
		out.WKB += r.Values[s.Col.WKB]
		out.Rows++
	}
	if out.Rows == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s: no iostat rows for device %q", s.Name, device))
	}
	return out
}

// plausibleOnly returns the iostat and vmstat files of a run without the
// rows and samples the readers found implausible (all of a device's rows
// stay where none is), with a warning naming each one left out. The files
// given are not changed.
func plausibleOnly(io *parse.Iostat, vm *parse.Vmstat) (*parse.Iostat, *parse.Vmstat, []string) {
	var warns []string
	if io != nil && slices.ContainsFunc(io.Rows, func(r parse.IostatRow) bool { return r.Implausible != "" }) {
		var left []leftRecord
		kept := *io
		kept.Rows = nil
		for _, r := range io.Rows {
			if r.Implausible != "" {
				left = append(left, leftRecord{r.Line, "device " + r.Device + " " + r.Implausible})
				continue
			}
			kept.Rows = append(kept.Rows, r)
		}
		io = &kept
		warns = append(warns, WarningTexts(leftOutWarnings(io.Name, "row", left))...)
	}
	if vm != nil && slices.ContainsFunc(vm.Samples, func(s parse.VmstatSample) bool { return s.Implausible != "" && !s.SinceBoot }) {
		var left []leftRecord
		kept := *vm
		kept.Samples = nil
		for _, s := range vm.Samples {
			if s.Implausible != "" && !s.SinceBoot {
				left = append(left, leftRecord{s.Line, s.Implausible})
				continue
			}
			kept.Samples = append(kept.Samples, s)
		}
		vm = &kept
		warns = append(warns, WarningTexts(leftOutWarnings(vm.Name, "sample", left))...)
	}
	return io, vm, warns
}

// vmstatSums adds up the vmstat samples but the since-boot row.
func vmstatSums(v *parse.Vmstat) vmAcc {
	var out vmAcc
	if v != nil {
		for i := range v.Samples {
			out.add(&v.Samples[i])
		}
	}
	return out
}

// engineOf returns the engine label run.sh writes in sb.r.* lines: the
// --mysql-storage-engine of the command line, else for --db-driver=mysql
// "innodb" (run.sh's default engine, which it did not pass to the runs),
// else the driver ("pgsql").
func engineOf(o *parse.SysbenchOutput) string {
	if o == nil {
		return ""
	}
	if e := o.Options["mysql-storage-engine"]; e != "" {
		return e
	}
	if d := o.Options["db-driver"]; d != "mysql" {
		return d
	}
	return "innodb"
}

// Engine is the engine label of a DBMS's sb.r lines: Options.Engine when
// set, else the --mysql-storage-engine of its prepare command, else that
// of its first run that names one; "" when none does.
func (d *SysbenchDBMS) Engine() string {
	if d == nil {
		return ""
	}
	if d.engine != "" {
		return d.engine
	}
	if d.Load != nil && d.Load.Engine != "" {
		return d.Load.Engine
	}
	for _, r := range d.Results {
		if r.Engine != "" {
			return r.Engine
		}
	}
	return ""
}

// ScanRowRate is the rate a scan test's sb.o gives in generation gen, as
// run.sh wrote it to sb.r.qps and sb.met (rounded to an integer); NA when
// the output lacks a value the generation needs.
func ScanRowRate(o *parse.SysbenchOutput, gen int) Value {
	_, rate := scanRate(o, gen)
	return rate
}
