package parse_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// perfArc is the trimmed copy of the feb25.pg.perf archive.
const perfArc = "../testdata/arc/feb25.pg.perf"

const perfBlock = `# started on Wed Mar  5 01:12:36 2025


 Performance counter stats for process id '1265326':

          7,796.63 msec cpu-clock                 #    0.780 CPUs utilized          
    20,470,290,591      cycles                    #    2.626 GHz                      (50.12%)
   <not supported>      bus-cycles                                                  
    25,681,837,093      instructions              #    1.25  insn per cycle         
     4,941,788,451      branches                  #  633.836 M/sec                  
       130,811,499      branch-misses             #    2.65% of all branches        
     <not counted>      LLC-loads                                                     (0.00%)

      10.001433168 seconds time elapsed

`

func TestReadPerfStat(t *testing.T) {
	tests := []struct {
		name, in string
		// want: event → value text, state, unit, running; errs: substrings
		// of the errors at their lines.
		event, text, unit string
		state             parse.PerfState
		value, running    float64
		usable            bool
		elapsed           float64
		errs              []string
	}{
		{name: "counts", in: perfBlock, event: "instructions", text: "25,681,837,093", value: 25681837093, running: 100, usable: true, elapsed: 10.001433168},
		{name: "msec", in: perfBlock, event: "cpu-clock", text: "7,796.63", unit: "msec", value: 7796.63, running: 100, usable: true, elapsed: 10.001433168},
		{name: "multiplexed", in: perfBlock, event: "cycles", text: "20,470,290,591", value: 20470290591, running: 50.12, usable: true, elapsed: 10.001433168},
		{name: "not supported", in: perfBlock, event: "bus-cycles", text: "<not supported>", state: parse.NotSupported, running: 100, elapsed: 10.001433168},
		{name: "not counted", in: perfBlock, event: "LLC-loads", text: "<not counted>", state: parse.NotCounted, running: 0, elapsed: 10.001433168},
		{name: "negative", in: " Performance counter stats for 'sleep 1':\n\n  -5      cycles\n\n 1.0 seconds time elapsed\n",
			event: "cycles", text: "-5", value: -5, running: 100, elapsed: 1, errs: []string{"3: cycles: -5 is negative"}},
		{name: "IPC beyond 10", in: " Performance counter stats for 'sleep 1':\n  1,000  cycles\n  20,000 instructions\n 1.0 seconds time elapsed\n",
			event: "instructions", text: "20,000", value: 20000, running: 100, elapsed: 1, errs: []string{"3: instructions 20,000 ÷ cycles 1,000 = 20 is more than 10"}},
		{name: "misses beyond references", in: " Performance counter stats for 'sleep 1':\n  10  branches\n  20 branch-misses\n 1.0 seconds time elapsed\n",
			event: "branch-misses", text: "20", value: 20, running: 100, elapsed: 1, errs: []string{"3: branch-misses 20 is more than branches 10"}},
		{name: "bad separators", in: " Performance counter stats for 'sleep 1':\n  1,0000  cycles\n 1.0 seconds time elapsed\n",
			errs: []string{`2: count "1,0000" is not a number`}, elapsed: 1},
		{name: "outside a block", in: "  1,000  cycles\n",
			errs: []string{"1: counter cycles outside a perf stat block", "o.in: no perf stat block"}},
		{name: "twice", in: " Performance counter stats for 'sleep 1':\n  1  faults\n  2  faults\n 1.0 seconds time elapsed\n",
			event: "faults", text: "1", value: 1, running: 100, usable: true, elapsed: 1, errs: []string{"3: faults counted twice in one block (first at line 2)"}},
		{name: "cut short", in: " Performance counter stats for 'sleep 1':\n  1  faults\n",
			event: "faults", text: "1", value: 1, running: 100, usable: true, errs: []string{"1: block without a \"seconds time elapsed\" line"}},
		{name: "running over 100", in: " Performance counter stats for 'sleep 1':\n  1  faults   (120.00%)\n 1.0 seconds time elapsed\n",
			event: "faults", text: "1", value: 1, running: 120, elapsed: 1, errs: []string{"2: faults running share: 120 is more than 100"}},
		{name: "garbage", in: " Performance counter stats for 'sleep 1':\n  some text that is not perf\n 1.0 seconds time elapsed\n",
			errs: []string{"2: not a perf stat counter line"}, elapsed: 1},
		{name: "empty", in: "", errs: []string{"o.in: empty file"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parse.ReadPerfStat(strings.NewReader(tc.in), "d/o.in")
			list := parse.SyntaxErrors(err)
			if err != nil && list == nil {
				t.Fatalf("error %v is not a syntax error list", err)
			}
			if len(list) != len(tc.errs) {
				t.Fatalf("errors %v, want %d: %q", err, len(tc.errs), tc.errs)
			}
			for i, e := range list {
				if !strings.Contains(e.Error(), tc.errs[i]) {
					t.Errorf("error %d = %q, want it to contain %q", i, e, tc.errs[i])
				}
			}
			if tc.event == "" {
				return
			}
			c, ok := p.Find(tc.event)
			if !ok {
				t.Fatalf("no %s", tc.event)
			}
			if c.Text != tc.text || c.Value != tc.value || c.Unit != tc.unit || c.State != tc.state || c.Running != tc.running || c.Usable() != tc.usable {
				t.Errorf("%s = %+v, want text %q value %v unit %q state %v running %v usable %v", tc.event, c, tc.text, tc.value, tc.unit, tc.state, tc.running, tc.usable)
			}
			if p.Blocks[0].Elapsed != tc.elapsed {
				t.Errorf("elapsed %v, want %v", p.Blocks[0].Elapsed, tc.elapsed)
			}
		})
	}
}

// TestReadPerfStatArchive reads every sample of the archive: seven blocks
// each, no syntax error, and the counts of one sample as printed.
func TestReadPerfStatArchive(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(perfArc, "*", "sb.perf.hw.*.[0-9]"))
	if err != nil || len(files) < 100 {
		t.Fatalf("%d sample files, %v", len(files), err)
	}
	for _, f := range files {
		p, err := parse.ReadPerfStat(strings.NewReader(readSample(t, f)), f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		// The sample after the last one run.sh recorded was cut short
		// when the run ended: fewer blocks, each complete.
		if len(p.Blocks) != 7 && !(len(p.Blocks) > 0 && len(p.Blocks) < 7 && afterLast(t, f)) {
			t.Errorf("%s: %d blocks, want 7", f, len(p.Blocks))
		}
	}
	f := filepath.Join(perfArc, "x.pg1110_o2nofp.x10a_c32r128.pk1", "sb.perf.hw.read-only.range100.pk1.1")
	p, err := parse.ReadPerfStat(strings.NewReader(readSample(t, f)), f)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		event string
		v     float64
		line  int
	}{{"cycles", 20470290591, 7}, {"instructions", 25681837093, 9}, {"dTLB-load-misses", 13954081, 44}, {"context-switches", 135613, 81}} {
		c, b, ok := p.Counter(w.event)
		if !ok || c.Value != w.v || c.Line != w.line || b.Elapsed <= 10 || b.Elapsed > 10.01 {
			t.Errorf("%s = %+v in %+v, want %v at line %d", w.event, c, b, w.v, w.line)
		}
	}
	if c, ok := p.Find("LLC-loads"); !ok || c.State != parse.NotSupported {
		t.Errorf("LLC-loads = %+v, want not supported", c)
	}
}

// afterLast reports whether a sample file is numbered after the last
// sample of its sb.perf.last file.
func afterLast(t *testing.T, f string) bool {
	dir, base := filepath.Split(f)
	i := strings.LastIndexByte(base, '.')
	last := strings.TrimSpace(readSample(t, filepath.Join(dir, "sb.perf.last."+strings.TrimPrefix(base[:i], "sb.perf.hw."))))
	return base[i+1:] > last && len(base[i+1:]) >= len(last)
}
