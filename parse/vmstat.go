package parse

import (
	"io"
	"strings"
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
	v := &Vmstat{Name: name}
	var errs ErrorList
	idx := map[string]int{}
	dataRows := 0
	sc := newLineScanner(r)
	for sc.Scan() {
		n, line := sc.n, sc.text
		v.Lines = n
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		f := fields(line)
		switch {
		case len(f) == 0:
			errs.add(name, n, "empty line")
			continue
		case strings.HasPrefix(f[0], "procs"):
			v.GroupHeaders++
			continue
		case contains(f, "swpd"):
			v.ColumnHeaders++
			if v.Columns == nil {
				v.Columns = f
				for i, h := range f {
					idx[h] = i
				}
				for _, need := range []string{"cs", "us", "sy"} {
					if _, ok := idx[need]; !ok {
						errs.add(name, n, "vmstat header has no %q column", need)
					}
				}
			}
			continue
		}
		if v.Columns == nil {
			errs.add(name, n, "data line before the column header")
			continue
		}
		if len(f) != len(v.Columns) {
			errs.add(name, n, "%d fields, the header has %d", len(f), len(v.Columns))
			continue
		}
		s := VmstatSample{Line: n, SinceBoot: dataRows == 0}
		dataRows++
		ok := true
		for i, tok := range f {
			if _, good := number(tok); !good {
				errs.add(name, n, "column %s: %q is not a number", v.Columns[i], tok)
				ok = false
				break
			}
		}
		get := func(col string) float64 {
			i, found := idx[col]
			if !found {
				return 0
			}
			x, _ := number(f[i])
			return x
		}
		s.Cs, s.Us, s.Sy, s.Wa = get("cs"), get("us"), get("sy"), get("wa")
		if ok {
			v.Samples = append(v.Samples, s)
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

func contains(f []string, s string) bool {
	for _, x := range f {
		if x == s {
			return true
		}
	}
	return false
}
