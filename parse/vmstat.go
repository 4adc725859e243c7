package parse

import (
	"bytes"
	"io"
)

// VmstatLineKind classifies a line of vmstat output.
type VmstatLineKind int

// The kinds of vmstat lines.
const (
	VmstatGroupHeader  VmstatLineKind = iota // "procs -----memory---- ..."
	VmstatColumnHeader                       // " r  b   swpd   free ..."
	VmstatData
)

// VmstatSample is one data row of vmstat. CPU values are integer percent of
// all CPUs of the host; Cs is context switches per second.
type VmstatSample struct {
	Line      int
	SinceBoot bool // the first data row, averages since boot
	Cs        float64
	Us        float64
	Sy        float64
	Wa        float64
	// Implausible says why the sample cannot be right (its CPU columns sum
	// to more than vmstat can print, see PlausibleCPU), "" when it can. The
	// sample is still handed over: the original scripts used it, so compat
	// mode does; the metrics leave it out and say so.
	Implausible string
}

// Vmstat is a parsed vmstat file.
type Vmstat struct {
	Name    string
	Columns []string // the column header names (17, or 18 with gu)
	Samples []VmstatSample
	// GroupHeaders and ColumnHeaders count the header lines; every pair after
	// the first is a repetition that the original scripts counted as a sample.
	GroupHeaders  int
	ColumnHeaders int
	Lines         int // lines in the file, counted as the original scripts did
}

// ReadVmstat reads procps vmstat output (any interval, procps-ng 3.x and 4.x).
// Columns are located by header name, so the 18th column gu of newer procps
// and a missing st column are both fine.
func ReadVmstat(r io.Reader, name string) (*Vmstat, error) {
	return ScanVmstat(r, name, nil)
}

// ScanVmstat reads vmstat output like ReadVmstat, but hands each sample to
// each as it is read instead of keeping it: the returned Vmstat has no
// Samples. s is reused for the next sample.
// A nil each keeps every one instead, which is ReadVmstat.
func ScanVmstat(r io.Reader, name string, each func(s *VmstatSample)) (*Vmstat, error) {
	v := &Vmstat{Name: name}
	var errs ErrorList
	idx := map[string]int{}
	var slot []int // per column: where its value goes in vals
	dataRows := 0
	var f fieldList
	var sample VmstatSample
	var nums []float64
	var pct []bool  // per column: a CPU percentage
	var pctAt []int // the CPU percentages' columns
	var conv []bool // per column: its value is used
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		n, line := sc.n, sc.line
		v.Lines = n
		if v.Columns != nil && !sc.long {
			// The common case first: a sample of plain numbers.
			if len(nums) < len(v.Columns) {
				nums = make([]float64, len(v.Columns))
			}
			if len(pct) != len(v.Columns) {
				pct = vmPercentColumns(v.Columns)
				pctAt, conv = pctAt[:0], conv[:0]
				for i, p := range pct {
					if p {
						pctAt = append(pctAt, i)
					}
					conv = append(conv, p || slot[i] != vmOther)
				}
			}
			// Only the columns a sample keeps and the percentages (for
			// their rule) are converted; a line with a minus sign is read
			// whole, for the rules of every column.
			nf, neg, ok := numericLineSome(line, nums[:len(v.Columns)], conv)
			if ok && neg {
				nf, _, _, _, ok = numericLine(line, 0, nums[:len(v.Columns)])
			}
			if ok && nf == len(v.Columns) {
				// Without a minus sign only a percentage above 100 breaks
				// its rule.
				if neg || over(nums, pctAt, 100) {
					if i, err := vmPlausibleCols(v.Columns, pct, nums[:nf]); err != nil {
						errs.add(name, n, "column %s: %v", v.Columns[i], err)
						dataRows++
						continue
					}
				}
				s := &sample
				*s = VmstatSample{Line: n, SinceBoot: dataRows == 0}
				dataRows++
				var got [vmSlots]float64
				for i, x := range nums[:nf] {
					if conv[i] {
						got[slot[i]] = x
					}
				}
				s.set(got)
				if each != nil {
					each(s)
				} else {
					v.Samples = append(v.Samples, *s)
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
		switch {
		case nf == 0:
			errs.add(name, n, "empty line")
			continue
		case bytes.HasPrefix(f.at(0), []byte("procs")):
			v.GroupHeaders++
			continue
		case f.has("swpd"):
			v.ColumnHeaders++
			if v.Columns == nil {
				v.Columns = fields(sc.Text())
				pct = nil
				for i, h := range v.Columns {
					idx[h] = i
				}
				for _, need := range []string{"cs", "us", "sy"} {
					if _, ok := idx[need]; !ok {
						errs.add(name, n, "vmstat header has no %q column", need)
					}
				}
				slot = make([]int, len(v.Columns))
				for i := range slot {
					slot[i] = vmOther
				}
				for k, col := range vmSlotCols {
					if i, ok := idx[col]; ok {
						slot[i] = k
					}
				}
			}
			continue
		}
		if v.Columns == nil {
			errs.add(name, n, "data line before the column header")
			continue
		}
		if nf != len(v.Columns) {
			errs.add(name, n, "%d fields, the header has %d", nf, len(v.Columns))
			continue
		}
		s := &sample
		*s = VmstatSample{Line: n, SinceBoot: dataRows == 0}
		dataRows++
		ok := true
		var vals [vmSlots]float64
		for i := range nf {
			tok := f.at(i)
			x, good := numberBytes(tok)
			if !good {
				errs.add(name, n, "column %s: %q is not a number", v.Columns[i], tok)
				ok = false
				break
			}
			if _, err := vmPlausible(v.Columns[i:i+1], []float64{x}); err != nil {
				errs.add(name, n, "column %s: %v", v.Columns[i], err)
				ok = false
				break
			}
			vals[slot[i]] = x
		}
		if !ok {
			continue
		}
		s.set(vals)
		if each != nil {
			each(s)
		} else {
			v.Samples = append(v.Samples, *s)
		}
	}
	if err := sc.Err(); err != nil {
		return v, err
	}
	if v.Lines == 0 {
		errs.add(name, 0, "empty file")
	} else if v.Columns == nil {
		errs.add(name, 0, "no vmstat column header (a line with swpd)")
	}
	return v, errs.Err()
}

// The columns a sample keeps, in the order of their slots; every other
// column goes to the slot vmOther.
var vmSlotCols = [...]string{"cs", "us", "sy", "wa", "id", "st"}

const (
	vmOther = len(vmSlotCols)
	vmSlots = vmOther + 1
)

// set fills the sample from the values of its line, by slot, and checks the
// sum of its CPU columns.
func (s *VmstatSample) set(v [vmSlots]float64) {
	s.Cs, s.Us, s.Sy, s.Wa = v[0], v[1], v[2], v[3]
	if err := PlausibleCPU(v[1], v[2], v[4], v[3], v[5]); err != nil {
		s.Implausible = err.Error()
	}
}

func contains(f []string, s string) bool {
	for _, x := range f {
		if x == s {
			return true
		}
	}
	return false
}

// vmPlausible checks the values of a vmstat line: CPU columns are
// percentages, the others counts or sizes. It returns the index of the first
// value that breaks its rule, with the error.
func vmPlausible(cols []string, vals []float64) (int, error) {
	return vmPlausibleCols(cols, vmPercentColumns(cols), vals)
}

// over reports whether a value at one of the positions at is above max.
func over(vals []float64, at []int, max float64) bool {
	for _, i := range at {
		if vals[i] > max {
			return true
		}
	}
	return false
}

// vmPercentColumns tells the CPU columns, which are percentages.
func vmPercentColumns(cols []string) []bool {
	pct := make([]bool, len(cols))
	for i, c := range cols {
		switch c {
		case "us", "sy", "id", "wa", "st", "gu":
			pct[i] = true
		}
	}
	return pct
}

// vmPlausibleCols is vmPlausible with the percentage columns told once per
// header: it runs on every sample.
func vmPlausibleCols(cols []string, pct []bool, vals []float64) (int, error) {
	for i, v := range vals {
		if v >= 0 && v <= 100 || v > 100 && v <= Ceiling && !pct[i] {
			continue // within the rule of its column; no message to build
		}
		q := Count
		if pct[i] {
			q = Percent
		}
		if err := Plausible(q, v); err != nil {
			return i, err
		}
	}
	return 0, nil
}
