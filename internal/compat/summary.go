package compat

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// NormRows are the iostat and vmstat averages normalized by one rate, the
// rows the driver printed twice in o.res (by insert rate and by query rate).
type NormRows struct {
	// Iostat: nsamp r/s rMB/s w/s wMB/s r/op rKB/op w/op wKB/op rate.
	Iostat [10]string
	// Vmstat: nsamp cs/s cpu/s cs/op cpu/op.
	Vmstat [5]string
}

// Percentile is one "<x>th, <off> / <lines> = …" line of o.res.
type Percentile struct {
	X, Off, Lines         int
	Insert, Delete, Query string // "NA" when the client has fewer than 10 intervals
}

// Summary is everything the driver's o.res summary holds for one step,
// recomputed from the raw logs as the driver's scripts did, as the text they
// printed.
type Summary struct {
	Step    parse.Step
	RealDop int
	MaxRows int64
	// TotSecs is the wall-clock duration of the step. Only o.res records it;
	// without o.res it is estimated (see Warnings).
	TotSecs    int64
	InsertRate string // bc output, e.g. "86956.5"
	InsertPer  string
	TotalQuery int64
	QueryRate  string
	Deletes    string // "yes" or "no" (or what o.res said)

	ByInsert, ByQuery NormRows
	IostatHeader      []string // iostat column names cut to 7 characters
	IostatAvg         []string // averages of every iostat column but the first sample
	Device            string

	DBGB, DBDirGB, DBDirPath string
	PsLine                   string // the ps sample the driver quoted
	PsUser                   string
	MaxRSSKiB                int64 // largest RSS of a PsUser process, -1 when unknown

	Max         map[parse.HistKind][]string // up to three largest response times, "%.3f" seconds
	Percentiles [][]Percentile              // per client
	ClientCPU   [3]string                   // user, system, total
	DBMSCPU     string

	Hist  map[parse.HistKind]*metrics.Histogram
	Rates map[parse.HistKind][]metrics.RateWindows

	Cores       int
	CoresSource string
	Warnings    []string

	histText [][]string // per client, the histogram lines verbatim
}

func (s *Summary) warn(format string, args ...any) {
	s.Warnings = append(s.Warnings, fmt.Sprintf(format, args...))
}

// summarize recomputes the o.res summary of a step from its raw files,
// read whole.
func summarize(sd *parse.StepData, opt metrics.Options) *Summary {
	return summarizeWith(sd, fromRecords(sd), opt)
}

// summarizeWith is summarize of a step whose iostat, vmstat and ps files
// were gathered in big as they were read.
func summarizeWith(sd *parse.StepData, big *bigFiles, opt metrics.Options) *Summary {
	s := &Summary{Step: sd.Step, MaxRSSKiB: -1, Max: map[parse.HistKind][]string{}}
	for _, p := range sd.Problems {
		s.warn("%v", p)
	}
	s.RealDop = len(sd.Clients)
	s.rates(sd, opt)
	s.norm(sd, big, opt)
	s.iostatAvg(sd, big)
	s.sizes(sd)
	s.ps(sd, big, opt)
	s.maxima(sd)
	s.percentiles(sd)
	s.cpu(sd, big)
	s.Hist = map[parse.HistKind]*metrics.Histogram{}
	for _, k := range parse.HistKinds {
		if k == parse.Delete && s.Deletes != "yes" && s.Deletes != "1" {
			continue
		}
		s.Hist[k] = histTable(sd, k)
	}
	// The rates of stats columns 3 (inserts), 5 (deletes) and 7 (queries).
	s.Rates = map[parse.HistKind][]metrics.RateWindows{
		parse.Insert: rateLines(sd, 3, metrics.InsertsPerSec),
		parse.Delete: rateLines(sd, 5, metrics.DeletesPerSec),
		parse.Query:  rateLines(sd, 7, metrics.QueriesPerSec),
	}
	for _, c := range sd.Clients {
		s.histText = append(s.histText, c.HistText)
	}
	s.cores(sd, opt)
	return s
}

// rates computes line 1 of o.res: duration, insert and query rates.
func (s *Summary) rates(sd *parse.StepData, opt metrics.Options) {
	var nr int64
	for _, c := range sd.Clients {
		nr += c.IntOption("max_rows", 0)
	}
	extra := int64(0)
	if sd.Step.Kind == parse.CreateIndex {
		extra = opt.ExtraRows
	}
	s.Deletes = "no"
	if sd.Deletes() {
		s.Deletes = "yes"
	}
	for _, c := range sd.Clients {
		// The total query count is t_query of each client's last stats line.
		if n := len(c.Intervals); n > 0 {
			s.TotalQuery += int64(c.Intervals[n-1].Get(parse.TQuery))
		}
	}
	switch {
	case sd.Res != nil && sd.Res.TotSecs > 0:
		s.TotSecs = sd.Res.TotSecs
		if sd.Res.Deletes != "" {
			s.Deletes = sd.Res.Deletes
		}
	default:
		s.TotSecs = estimateSecs(sd)
		if s.TotSecs > 0 {
			s.warn("%s: o.res is missing; the step duration (%d s) is estimated from /usr/bin/time and the client logs", sd.Dir, s.TotSecs)
		} else {
			s.warn("%s: o.res is missing and the step duration cannot be estimated; rates are NA", sd.Dir)
		}
	}
	if s.RealDop == 0 {
		s.InsertRate, s.InsertPer, s.QueryRate = "", "", ""
		return
	}
	secs := s.TotSecs
	if secs == 0 {
		secs = 1 // what the driver does for a step shorter than a second
	}
	ins, _ := awk.Div(awk.Int(nr), awk.Int(secs), 1)
	per, _ := awk.Div(ins, awk.Int(int64(s.RealDop)), 1)
	s.InsertPer = per.String()
	s.MaxRows = nr / int64(s.RealDop)
	if extra > 0 {
		ins, _ = awk.Div(awk.Int(nr+extra), awk.Int(secs), 1)
		s.MaxRows = (nr + extra) / int64(s.RealDop)
	}
	s.InsertRate = ins.String()
	q, _ := awk.Div(awk.Int(s.TotalQuery), awk.Int(secs), 1)
	s.QueryRate = q.String()
	if sd.Res != nil && sd.Res.InsertRate != "" {
		// The driver knew the requested row count exactly; the client logs only
		// know it rounded down per client. Trust o.res and say so.
		if sd.Res.InsertRate != s.InsertRate {
			s.warn("%s: insert rate from the client logs is %s, o.res says %s; using o.res", sd.Res.Name, s.InsertRate, sd.Res.InsertRate)
			s.InsertRate, s.InsertPer, s.MaxRows = sd.Res.InsertRate, sd.Res.InsertPer, sd.Res.MaxRows
		}
		if sd.Res.QueryRate != "" && sd.Res.QueryRate != s.QueryRate {
			s.warn("%s: query rate from the client logs is %s, o.res says %s; using o.res", sd.Res.Name, s.QueryRate, sd.Res.QueryRate)
			s.QueryRate, s.TotalQuery = sd.Res.QueryRate, sd.Res.TotalQuery
		}
	}
}

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

// device picks the iostat device of the step.
func (s *Summary) device(sd *parse.StepData, big *bigFiles, opt metrics.Options) string {
	if opt.Device != "" {
		return opt.Device
	}
	if sd.Iostat == nil {
		return ""
	}
	return big.busiest(sd.Iostat)
}

// norm computes the iostat and vmstat rows normalized by each rate (ios.sh).
func (s *Summary) norm(sd *parse.StepData, big *bigFiles, opt metrics.Options) {
	s.Device = s.device(sd, big, opt)
	if sd.Iostat != nil && s.Device != "" && len(big.matching(s.Device)) == 0 {
		s.warn("%s: no iostat rows for device %q", sd.Iostat.Name, s.Device)
	}
	if sd.Iostat != nil {
		s.Warnings = append(s.Warnings, alsoMatchingNames(sd.Iostat.Name, big.names(), s.Device)...)
	}
	io := big.sumIostat(sd.Iostat, s.Device)
	s.Warnings = append(s.Warnings, big.warnings...)
	big.warnings = nil
	vm := vmstatCounts(sd.Vmstat, big.vmCs, big.vmCPU)
	s.Warnings = append(s.Warnings, vm.warnings...)
	s.ByInsert = normRows(io, vm, s.InsertRate)
	s.ByQuery = normRows(io, vm, s.QueryRate)
}

// countStr prints a sample count as awk's "%s" of a counter: empty when the
// counter was never incremented.
func countStr(c int) string {
	if c == 0 {
		return ""
	}
	return strconv.Itoa(c)
}

// iostatAvg computes the iostat column averages (sum_iostat.sh): every column
// of every device row but the first, formatted by magnitude.
func (s *Summary) iostatAvg(sd *parse.StepData, big *bigFiles) {
	if sd.Iostat == nil || sd.Iostat.Header == nil {
		return
	}
	for _, h := range sd.Iostat.Header {
		if len(h) > 7 {
			h = h[:7]
		}
		s.IostatHeader = append(s.IostatHeader, h)
	}
	var sums []float64
	var rows int
	if s.Device != "" {
		switch m := big.matching(s.Device); len(m) {
		case 0:
		case 1:
			sums, rows = m[0].cols, m[0].rows
		default:
			// The rows of several devices, added up in file order.
			sums, rows = deviceSums(big.full(sd.Iostat), s.Device)
		}
	}
	if rows < 2 {
		s.IostatAvg = []string{} // one row: awk never set nf, an empty line
		return
	}
	c := float64(rows - 1)
	for i := range big.width {
		sm := 0.0
		if i < len(sums) {
			sm = sums[i]
		}
		s.IostatAvg = append(s.IostatAvg, magnitude(sm/c))
	}
}

// deviceSums adds up every column of the rows of every device whose name
// contains device but the first such row, and counts those rows.
func deviceSums(io *parse.Iostat, device string) ([]float64, int) {
	if io == nil {
		return nil, 0
	}
	var rows []*parse.IostatRow
	for i := range io.Rows {
		if r := &io.Rows[i]; strings.Contains(r.Device, device) {
			rows = append(rows, r)
		}
	}
	if len(rows) < 2 {
		return nil, len(rows)
	}
	nf := len(rows[len(rows)-1].Values)
	sums := make([]float64, nf)
	for _, r := range rows[1:] {
		for i := 0; i < nf && i < len(r.Values); i++ {
			sums[i] += r.Values[i]
		}
	}
	return sums, len(rows)
}

func magnitude(v float64) string {
	switch {
	case v >= 100000:
		return awk.F(v, 0)
	case v >= 100:
		return awk.F(v, 1)
	case v >= 10:
		return awk.F(v, 2)
	}
	return awk.F(v, 3)
}

func (s *Summary) sizes(sd *parse.StepData) {
	if sd.DBSize != nil {
		s.DBGB = awk.F(sd.DBSize.Value, 3)
	}
	if sd.DBDir != nil {
		s.DBDirGB = awk.F(sd.DBDir.Value/(1024*1024*1024), 3)
		s.DBDirPath = sd.DBDir.Path
	}
}

// ps picks the ps sample the driver quoted and the RSS of the DBMS.
func (s *Summary) ps(sd *parse.StepData, big *bigFiles, opt metrics.Options) {
	p := &big.ps
	if sd.Ps == nil || p.rows == 0 {
		return
	}
	// The driver sorted by VSZ for Postgres (RSS does not show shared buffers)
	// and by RSS otherwise, and kept the last line: the largest key, ties
	// broken by the larger line in byte order.
	s.PsLine = p.byRSS.text
	if dbmsOf(sd) == "postgres" {
		s.PsLine = p.byVSZ.text
	}
	s.PsUser = opt.PsUser
	if s.PsUser == "" {
		s.PsUser = p.largestUser
	}
	if m, ok := p.maxRSS[s.PsUser]; ok {
		s.MaxRSSKiB = max(s.MaxRSSKiB, m)
	}
	if len(s.PsUser) > 7 {
		if m, ok := p.maxRSS[s.PsUser[:7]+"+"]; ok {
			s.MaxRSSKiB = max(s.MaxRSSKiB, m)
		}
	}
	if s.MaxRSSKiB < 0 {
		s.warn("%s: no process of user %q", sd.Ps.Name, s.PsUser)
	}
}

func dbmsOf(sd *parse.StepData) string {
	for _, c := range sd.Clients {
		if v, ok := c.Option("dbms"); ok {
			return v
		}
	}
	return ""
}

// maxima lists the three largest response times per kind over all clients.
func (s *Summary) maxima(sd *parse.StepData) {
	// The driver globbed o.ib.dop<D>.*, which lists client 10 before client 2.
	clients := append([]*parse.ClientLog(nil), sd.Clients...)
	sort.SliceStable(clients, func(i, j int) bool { return clients[i].Name < clients[j].Name })
	for _, k := range parse.HistKinds {
		var vals []float64
		for _, c := range clients {
			for _, h := range c.Histograms {
				if h.Kind == k {
					vals = append(vals, awk.Num(awk.F(h.Max, 3)))
				}
			}
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(vals)))
		var out []string
		for i := 0; i < len(vals) && i < 3; i++ {
			out = append(out, awk.F(vals[i], 3))
		}
		s.Max[k] = out
	}
}

// percentiles computes the per-client rate percentiles (50, 75, 90, 95, 99th).
func (s *Summary) percentiles(sd *parse.StepData) {
	// The columns are taken into one scratch slice for all the clients: a
	// slice of their own, three a log, was most of compat mode's page
	// faults.
	buf := stats.Floats(0)
	defer stats.PutFloats(buf)
	for _, c := range sd.Clients {
		lines := len(c.Intervals)
		if c.WidthLines > 0 {
			lines = c.WidthLines - 1 // every 17-field line but the header
		}
		// The three columns are taken in one pass over the intervals.
		cols := [3]parse.Column{parse.IIps, parse.IDps, parse.IQps}
		n := len(c.Intervals)
		if cap(*buf) < 3*n {
			*buf = make([]float64, 3*n)
		}
		b := (*buf)[:3*n]
		v := [3][]float64{b[:n:n], b[n : 2*n : 2*n], b[2*n:]}
		for j := range c.Intervals {
			iv := &c.Intervals[j].Values
			v[0][j], v[1][j], v[2][j] = iv[cols[0]], iv[cols[1]], iv[cols[2]]
		}
		var lists [3]descList
		for i, col := range cols {
			// The original removed the header with `grep -v i_ips`, which only
			// matches the insert column's header token.
			hdr := i > 0 && c.HeaderLine > 0 && len(c.Columns) > 6
			lists[i] = newDescList(v[i], c.Columns[col], hdr)
		}
		ranks := []int{50, 75, 90, 95, 99}
		offs := make([]int, len(ranks))
		for r, x := range ranks {
			// bc: scale=3; (x / 100.0) * lines, then printf %.0f
			frac, _ := awk.Div(awk.Int(int64(x)), hundred, 3)
			off := awk.Mul(frac, awk.Int(int64(lines)), 3)
			offs[r] = int(math.RoundToEven(off.Float()))
		}
		if lines >= 10 {
			for i := range lists {
				lists[i].prepare(offs)
			}
		}
		var ps []Percentile
		for r, x := range ranks {
			p := Percentile{X: x, Lines: lines}
			if lines < 10 {
				p.Insert, p.Delete, p.Query = "NA", "NA", "NA"
			} else {
				p.Off = offs[r]
				p.Insert, p.Delete, p.Query = lists[0].nth(p.Off), lists[1].nth(p.Off), lists[2].nth(p.Off)
			}
			ps = append(ps, p)
		}
		s.Percentiles = append(s.Percentiles, ps)
	}
}

// descList is a rate list as the driver sorted it with `sort -rn`: by
// value descending, equal values by their text in descending byte order
// (sort's last-resort comparison, reversed). Equal values have the same
// text but for 0 and -0 ("0" sorts before "-0") and the header token the
// list may hold, which sort reads as 0. So the zeros are counted, not
// sorted: their texts and the header token's place among them follow from
// the counts, and the few other lines asked for are selected (nth), not
// sorted for: no text is made but the ones printed.
type descList struct {
	v   []float64 // the values, in no order (nth reorders them)
	hdr string    // the header token, when has
	has bool
	at  int // the header's index in the whole list
	// In the values sorted, v[z0:z1] are the zeros, the last neg of them -0.
	z0, z1, neg int
	// preVal are the values at the ascending indexes preIdx (prepare).
	preIdx []int
	preVal []float64
}

// newDescList places the header token hdr when has among the values v,
// which the list keeps and reorders.
func newDescList(v []float64, hdr string, has bool) descList {
	l := descList{v: v, hdr: hdr, has: has}
	zeros := 0
	for _, x := range v { // the values are finite: readers refuse NaN
		switch {
		case x > 0:
			l.z0++
		case x == 0:
			zeros++
			if math.Signbit(x) {
				l.neg++
			}
		}
	}
	l.z1 = l.z0 + zeros
	switch {
	case hdr > "0":
		l.at = l.z0
	case hdr > "-0":
		l.at = l.z1 - l.neg // after "0", before "-0"; a tie with "0" prints alike
	default:
		l.at = l.z1
	}
	return l
}

// nth is `head -off | tail -1`: the text of line off (1-based) of the
// list, its last line when it is shorter, "" when off <= 0 or it is empty.
func (l descList) nth(off int) string {
	text, k := l.place(off)
	if k < 0 {
		return text
	}
	if j := slices.Index(l.preIdx, k); j >= 0 {
		return strconv.FormatFloat(l.preVal[j], 'f', -1, 64)
	}
	return strconv.FormatFloat(kthAsc(l.v, k), 'f', -1, 64)
}

// place is what line off of the list is: its text, when it is the header,
// a zero or no line, with k -1; else the index k of its value in the
// values sorted in ascending order.
func (l descList) place(off int) (text string, k int) {
	n := len(l.v)
	if l.has {
		n++
	}
	if off <= 0 || n == 0 {
		return "", -1
	}
	i := min(off, n) - 1
	if l.has {
		switch {
		case i == l.at:
			return l.hdr, -1
		case i > l.at:
			i--
		}
	}
	switch {
	case i >= l.z1-l.neg && i < l.z1:
		return "-0", -1
	case i >= l.z0 && i < l.z1:
		return "0", -1
	}
	return "", len(l.v) - 1 - i
}

// prepare finds at once the values nth will select for the offsets offs,
// when the values are whole numbers in a narrow range (stats.SelectWhole
// counts them: the rates of a client log are counts per second); nth
// selects the others one by one.
func (l *descList) prepare(offs []int) {
	var idx []int
	for _, off := range offs {
		if _, k := l.place(off); k >= 0 && !slices.Contains(idx, k) {
			idx = append(idx, k)
		}
	}
	if len(idx) == 0 {
		return
	}
	out := make([]float64, len(idx))
	if stats.SelectWhole(l.v, idx, out) {
		l.preIdx, l.preVal = idx, out
	}
}

// normRows are the iostat and vmstat averages of one step normalized by
// the rate q, as the summary prints them.
func normRows(io metrics.IostatSums, vm vmSums, q string) NormRows {
	fc, fv := float64(io.Rows), float64(vm.n)
	qv := awk.Num(q)
	return NormRows{
		Iostat: [10]string{
			countStr(io.Rows), awk.F(io.RS/fc, 1), awk.F(io.RKB/fc/1024, 1), awk.F(io.WS/fc, 1), awk.F(io.WKB/fc/1024, 1),
			awk.F(io.RS/fc/qv, 3), awk.F(io.RKB/fc/qv, 3), awk.F(io.WS/fc/qv, 3), awk.F(io.WKB/fc/qv, 3), q,
		},
		Vmstat: [5]string{countStr(vm.n), awk.F(vm.cs/fv, 0), awk.F(vm.cpu/fv, 1), awk.F(vm.cs/fv/qv, 3), awk.F(vm.cpu/fv/qv, 6)},
	}
}

// kthAsc is the value at index k of v sorted in ascending order; it
// reorders v. A selection is O(len(v)) where the sort was O(n log n): the
// five percentiles of a list cost less than sorting it. Values that
// compare equal are the same float64 but for 0 and -0, which nth does not
// select.
func kthAsc(v []float64, k int) float64 {
	stats.SelectAsc(v, k)
	return v[k]
}

// cpu computes the client and DBMS CPU seconds lines.
func (s *Summary) cpu(sd *parse.StepData, big *bigFiles) {
	var first *parse.Time
	firstName := ""
	for _, t := range sd.Times {
		if t != nil && (first == nil || t.Name < firstName) {
			first, firstName = t, t.Name
		}
	}
	u, sy := 0.0, 0.0
	if first != nil {
		f := strings.Fields(first.FirstLine)
		if len(f) >= 2 {
			u = awk.Num(strings.ReplaceAll(f[0], "user", ""))
			sy = awk.Num(strings.ReplaceAll(f[1], "system", ""))
		}
	}
	us, sys := awk.F(u, 2), awk.F(sy, 2)
	s.ClientCPU = [3]string{us, sys, awk.F(awk.Num(us)+awk.Num(sys), 1)}
	if sd.Ps != nil && big.ps.rows > 0 {
		s.DBMSCPU = awk.F(big.ps.lastCPU-big.ps.firstCPU, 1)
	} else {
		s.DBMSCPU = awk.F(0, 1)
	}
}

// cores decides the CPU count used by cpupq.
func (s *Summary) cores(sd *parse.StepData, opt metrics.Options) {
	switch {
	case opt.Cores > 0:
		s.Cores, s.CoresSource = opt.Cores, "option"
	case sd.Iostat != nil && sd.Iostat.CPUs > 0:
		s.Cores, s.CoresSource = sd.Iostat.CPUs, sd.Iostat.Name+" banner"
		s.warn("%s: CPU count not given (--cores); using %d from the iostat banner", sd.Dir, s.Cores)
	default:
		s.warn("%s: CPU count unknown (use --cores); cpupq is NA", sd.Dir)
	}
}

// hundred is bc's "100.0".
var hundred, _ = awk.ParseDec("100.0")
