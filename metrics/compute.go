package metrics

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/parse"
)

// ComputeTree reads every step of a tree and summarizes it. The create-index
// step counts the rows loaded by l.i0 as indexed rows. Each step is read in
// one pass and its records are not kept.
func ComputeTree(fsys fs.FS, t *parse.Tree, opt Options) (*TreeResult, error) {
	res, err := ComputeTrees(fsys, []*parse.Tree{t}, opt)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// ComputeTrees computes several trees (ComputeTree), their steps
// concurrently on up to GOMAXPROCS goroutines. The results are in tree and
// step order and do not depend on the scheduling.
func ComputeTrees(fsys fs.FS, trees []*parse.Tree, opt Options) ([]*TreeResult, error) {
	return ComputeTreesWith(fsys, trees, opt, ComputeStep)
}

// A StepFunc computes one step of a tree: dir is the step's folder in fsys.
type StepFunc func(fsys fs.FS, dir string, st parse.Step, tree string, opt Options) (*StepResult, error)

// ComputeTreesWith is ComputeTrees with another computation of a step (the
// compat edge's). opt.ExtraRows is set for each tree from the command lines
// of its l.i0 clients.
func ComputeTreesWith(fsys fs.FS, trees []*parse.Tree, opt Options, f StepFunc) ([]*TreeResult, error) {
	if fsys == nil {
		return nil, errors.New("nil file system")
	}
	if f == nil {
		f = ComputeStep
	}
	for _, t := range trees {
		if t == nil {
			return nil, errors.New("nil tree")
		}
	}
	type job struct {
		tree, step int
		opt        Options
	}
	var jobs []job
	out := make([]*TreeResult, len(trees))
	for ti, t := range trees {
		out[ti] = &TreeResult{Tree: t, Steps: make([]*StepResult, len(t.Steps))}
		topt := opt
		topt.ExtraRows = 0
		for _, st := range t.Steps {
			if st.Name != "l.i0" {
				continue
			}
			n, err := loadRows(fsys, path.Join(t.Dir, st.Name))
			if err != nil {
				return nil, err
			}
			topt.ExtraRows += n
		}
		for si := range t.Steps {
			jobs = append(jobs, job{ti, si, topt})
		}
	}
	errs := make([]error, len(jobs))
	Parallel(len(jobs), func(i int) {
		j := jobs[i]
		t := trees[j.tree]
		st := t.Steps[j.step]
		out[j.tree].Steps[j.step], errs[i] = f(fsys, path.Join(t.Dir, st.Name), st, t.Name, j.opt)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadRows is the row count the load step in dir inserted: the sum of its
// clients' --max_rows, read from their command lines only.
func loadRows(fsys fs.FS, dir string) (int64, error) {
	clients, err := parse.ReadClientOptions(fsys, dir)
	if err != nil {
		return 0, err
	}
	var rows int64
	for _, c := range clients {
		n, _ := strconv.ParseInt(c["max_rows"], 10, 64)
		rows += n
	}
	return rows, nil
}

// Parallel calls f(0) … f(n-1) on up to GOMAXPROCS goroutines and waits:
// the readers of independent files and steps use both cores with it.
func Parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// ComputeStep reads one step folder in a single pass and summarizes it,
// keeping none of its records.
func ComputeStep(fsys fs.FS, dir string, st parse.Step, tree string, opt Options) (*StepResult, error) {
	acc := newStepAcc()
	sinks := acc.sinks()
	// The rows of other devices cannot change the result once the device
	// is named: they are not read.
	sinks.IostatDevice = opt.Device
	sd, err := parse.ScanStep(fsys, dir, st, sinks)
	if err != nil {
		return nil, err
	}
	r := summarize(sd, acc, tree, opt)
	acc.release()
	return r, nil
}

// Summarize computes the results of one step from its parsed files, with
// float64 arithmetic on the parsed records. Every value that cannot be known
// is NA with the reason; Warnings names the files behind them.
func Summarize(sd *parse.StepData, tree string, opt Options) *StepResult {
	if sd == nil {
		sd = &parse.StepData{}
	}
	acc := newStepAcc()
	acc.replay(sd)
	return summarize(sd, acc, tree, opt)
}

// summarize computes the results of a step from its small files (sd) and
// the accumulated records of its large ones.
func summarize(sd *parse.StepData, acc *stepAcc, tree string, opt Options) *StepResult {
	for i := range sd.Clients {
		acc.client(i) // a log without stats lines is still a client
	}
	s := &summarizer{sd: sd, acc: acc, opt: opt, r: &StepResult{
		Tree: tree, Step: sd.Step, Dop: sd.Dop, Clients: len(sd.Clients),
		Max: map[parse.HistKind][]Value{}, Hist: map[parse.HistKind]*Histogram{},
		Rates: map[parse.HistKind][]RateWindows{},
	}}
	r := s.r
	for _, p := range sd.Problems {
		w := ErrWarning(p)
		w.DBMS, w.Step = tree, sd.Step.MergeName
		r.Warnings = append(r.Warnings, w)
	}
	if len(sd.Clients) > 0 {
		r.RowsPerCommit = int(sd.Clients[0].IntOption("rows_per_commit", 0))
	}
	s.rates()
	s.cores()
	s.iostat()
	s.vmstat()
	s.iostatAverages()
	s.maxima()
	s.percentiles()
	s.histograms()
	s.rateWindows()
	s.cpuSeconds()
	s.noise()
	s.fullInsertRate()
	s.series()
	s.row()
	r.checkPlausible()
	r.ExplainNA()
	return r
}

type summarizer struct {
	sd  *parse.StepData
	acc *stepAcc
	opt Options
	r   *StepResult
	dev *deviceAcc // the iostat device of the step, nil when none
}

// warn adds a warning about file (or folder) of the step: the text is
// "file: " and the message.
func (s *summarizer) warn(file, format string, args ...any) {
	s.r.Warnings = append(s.r.Warnings, Warning{File: file, DBMS: s.r.Tree, Step: s.sd.Step.MergeName,
		Text: file + ": " + fmt.Sprintf(format, args...)})
}

// maxLeftOutWarnings is how many implausible records of one file are named
// one by one; the rest are counted in one more warning.
const maxLeftOutWarnings = 5

// warnLeftOut names the implausible records of a file that the metrics
// leave out: "file:line: why; the sample is left out".
func (s *summarizer) warnLeftOut(file, what string, left []leftRecord) {
	for _, w := range leftOutWarnings(file, what, left) {
		w.DBMS, w.Step = s.r.Tree, s.sd.Step.MergeName
		s.r.Warnings = append(s.r.Warnings, w)
	}
}

// leftOutWarnings are the warnings of warnLeftOut.
func leftOutWarnings(file, what string, left []leftRecord) []Warning {
	var out []Warning
	for i, l := range left {
		if i == maxLeftOutWarnings {
			return append(out, Warning{File: file, Text: fmt.Sprintf("%s: %d more implausible %ss left out", file, len(left)-i, what)})
		}
		out = append(out, Warning{File: file, Line: l.line, Text: fmt.Sprintf("%s:%d: %s; the %s is left out", file, l.line, l.why, what)})
	}
	return out
}

// opRate is the rate per-operation metrics divide by, and its name.
func (s *summarizer) opRate() (Value, string) {
	if s.sd.Step.Kind.ReadWrite() {
		return s.r.QueryRate, "query rate"
	}
	return s.r.InsertRate, "insert rate"
}

// rates computes the duration, row and query counts and the rates of the
// step, as line 1 of o.res holds them.
func (s *summarizer) rates() {
	sd, r := s.sd, s.r
	var rows int64
	for i, c := range sd.Clients {
		rows += c.IntOption("max_rows", 0)
		if ca := s.acc.clients[i]; ca.intervals() > 0 {
			// The query count is t_query of each client's last stats line.
			r.Queries += int64(ca.lastTQuery)
		}
	}
	if sd.Step.Kind == parse.CreateIndex {
		rows += s.opt.ExtraRows
	}
	r.Rows = rows
	r.Deletes = sd.Deletes()
	insUnit := InsertsPerSec
	if sd.Step.Kind == parse.CreateIndex {
		insUnit = RowsPerSec
	}
	var secs float64
	switch res := sd.Res; {
	case res != nil && res.Valid:
		secs = float64(res.TotSecs)
		r.Seconds = Known(secs, Seconds)
		if res.Deletes != "" {
			r.Deletes = res.Deletes == "yes" || res.Deletes == "1"
		}
		if secs == 0 {
			s.warn(res.Name, "the step took less than a second; its rates are per second of 1 s, as the driver computed them")
		}
	default:
		what := "o.res is missing"
		if res != nil {
			what = res.Name + " has no readable summary line"
		}
		secs = float64(s.estimateSecs())
		if secs > 0 {
			r.Seconds = Known(secs, Seconds)
			s.warn(sd.Dir, "%s; the step duration (%.0f s) is estimated from /usr/bin/time and the client logs", what, secs)
		} else {
			r.Seconds = NAf(Seconds, "%s and no client time is known", what)
			s.warn(sd.Dir, "%s and the step duration cannot be estimated; rates are NA", what)
		}
	}
	rowsKnown := sd.Step.Kind == parse.CreateIndex && s.opt.ExtraRows > 0
	stats := false
	for i, c := range sd.Clients {
		_, has := c.Option("max_rows")
		rowsKnown = rowsKnown || has
		stats = stats || s.acc.clients[i].intervals() > 0
	}
	switch {
	case len(sd.Clients) == 0:
		r.InsertRate = NA(insUnit, "no client logs")
		r.QueryRate = NA(QueriesPerSec, "no client logs")
		return
	case !r.Seconds.OK():
		r.InsertRate = NA(insUnit, r.Seconds.Why)
		r.QueryRate = NA(QueriesPerSec, r.Seconds.Why)
		return
	}
	if secs == 0 {
		secs = 1 // what the driver does for a step shorter than a second
	}
	r.InsertRate = Known(float64(rows)/secs, insUnit)
	if !rowsKnown {
		r.InsertRate = NA(insUnit, "no client log has a command line with --max_rows")
	}
	r.QueryRate = Known(float64(r.Queries)/secs, QueriesPerSec)
	if !stats {
		r.QueryRate = NA(QueriesPerSec, "the client logs have no stats lines")
	}
	if res := sd.Res; res != nil && res.Valid {
		// The driver knew the requested row count exactly; the client logs
		// know it only rounded down per client. Trust o.res and say so. o.res
		// prints the rate truncated to one decimal.
		if v, err := strconv.ParseFloat(res.InsertRate, 64); err == nil && (!r.InsertRate.OK() || !sameTruncated(v, r.InsertRate.V)) {
			if r.InsertRate.OK() {
				s.warn(res.Name, "insert rate from the client logs is %.1f, o.res says %s; using o.res", truncate1(r.InsertRate.V), res.InsertRate)
			}
			r.InsertRate = Known(v, insUnit)
			r.Rows = res.MaxRows * int64(max(res.RealDop, 1))
		}
		if v, err := strconv.ParseFloat(res.QueryRate, 64); err == nil && (!r.QueryRate.OK() || !sameTruncated(v, r.QueryRate.V)) {
			if r.QueryRate.OK() {
				s.warn(res.Name, "query rate from the client logs is %.1f, o.res says %s; using o.res", truncate1(r.QueryRate.V), res.QueryRate)
			}
			r.QueryRate = Known(v, QueriesPerSec)
			r.Queries = res.TotalQuery
		}
	}
}

// truncate1 truncates toward zero to one decimal, as bc printed o.res rates.
func truncate1(x float64) float64 { return math.Trunc(x*10) / 10 }

// sameTruncated reports whether an o.res rate is x truncated to one decimal.
func sameTruncated(res, x float64) bool { return math.Abs(res-truncate1(x)) < 1e-6 }

// estimateSecs guesses the wall-clock seconds of a step without o.res: the
// longest client run time, rounded up.
func (s *summarizer) estimateSecs() int64 {
	best := 0.0
	for _, t := range s.sd.Times {
		if t != nil && t.Elapsed > best {
			best = t.Elapsed
		}
	}
	if best == 0 {
		for _, c := range s.acc.clients {
			if c.intervals() > 0 {
				best = math.Max(best, c.lastTSec)
			}
		}
	}
	return int64(math.Ceil(best))
}

// cores decides the CPU count cpupq uses.
func (s *summarizer) cores() {
	sd, r := s.sd, s.r
	switch {
	case s.opt.Cores > 0:
		r.Cores, r.CoresSource = s.opt.Cores, "option"
	case sd.Iostat != nil && sd.Iostat.CPUs > 0:
		r.Cores, r.CoresSource = sd.Iostat.CPUs, sd.Iostat.Name+" banner"
		s.warn(sd.Dir, "CPU count not given (--cores); using %d from the iostat banner", r.Cores)
	default:
		s.warn(sd.Dir, "CPU count unknown (use --cores); cpupq is NA")
	}
}

// device picks the iostat device of the step: the one named by the
// options, else the busiest one.
func (s *summarizer) device() {
	sd := s.sd
	if sd.Iostat == nil {
		return
	}
	s.r.Device = s.opt.Device
	if s.r.Device == "" && sd.Iostat.HasRates() {
		s.r.Device = s.acc.busiest()
	}
	if s.r.Device == "" {
		return
	}
	for _, d := range s.acc.devices {
		if d.name == s.r.Device {
			s.dev = d
		}
	}
}

// iostat averages r/s, rkB/s, w/s and wkB/s over the device's rows.
func (s *summarizer) iostat() {
	sd, r := s.sd, s.r
	s.device()
	d := s.dev
	if sd.Iostat != nil && r.Device != "" && d == nil {
		s.warn(sd.Iostat.Name, "no iostat rows for device %q", r.Device)
	}
	why := "no iostat samples for the device"
	switch {
	case sd.Iostat == nil:
		why = "no iostat file"
	case !sd.Iostat.HasRates():
		why = sd.Iostat.Name + " has no r/s, w/s, rkB/s and wkB/s columns"
		d = nil
	}
	if sd.Iostat != nil {
		s.warnLeftOut(sd.Iostat.Name, "row", s.acc.left.iostat)
	}
	if d != nil && d.rows == 0 && d.seen {
		why = "every iostat row of the device is implausible"
	}
	io := &r.Iostat
	if d == nil || d.rows == 0 {
		io.ReadsPerSec, io.ReadMiBPerSec = NA(ReadsPerSec, why), NA(MiBPerSec, why)
		io.WritesPerSec, io.WriteMiBPerSec = NA(WritesPerSec, why), NA(MiBPerSec, why)
		return
	}
	n := float64(d.rows)
	io.Samples = d.rows
	io.ReadsPerSec = Known(d.rs/n, ReadsPerSec)
	io.ReadMiBPerSec = Known(d.rkb/n/1024, MiBPerSec)
	io.WritesPerSec = Known(d.ws/n, WritesPerSec)
	io.WriteMiBPerSec = Known(d.wkb/n/1024, MiBPerSec)
}

// vmstat averages cs and us+sy over the samples; the first row, averages
// since boot, is not a sample of the step.
func (s *summarizer) vmstat() {
	v, vm, a := s.sd.Vmstat, &s.r.Vmstat, &s.acc.vm
	left := s.acc.left.vmstat
	if v != nil {
		s.warnLeftOut(v.Name, "sample", left)
	}
	vm.Samples = a.samples
	if a.samples == 0 {
		why := "no vmstat samples"
		switch {
		case v == nil:
			why = "no vmstat file"
		case len(left) > 0:
			why = fmt.Sprintf("every vmstat sample is implausible (%d left out)", len(left))
		}
		vm.CSPerSec, vm.CPUPercent = NA(CSPerSec, why), NA(CPUPercent, why)
		return
	}
	n := float64(a.samples)
	vm.CSPerSec = Known(a.cs/n, CSPerSec)
	vm.CPUPercent = Known(a.cpu/n, CPUPercent)
}

// iostatAverages averages every iostat column of the device's rows but the
// first (sum_iostat.sh).
func (s *summarizer) iostatAverages() {
	sd, r := s.sd, s.r
	if sd.Iostat == nil || sd.Iostat.Header == nil {
		return
	}
	for _, h := range sd.Iostat.Header {
		if len(h) > 7 {
			h = h[:7]
		}
		r.IostatAvg.Header = append(r.IostatAvg.Header, h)
	}
	d := s.dev
	// colRows is rows-1 unless implausible rows were left out.
	if d == nil || d.colRows == 0 {
		s.warn(sd.Iostat.Name, "fewer than 2 iostat rows for %q; no column averages", r.Device)
		return
	}
	n := float64(d.colRows)
	for _, sm := range d.cols {
		r.IostatAvg.Values = append(r.IostatAvg.Values, Known(sm/n, NoUnit))
	}
}

// maxima lists the three largest response times per kind over all clients.
func (s *summarizer) maxima() {
	for _, k := range parse.HistKinds {
		var vals []float64
		for _, c := range s.sd.Clients {
			for _, h := range c.Histograms {
				if h.Kind == k {
					vals = append(vals, h.Max)
				}
			}
		}
		slices.Sort(vals)
		slices.Reverse(vals)
		var out []Value
		for i := 0; i < len(vals) && i < 3; i++ {
			out = append(out, Known(vals[i], Seconds))
		}
		s.r.Max[k] = out
	}
}

// percentileRanks are the percentiles o.res lists per client.
var percentileRanks = []int{50, 75, 90, 95, 99}

// percentiles computes the rates at the 50th … 99th percentile of each
// client's per-interval rates, from the list sorted in descending order:
// the value at position round(x/100 × n) (half to even), so p99 is a rate
// that 99% of the intervals reached. Fewer than 10 intervals give NA.
// The first and last intervals of a client are partial (it starts and
// stops within them) and left out: a last interval of a few hundred
// milliseconds is a rate of a fraction of the others, which would be the
// p99 of a short step.
func (s *summarizer) percentiles() {
	units := [3]Unit{InsertsPerSec, DeletesPerSec, QueriesPerSec}
	scratch := stats.Floats(0)
	defer stats.PutFloats(scratch)
	for ci, c := range s.sd.Clients {
		ca := s.acc.clients[ci]
		rates := ca.rates
		if !s.opt.Compat {
			rates = fullIntervals(ca.rates)
		}
		n := len(rates[0])
		// The positions of the percentiles in the descending list.
		pos := make([]int, len(percentileRanks))
		for r, x := range percentileRanks {
			pos[r] = min(max(int(math.RoundToEven(float64(x*n)/100)), 1), n) - 1
		}
		var picks [3][]float64
		if n >= 10 {
			for i := range picks {
				picks[i] = descAt(rates[i], pos, scratch)
			}
		}
		var ps []Percentile
		for r, x := range percentileRanks {
			p := Percentile{X: x, Lines: n}
			var vals [3]Value
			if n < 10 {
				for i := range vals {
					vals[i] = NAf(units[i], "%s has %s, fewer than 10", c.Name, Plural(n, "interval"))
					if all := ca.intervals(); all != n {
						vals[i] = NAf(units[i], "%s has %s, %d of them full (the first and last are partial), fewer than 10", c.Name, Plural(all, "interval"), n)
					}
				}
			} else {
				p.Offset = int(math.RoundToEven(float64(x*n) / 100))
				for i := range vals {
					vals[i] = Known(picks[i][r], units[i])
				}
			}
			p.Insert, p.Delete, p.Query = vals[0], vals[1], vals[2]
			ps = append(ps, p)
		}
		s.r.Percentiles = append(s.r.Percentiles, ps)
	}
}

// fullIntervals are a client's per-interval rates without the first and
// last, partial, intervals (none with fewer than three).
func fullIntervals(rates [3][]float64) [3][]float64 {
	var out [3][]float64
	for i, r := range rates {
		if len(r) >= 3 {
			out[i] = r[1 : len(r)-1]
		}
	}
	return out
}

// histograms sums the last histogram of each kind of every client (rth.sh).
func (s *summarizer) histograms() {
	sd := s.sd
	for _, k := range parse.HistKinds {
		if k == parse.Delete && !s.r.Deletes {
			continue
		}
		h := &Histogram{Kind: k}
		if len(sd.Clients) > 0 {
			h.Header = sd.Clients[0].HistHeaders[k]
		}
		var total int64
		maxv := math.Inf(-1)
		for _, c := range sd.Clients {
			ch := c.Hist(k)
			if ch == nil {
				continue
			}
			if len(ch.Counts) > len(h.Sum) {
				h.Sum = append(h.Sum, make([]int64, len(ch.Counts)-len(h.Sum))...)
			}
			for i, n := range ch.Counts {
				h.Sum[i] += n
				total += n
			}
			h.Clients = append(h.Clients, ch.Counts)
			h.ClientMax = append(h.ClientMax, Known(ch.Max, Seconds))
			maxv = math.Max(maxv, ch.Max)
		}
		if len(h.Clients) == 0 {
			h.Max = NAf(Seconds, "no %s histogram in the client logs", k)
		} else {
			h.Max = Known(maxv, Seconds)
		}
		for _, n := range h.Sum {
			if total == 0 {
				h.Share = append(h.Share, NAf(Percent, "no %s responses", k))
				continue
			}
			h.Share = append(h.Share, Known(100*(float64(n)/float64(total)), Percent))
		}
		s.r.Hist[k] = h
	}
}

// rateWindows averages each client's rates over ten consecutive tenths of
// its stats lines; fewer than ten lines give NA.
func (s *summarizer) rateWindows() {
	units := [3]Unit{InsertsPerSec, DeletesPerSec, QueriesPerSec}
	for k, kind := range []parse.HistKind{parse.Insert, parse.Delete, parse.Query} {
		var out []RateWindows
		for i, c := range s.sd.Clients {
			vals := s.acc.clients[i].rates[k]
			rw := RateWindows{Client: i + 1}
			n := len(vals)
			for w := range 10 {
				if n < 10 {
					rw.Values[w] = NAf(units[k], "%s has %s, fewer than 10", c.Name, Plural(n, "interval"))
					continue
				}
				lo, hi := w*n/10, (w+1)*n/10
				sum := 0.0
				for _, v := range vals[lo:hi] {
					sum += v
				}
				rw.Values[w] = Known(sum/float64(hi-lo), units[k])
			}
			out = append(out, rw)
		}
		s.r.Rates[kind] = out
	}
}

// noise takes the interval of all clients' summed per-interval rates (the
// step's throughput, whose ratio the reports show), and the stalls and SLA
// of client 1's, before series() decimates them for the charts.
func (s *summarizer) noise() {
	r := s.r
	r.Noise = Interval{Why: "no client log"}
	r.Stalls = Stalls{Why: "no client log"}
	if len(s.acc.clients) == 0 || len(s.sd.Clients) == 0 {
		return
	}
	c := s.acc.clients[0]
	rate, rt := c.rates[0], c.series.maxI
	if s.sd.Step.Kind.ReadWrite() {
		rate, rt = c.rates[2], c.series.maxQ
		sla := CheckSLA(c.series.sec, c.rates[0], float64(s.sd.Step.Rate), s.opt.Stall)
		r.SLA = &sla
	}
	k := 0
	if s.sd.Step.Kind.ReadWrite() {
		k = 2
	}
	buf := stats.Floats(0)
	r.Noise = intervalOf(stats.MeanInterval(allClients(s.acc.clients, k, buf), 0.95))
	stats.PutFloats(buf)
	r.Stalls = FindStalls(c.series.sec, rate, rt, s.opt.Stall)
	if why := notIncreasing(c.series.sec); why != "" && len(rate) >= stats.MinNoiseSamples {
		name := "client 1's log"
		if s.sd.Clients[0] != nil {
			name = s.sd.Clients[0].Name
		}
		s.warn(name, "%s; stalls and SLA are NA", why)
	}
}

// allClients is the per-interval rate of kind k (0 inserts, 2 queries)
// summed over the clients, interval by interval, over the intervals every
// client reported: the clients print their stats lines on the same
// schedule from the step's start, so the j-th lines cover the same time.
// The first and the last interval, partial, are left out: a partial
// interval's low rate is no noise of the step (and would read as a stall).
// The sums are kept in *buf, grown as needed.
func allClients(clients []*clientAcc, k int, buf *[]float64) []float64 {
	n := -1
	for _, c := range clients {
		if l := len(c.rates[k]); n < 0 || l < n {
			n = l
		}
	}
	sum := slices.Grow((*buf)[:0], max(n, 0))[:max(n, 0)]
	*buf = sum
	clear(sum)
	for _, c := range clients {
		for j := range sum {
			sum[j] += c.rates[k][j]
		}
	}
	if len(sum) > 2 {
		sum = sum[1 : len(sum)-1]
	}
	return sum
}

// series decimates client 1's per-interval statistics for the charts.
func (s *summarizer) series() {
	if len(s.acc.clients) == 0 || len(s.sd.Clients) == 0 {
		return
	}
	c := s.acc.clients[0]
	s.r.Series = newClientSeries(1, c.intervals(), c.series.sec,
		[6][]float64{c.rates[0], c.rates[1], c.rates[2], c.series.maxI, c.series.maxD, c.series.maxQ}, s.opt.seriesPoints())
}

// cpuSeconds takes client 1's CPU seconds from /usr/bin/time and the DBMS's
// from the ps samples, and the user of the DBMS.
func (s *summarizer) cpuSeconds() {
	sd, r, ps := s.sd, s.r, &s.acc.ps
	r.ClientCPU = NA(Seconds, "no /usr/bin/time output of client 1")
	if len(sd.Times) > 0 && sd.Times[0] != nil {
		r.ClientCPU = Known(sd.Times[0].User+sd.Times[0].System, Seconds)
	}
	r.DBMSCPU = NA(Seconds, "no ps samples")
	if sd.Ps == nil || ps.rows == 0 {
		return
	}
	r.DBMSCPU = Known(ps.lastCPU-ps.firstCPU, Seconds)
	if ps.lastCPU < ps.firstCPU {
		// CPU time only grows: a process restarted, or the first and last
		// samples are not of one process.
		r.DBMSCPU = NAf(Seconds, "%s: the CPU time goes down from %g s to %g s", sd.Ps.Name, ps.firstCPU, ps.lastCPU)
		s.warn(sd.Ps.Name, "the CPU time of the first sample (%g s) is more than the last's (%g s); DBMS CPU seconds are NA", ps.firstCPU, ps.lastCPU)
	}
	r.PsUser = s.opt.PsUser
	if r.PsUser == "" {
		r.PsUser = ps.largestUser
	}
}

// maxRSS is the largest RSS (KiB) of a process of the DBMS user, -1 when
// there is none.
func (s *summarizer) maxRSS() int64 {
	sd, ps := s.sd, &s.acc.ps
	if sd.Ps == nil {
		return -1
	}
	best := ps.rss(s.r.PsUser)
	if best < 0 && ps.rows > 0 {
		s.warn(sd.Ps.Name, "no process of user %q", s.r.PsUser)
	}
	return best
}

// row computes the twenty metrics.
func (s *summarizer) row() {
	sd, r := s.sd, s.r
	m := &r.Metrics
	rw := sd.Step.Kind.ReadWrite()
	u := func(m Metric) Unit { return m.Unit(sd.Step.Kind) }
	rate, rateName := s.opRate()
	m[IPS] = r.InsertRate
	m[QPS] = Known(0, QueriesPerSec)
	if rw {
		m[QPS] = r.QueryRate
	}
	m[RPS], m[RMBPS] = r.Iostat.ReadsPerSec, r.Iostat.ReadMiBPerSec
	m[WPS], m[WMBPS] = r.Iostat.WritesPerSec, r.Iostat.WriteMiBPerSec
	m[RPQ] = perOp(r.Iostat.ReadsPerSec, rate, rateName, u(RPQ))
	m[RKBPQ] = perOp(scale(r.Iostat.ReadMiBPerSec, 1024), rate, rateName, u(RKBPQ))
	m[WPI] = perOp(r.Iostat.WritesPerSec, r.InsertRate, "insert rate", u(WPI))
	m[WKBPI] = perOp(scale(r.Iostat.WriteMiBPerSec, 1024), r.InsertRate, "insert rate", u(WKBPI))
	m[CSPS], m[CPUPS] = r.Vmstat.CSPerSec, r.Vmstat.CPUPercent
	m[CSPQ] = perOp(r.Vmstat.CSPerSec, rate, rateName, u(CSPQ))
	cpuUnit := u(CPUPQ)
	switch {
	case r.Cores == 0:
		m[CPUPQ] = NA(cpuUnit, "CPU count unknown (use --cores)")
	case !r.Seconds.OK():
		m[CPUPQ] = NA(cpuUnit, "the step duration is unknown")
	default:
		// CPU seconds used by the host over the step, per operation, in µs.
		m[CPUPQ] = perOp(scale(r.Vmstat.CPUPercent, float64(r.Cores)*1e6/100), rate, rateName, cpuUnit)
	}
	m[DBGB1] = sizeValue(sd.DBSize, "o.dbsz", 1)
	m[DBGB2] = sizeValue(sd.DBDir, "o.dbdirsz", 1<<30)
	m[RSS] = NA(GiB, "no ps sample of the DBMS user")
	if kib := s.maxRSS(); kib >= 0 {
		m[RSS] = Known(float64(kib)/(1<<20), GiB)
	}
	kind := parse.Insert
	if rw {
		kind = parse.Query
	}
	if mx := r.Max[kind]; len(mx) > 0 {
		m[MaxOp] = mx[0]
	} else {
		m[MaxOp] = NAf(Seconds, "no %s response-time histogram in the client logs", kind)
	}
	pick := func(p Percentile) Value {
		if rw {
			return p.Query
		}
		return p.Insert
	}
	if len(r.Percentiles) > 0 {
		m[P50], m[P99] = pick(r.Percentiles[0][0]), pick(r.Percentiles[0][4])
	} else {
		m[P50], m[P99] = NA(NoUnit, "no client log"), NA(NoUnit, "no client log")
	}
	for i := range m {
		m[i].Unit = u(Metric(i))
	}
}

// sizeValue is the size a size file holds in GiB (it holds GiB times per),
// NA when the file is missing or holds no size.
func sizeValue(d *parse.DBSize, file string, per float64) Value {
	switch {
	case d == nil:
		return NAf(GiB, "no %s file", file)
	case !d.OK:
		return NAf(GiB, "%s holds no size", d.Name)
	}
	return Known(d.Value/per, GiB)
}

// perOp divides a per-second value by an operation rate.
func perOp(perSec, rate Value, rateName string, u Unit) Value {
	switch {
	case !perSec.OK():
		return NA(u, perSec.Why)
	case !rate.OK():
		return NA(u, rate.Why)
	case rate.V == 0:
		return NA(u, "the "+rateName+" is 0")
	}
	return Known(perSec.V/rate.V, u)
}

func scale(v Value, f float64) Value {
	if v.OK() {
		v.V *= f
	}
	return v
}
