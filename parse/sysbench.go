package parse

import (
	"io"
	"strconv"
	"strings"
)

// A Measure is one number as sysbench printed it. The original scripts copy
// some of these tokens verbatim (latencies in sb.r.*, the query rate in
// sb.met), so the text is kept beside the value.
type Measure struct {
	Text  string // the token without decoration, e.g. "6191.08" of "(6191.08"
	Value float64
	Line  int // 0 when sysbench did not print the value
}

// Found reports whether the value was printed.
func (m Measure) Found() bool { return m.Line > 0 }

// SysbenchInterval is one `--report-interval` line:
//
//	[ 5s ] thds: 1 tps: 319.09 qps: 6384.33 (r/w/o: 4469.61/1276.35/638.37) lat (ms,95%): 3.96 err/s: 0.00 reconn/s: 0.00
//
// Non-SQL tests print eps: instead of tps: and qps:; EPS is then set and TPS
// and QPS are zero.
type SysbenchInterval struct {
	Line                  int
	Sec                   float64 // elapsed seconds at the end of the interval
	Threads               int
	TPS, QPS, EPS         float64
	Reads, Writes, Other  float64 // per second
	LatPct                float64 // latency percentile in ms
	Percentile            int     // the percentile of LatPct, e.g. 95
	ErrPerSec, ReconnPerS float64
}

// SysbenchReport is sysbench's final report (1.0 and 1.1 layouts). A value
// missing from the output has Line 0.
type SysbenchReport struct {
	Line int // first line of the report ("SQL statistics:" or the first value)

	Reads, Writes, Other, Total Measure // "queries performed" counts
	Transactions, TPS           Measure // count and "(N per sec.)"
	Queries, QPS                Measure
	Errors, ErrorsPerSec        Measure // "ignored errors"
	Reconnects, ReconnectsPerS  Measure
	EPS                         Measure // 1.1 "events/s (eps)"
	Elapsed                     Measure // seconds: 1.1 "time elapsed", 1.0 "total time"
	Events                      Measure // "total number of events"

	// Latency in milliseconds. Percentile is the N of "Nth percentile".
	LatMin, LatAvg, LatMax, LatPct, LatSum Measure
	Percentile                             int
}

// SysbenchLoad is the line run.sh appends to the prepare output:
//
//	Load seconds is 730 for 8 tables, .109 Mips, 109589 ips
type SysbenchLoad struct {
	Line    int
	Seconds int64
	Tables  int
	Mips    string // bc output, e.g. ".109"
	IPS     Measure
}

// SysbenchOutput is one sysbench output file as run.sh wrote it: the command
// line, the "<N> CPUs" line, then sysbench's own output (sb.o.<sfx>.dop<nt>),
// or the prepare log sb.prepare.o.<sfx0>.
type SysbenchOutput struct {
	Name      string
	Lines     int
	Command   string            // line 1 when it holds the sysbench command
	Options   map[string]string // the --key=value options of the first sysbench command seen
	CPUs      int               // from "<N> CPUs", 0 when absent
	Version   string            // e.g. "1.0.20" or "1.1.0-b68ebab"
	Threads   int               // "Number of threads: N"
	Warmup    float64           // seconds, "Warmup time: 5s"
	Intervals []SysbenchInterval
	Report    SysbenchReport
	HasReport bool // sysbench printed its final report (the run finished)
	Load      *SysbenchLoad
	Rows      int64 // rows of the "Inserting N records into" lines (prepare)
	Fatal     []Pos // lines starting with FATAL: (failed queries, lost connections)
}

// Option returns the value of --key=value on the command line.
func (o *SysbenchOutput) Option(key string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, ok := o.Options[key]
	return v, ok
}

// IntOption returns an integer option, or def when it is absent or not a
// number.
func (o *SysbenchOutput) IntOption(key string, def int64) int64 {
	if o == nil {
		return def
	}
	return intOption(o.Options, key, def)
}

// intervalLine reads the split interval line n, keeping it or reporting
// what is wrong with it.
func (o *SysbenchOutput) intervalLine(fl *fieldList, n int, errs *ErrorList) {
	iv, msg := parseSysbenchIntervalBytes(fl)
	if msg != "" {
		errs.add(o.Name, n, "%s", msg)
		return
	}
	iv.Line = n
	o.addInterval(iv)
}

// addInterval keeps an interval line, making room for all of them at the
// first.
func (o *SysbenchOutput) addInterval(iv SysbenchInterval) {
	if o.Intervals == nil {
		o.Intervals = make([]SysbenchInterval, 0, o.intervalsExpected())
	}
	o.Intervals = append(o.Intervals, iv)
}

// ReadSysbench reads sysbench output, run or prepare. Lines sysbench prints
// that carry no value (banners, "Threads started!") are skipped; a value
// that is not a number is a syntax error. A run output without the final
// report (the run died or was killed) is an error at its last line, and the
// per-interval lines read so far are still returned.
func ReadSysbench(r io.Reader, name string) (*SysbenchOutput, error) {
	o := &SysbenchOutput{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	section := ""
	isRun := false
	var fl fieldList
	for sc.Scan() {
		n, b := sc.n, sc.line
		o.Lines = n
		// Most lines of a run's output are query plans and banners printed
		// before the run; the interval lines come next. Both are told
		// from the first and last bytes, without a string per field.
		kind := sbOther
		if n > 1 && o.Options != nil && !sc.long {
			kind = sysbenchLineKind(b, o.HasReport)
		}
		var junk bool
		if kind == sbInterval {
			if iv, ok := sbIntervalFast(b); ok {
				iv.Line = n
				o.addInterval(iv)
				continue
			}
			junk = fl.split(b) // tells junk as binaryJunk does
		} else {
			junk = sc.long || binaryJunkBytes(b)
		}
		if junk {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		switch {
		case kind == sbSkip:
			continue
		case kind == sbInterval && fl.n() > 2 && fl.is(0, "[") && fl.is(2, "]"):
			o.intervalLine(&fl, n, &errs)
			continue
		}
		line := sc.Text()
		t := strings.TrimSpace(line)
		f := fields(t)
		if len(f) == 0 {
			continue
		}
		switch {
		case n == 1 && isSysbenchCommand(f):
			o.Command = line
			o.parseOptions(f)
			isRun = contains(f, "run")
			continue
		case o.Options == nil && isSysbenchCommand(f):
			// prepare logs echo the command after the table drops
			o.parseOptions(f)
			continue
		case len(f) == 2 && f[1] == "CPUs" && o.CPUs == 0:
			if c, err := strconv.Atoi(f[0]); err == nil && c > 0 {
				o.CPUs = c
			} else {
				errs.add(name, n, "CPU count %q is not a positive integer", f[0])
			}
			continue
		case f[0] == "sysbench" && len(f) > 1 && o.Version == "":
			o.Version = f[1]
			continue
		case strings.HasPrefix(t, "FATAL:"):
			o.Fatal = append(o.Fatal, Pos{name, n})
			continue
		case strings.HasPrefix(t, "Number of threads:"):
			if v, err := strconv.Atoi(f[len(f)-1]); err == nil && v > 0 {
				o.Threads = v
			} else {
				errs.add(name, n, "thread count %q is not a positive integer", f[len(f)-1])
			}
			continue
		case strings.HasPrefix(t, "Warmup time:"):
			if v, ok := number(strings.TrimSuffix(f[len(f)-1], "s")); ok && v >= 0 {
				o.Warmup = v
			}
			continue
		case f[0] == "[" && len(f) > 2 && f[2] == "]":
			// An interval line the fast path left to the general reading
			// (before the command line, odd spacing): split on the same
			// blanks as fields, it is read by the same parser.
			fl.split([]byte(t))
			o.intervalLine(&fl, n, &errs)
			continue
		case strings.HasPrefix(t, "Load seconds is"):
			if l, ok := parseLoadLine(f); ok {
				l.Line = n
				l.IPS.Line = n
				o.Load = &l
			} else {
				errs.add(name, n, "malformed Load seconds line")
			}
			continue
		case f[0] == "Inserting" && len(f) >= 3 && f[2] == "records":
			if v, err := strconv.ParseInt(f[1], 10, 64); err == nil && v >= 0 {
				o.Rows += v
			}
			continue
		}
		if msg := o.reportLine(t, f, n, &section); msg != "" {
			errs.add(name, n, "%s", msg)
		}
	}
	if err := sc.Err(); err != nil {
		return o, err
	}
	rep := &o.Report
	switch {
	case o.Lines == 0:
		errs.add(name, 0, "empty file")
	case o.HasReport && (!rep.LatAvg.Found() || !rep.LatMax.Found()):
		errs.add(name, o.Lines, "final report ends before its Latency block (output cut short)")
	case !o.HasReport && isRun:
		errs.add(name, o.Lines, "output ends without sysbench's final report (the run died or was stopped)")
	}
	return o, errs.Err()
}

// intervalsExpected is the number of interval lines the command line's
// --time and --report-interval make, bounded, so that the slice of them is
// allocated once.
func (o *SysbenchOutput) intervalsExpected() int {
	t, ri := o.IntOption("time", 0), o.IntOption("report-interval", 0)
	if t <= 0 || ri <= 0 {
		return 64
	}
	return int(min(t/ri+1, 1<<16))
}

// isSysbenchCommand recognizes a sysbench command line (not the version
// banner "sysbench 1.0.20 (using ...)").
func isSysbenchCommand(f []string) bool {
	if f[0] == "sysbench" && len(f) > 1 && f[1] != "" && f[1][0] >= '0' && f[1][0] <= '9' {
		return false
	}
	for _, t := range f {
		if t == "sysbench" || strings.HasSuffix(t, "/sysbench") {
			return true
		}
	}
	return false
}

func (o *SysbenchOutput) parseOptions(f []string) {
	o.Options = map[string]string{}
	for _, t := range f {
		if k, v, ok := strings.Cut(strings.TrimPrefix(t, "--"), "="); ok && strings.HasPrefix(t, "--") {
			o.Options[k] = v
		}
	}
}

// reportLine reads one line of the final report. section is the current
// block ("queries performed", "Latency", ...).
func (o *SysbenchOutput) reportLine(t string, f []string, n int, section *string) string {
	rep := &o.Report
	start := func() {
		if !o.HasReport {
			o.HasReport = true
			rep.Line = n
		}
	}
	key, rest, ok := strings.Cut(t, ":")
	if !ok {
		return ""
	}
	key = strings.TrimSpace(key)
	vals := fields(rest)
	switch key {
	case "SQL statistics", "General statistics", "Throughput", "Threads fairness":
		start()
		*section = key
		return ""
	case "Latency (ms)":
		start()
		*section = key
		return ""
	case "queries performed":
		start()
		*section = key
		return ""
	}
	if !o.HasReport {
		return "" // informational lines before the report
	}
	// value reads the first value after the colon into m; secs removes the
	// unit of "20.0050s".
	value := func(m *Measure, secs bool) string {
		if m.Found() {
			return "" // the scripts take the first line that matches
		}
		if len(vals) == 0 {
			return key + ": value missing"
		}
		tok := vals[0]
		if secs {
			tok = strings.TrimSuffix(tok, "s")
		}
		v, good := number(tok)
		if !good {
			return key + ": " + strconv.Quote(vals[0]) + " is not a number"
		}
		q := Count
		switch {
		case *section == "Latency (ms)":
			q = Latency
		case secs:
			q = Duration
		}
		if err := Plausible(q, v); err != nil {
			return key + ": " + err.Error()
		}
		*m = Measure{Text: tok, Value: v, Line: n}
		return ""
	}
	both := func(count, rate *Measure) string {
		if msg := value(count, false); msg != "" {
			return msg
		}
		if rate.Found() {
			return ""
		}
		if len(vals) < 2 {
			return key + ": per-second rate missing"
		}
		tok := strings.TrimPrefix(vals[1], "(")
		v, good := number(tok)
		if !good {
			return key + ": rate " + strconv.Quote(vals[1]) + " is not a number"
		}
		if err := Plausible(Rate, v); err != nil {
			return key + ": rate: " + err.Error()
		}
		*rate = Measure{Text: tok, Value: v, Line: n}
		return ""
	}
	switch {
	case *section == "queries performed" && key == "read":
		return value(&rep.Reads, false)
	case *section == "queries performed" && key == "write":
		return value(&rep.Writes, false)
	case *section == "queries performed" && key == "other":
		return value(&rep.Other, false)
	case *section == "queries performed" && key == "total":
		return value(&rep.Total, false)
	case key == "transactions":
		return both(&rep.Transactions, &rep.TPS)
	case key == "queries":
		return both(&rep.Queries, &rep.QPS)
	case key == "ignored errors":
		return both(&rep.Errors, &rep.ErrorsPerSec)
	case key == "reconnects":
		return both(&rep.Reconnects, &rep.ReconnectsPerS)
	case key == "events/s (eps)":
		return value(&rep.EPS, false)
	case key == "time elapsed" || key == "total time":
		return value(&rep.Elapsed, true)
	case key == "total number of events":
		return value(&rep.Events, false)
	case *section == "Latency (ms)" && key == "min":
		return value(&rep.LatMin, false)
	case *section == "Latency (ms)" && key == "avg":
		return value(&rep.LatAvg, false)
	case *section == "Latency (ms)" && key == "max":
		return value(&rep.LatMax, false)
	case *section == "Latency (ms)" && key == "sum":
		return value(&rep.LatSum, false)
	case *section == "Latency (ms)" && strings.HasSuffix(key, "percentile"):
		p, err := strconv.Atoi(strings.TrimRight(strings.Fields(key)[0], "thndrs"))
		if err == nil && (p < 1 || p > 100) {
			return "percentile " + strconv.Quote(strings.Fields(key)[0]) + " is not a whole number from 1 to 100"
		}
		if err == nil {
			rep.Percentile = p
		}
		return value(&rep.LatPct, false)
	}
	return ""
}

// parseLoadLine reads "Load seconds is <s> for <n> tables, <mips> Mips, <ips> ips".
func parseLoadLine(f []string) (SysbenchLoad, bool) {
	var l SysbenchLoad
	if len(f) < 11 || f[4] != "for" || f[8] != "Mips," || f[10] != "ips" {
		return l, false
	}
	s, err1 := strconv.ParseInt(f[3], 10, 64)
	tabs, err2 := strconv.Atoi(f[5])
	l.Mips = strings.TrimSuffix(f[7], ",")
	v, ok := number(f[9])
	if err1 != nil || err2 != nil || !ok || Plausible(Rate, v) != nil || Plausible(Duration, float64(s)) != nil || tabs < 0 {
		return l, false
	}
	l.Seconds, l.Tables = s, tabs
	l.IPS = Measure{Text: f[9], Value: v}
	return l, true
}
