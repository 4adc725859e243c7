package parse

import (
	"io"
	"strings"
)

// Time is the output of GNU /usr/bin/time in its default format.
type Time struct {
	Name    string
	User    float64 // CPU seconds in user mode
	System  float64 // CPU seconds in kernel mode
	Elapsed float64 // wall-clock seconds
	Line    int     // line holding the values
	// Status is the "Command exited with non-zero status N" or "Command
	// terminated by signal N" line, when GNU time printed one.
	Status string
	// FirstLine is line 1 verbatim: the original scripts read only that line.
	FirstLine string
}

// ReadTime reads GNU time output.
func ReadTime(r io.Reader, name string) (*Time, error) {
	t := &Time{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	found := false
	for sc.Scan() {
		n, line := sc.n, sc.Text()
		if n == 1 {
			t.FirstLine = line
		}
		if strings.HasPrefix(line, "Command ") {
			t.Status = line
			continue
		}
		f := fields(line)
		if found || len(f) < 3 || !strings.HasSuffix(f[0], "user") {
			continue
		}
		u, ok1 := number(strings.TrimSuffix(f[0], "user"))
		s, ok2 := number(strings.TrimSuffix(f[1], "system"))
		e, ok3 := elapsed(strings.TrimSuffix(f[2], "elapsed"))
		if !ok1 || !ok2 || !ok3 || u < 0 || s < 0 || !strings.HasSuffix(f[1], "system") || !strings.HasSuffix(f[2], "elapsed") {
			errs.add(name, n, "malformed GNU time line")
			continue
		}
		if err := firstError(Plausible(Duration, u), Plausible(Duration, s), Plausible(Duration, e)); err != nil {
			errs.add(name, n, "GNU time line: %v", err)
			continue
		}
		t.User, t.System, t.Elapsed, t.Line, found = u, s, e, n, true
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	if !found {
		errs.add(name, 0, "no GNU time line (<user>user <system>system <elapsed>elapsed)")
	}
	return t, errs.Err()
}

// elapsed parses "[h:]mm:ss.cc".
func elapsed(s string) (float64, bool) { return colonSeconds(s) }

// colonSeconds converts "m:s" or "h:m:s" (each part a non-negative number,
// the first may exceed 59) to seconds.
func colonSeconds(s string) (float64, bool) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	total := 0.0
	for _, p := range parts {
		v, ok := number(p)
		if !ok || v < 0 {
			return 0, false
		}
		total = total*60 + v
	}
	if total > 1e300 {
		return 0, false // not a duration any run can have
	}
	return total, true
}
