package parse

import (
	"io"
	"strconv"
	"strings"
)

// IostatLayout names a sysstat extended-statistics column layout, after the
// Ubuntu LTS release where it was first seen.
type IostatLayout string

// The four known layouts (FORMATS.md §3.3).
const (
	UB16 IostatLayout = "ub16"
	UB18 IostatLayout = "ub18"
	UB20 IostatLayout = "ub20"
	UB22 IostatLayout = "ub22"
)

// IostatRow is one device row of one interval.
type IostatRow struct {
	Line   int
	Device string
	Values []float64 // columns 2..N of the row, in header order
}

// Iostat is a parsed `iostat -kx` file.
type Iostat struct {
	Name      string
	CPUs      int          // from the banner "(<N> CPU)", 0 when absent
	Layout    IostatLayout // decided from the first Device header, as the original did
	Header    []string     // that header's column names after "Device"
	Rows      []IostatRow
	Lines     int
	Intervals int // number of Device header lines
	// Col holds the 0-based index into Values of the columns the metrics use.
	Col struct{ RS, WS, RKB, WKB int }
}

// DetectIostatLayout applies the original detection rules, in their order,
// to the blank-separated fields of a Device header line.
func DetectIostatLayout(f []string) (IostatLayout, bool) {
	at := func(i int) string { // 1-based, as in the rules
		if i-1 < len(f) {
			return f[i-1]
		}
		return ""
	}
	switch {
	case at(4) == "r/s" && at(6) == "rkB/s" && at(7) == "wkB/s":
		return UB16, true
	case at(2) == "r/s" && at(4) == "rkB/s" && at(5) == "wkB/s":
		return UB18, true
	case at(2) == "r/s" && at(3) == "rkB/s" && at(9) == "wkB/s" && at(20) == "aqu-sz":
		return UB20, true
	case at(2) == "r/s" && at(3) == "rkB/s" && at(9) == "wkB/s" && at(21) == "f_await":
		return UB22, true
	}
	return "", false
}

// ReadIostat reads sysstat `iostat -kx` output with any number of devices.
// An unknown column layout is an error naming the header line; the rows are
// still returned, with columns found by name when the names are present.
func ReadIostat(r io.Reader, name string) (*Iostat, error) {
	s := &Iostat{Name: name}
	var errs ErrorList
	inDevices := false
	sc := newLineScanner(r)
	for sc.Scan() {
		n, line := sc.n, sc.text
		s.Lines = n
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		f := fields(line)
		switch {
		case len(f) == 0:
			inDevices = false
			continue
		case strings.HasPrefix(f[0], "Device"):
			s.Intervals++
			inDevices = true
			if s.Header == nil {
				s.Header = f[1:]
				layout, ok := DetectIostatLayout(f)
				if !ok {
					errs.add(name, n, "unknown iostat column layout: %s", strings.Join(f, " "))
				}
				s.Layout = layout
				if msg := s.locate(); msg != "" {
					errs.add(name, n, "%s", msg)
				}
			} else if len(f)-1 != len(s.Header) {
				errs.add(name, n, "Device header has %d columns, the first one had %d", len(f)-1, len(s.Header))
				inDevices = false
			}
			continue
		case f[0] == "avg-cpu:":
			inDevices = false
			continue
		case strings.HasPrefix(f[0], "Linux") && s.CPUs == 0:
			if i := strings.LastIndex(line, "("); i >= 0 {
				rest := strings.TrimSuffix(strings.TrimSpace(line[i+1:]), ")")
				if num, ok := strings.CutSuffix(rest, " CPU"); ok {
					if c, err := strconv.Atoi(num); err == nil && c > 0 {
						s.CPUs = c
					}
				}
			}
			continue
		}
		if !inDevices {
			continue // avg-cpu values and anything else outside a device block
		}
		if len(f)-1 != len(s.Header) {
			errs.add(name, n, "device %s: %d values, the header has %d columns", f[0], len(f)-1, len(s.Header))
			continue
		}
		row := IostatRow{Line: n, Device: f[0], Values: make([]float64, len(f)-1)}
		ok := true
		for i, tok := range f[1:] {
			v, good := number(tok)
			if !good {
				errs.add(name, n, "device %s column %s: %q is not a number", f[0], s.Header[i], tok)
				ok = false
				break
			}
			row.Values[i] = v
		}
		if ok {
			s.Rows = append(s.Rows, row)
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	if s.Lines == 0 {
		errs.add(name, 0, "empty file")
	} else if s.Header == nil {
		errs.add(name, 0, "no Device header line")
	}
	return s, errs.Err()
}

// locate finds r/s, w/s, rkB/s and wkB/s by name in the header. The names are
// the same in all four layouts, so this agrees with the original positions.
func (s *Iostat) locate() string {
	find := func(names ...string) int {
		for i, h := range s.Header {
			for _, n := range names {
				if h == n {
					return i
				}
			}
		}
		return -1
	}
	s.Col.RS = find("r/s")
	s.Col.WS = find("w/s")
	s.Col.RKB = find("rkB/s", "rKB/s")
	s.Col.WKB = find("wkB/s", "wKB/s")
	if s.Col.RS < 0 || s.Col.WS < 0 || s.Col.RKB < 0 || s.Col.WKB < 0 {
		return "iostat header lacks r/s, w/s, rkB/s or wkB/s (run iostat with -k -x)"
	}
	return ""
}

// HasRates reports whether the header names all four columns the metrics
// need: r/s, w/s, rkB/s and wkB/s.
func (s *Iostat) HasRates() bool {
	return s.Header != nil && s.Col.RS >= 0 && s.Col.WS >= 0 && s.Col.RKB >= 0 && s.Col.WKB >= 0
}

// Devices returns the device names in order of first appearance.
func (s *Iostat) Devices() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range s.Rows {
		if !seen[r.Device] {
			seen[r.Device] = true
			out = append(out, r.Device)
		}
	}
	return out
}

// BusiestDevice returns the device with the most I/O (reads plus writes in
// KiB summed over all rows), the default device of a report. Ties go to the
// device seen first.
func (s *Iostat) BusiestDevice() string {
	if !s.HasRates() {
		return ""
	}
	total := map[string]float64{}
	for _, r := range s.Rows {
		total[r.Device] += r.Values[s.Col.RKB] + r.Values[s.Col.WKB]
	}
	best, bestV := "", -1.0
	for _, d := range s.Devices() {
		if total[d] > bestV {
			best, bestV = d, total[d]
		}
	}
	return best
}
