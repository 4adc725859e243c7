package parse

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/names"
)

// PerfState says whether perf stat could count an event.
type PerfState int

// The states of a counter line.
const (
	Counted      PerfState = iota
	NotSupported           // "<not supported>": the CPU or kernel lacks the event
	NotCounted             // "<not counted>": it exists but never ran (no PMU slot)
)

func (s PerfState) String() string {
	switch s {
	case NotSupported:
		return "not supported"
	case NotCounted:
		return "not counted"
	}
	return "counted"
}

// PerfCounter is one counter line of perf stat:
//
//	20,470,290,591      cycles        #    2.626 GHz          (50.12%)
//	      7,796.63 msec cpu-clock     #    0.780 CPUs utilized
//	<not supported>      bus-cycles
//
// Value is the count without its thousands separators (perf already scaled
// a multiplexed count up to the whole interval); Text is the token as
// printed. The derived figures after "#" are perf's own arithmetic and are
// not kept: every ratio is recomputed from the counts.
type PerfCounter struct {
	Event string
	Value float64
	Text  string
	Unit  string // "msec" for the clock events, "" for counts
	State PerfState
	// Running is the share of the interval the event was on a PMU, in
	// percent, from the "(50.12%)" perf prints when it multiplexed; 100
	// without one.
	Running float64
	Line    int
	// Bad says why the count is not usable: implausible, or inconsistent
	// with another counter of its block; "" when it is.
	Bad string
}

// Usable reports whether the counter has a count that can be used.
func (c PerfCounter) Usable() bool { return c.State == Counted && c.Bad == "" }

// PerfBlock is one "Performance counter stats for …" block: one perf stat
// invocation. run.sh appends seven to a sample file, each with other
// events and its own interval.
type PerfBlock struct {
	Target   string // "process id '1265326'", "'system wide'", "'sleep 10'"
	Line     int
	Counters []PerfCounter
	// Elapsed is the "seconds time elapsed" of the block, 0 when the line
	// is missing (a sample cut short), with its line.
	Elapsed     float64
	ElapsedLine int
	seen        map[string]int // event → line of its first counter
}

// PerfStat is a file of perf stat outputs (sb.perf.hw.<test>.<n>,
// o.perf.hw.<step>.<n>).
type PerfStat struct {
	Name   string
	Blocks []PerfBlock
}

// Counter returns the first usable counter of an event and the block it
// is in; ok is false when no block has a usable count of it.
func (p *PerfStat) Counter(event string) (c PerfCounter, b *PerfBlock, ok bool) {
	if p == nil {
		return PerfCounter{}, nil, false
	}
	for i := range p.Blocks {
		for _, c := range p.Blocks[i].Counters {
			if c.Event == event && c.Usable() {
				return c, &p.Blocks[i], true
			}
		}
	}
	return PerfCounter{}, nil, false
}

// Find returns the first counter line of an event, usable or not.
func (p *PerfStat) Find(event string) (PerfCounter, bool) {
	if p == nil {
		return PerfCounter{}, false
	}
	for _, b := range p.Blocks {
		for _, c := range b.Counters {
			if c.Event == event {
				return c, true
			}
		}
	}
	return PerfCounter{}, false
}

// maxPerfErrors is the most bad lines of a perf stat file named.
const maxPerfErrors = 50

// MaxIPC is the most instructions per cycle a core retires: current x86
// and Arm cores retire at most 6 to 8 per cycle, so a quotient above this
// comes from counts of different intervals or a broken file.
const MaxIPC = 10

// ReadPerfStat reads perf stat's default (human) output, one or more
// blocks. Comment lines ("# started on …") and blank lines are skipped. A
// counter line outside a block, a line that is neither a counter nor a
// summary line, a count that breaks its plausibility rule (a negative or
// huge count, a running share outside 0–100%), more instructions per cycle
// than MaxIPC or more misses than references of the same block are
// reported at their line; the counter then has Bad set and is not used.
// CSV output (perf stat -x) is not read.
func ReadPerfStat(r io.Reader, name string) (*PerfStat, error) {
	p := &PerfStat{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	var cur *PerfBlock
	lines := 0
	for sc.Scan() {
		n, line := sc.n, sc.Text()
		lines = n
		if len(errs) >= maxPerfErrors {
			// A sample is a few dozen lines: this many bad ones say the
			// file is something else, whose every line need not be named.
			errs.add(name, n, "more lines that are not perf stat output: not read further")
			break
		}
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case strings.HasPrefix(t, "Performance counter stats for "):
			target := strings.TrimSuffix(strings.TrimPrefix(t, "Performance counter stats for "), ":")
			p.Blocks = append(p.Blocks, PerfBlock{Target: target, Line: n})
			cur = &p.Blocks[len(p.Blocks)-1]
			continue
		}
		f := strings.Fields(t)
		if len(f) >= 2 && f[1] == "seconds" {
			// "10.0014 seconds time elapsed", "9.5 seconds user", "… sys"
			v, ok := number(f[0])
			switch {
			case cur == nil:
				errs.add(name, n, "summary line outside a perf stat block")
			case !ok:
				errs.add(name, n, "seconds %q is not a number", f[0])
			case len(f) >= 4 && f[2] == "time" && f[3] == "elapsed":
				if err := Plausible(Duration, v); err != nil {
					errs.add(name, n, "elapsed %s", err)
				} else {
					cur.Elapsed, cur.ElapsedLine = v, n
				}
			}
			continue
		}
		c, msg := parsePerfCounter(t)
		switch {
		case msg != "":
			errs.add(name, n, "%s", msg)
			continue
		case cur == nil:
			errs.add(name, n, "counter %s outside a perf stat block (no \"Performance counter stats for\" line)", c.Event)
			continue
		}
		c.Line = n
		if cur.seen == nil {
			cur.seen = map[string]int{}
		}
		if first, ok := cur.seen[c.Event]; ok {
			errs.add(name, n, "%s counted twice in one block (first at line %d); the first is used", c.Event, first)
			c.Bad = "counted twice"
		} else {
			cur.seen[c.Event] = n
		}
		if c.Bad == "" && c.State == Counted {
			q := Count
			if c.Unit != "" {
				q = Duration
			}
			v := c.Value
			if c.Unit == "msec" {
				v /= 1000
			}
			if err := Plausible(q, v); err != nil {
				c.Bad = err.Error()
				errs.add(name, n, "%s: %s", c.Event, err)
			} else if err := Plausible(Percent, c.Running); err != nil {
				c.Bad = err.Error()
				errs.add(name, n, "%s running share: %s", c.Event, err)
			}
		}
		cur.Counters = append(cur.Counters, c)
	}
	if err := sc.Err(); err != nil {
		return p, err
	}
	for i := range p.Blocks {
		checkPerfBlock(&p.Blocks[i], name, &errs)
	}
	if lines == 0 {
		errs.add(name, 0, "empty file")
	} else if len(p.Blocks) == 0 {
		errs.add(name, 0, "no perf stat block (\"Performance counter stats for …\")")
	}
	return p, errs.inOrder().Err()
}

// perfPairs are the counters that count a subset of another in the same
// block: a miss is a reference that missed.
var perfPairs = [][2]string{
	{"branch-misses", "branches"},
	{"cache-misses", "cache-references"},
	{"L1-dcache-load-misses", "L1-dcache-loads"},
}

// checkPerfBlock applies the rules between counters of one block (one
// interval): instructions per cycle at most MaxIPC, misses at most their
// references, and an elapsed line.
func checkPerfBlock(b *PerfBlock, name string, errs *ErrorList) {
	idx := map[string]int{}
	for i, c := range b.Counters {
		if c.Usable() {
			if _, dup := idx[c.Event]; !dup {
				idx[c.Event] = i
			}
		}
	}
	get := func(e string) (*PerfCounter, bool) {
		i, ok := idx[e]
		if !ok {
			return nil, false
		}
		return &b.Counters[i], true
	}
	if ins, ok := get("instructions"); ok {
		if cyc, ok := get("cycles"); ok && cyc.Value > 0 && ins.Value/cyc.Value > MaxIPC {
			ins.Bad = "more than " + strconv.Itoa(MaxIPC) + " instructions per cycle"
			errs.add(name, ins.Line, "instructions %s ÷ cycles %s = %s is more than %d per cycle, not one interval's counts", ins.Text, cyc.Text, fmtNum(ins.Value/cyc.Value), MaxIPC)
		}
	}
	for _, pr := range perfPairs {
		m, ok1 := get(pr[0])
		r, ok2 := get(pr[1])
		if ok1 && ok2 && m.Value > r.Value {
			m.Bad = "more " + pr[0] + " than " + pr[1]
			errs.add(name, m.Line, "%s %s is more than %s %s", pr[0], m.Text, pr[1], r.Text)
		}
	}
	if b.ElapsedLine == 0 && len(b.Counters) > 0 {
		errs.add(name, b.Line, "block without a \"seconds time elapsed\" line (cut short?)")
	}
}

// parsePerfCounter reads one counter line: value [unit] event [# derived]
// [(running%)]. msg says why the line is not one.
func parsePerfCounter(t string) (c PerfCounter, msg string) {
	c.Running = 100
	if i := strings.Index(t, "#"); i >= 0 {
		// The derived figure may be followed by the running share.
		rest := strings.Fields(t[i+1:])
		if len(rest) > 0 {
			if v, ok := perfRunning(rest[len(rest)-1]); ok {
				c.Running = v
			}
		}
		t = t[:i]
	}
	f := strings.Fields(t)
	if len(f) > 0 {
		if v, ok := perfRunning(f[len(f)-1]); ok {
			c.Running = v
			f = f[:len(f)-1]
		}
	}
	switch {
	case len(f) >= 3 && f[0] == "<not" && (f[1] == "supported>" || f[1] == "counted>"):
		c.State, c.Text = NotSupported, "<not supported>"
		if f[1] == "counted>" {
			c.State, c.Text = NotCounted, "<not counted>"
		}
		f = f[2:]
		if len(f) == 2 { // a unit before the event
			c.Unit, f = f[0], f[1:]
		}
		if len(f) != 1 {
			return c, "not a perf stat counter line"
		}
		c.Event = f[0]
		return c, ""
	case len(f) == 2 || len(f) == 3:
	default:
		return c, "not a perf stat counter line"
	}
	c.Text = f[0]
	if len(f) == 3 && isDigits(f[1]) {
		// perf groups thousands with ',' only: "131 300" is a count
		// printed in another locale, or two numbers.
		return c, "count " + strconv.Quote(f[0]+" "+f[1]) + " is not a number (perf groups thousands with ',' only)"
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(f[0], ",", ""), 64)
	if err != nil || !validThousands(f[0]) || !isNumberToken(f[0]) {
		return c, "count " + strconv.Quote(f[0]) + " is not a number"
	}
	if len(f) == 2 && strings.Contains(f[0], ".") {
		// Only the clock events (with their unit, msec) have decimals.
		return c, "count " + strconv.Quote(f[0]) + " has a decimal point, but a count is whole (perf groups thousands with ',' only)"
	}
	c.Value = v
	if len(f) == 3 {
		c.Unit = f[1]
	}
	c.Event = f[len(f)-1]
	return c, ""
}

// validThousands accepts digits grouped by commas in threes before an
// optional decimal part ("20,470,290,591", "7,796.63", "54"): a comma
// elsewhere is a locale perf did not print or a garbled line.
func validThousands(s string) bool {
	s = strings.TrimPrefix(s, "-")
	intPart, _, _ := strings.Cut(s, ".")
	if !strings.Contains(intPart, ",") {
		return true
	}
	groups := strings.Split(intPart, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// isNumberToken accepts what perf prints for a count: digits, commas and
// one decimal point (ParseFloat also takes "Inf", "0x1p4" and "1e3").
func isNumberToken(s string) bool {
	s = strings.TrimPrefix(s, "-")
	dots := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			dots++
		case c == ',' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return dots <= 1 && s != ""
}

// MaxPerfFile bounds a perf stat sample file: run.sh and np.sh append
// seven perf stat outputs of a few counters, a few kilobytes. A larger
// file is no sample (a log written under its name, a .gz that expands to
// gigabytes) and is not read past this.
const MaxPerfFile = 4 << 20

// ReadPerfFile reads the perf stat sample p of fsys as every input file
// is read: only a regular file (a FIFO is not opened), at most MaxPerfFile
// bytes, each line by the rules of ReadPerfStat. A file that is not
// regular or too large is an error naming it, to report and skip; syntax
// errors are as ReadPerfStat returns them.
func ReadPerfFile(fsys fs.FS, p string) (*PerfStat, error) {
	f, err := OpenRegular(fsys, p)
	if err != nil {
		if IsNotRegular(err) {
			return nil, fmt.Errorf("%w; skipped", err)
		}
		return nil, err
	}
	defer f.Close()
	lr := &io.LimitedReader{R: f, N: MaxPerfFile + 1}
	ps, err := ReadPerfStat(lr, p)
	if lr.N <= 0 {
		return nil, fmt.Errorf("%s: larger than %s, not a perf stat sample; skipped", p, byteSize(MaxPerfFile))
	}
	return ps, err
}

// PerfLast reads a perf.last file (sb.perf.last.<test>, o.perf.last.<step
// suffix>): the number of the last sample recorded. ok is false when it
// holds no such number; the warnings name file:line for a second number
// (runs appended to one file: the last is used), a number below 1 (no
// sample is used) or text that is not a number (every sample is used).
func PerfLast(fsys fs.FS, p string) (last int, ok bool, warns []string, err error) {
	f, err := OpenRegular(fsys, p)
	if err != nil {
		if IsNotRegular(err) {
			return 0, false, []string{err.Error() + "; every sample is used"}, nil
		}
		return 0, false, nil, err
	}
	defer f.Close()
	sc := newLineScanner(io.LimitReader(f, 64<<10))
	defer sc.release()
	var firstLine int
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		v, err := strconv.Atoi(t)
		switch {
		case err != nil || sc.long:
			return 0, false, append(warns, fmt.Sprintf("%s:%d: %s is not a sample number; every sample is used", p, sc.n, names.Quoted(cut(t, 40)))), nil
		case firstLine != 0:
			warns = append(warns, fmt.Sprintf("%s:%d: a second sample number after line %d (runs appended to one file?); the last, %d, is used", p, sc.n, firstLine, v))
		default:
			firstLine = sc.n
		}
		last = v
		if v < 1 {
			return 0, true, append(warns, fmt.Sprintf("%s:%d: %d is not a sample number (samples start at 1); no sample is used", p, sc.n, v)), nil
		}
	}
	if err := sc.Err(); err != nil {
		return 0, false, warns, fmt.Errorf("%s: %w", p, err)
	}
	if firstLine == 0 {
		return 0, false, append(warns, p+": empty; every sample is used"), nil
	}
	return last, true, warns, nil
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// perfRunning reads "(50.12%)".
func perfRunning(tok string) (float64, bool) {
	if !strings.HasPrefix(tok, "(") || !strings.HasSuffix(tok, "%)") {
		return 0, false
	}
	v, err := strconv.ParseFloat(tok[1:len(tok)-2], 64)
	if err != nil || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}
