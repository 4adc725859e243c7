package metrics_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibPerfSample is a perf stat file as np.sh writes it, with round counts:
// 20e9 instructions and 10e9 cycles in 10 s, 30e6 cache misses in 10 s
// (another block), 4e6 context switches in 20 s.
const ibPerfSample = `# started on Tue Mar  4 17:13:57 2025


 Performance counter stats for process id '1152400':

         9,000.00 msec cpu-clock                 #    0.900 CPUs utilized
    10,000,000,000      cycles                    #    1.111 GHz
   <not supported>      bus-cycles
    20,000,000,000      instructions              #    2.00  insn per cycle

      10.000000000 seconds time elapsed

 Performance counter stats for process id '1152400':

       100,000,000      cache-references
        30,000,000      cache-misses              #   30.000 % of all cache refs

      10.000000000 seconds time elapsed

 Performance counter stats for process id '1152400':

         4,000,000      context-switches

      20.000000000 seconds time elapsed
`

// TestIbenchPerfOpHand checks the per-operation counters of a step against
// hand calculations: per second 2e9 instructions, 1e9 cycles, 3e6 cache
// misses and 2e5 context switches, divided by the step's operation rate
// (queries for read+write, inserts otherwise) shared by the D backends of
// PostgreSQL, or by the whole rate for a MySQL server.
func TestIbenchPerfOpHand(t *testing.T) {
	ps, err := parse.ReadPerfStat(strings.NewReader(ibPerfSample), "o.perf.hw.dop2.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tree                   string
		kind                   parse.StepKind
		procs                  int
		insn, cyc, llc, cs, ip float64
	}{
		// 1000 queries/s ÷ 2 backends = 500/s per backend: 2e9/500 = 4e6.
		{"20m.pg15.c1", parse.ReadWriteRange, 2, 4e6, 2e6, 6000, 400, 2},
		// 5000 inserts/s ÷ 2 = 2500/s: 2e9/2500 = 8e5.
		{"20m.pg15.c1", parse.Load, 2, 8e5, 4e5, 1200, 80, 2},
		// MySQL is one process: 1000 queries/s: 2e9/1000 = 2e6.
		{"20m.my8032.c1", parse.ReadWritePoint, 1, 2e6, 1e6, 3000, 200, 2},
		{"x.2m.orioledb", parse.CreateIndex, 1, 4e5, 2e5, 600, 40, 2}, // no <N>m. prefix: not told as PostgreSQL
	} {
		t.Run(fmt.Sprint(c.tree, c.kind), func(t *testing.T) {
			sr := &metrics.StepResult{Step: parse.Step{Kind: c.kind}, Dop: 2,
				InsertRate: metrics.Known(5000, "rows/s"), QueryRate: metrics.Known(1000, "queries/s")}
			op := metrics.IbenchPerfOp(sr, c.tree, []*parse.PerfStat{ps})
			if op.Procs != c.procs {
				t.Errorf("procs %d, want %d", op.Procs, c.procs)
			}
			for _, w := range []struct {
				name string
				v    metrics.Value
				want float64
			}{{"insn/o", op.InsnPerOp, c.insn}, {"cyc/o", op.CyclesPerOp, c.cyc}, {"llcmiss/o", op.CacheMissPerOp, c.llc},
				{"cs/o", op.CSPerOp, c.cs}, {"IPC", op.IPC, c.ip}} {
				if !w.v.OK() || math.Abs(w.v.V-w.want) > 1e-9*w.want {
					t.Errorf("%s = %v, want %g", w.name, w.v, w.want)
				}
			}
			if op.BranchMissPerOp.OK() || !strings.Contains(op.BranchMissPerOp.Why, "branch-misses") {
				t.Errorf("branch misses not counted, got %v", op.BranchMissPerOp)
			}
		})
	}
	// A step without a query rate has no per-operation counters.
	sr := &metrics.StepResult{Step: parse.Step{Kind: parse.ReadWriteRange}, Dop: 1, QueryRate: metrics.NA("queries/s", "no client log")}
	if op := metrics.IbenchPerfOp(sr, "2m.my8032", []*parse.PerfStat{ps}); op.InsnPerOp.OK() || !strings.Contains(op.InsnPerOp.Why, "no client log") {
		t.Errorf("insn/o without a rate: %v", op.InsnPerOp)
	}
}

// TestPerfSamplesIbench: np.sh's samples are o.perf.hw.dop<D>.<n>, used
// from 1 to the number in o.perf.last.dop<D>; the .raw and .sorted files
// beside them are not samples.
func TestPerfSamplesIbench(t *testing.T) {
	m := fstest.MapFS{"s/o.perf.last.dop2": {Data: []byte("2\n")}}
	for _, n := range []string{"0", "1", "2", "3", "1.raw", "1.sorted"} {
		m["s/o.perf.hw.dop2."+n] = &fstest.MapFile{Data: []byte(ibPerfSample)}
	}
	got, _, err := metrics.PerfSamples(m, "s")
	if err != nil {
		t.Fatal(err)
	}
	l := got["dop2"]
	if len(got) != 1 || len(l) != 2 || l[0].N != 1 || l[1].N != 2 || l[0].Name != "o.perf.hw.dop2.1" {
		t.Errorf("samples %+v, want dop2: 1 and 2", got)
	}
	delete(m, "s/o.perf.last.dop2")
	got, _, _ = metrics.PerfSamples(m, "s")
	if l := got["dop2"]; len(l) != 3 {
		t.Errorf("without o.perf.last: %+v, want samples 1 to 3", l)
	}
}

// TestAttributeCPUPQParts is the attribution table of an insert benchmark
// step with counters: a cited cpupq carries the parts that explain it,
// with the rules of Decompose; the counters never make a cause of their
// own.
func TestAttributeCPUPQParts(t *testing.T) {
	k := func(v float64) metrics.Value { return metrics.Known(v, "") }
	op := func(insn, ipc float64) *metrics.PerfOp { return &metrics.PerfOp{InsnPerOp: k(insn), IPC: k(ipc)} }
	row := func(cpupq float64) metrics.Row {
		var r metrics.Row
		for i := range r {
			r[i] = metrics.NA("", "not in this test")
		}
		r[metrics.CPUPQ] = metrics.Known(cpupq, "usecs/op")
		return r
	}
	tests := []struct {
		name        string
		ratio       float64 // throughput other ÷ base
		cpu         [2]float64
		base, other *metrics.PerfOp
		want        string
	}{
		{"slower: more instructions", 0.65, [2]float64{100, 154}, op(100000, 1.25), op(148000, 1.20), "cpupq +54% (insn/o +48%)"},
		{"faster: fewer instructions, higher IPC", 1.61, [2]float64{100, 62}, op(643130, 2.00), op(450459, 2.20), "cpupq -38% (insn/o -30%, IPC +10%)"},
		{"slower: IPC only", 0.7, [2]float64{100, 150}, op(100000, 1.5), op(100000, 1.0), "cpupq +50% (IPC -33%)"},
		{"counters of one DBMS only", 0.65, [2]float64{100, 154}, nil, op(148000, 1.20), "cpupq +54%"},
		{"parts against cpupq explain nothing", 0.65, [2]float64{100, 154}, op(100000, 1.0), op(80000, 1.5), "cpupq +54%"},
		{"cpupq within the band: no cause, no detail", 0.65, [2]float64{100, 102}, op(100000, 1.25), op(148000, 1.20), ""},
		{"cpupq the wrong way: no cause", 1.5, [2]float64{100, 154}, op(100000, 1.25), op(148000, 1.20), ""},
		{"cpupq below its floor", 0.5, [2]float64{0.1, 0.3}, op(100000, 1.25), op(300000, 1.20), ""},
		{"throughput within the band", 1.02, [2]float64{100, 154}, op(100000, 1.25), op(148000, 1.20), ""},
	}
	for _, tc := range tests {
		ms := metrics.RowMeasures(row(tc.cpu[0]), row(tc.cpu[1]))
		metrics.WithCPUParts(ms, tc.base, tc.other)
		var got []string
		for _, c := range metrics.Attribute(ms, tc.ratio, metrics.SimilarBand) {
			s := c.Name + " " + signedPct(c.Change)
			var d []string
			for _, p := range c.Detail {
				d = append(d, p.Name+" "+signedPct(p.Change))
			}
			if len(d) > 0 {
				s += " (" + strings.Join(d, ", ") + ")"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, g, tc.want)
		}
	}
}
