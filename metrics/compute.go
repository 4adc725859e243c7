package metrics

import (
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"

	"github.com/ibreport/ibreport/parse"
)

// ComputeTree reads every step of a tree and summarizes it. The create-index
// step counts the rows loaded by l.i0 as indexed rows, so l.i0 is read
// first (it sorts first). A step's parsed records are dropped as soon as it
// is summarized.
func ComputeTree(fsys fs.FS, t *parse.Tree, opt Options) (*TreeResult, error) {
	res := &TreeResult{Tree: t}
	for _, st := range t.Steps {
		sd, err := parse.ReadStep(fsys, path.Join(t.Dir, st.Name), st)
		if err != nil {
			return nil, err
		}
		if st.Name == "l.i0" {
			opt.ExtraRows = 0
			for _, c := range sd.Clients {
				opt.ExtraRows += c.IntOption("max_rows", 0)
			}
		}
		res.Steps = append(res.Steps, Summarize(sd, t.Name, opt))
	}
	return res, nil
}

// Summarize computes the results of one step from its parsed files, with
// float64 arithmetic on the parsed records. Every value that cannot be known
// is NA with the reason; Warnings names the files behind them.
func Summarize(sd *parse.StepData, tree string, opt Options) *StepResult {
	s := &summarizer{sd: sd, opt: opt, r: &StepResult{
		Tree: tree, Step: sd.Step, Dop: sd.Dop, Clients: len(sd.Clients),
		Max: map[parse.HistKind][]Value{}, Hist: map[parse.HistKind]*Histogram{},
		Rates: map[parse.HistKind][]RateWindows{},
	}}
	r := s.r
	for _, p := range sd.Problems {
		s.warn("%v", p)
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
	for i, c := range sd.Clients {
		r.Series = append(r.Series, NewClientSeries(i+1, c))
	}
	s.row()
	return r
}

type summarizer struct {
	sd  *parse.StepData
	opt Options
	r   *StepResult
}

func (s *summarizer) warn(format string, args ...any) {
	s.r.Warnings = append(s.r.Warnings, fmt.Sprintf(format, args...))
}

// op names the operation of the step's per-operation metrics.
func (s *summarizer) op() string {
	switch {
	case s.sd.Step.Kind.ReadWrite():
		return "query"
	case s.sd.Step.Kind == parse.CreateIndex:
		return "row"
	}
	return "insert"
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
	for _, c := range sd.Clients {
		rows += c.IntOption("max_rows", 0)
		if n := len(c.Intervals); n > 0 {
			// The query count is t_query of each client's last stats line.
			r.Queries += int64(c.Intervals[n-1].Get(parse.TQuery))
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
	switch {
	case sd.Res != nil && sd.Res.TotSecs > 0:
		secs = float64(sd.Res.TotSecs)
		r.Seconds = Known(secs, Seconds)
		if sd.Res.Deletes != "" {
			r.Deletes = sd.Res.Deletes == "yes" || sd.Res.Deletes == "1"
		}
	default:
		secs = float64(estimateSecs(sd))
		if secs > 0 {
			r.Seconds = Known(secs, Seconds)
			s.warn("%s: o.res is missing; the step duration (%.0f s) is estimated from /usr/bin/time and the client logs", sd.Dir, secs)
		} else {
			r.Seconds = NA(Seconds, "o.res is missing and no client time is known")
			s.warn("%s: o.res is missing and the step duration cannot be estimated; rates are NA", sd.Dir)
		}
	}
	if len(sd.Clients) == 0 {
		r.InsertRate = NA(insUnit, "no client logs")
		r.QueryRate = NA(QueriesPerSec, "no client logs")
		return
	}
	if secs == 0 {
		secs = 1 // what the driver does for a step shorter than a second
	}
	r.InsertRate = Known(float64(rows)/secs, insUnit)
	r.QueryRate = Known(float64(r.Queries)/secs, QueriesPerSec)
	if res := sd.Res; res != nil {
		// The driver knew the requested row count exactly; the client logs
		// know it only rounded down per client. Trust o.res and say so. o.res
		// prints the rate truncated to one decimal.
		if v, err := strconv.ParseFloat(res.InsertRate, 64); err == nil && !sameTruncated(v, r.InsertRate.V) {
			s.warn("%s: insert rate from the client logs is %.1f, o.res says %s; using o.res", res.Name, truncate1(r.InsertRate.V), res.InsertRate)
			r.InsertRate = Known(v, insUnit)
			r.Rows = res.MaxRows * int64(max(res.RealDop, 1))
		}
		if v, err := strconv.ParseFloat(res.QueryRate, 64); err == nil && !sameTruncated(v, r.QueryRate.V) {
			s.warn("%s: query rate from the client logs is %.1f, o.res says %s; using o.res", res.Name, truncate1(r.QueryRate.V), res.QueryRate)
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
func estimateSecs(sd *parse.StepData) int64 {
	best := 0.0
	for _, t := range sd.Times {
		if t != nil && t.Elapsed > best {
			best = t.Elapsed
		}
	}
	if best == 0 {
		for _, c := range sd.Clients {
			if n := len(c.Intervals); n > 0 {
				best = math.Max(best, c.Intervals[n-1].Get(parse.TSec))
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
		s.warn("%s: CPU count not given (--cores); using %d from the iostat banner", sd.Dir, r.Cores)
	default:
		s.warn("%s: CPU count unknown (use --cores); cpupq is NA", sd.Dir)
	}
}

// deviceRows returns the iostat rows of the step's device: the one named by
// the options, else the busiest one.
func (s *summarizer) deviceRows() []parse.IostatRow {
	sd := s.sd
	if sd.Iostat == nil {
		return nil
	}
	s.r.Device = s.opt.Device
	if s.r.Device == "" {
		s.r.Device = sd.Iostat.BusiestDevice()
	}
	if s.r.Device == "" {
		return nil
	}
	var rows []parse.IostatRow
	for _, row := range sd.Iostat.Rows {
		if row.Device == s.r.Device {
			rows = append(rows, row)
		}
	}
	return rows
}

// iostat averages r/s, rkB/s, w/s and wkB/s over the device's rows.
func (s *summarizer) iostat() {
	sd, r := s.sd, s.r
	rows := s.deviceRows()
	if sd.Iostat != nil && r.Device != "" && len(rows) == 0 {
		s.warn("%s: no iostat rows for device %q", sd.Iostat.Name, r.Device)
	}
	why := "no iostat samples for the device"
	switch {
	case sd.Iostat == nil:
		why = "no iostat file"
	case !sd.Iostat.HasRates():
		why = sd.Iostat.Name + " has no r/s, w/s, rkB/s and wkB/s columns"
		rows = nil
	}
	io := &r.Iostat
	if len(rows) == 0 {
		io.ReadsPerSec, io.ReadMiBPerSec = NA(ReadsPerSec, why), NA(MiBPerSec, why)
		io.WritesPerSec, io.WriteMiBPerSec = NA(WritesPerSec, why), NA(MiBPerSec, why)
		return
	}
	col := sd.Iostat.Col
	var rs, rkb, ws, wkb float64
	for _, row := range rows {
		rs += row.Values[col.RS]
		rkb += row.Values[col.RKB]
		ws += row.Values[col.WS]
		wkb += row.Values[col.WKB]
	}
	n := float64(len(rows))
	io.Samples = len(rows)
	io.ReadsPerSec = Known(rs/n, ReadsPerSec)
	io.ReadMiBPerSec = Known(rkb/n/1024, MiBPerSec)
	io.WritesPerSec = Known(ws/n, WritesPerSec)
	io.WriteMiBPerSec = Known(wkb/n/1024, MiBPerSec)
}

// vmstat averages cs and us+sy over the samples; the first row, averages
// since boot, is not a sample of the step.
func (s *summarizer) vmstat() {
	v, vm := s.sd.Vmstat, &s.r.Vmstat
	var cs, cpu float64
	if v != nil {
		for _, x := range v.Samples {
			if x.SinceBoot {
				continue
			}
			cs += x.Cs
			cpu += x.Us + x.Sy
			vm.Samples++
		}
	}
	if vm.Samples == 0 {
		why := "no vmstat samples"
		if v == nil {
			why = "no vmstat file"
		}
		vm.CSPerSec, vm.CPUPercent = NA(CSPerSec, why), NA(CPUPercent, why)
		return
	}
	n := float64(vm.Samples)
	vm.CSPerSec = Known(cs/n, CSPerSec)
	vm.CPUPercent = Known(cpu/n, CPUPercent)
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
	rows := s.deviceRows()
	if len(rows) < 2 {
		s.warn("%s: fewer than 2 iostat rows for %q; no column averages", sd.Iostat.Name, r.Device)
		return
	}
	nf := len(rows[len(rows)-1].Values)
	sums := make([]float64, nf)
	for _, row := range rows[1:] {
		for i := 0; i < nf && i < len(row.Values); i++ {
			sums[i] += row.Values[i]
		}
	}
	n := float64(len(rows) - 1)
	for _, sm := range sums {
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
func (s *summarizer) percentiles() {
	for _, c := range s.sd.Clients {
		n := len(c.Intervals)
		var lists [3][]float64
		units := [3]Unit{InsertsPerSec, DeletesPerSec, QueriesPerSec}
		for i, col := range []parse.Column{parse.IIps, parse.IDps, parse.IQps} {
			l := make([]float64, n)
			for j := range c.Intervals {
				l[j] = c.Intervals[j].Values[col]
			}
			slices.Sort(l)
			slices.Reverse(l)
			lists[i] = l
		}
		var ps []Percentile
		for _, x := range percentileRanks {
			p := Percentile{X: x, Lines: n}
			var vals [3]Value
			if n < 10 {
				for i := range vals {
					vals[i] = NAf(units[i], "%s has %s, fewer than 10", c.Name, plural(n, "interval"))
				}
			} else {
				p.Offset = int(math.RoundToEven(float64(x*n) / 100))
				for i := range vals {
					vals[i] = Known(lists[i][min(max(p.Offset, 1), n)-1], units[i])
				}
			}
			p.Insert, p.Delete, p.Query = vals[0], vals[1], vals[2]
			ps = append(ps, p)
		}
		s.r.Percentiles = append(s.r.Percentiles, ps)
	}
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
	for _, x := range []struct {
		kind parse.HistKind
		col  parse.Column
		unit Unit
	}{{parse.Insert, parse.IIps, InsertsPerSec}, {parse.Delete, parse.IDps, DeletesPerSec}, {parse.Query, parse.IQps, QueriesPerSec}} {
		var out []RateWindows
		for i, c := range s.sd.Clients {
			rw := RateWindows{Client: i + 1}
			n := len(c.Intervals)
			for w := range 10 {
				if n < 10 {
					rw.Values[w] = NAf(x.unit, "%s has %s, fewer than 10", c.Name, plural(n, "interval"))
					continue
				}
				lo, hi := w*n/10, (w+1)*n/10
				sum := 0.0
				for _, iv := range c.Intervals[lo:hi] {
					sum += iv.Values[x.col]
				}
				rw.Values[w] = Known(sum/float64(hi-lo), x.unit)
			}
			out = append(out, rw)
		}
		s.r.Rates[x.kind] = out
	}
}

// cpuSeconds takes client 1's CPU seconds from /usr/bin/time and the DBMS's
// from the ps samples, and the RSS of the DBMS user.
func (s *summarizer) cpuSeconds() {
	sd, r := s.sd, s.r
	r.ClientCPU = NA(Seconds, "no /usr/bin/time output of client 1")
	if len(sd.Times) > 0 && sd.Times[0] != nil {
		r.ClientCPU = Known(sd.Times[0].User+sd.Times[0].System, Seconds)
	}
	r.DBMSCPU = NA(Seconds, "no ps samples")
	if sd.Ps == nil || len(sd.Ps.Rows) == 0 {
		return
	}
	r.DBMSCPU = Known(sd.Ps.Rows[len(sd.Ps.Rows)-1].CPUTime-sd.Ps.Rows[0].CPUTime, Seconds)
	r.PsUser = s.opt.PsUser
	if r.PsUser == "" {
		r.PsUser = sd.Ps.LargestUser()
	}
}

// maxRSS is the largest RSS (KiB) of a process of the DBMS user, -1 when
// there is none. ps prints users longer than 8 characters cut to 7 and "+".
func (s *summarizer) maxRSS() int64 {
	sd, user := s.sd, s.r.PsUser
	best := int64(-1)
	if sd.Ps == nil {
		return best
	}
	for _, row := range sd.Ps.Rows {
		if row.User == user || len(user) > 7 && row.User == user[:7]+"+" {
			best = max(best, row.RSS)
		}
	}
	if best < 0 && len(sd.Ps.Rows) > 0 {
		s.warn("%s: no process of user %q", sd.Ps.Name, user)
	}
	return best
}

// row computes the twenty metrics.
func (s *summarizer) row() {
	sd, r := s.sd, s.r
	m := &r.Metrics
	rw := sd.Step.Kind.ReadWrite()
	op := s.op()
	rate, rateName := s.opRate()
	m[IPS] = r.InsertRate
	m[QPS] = Known(0, QueriesPerSec)
	if rw {
		m[QPS] = r.QueryRate
	}
	m[RPS], m[RMBPS] = r.Iostat.ReadsPerSec, r.Iostat.ReadMiBPerSec
	m[WPS], m[WMBPS] = r.Iostat.WritesPerSec, r.Iostat.WriteMiBPerSec
	m[RPQ] = perOp(r.Iostat.ReadsPerSec, rate, rateName, PerOp("reads", op))
	m[RKBPQ] = perOp(scale(r.Iostat.ReadMiBPerSec, 1024), rate, rateName, PerOp("KiB", op))
	m[WPI] = perOp(r.Iostat.WritesPerSec, r.InsertRate, "insert rate", PerOp("writes", "insert"))
	m[WKBPI] = perOp(scale(r.Iostat.WriteMiBPerSec, 1024), r.InsertRate, "insert rate", PerOp("KiB", "insert"))
	m[CSPS], m[CPUPS] = r.Vmstat.CSPerSec, r.Vmstat.CPUPercent
	m[CSPQ] = perOp(r.Vmstat.CSPerSec, rate, rateName, PerOp("cs", op))
	cpuUnit := PerOp("CPU µs", op)
	switch {
	case r.Cores == 0:
		m[CPUPQ] = NA(cpuUnit, "CPU count unknown (use --cores)")
	case !r.Seconds.OK():
		m[CPUPQ] = NA(cpuUnit, "the step duration is unknown")
	default:
		// CPU seconds used by the host over the step, per operation, in µs.
		m[CPUPQ] = perOp(scale(r.Vmstat.CPUPercent, float64(r.Cores)*1e6/100), rate, rateName, cpuUnit)
	}
	m[DBGB1] = NA(GiB, "no o.dbsz file")
	if sd.DBSize != nil {
		m[DBGB1] = Known(sd.DBSize.Value, GiB)
	}
	m[DBGB2] = NA(GiB, "no o.dbdirsz file")
	if sd.DBDir != nil {
		m[DBGB2] = Known(sd.DBDir.Value/(1<<30), GiB)
	}
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
		m[i].Unit = Metric(i).Unit(sd.Step.Kind)
	}
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

// plural is "1 interval", "2 intervals".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
