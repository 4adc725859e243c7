package parse

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// PsRow is one `ps aux` line. VSZ and RSS are KiB; CPUTime is the TIME column
// in seconds.
type PsRow struct {
	Line    int
	Text    string // the line as printed, for reports that quote it
	User    string
	PID     int
	VSZ     int64
	RSS     int64
	CPUTime float64
	Command string
	// Raw is the line as read, for the rows ScanPs hands to its callback
	// (which have no Text), valid during the call only: a caller that
	// quotes a few rows copies those, where a Text per row would make a
	// string of every line. nil in the rows of ReadPs.
	Raw []byte
}

// PsSamples is a file of ps samples (o.ps.dop<D>, sb.ps.<sfx>.dop<nt>).
// sysbench writes a `date` line before each sample; those lines start a new
// sample and are otherwise skipped.
type PsSamples struct {
	Name    string
	Rows    []PsRow
	Samples int // number of date lines seen (0 for ibench files)
}

// ReadPs reads ps aux samples. Lines that are not ps rows are errors.
func ReadPs(r io.Reader, name string) (*PsSamples, error) {
	return ScanPs(r, name, nil)
}

// ScanPs reads ps samples like ReadPs, but hands each row to each as it is
// read instead of keeping it: the returned PsSamples has no Rows, and the
// rows have no Text and no Command, but Raw. row is reused for the next
// line.
// A nil each keeps every one instead, which is ReadPs.
func ScanPs(r io.Reader, name string, each func(row *PsRow)) (*PsSamples, error) {
	p := &PsSamples{Name: name}
	var errs ErrorList
	var f fieldList
	var row PsRow
	sc := newLineScanner(r)
	defer sc.release()
	lines := 0
	for sc.Scan() {
		n, line := sc.n, sc.line
		lines = n
		junk := f.splitUpTo(psFields, line)
		if sc.long || junk {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		nf := f.n()
		if nf == 0 {
			continue
		}
		if f.is(0, "USER") && f.is(1, "PID") {
			continue // a header, when the sampler kept it
		}
		if isDateLine(&f) {
			p.Samples++
			continue
		}
		if nf < 11 {
			errs.add(name, n, "ps line has %d fields, want at least 11", nf)
			continue
		}
		user := row.User
		if user != string(f.at(0)) {
			user = string(f.at(0))
		}
		row = PsRow{Line: n, User: user}
		pid, ok1 := intBytes(f.at(1))
		vsz, ok2 := intBytes(f.at(4))
		rss, ok3 := intBytes(f.at(5))
		t, ok := psTimeBytes(f.at(9))
		if !ok1 || !ok2 || !ok3 || !ok {
			errs.add(name, n, "not a ps aux line (PID, VSZ, RSS or TIME malformed)")
			continue
		}
		if err := firstError(Plausible(Size, float64(vsz)), Plausible(Size, float64(rss))); err != nil {
			errs.add(name, n, "ps line: VSZ or RSS: %v", err)
			continue
		}
		row.PID, row.VSZ, row.RSS, row.CPUTime = int(pid), vsz, rss, t
		if each != nil {
			row.Raw = line
			each(&row)
			row.Raw = nil
			continue
		}
		text := sc.Text()
		row.Text = text
		row.Command = psCommand(text[f.off[20]:])
		p.Rows = append(p.Rows, row)
	}
	if err := sc.Err(); err != nil {
		return p, err
	}
	if lines == 0 {
		errs.add(name, 0, "empty file")
	}
	return p, errs.Err()
}

// psFields is the number of fields of a ps line that are parsed: USER to
// TIME, and the start of COMMAND.
const psFields = 11

// psTimeBytes is psTime for the usual TIME, all digits: [DD-]MM:SS or
// [DD-]HH:MM:SS, without making a string. It computes as psTime does, in
// the same order, so the two agree to the bit; any other form is handed to
// psTime.
func psTimeBytes(b []byte) (float64, bool) {
	var part [4]float64 // days, then up to three colon-separated parts
	np, days := 0, false
	for i := 0; ; {
		j := i
		var v uint64
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			v = v*10 + uint64(b[j]-'0')
			j++
		}
		if j == i || j-i > 15 || np == len(part) {
			return psTime(string(b))
		}
		part[np] = float64(v)
		np++
		if j == len(b) {
			break
		}
		switch {
		case b[j] == '-' && np == 1:
			days = true
		case b[j] == ':':
		default:
			return psTime(string(b))
		}
		i = j + 1
	}
	ps := part[:np]
	d := 0.0
	if days {
		d, ps = ps[0], ps[1:]
	}
	if len(ps) < 2 || len(ps) > 3 {
		return 0, false
	}
	total := 0.0
	for _, v := range ps {
		total = total*60 + v
	}
	t := d*86400 + total
	if total > 1e300 || t > 1e300 {
		return 0, false
	}
	return t, true
}

// psCommand is the command of a ps line from its 11th field on, with its
// fields joined by single spaces: most commands already are, and are
// returned as they stand, without a copy.
func psCommand(rest string) string {
	if !strings.Contains(rest, "  ") && !strings.Contains(rest, "\t") && !strings.HasSuffix(rest, " ") {
		return rest
	}
	return strings.Join(fields(rest), " ")
}

// intBytes parses a decimal integer as strconv.ParseInt(s, 10, 64) does.
func intBytes(b []byte) (int64, bool) {
	if len(b) > 0 && len(b) < 19 {
		neg := b[0] == '-'
		i := 0
		if b[0] == '-' || b[0] == '+' {
			i = 1
		}
		var v int64
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			v = v*10 + int64(b[i]-'0')
		}
		if i == len(b) && (len(b) > 1 || b[0] != '-' && b[0] != '+') {
			if neg {
				v = -v
			}
			return v, true
		}
	}
	v, err := strconv.ParseInt(string(b), 10, 64)
	return v, err == nil
}

// psTime converts ps TIME, "MMM:SS" (minutes may exceed 59) or "[DD-]HH:MM:SS", to seconds.
func psTime(s string) (float64, bool) {
	days := 0.0
	if d, rest, ok := strings.Cut(s, "-"); ok {
		v, err := strconv.Atoi(d)
		if err != nil || v < 0 {
			return 0, false
		}
		days, s = float64(v), rest
	}
	total, ok := colonSeconds(s)
	if !ok {
		return 0, false
	}
	t := days*86400 + total
	if t > 1e300 {
		return 0, false
	}
	return t, true
}

// isDateLine recognizes the output of date(1), e.g. "Sun Nov 29 21:30:00
// UTC 2026", from the fields of a line.
func isDateLine(f *fieldList) bool {
	if f.n() < 5 {
		return false
	}
	switch string(f.at(0)) {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
	default:
		return false
	}
	return bytes.Count(f.line, []byte(":")) >= 2
}

// LargestUser returns the user owning the process with the largest RSS, the
// default DBMS user of a report.
func (p *PsSamples) LargestUser() string {
	if p == nil {
		return ""
	}
	best, bestRSS := "", int64(-1)
	for _, r := range p.Rows {
		if r.RSS > bestRSS {
			best, bestRSS = r.User, r.RSS
		}
	}
	return best
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
