package parse

import (
	"bytes"
	"io"
	"slices"
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
	// Implausible says why the row cannot be right (%util above MaxUtil),
	// "" when it can. The row is still handed over: the original scripts
	// used it, so compat mode does; the metrics leave it out and say so.
	Implausible string
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
	// Col holds the 0-based index into Values of the columns the metrics
	// use; Util (%util) is -1 when the header has none.
	Col struct{ RS, WS, RKB, WKB, Util int }
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
	return ScanIostat(r, name, nil)
}

// ScanIostat reads iostat output like ReadIostat, but hands each device row
// to each as it is read instead of keeping it: the returned Iostat has no
// Rows. row and its Values are reused for the next row; copy what you keep.
// The header (s.Header, s.Col) is known by the time the first row arrives.
// A nil each keeps every one instead, which is ReadIostat.
func ScanIostat(r io.Reader, name string, each func(s *Iostat, row *IostatRow)) (*Iostat, error) {
	return ScanIostatDevice(r, name, "", each)
}

// ScanIostatDevice is ScanIostat for the rows of one device: with device
// not "", the rows of other devices are skipped on their first field,
// neither split nor checked (their errors are not reported).
func ScanIostatDevice(r io.Reader, name, device string, each func(s *Iostat, row *IostatRow)) (*Iostat, error) {
	s := &Iostat{Name: name}
	var errs ErrorList
	inDevices := false
	var f fieldList
	var scratch IostatRow
	var vals []float64
	// header is the first Device header line, accepted: iostat repeats it
	// byte for byte before every interval's rows.
	var header []byte
	// Kept rows (each == nil) take their values from shared blocks and
	// their device names from the names seen before: a step has hundreds
	// of thousands of rows and a handful of devices.
	var block []float64
	keep := func(v []float64) []float64 {
		if len(block)+len(v) > cap(block) {
			block = make([]float64, 0, max(iostatBlock, len(v)))
		}
		start := len(block)
		block = append(block, v...)
		return block[start:len(block):len(block)]
	}
	var names []string
	name1 := func(b []byte) string {
		for _, d := range names {
			if d == string(b) {
				return d
			}
		}
		d := string(b)
		if len(names) < 64 {
			names = append(names, d)
		}
		return d
	}
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		n, line := sc.n, sc.line
		s.Lines = n
		if !sc.long && header != nil && len(line) == len(header) && string(line) == string(header) {
			s.Intervals++
			inDevices = true
			continue
		}
		if inDevices && device != "" && !sc.long {
			if tok := firstToken(line); len(tok) > 0 && string(tok) != device && s.isDeviceName(tok) {
				continue // another device's row
			}
		}
		if inDevices && !sc.long {
			// The common case first: a device row of plain numbers.
			if len(vals) < len(s.Header) {
				vals = make([]float64, len(s.Header))
			}
			nf, f0, f1, neg, ok := numericLine(line, 1, vals[:len(s.Header)])
			dev := line[f0:f1]
			if ok && nf-1 == len(s.Header) && s.isDeviceName(dev) {
				// Without a minus sign every value is a plausible rate.
				if neg {
					if i, err := ioPlausible(vals[:nf-1]); err != nil {
						errs.add(name, n, "device %s column %s: %v", dev, s.Header[i], err)
						continue
					}
				}
				if each == nil {
					s.Rows = append(s.Rows, IostatRow{Line: n, Device: name1(dev), Values: keep(vals[:nf-1]),
						Implausible: s.implausible(vals[:nf-1])})
					continue
				}
				row := &scratch
				row.Values = vals[:nf-1]
				if row.Device != string(dev) {
					row.Device = string(dev)
				}
				row.Line = n
				row.Implausible = s.implausible(row.Values)
				each(s, row)
				continue
			}
		}
		if tok := firstToken(line); !sc.long && len(tok) > 0 {
			// Lines that only need a look: the avg-cpu lines and what else
			// stands outside a device block, and the repeated Device headers.
			switch {
			case bytes.HasPrefix(tok, deviceWord) && s.Header != nil:
				junk := f.split(line)
				nf := f.n()
				switch {
				case junk:
					errs.add(name, n, "binary data or overlong line")
				case nf-1 != len(s.Header):
					errs.add(name, n, "Device header has %d columns, the first one had %d", nf-1, len(s.Header))
					s.Intervals++
					inDevices = false
				default:
					s.Intervals++
					inDevices = true
				}
				continue
			case !inDevices && !bytes.HasPrefix(tok, deviceWord) && !(s.CPUs == 0 && bytes.HasPrefix(tok, []byte("Linux"))):
				if binaryJunkBytes(line) {
					errs.add(name, n, "binary data or overlong line")
				}
				continue
			}
		}
		junk := f.split(line)
		if sc.long || junk {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		nf := f.n()
		if inDevices && nf > 0 && nf-1 == len(s.Header) && s.isDeviceName(f.at(0)) {
			// The common case first: a device row.
			row := &scratch
			if cap(row.Values) < nf-1 {
				row.Values = make([]float64, nf-1)
			}
			row.Line, row.Values = n, row.Values[:nf-1]
			ok := true
			for i := 1; i < nf; i++ {
				tok := f.at(i)
				v, good := numberBytes(tok)
				if !good {
					errs.add(name, n, "device %s column %s: %q is not a number", f.at(0), s.Header[i-1], tok)
					ok = false
					break
				}
				if _, err := ioPlausible([]float64{v}); err != nil {
					errs.add(name, n, "device %s column %s: %v", f.at(0), s.Header[i-1], err)
					ok = false
					break
				}
				row.Values[i-1] = v
			}
			if !ok {
				continue
			}
			row.Implausible = s.implausible(row.Values)
			if each != nil {
				if row.Device != string(f.at(0)) {
					row.Device = string(f.at(0))
				}
				each(s, row)
			} else {
				kept := *row
				kept.Device = name1(f.at(0))
				kept.Values = keep(row.Values)
				s.Rows = append(s.Rows, kept)
			}
			continue
		}
		switch {
		case nf == 0:
			inDevices = false
			continue
		case bytes.HasPrefix(f.at(0), deviceWord):
			s.Intervals++
			inDevices = true
			if s.Header == nil {
				header = slices.Clone(line)
				sf := fields(sc.Text())
				s.Header = sf[1:]
				layout, ok := DetectIostatLayout(sf)
				if !ok {
					errs.add(name, n, "unknown iostat column layout: %s", strings.Join(sf, " "))
				}
				s.Layout = layout
				if msg := s.locate(); msg != "" {
					errs.add(name, n, "%s", msg)
				}
			}
			continue
		case f.is(0, "avg-cpu:"):
			inDevices = false
			continue
		case bytes.HasPrefix(f.at(0), []byte("Linux")) && s.CPUs == 0:
			text := sc.Text()
			if i := strings.LastIndex(text, "("); i >= 0 {
				rest := strings.TrimSuffix(strings.TrimSpace(text[i+1:]), ")")
				if num, ok := strings.CutSuffix(rest, " CPU"); ok {
					if c, err := strconv.Atoi(num); err == nil && c > 0 {
						s.CPUs = c
					}
				}
			}
			continue
		}
		// Lines outside a device block and repeated headers were only looked
		// at above: what is left is a device row of the wrong width.
		errs.add(name, n, "device %s: %d values, the header has %d columns", f.at(0), nf-1, len(s.Header))
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

var deviceWord = []byte("Device")

// iostatBlock is the number of values ReadIostat allocates at once.
const iostatBlock = 16 << 10

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
	s.Col.Util = find("%util")
	if s.Col.RS < 0 || s.Col.WS < 0 || s.Col.RKB < 0 || s.Col.WKB < 0 {
		return "iostat header lacks r/s, w/s, rkB/s or wkB/s (run iostat with -k -x)"
	}
	return ""
}

// HasRates reports whether the header names all four columns the metrics
// need: r/s, w/s, rkB/s and wkB/s.
func (s *Iostat) HasRates() bool {
	if s == nil {
		return false
	}
	return s.Header != nil && s.Col.RS >= 0 && s.Col.WS >= 0 && s.Col.RKB >= 0 && s.Col.WKB >= 0
}

// Devices returns the device names in order of first appearance.
func (s *Iostat) Devices() []string {
	if s == nil {
		return nil
	}
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

// BusiestDevice returns the database device of the file: see ChooseDevice.
// (The name stays from when it was the device with the most I/O.)
func (s *Iostat) BusiestDevice() string {
	if s == nil {
		return ""
	}
	if !s.HasRates() {
		return ""
	}
	total := map[string]float64{}
	for _, r := range s.Rows {
		total[r.Device] += r.Values[s.Col.RKB] + r.Values[s.Col.WKB]
	}
	return ChooseDevice(s.Devices(), total)
}

// ChooseDevice picks the database device among devices (in the order
// iostat printed them) from their I/O (KiB read plus written, summed over
// the samples). The database is usually on a software RAID (md) or
// device-mapper (dm-) volume, whose members iostat lists too; a member
// then has as much I/O as the volume or more (a mirror writes every block
// to each member, metadata adds some), so "the busiest device" picks a
// member and every per-operation value counts the member's share. A
// member can also carry I/O the volume never sees: an md check (scrub)
// reads every block of each member (a published run of March 2025 has its
// members read 60000 times what the volume read, 2.7 times the volume's
// whole I/O). The rule: the md/dm device with the most I/O when that is at
// least a tenth of the I/O of the busiest device, else the busiest device
// (a volume with less is not where the work went: a boot mirror beside the
// database disk); ties go to the device seen first. Without any I/O the first
// md/dm device, else the first device.
func ChooseDevice(devices []string, total map[string]float64) string {
	best, bestV := "", -1.0
	vol, volV := "", -1.0
	for _, d := range devices {
		if total[d] > bestV {
			best, bestV = d, total[d]
		}
		if IsVolumeDevice(d) && total[d] > volV {
			vol, volV = d, total[d]
		}
	}
	if vol != "" && volV >= bestV/10 {
		return vol
	}
	return best
}

// IsVolumeDevice reports whether an iostat device name is a software RAID
// (md0, md127) or device-mapper (dm-0) volume built on other devices.
func IsVolumeDevice(name string) bool {
	for _, p := range []string{"md", "dm-"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// ioPlausible checks the values of an iostat device row: rates, sizes,
// times and percentages, none negative. (%util is held to MaxUtil apart, by
// implausible: the original scripts used such rows.) It returns the index of
// the first value that breaks its rule, with the error.
func ioPlausible(vals []float64) (int, error) {
	for i, v := range vals {
		if v >= 0 && v <= Ceiling {
			continue
		}
		if err := Plausible(Rate, v); err != nil {
			return i, err
		}
	}
	return 0, nil
}

// implausible says why a device row cannot be right, "" when it can.
func (s *Iostat) implausible(vals []float64) string {
	if s.Col.Util < 0 || s.Col.Util >= len(vals) {
		return ""
	}
	if err := PlausibleUtil(vals[s.Col.Util]); err != nil {
		return err.Error()
	}
	return ""
}

// isDeviceName reports whether the first token of a line in a device
// block names a device: not a repeated Device header, not the avg-cpu
// line, not the banner (which names the CPU count, until that is known).
func (s *Iostat) isDeviceName(tok []byte) bool {
	return !bytes.HasPrefix(tok, deviceWord) && string(tok) != "avg-cpu:" &&
		!(s.CPUs == 0 && bytes.HasPrefix(tok, []byte("Linux")))
}
