package parse

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

const perfBlock = `
 Performance counter stats for process id '1265326':

%s

      10.001234567 seconds time elapsed
`

// TestPerfCountStrict: perf groups thousands with ',' only; a count
// grouped otherwise, or with a decimal point, is not used and is named at
// its line.
func TestPerfCountStrict(t *testing.T) {
	for _, c := range []struct {
		line, want string
		value      float64
	}{
		{"   131,300      context-switches", "", 131300},
		{"      7,796.63 msec cpu-clock", "", 7796.63},
		{"   131 300      context-switches", `x:4: count "131 300" is not a number (perf groups thousands with ',' only)`, 0},
		{"   131.300      context-switches", `x:4: count "131.300" has a decimal point, but a count is whole`, 0},
		{"   1e3          context-switches", `x:4: count "1e3" is not a number`, 0},
		{"   Inf          context-switches", `x:4: count "Inf" is not a number`, 0},
	} {
		ps, err := ReadPerfStat(strings.NewReader(strings.Replace(perfBlock, "%s", c.line, 1)), "x")
		if c.want == "" {
			cs, ok := ps.Find(strings.Fields(c.line)[len(strings.Fields(c.line))-1])
			if err != nil || !ok || cs.Value != c.value {
				t.Errorf("%q: %v, %v, %v", c.line, cs, ok, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
		if _, _, ok := ps.Counter("context-switches"); ok {
			t.Errorf("%q: the count is used", c.line)
		}
	}
}

// TestPerfLast: a perf.last file with two appended runs, a number below 1
// or text is named at its line.
func TestPerfLast(t *testing.T) {
	for _, c := range []struct {
		data string
		last int
		ok   bool
		want string
	}{
		{"3\n", 3, true, ""},
		{"2\n3\n", 3, true, "p:2: a second sample number after line 1 (runs appended to one file?); the last, 3, is used"},
		{"-1\n", 0, true, "p:1: -1 is not a sample number (samples start at 1); no sample is used"},
		{"three\n", 0, false, "p:1: three is not a sample number; every sample is used"},
		{"", 0, false, "p: empty; every sample is used"},
	} {
		last, ok, warns, err := PerfLast(fstest.MapFS{"p": {Data: []byte(c.data)}}, "p")
		if err != nil || last != c.last || ok != c.ok || strings.Join(warns, "|") != c.want {
			t.Errorf("%q: %d %v %q %v; want %d %v %q", c.data, last, ok, warns, err, c.last, c.ok, c.want)
		}
	}
	_, ok, warns, _ := PerfLast(fstest.MapFS{"p": {Mode: fs.ModeNamedPipe}}, "p")
	if ok || len(warns) != 1 || warns[0] != "p: a FIFO, not a regular file; every sample is used" {
		t.Errorf("FIFO: %v %q", ok, warns)
	}
}

// TestReadPerfFile: a FIFO is not opened, a file larger than MaxPerfFile
// is not read past it.
func TestReadPerfFile(t *testing.T) {
	big := []byte(" Performance counter stats for 'system wide':\n")
	for i := 0; len(big) <= MaxPerfFile; i++ {
		big = fmt.Appendf(big, "   131,300      event%d\n", i)
	}
	m := fstest.MapFS{"fifo": {Mode: fs.ModeNamedPipe}, "big": {Data: big}}
	if _, err := ReadPerfFile(m, "fifo"); err == nil || err.Error() != "fifo: a FIFO, not a regular file; skipped" {
		t.Errorf("FIFO: %v", err)
	}
	if _, err := ReadPerfFile(m, "big"); err == nil || err.Error() != "big: larger than 4 MiB, not a perf stat sample; skipped" {
		t.Errorf("big: %v", err)
	}
	// A file of other lines is named at 50 of them, not at each.
	junk := bytes.Repeat([]byte("[ 10s ] thds: 1 tps: 6936.19\n"), 1000)
	_, err := ReadPerfFile(fstest.MapFS{"junk": {Data: junk}}, "junk")
	if se := SyntaxErrors(err); len(se) != 52 || se[50].Error() != "junk:51: more lines that are not perf stat output: not read further" {
		t.Errorf("junk: %d errors: %v", len(se), err)
	}
}
