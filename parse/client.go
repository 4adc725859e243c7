package parse

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Column names the per-interval statistics of the iibench client, in the
// order of the current 17-column generation. Older generations print a
// subset (12 or 10 columns); their absent columns read as 0.
type Column int

// The per-interval columns. Rates are per second, max_* are microseconds.
const (
	ISec Column = iota
	TSec
	IIps
	TIps
	IDps
	TDps
	IQps
	TQps
	MaxI
	MaxD
	MaxQ
	TIns
	TDel
	TQuery
	RetryI
	RetryD
	RetryQ
	numColumns
)

var columnNames = [numColumns]string{
	"i_sec", "t_sec", "i_ips", "t_ips", "i_dps", "t_dps", "i_qps", "t_qps",
	"max_i", "max_d", "max_q", "t_ins", "t_del", "t_query", "retry_i", "retry_d", "retry_q",
}

func (c Column) String() string {
	if c >= 0 && c < numColumns {
		return columnNames[c]
	}
	return "col" + strconv.Itoa(int(c))
}

// quantity is what a stats column measures, for the plausibility rules.
func (c Column) quantity() Quantity {
	switch c {
	case ISec, TSec:
		return Duration
	case IIps, TIps, IDps, TDps, IQps, TQps:
		return Rate
	case MaxI, MaxD, MaxQ:
		return Latency
	}
	return Count
}

// Interval is one stats line of a client log.
type Interval struct {
	Line   int
	Values [numColumns]float64
}

// Get returns the value of column c.
func (iv *Interval) Get(c Column) float64 {
	if iv == nil {
		return math.NaN()
	}
	return iv.Values[c]
}

// HistKind tells which statement a response-time histogram measures.
type HistKind int

// The three histograms iibench prints at the end of a run.
const (
	Insert HistKind = iota
	Delete
	Query
)

// HistKinds lists the kinds in the order the client prints them.
var HistKinds = []HistKind{Insert, Delete, Query}

func (k HistKind) String() string {
	switch k {
	case Insert:
		return "insert"
	case Delete:
		return "delete"
	case Query:
		return "query"
	}
	return "kind" + strconv.Itoa(int(k))
}

// Label is the text that starts the histogram lines of this kind.
func (k HistKind) Label() string {
	switch k {
	case Delete:
		return "Delete rt"
	case Query:
		return "Query rt"
	}
	return "Insert rt"
}

// Histogram is one response-time histogram data line. Counts has one entry
// per bucket (ten in every known generation); Max is in seconds.
type Histogram struct {
	Kind    HistKind
	Pos     Pos
	Buckets []string // bucket names of the header line printed before it
	Counts  []int64
	Max     float64
}

// OtherLine is a line of a client log that is neither the command line, the
// column header, a stats line nor a histogram line: get_min_trxid, the empty
// line after it, diagnostics and the closing summary. Kept with its fields
// because the original ten-interval averages read them positionally.
type OtherLine struct {
	Line   int
	Fields []string
}

// ClientLog is one iibench client's output, o.ib.dop<D>.<n>.
type ClientLog struct {
	Name        string
	Command     string            // line 1, the echoed command line
	Options     map[string]string // --name=value options of the command line ("" for bare flags)
	Columns     []string          // header names, 17, 12 or 10 of them
	HeaderLine  int
	Intervals   []Interval
	Histograms  []Histogram // data lines, in file order
	HistHeaders map[HistKind][]string
	// HistText holds every line that contains a histogram label, verbatim and
	// in order; the driver copied these lines into o.res.
	HistText []string
	Other    []OtherLine
	// WidthLines counts the lines with exactly len(Columns) blank-separated
	// fields, header included: the count the original scripts use.
	WidthLines int
	Lines      int  // lines in the file
	Done       bool // the closing "Done" line was seen
}

// Option returns the value of a command-line option and whether it was given.
func (c *ClientLog) Option(name string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.Options[name]
	return v, ok
}

// IntOption returns an integer option, or def when it is absent or malformed.
func (c *ClientLog) IntOption(name string, def int64) int64 {
	if c == nil {
		return def
	}
	return intOption(c.Options, name, def)
}

// intOption reads an integer command-line option of any benchmark client.
func intOption(opts map[string]string, name string, def int64) int64 {
	v, ok := opts[name]
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return def
	}
	return n
}

// Hist returns the last histogram of kind k (the one the report uses), or nil.
func (c *ClientLog) Hist(k HistKind) *Histogram {
	if c == nil {
		return nil
	}
	for i := len(c.Histograms) - 1; i >= 0; i-- {
		if c.Histograms[i].Kind == k {
			return &c.Histograms[i]
		}
	}
	return nil
}

// Release hands the memory of c's Intervals to the next client log read
// whole, which then neither allocates nor clears it; c.Intervals is nil
// after. Call it when nothing uses the intervals any more, as a program
// that reads a step's logs whole and summarizes one step at a time can:
// a step's logs are about 150 bytes a stats line.
func (c *ClientLog) Release() {
	if c == nil || cap(c.Intervals) == 0 {
		return
	}
	intervalSlices.Lock()
	if len(intervalSlices.free) < maxFreeIntervals {
		intervalSlices.free = append(intervalSlices.free, c.Intervals[:0])
	}
	intervalSlices.Unlock()
	c.Intervals = nil
}

// intervalSlices holds the Intervals of released client logs, at most
// maxFreeIntervals of them (the logs of a step or two per worker); like
// the scanners' buffers it is not emptied by garbage collections.
var intervalSlices struct {
	sync.Mutex
	free [][]Interval
}

const maxFreeIntervals = 16

// getIntervals is an empty slice with room for n intervals: the smallest
// released one large enough (a larger one is left for a longer log), else
// a new one.
func getIntervals(n int) []Interval {
	intervalSlices.Lock()
	defer intervalSlices.Unlock()
	best := -1
	for i, s := range intervalSlices.free {
		if cap(s) >= n && (best < 0 || cap(s) < cap(intervalSlices.free[best])) {
			best = i
		}
	}
	if best < 0 {
		return make([]Interval, 0, n)
	}
	s := intervalSlices.free[best]
	last := len(intervalSlices.free) - 1
	intervalSlices.free[best] = intervalSlices.free[last]
	intervalSlices.free[last] = nil
	intervalSlices.free = intervalSlices.free[:last]
	return s
}

// columnIndex maps header names to Columns.
var columnIndex = func() map[string]Column {
	m := make(map[string]Column, numColumns)
	for i, n := range columnNames {
		m[n] = Column(i)
	}
	return m
}()

// ReadClientLog reads an iibench client log. Malformed lines are reported in
// the returned ErrorList (as error) and skipped.
func ReadClientLog(r io.Reader, name string) (*ClientLog, error) {
	return ScanClientLog(r, name, nil)
}

// ScanClientLog reads a client log like ReadClientLog, but hands each stats
// line to each as it is read instead of keeping it, so that memory does not
// grow with the log: the returned ClientLog has no Intervals and no Other
// lines. iv is reused for the next line; copy what you keep.
// A nil each keeps every one instead, which is ReadClientLog.
func ScanClientLog(r io.Reader, name string, each func(iv *Interval)) (*ClientLog, error) {
	return scanClientLog(r, name, 0, each)
}

// scanClientLog is ScanClientLog; a nil each keeps the intervals in a slice
// that, when the log has size bytes (0: unknown), starts with room for as
// many as lines of the first one's length fit in it, and an eighth more:
// the slice is then grown about never, and not much larger than needed.
func scanClientLog(r io.Reader, name string, size int64, each func(iv *Interval)) (*ClientLog, error) {
	c := &ClientLog{Name: name, Options: map[string]string{}, HistHeaders: map[HistKind][]string{}}
	keep := func(iv *Interval, line []byte) {
		if c.Intervals == nil && size > 0 {
			n := min(size/int64(len(line)+1), 1<<20)
			c.Intervals = getIntervals(int(n + n/8 + 16))
		}
		c.Intervals = append(c.Intervals, *iv)
	}
	var errs ErrorList
	var cols []Column
	var f fieldList
	var iv Interval
	var vals []float64 // one per stats column
	var durAt []int    // the columns of durations
	inOrder := false   // the stats columns are in Column order, all of them
	lastHeader := map[HistKind][]string{}
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		n, line := sc.n, sc.line
		c.Lines = n
		if sc.long {
			errs.add(name, n, "line longer than %d bytes", maxLine)
			continue
		}
		if len(cols) > 0 {
			// The common case first: a stats line of plain numbers. With
			// the columns in Column order (the 17-column header) they are
			// read straight into the interval, every one of them.
			dst := vals
			if inOrder {
				dst = iv.Values[:]
			}
			if nf, _, _, neg, ok := numericLine(line, 0, dst); ok && nf == len(cols) {
				c.WidthLines++
				// Without a minus sign only a duration can break its rule.
				if neg || over(dst, durAt, MaxDuration) {
					if i, err := implausible(cols, dst); err != nil {
						errs.add(name, n, "stats column %s: %v", c.Columns[i], err)
						continue
					}
				}
				if inOrder {
					iv.Line = n
				} else {
					iv = Interval{Line: n}
					for i, col := range cols {
						if col >= 0 {
							iv.Values[col] = vals[i]
						}
					}
				}
				if each != nil {
					each(&iv)
				} else {
					keep(&iv, line)
				}
				continue
			}
		}
		if f.split(line) {
			errs.add(name, n, "binary data")
			continue
		}
		if len(cols) > 0 && f.n() == len(cols) {
			c.WidthLines++
			// The common case first: a stats line.
			if looksNumericBytes(f.at(0)) {
				iv = Interval{Line: n}
				bad := false
				for i := range f.n() {
					tok := f.at(i)
					v, ok := numberBytes(tok)
					if !ok {
						errs.add(name, n, "stats column %s: %q is not a number", c.Columns[i], tok)
						bad = true
						break
					}
					if cols[i] >= 0 {
						if err := Plausible(cols[i].quantity(), v); err != nil {
							errs.add(name, n, "stats column %s: %v", c.Columns[i], err)
							bad = true
							break
						}
						iv.Values[cols[i]] = v
					}
				}
				if !bad {
					if each != nil {
						each(&iv)
					} else {
						keep(&iv, line)
					}
				}
				continue
			}
		}
		// Other lines are rare: handle them as text.
		text := sc.Text()
		sf := fields(text)
		switch {
		case n == 1 && strings.Contains(text, "iibench"):
			c.Command = text
			parseOptions(sf, c.Options)
			continue
		case len(cols) == 0 && len(sf) >= 10 && sf[0] == "i_sec" && sf[1] == "t_sec":
			cols = make([]Column, len(sf))
			for i, h := range sf {
				col, ok := columnIndex[h]
				if !ok {
					errs.add(name, n, "unknown column %q in stats header", h)
					col = -1
				}
				cols[i] = col
				if col >= 0 && col.quantity() == Duration {
					durAt = append(durAt, i)
				}
			}
			if len(sf) != 10 && len(sf) != 12 && len(sf) != 17 {
				errs.add(name, n, "stats header has %d columns, want 17, 12 or 10", len(sf))
			}
			c.Columns = sf
			vals = make([]float64, len(cols))
			inOrder = len(cols) == int(numColumns)
			for i, col := range cols {
				inOrder = inOrder && col == Column(i)
			}
			c.HeaderLine = n
			c.WidthLines = 1
			continue
		}
		if k, ok := histKind(text); ok {
			c.HistText = append(c.HistText, text)
			if strings.Contains(text, "max") {
				if len(sf) < 4 {
					errs.add(name, n, "%s header has %d fields", k.Label(), len(sf))
					continue
				}
				hdr := sf[2 : len(sf)-1]
				lastHeader[k] = hdr
				if _, seen := c.HistHeaders[k]; !seen {
					c.HistHeaders[k] = sf[2:]
				}
				continue
			}
			h, msg := parseHistogram(k, sf, lastHeader[k])
			if msg != "" {
				errs.add(name, n, "%s", msg)
				continue
			}
			h.Pos = Pos{name, n}
			c.Histograms = append(c.Histograms, h)
			continue
		}
		if len(cols) == 0 && len(sf) >= 10 && allNumeric(sf) {
			errs.add(name, n, "stats line before the column header")
			continue
		}
		if len(cols) > 0 && len(sf) >= 2 && (allNumeric(sf) || len(sf) >= len(cols)/2 && isNumber(sf[0])) {
			// A stats line that lost or gained fields (a crash mid-write, a
			// garbled token): never a diagnostic, which starts with a word.
			errs.add(name, n, "stats line has %d fields, the header has %d", len(sf), len(cols))
			continue
		}
		if text == "Done" {
			c.Done = true
		}
		if each == nil {
			c.Other = append(c.Other, OtherLine{Line: n, Fields: sf})
		}
	}
	if err := sc.Err(); err != nil {
		return c, err
	}
	switch {
	case c.Lines == 0:
		errs.add(name, 0, "empty file")
	case c.HeaderLine == 0:
		errs.add(name, 0, "no stats header line (i_sec t_sec ...)")
	case !c.Done:
		errs.add(name, c.Lines, "log ends without the closing Done line (client crashed or was stopped)")
	}
	return c, errs.Err()
}

// implausible checks the values of a stats line; it returns the index of
// the first one that breaks its rule, with the error.
func implausible(cols []Column, vals []float64) (int, error) {
	for i, v := range vals[:len(cols)] {
		// The common case, checked inline: a non-negative value below the
		// ceiling and MaxDuration.
		if v >= 0 && v <= MaxDuration {
			continue
		}
		if cols[i] < 0 {
			continue // an unknown column is not used
		}
		if err := Plausible(cols[i].quantity(), v); err != nil {
			return i, err
		}
	}
	return 0, nil
}

func parseOptions(f []string, into map[string]string) {
	for _, tok := range f {
		if !strings.HasPrefix(tok, "--") {
			continue
		}
		k, v, _ := strings.Cut(tok[2:], "=")
		into[k] = v
	}
}

func histKind(line string) (HistKind, bool) {
	// Cheap prefix test first: these lines are rare and start with blanks or the label.
	if !strings.Contains(line, " rt") {
		return 0, false
	}
	for _, k := range HistKinds {
		if strings.Contains(line, k.Label()) {
			return k, true
		}
	}
	return 0, false
}

func parseHistogram(k HistKind, f []string, hdr []string) (Histogram, string) {
	if len(f) < 4 {
		return Histogram{}, k.Label() + " line has too few fields"
	}
	if hdr == nil {
		return Histogram{}, k.Label() + " data line without a header line before it"
	}
	vals := f[2 : len(f)-1]
	if len(vals) != len(hdr) {
		return Histogram{}, k.Label() + ": " + strconv.Itoa(len(vals)) + " counts but " + strconv.Itoa(len(hdr)) + " buckets in the header"
	}
	h := Histogram{Kind: k, Buckets: hdr, Counts: make([]int64, len(vals))}
	for i, tok := range vals {
		n, err := strconv.ParseInt(tok, 10, 64)
		if err != nil || n < 0 || n > Ceiling {
			return Histogram{}, k.Label() + ": bucket " + hdr[i] + ": " + strconv.Quote(tok) + " is not a count"
		}
		h.Counts[i] = n
	}
	m, ok := number(f[len(f)-1])
	if !ok || Plausible(Latency, m) != nil {
		return Histogram{}, k.Label() + ": max " + strconv.Quote(f[len(f)-1]) + " is not a number of seconds"
	}
	h.Max = m
	return h, ""
}

func looksNumericBytes(tok []byte) bool {
	if len(tok) == 0 {
		return false
	}
	c := tok[0]
	return c >= '0' && c <= '9' || c == '-' || c == '.' || c == '+'
}

func isNumber(tok string) bool {
	_, ok := number(tok)
	return ok
}

func allNumeric(f []string) bool {
	for _, t := range f {
		if _, ok := number(t); !ok {
			return false
		}
	}
	return true
}

// MarshalText names the kind, so that maps keyed by it read well as JSON.
func (k HistKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind written by MarshalText.
func (k *HistKind) UnmarshalText(b []byte) error {
	for _, x := range HistKinds {
		if x.String() == string(b) {
			*k = x
			return nil
		}
	}
	return fmt.Errorf("unknown histogram kind %q", b)
}
