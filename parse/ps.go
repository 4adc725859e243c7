package parse

import (
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
	p := &PsSamples{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	lines := 0
	for sc.Scan() {
		n, line := sc.n, sc.text
		lines = n
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		f := fields(line)
		if len(f) == 0 {
			continue
		}
		if f[0] == "USER" && len(f) > 1 && f[1] == "PID" {
			continue // a header, when the sampler kept it
		}
		if isDateLine(f) {
			p.Samples++
			continue
		}
		if len(f) < 11 {
			errs.add(name, n, "ps line has %d fields, want at least 11", len(f))
			continue
		}
		row := PsRow{Line: n, Text: line, User: f[0], Command: strings.Join(f[10:], " ")}
		var err1, err2, err3 error
		row.PID, err1 = strconv.Atoi(f[1])
		row.VSZ, err2 = strconv.ParseInt(f[4], 10, 64)
		row.RSS, err3 = strconv.ParseInt(f[5], 10, 64)
		t, ok := psTime(f[9])
		if err1 != nil || err2 != nil || err3 != nil || !ok {
			errs.add(name, n, "not a ps aux line (PID, VSZ, RSS or TIME malformed)")
			continue
		}
		row.CPUTime = t
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

// isDateLine recognizes the output of date(1), e.g. "Sun Nov 29 21:30:00 UTC 2026".
func isDateLine(f []string) bool {
	if len(f) < 5 {
		return false
	}
	switch f[0] {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
	default:
		return false
	}
	return strings.Count(line0(f), ":") >= 2
}

func line0(f []string) string { return strings.Join(f, " ") }

// LargestUser returns the user owning the process with the largest RSS, the
// default DBMS user of a report.
func (p *PsSamples) LargestUser() string {
	best, bestRSS := "", int64(-1)
	for _, r := range p.Rows {
		if r.RSS > bestRSS {
			best, bestRSS = r.User, r.RSS
		}
	}
	return best
}
