package metrics_test

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

const perfDir = "x.pg1110_o2nofp.x10a_c32r128.pk1"

// TestComputePerfOpArchive checks the per-operation counters of one test
// of the archive against a hand calculation: samples 1 and 2 (sb.perf.last
// says 2), each counter summed over its blocks' intervals, divided by
// 490863.07 queries/s shared by 40 backends.
func TestComputePerfOpArchive(t *testing.T) {
	fsys := os.DirFS("../testdata/arc/feb25.pg.perf")
	samples, _, err := metrics.PerfSamples(fsys, perfDir)
	if err != nil {
		t.Fatal(err)
	}
	got := samples["read-only.range100.pk1"]
	if len(got) != 2 || got[0].N != 1 || got[1].N != 2 {
		t.Fatalf("samples %+v, want 1 and 2", got)
	}
	if n := len(samples["insert.range100.pk1"]); n != 5 {
		t.Errorf("insert: %d samples, want 5 (sb.perf.last)", n)
	}
	var ps []*parse.PerfStat
	for _, s := range got {
		b, err := fs.ReadFile(fsys, path.Join(perfDir, s.Name))
		if err != nil {
			t.Fatal(err)
		}
		p, err := parse.ReadPerfStat(strings.NewReader(string(b)), s.Name)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	procs := metrics.PerfProcs(perfDir, 40)
	if procs != 40 {
		t.Fatalf("procs %d, want 40 (one PostgreSQL backend of 40)", procs)
	}
	op := metrics.ComputePerfOp(ps, metrics.Known(490863.07, "queries/s"), procs)
	for _, w := range []struct {
		name string
		v    metrics.Value
		want float64
	}{
		{"insn/o", op.InsnPerOp, 209944.880957},
		{"cyc/o", op.CyclesPerOp, 167260.400174},
		{"IPC", op.IPC, 1.255197768},
		{"cs/o", op.CSPerOp, 1.098736665},
		{"stallBE%", op.StallBackend, 8.922362273},
	} {
		if !w.v.OK() || math.Abs(w.v.V/w.want-1) > 1e-9 {
			t.Errorf("%s = %+v, want %v", w.name, w.v, w.want)
		}
	}
	if op.DTLBMissPerOp.OK() != true || op.StallFrontend.OK() != true {
		t.Errorf("dTLB %+v, stallFE %+v", op.DTLBMissPerOp, op.StallFrontend)
	}
}

func TestComputePerfOpNA(t *testing.T) {
	in := " Performance counter stats for process id '1':\n  <not supported>  cycles\n  1,000  instructions\n 2.0 seconds time elapsed\n"
	p, _ := parse.ReadPerfStat(strings.NewReader(in), "s.1")
	tests := []struct {
		name      string
		rate      metrics.Value
		procs     int
		v         func(*metrics.PerfOp) metrics.Value
		want      float64
		wantWhyIn string
	}{
		{"whole server", metrics.Known(100, "q/s"), 1, func(o *metrics.PerfOp) metrics.Value { return o.InsnPerOp }, 5, ""},
		{"one backend of 4", metrics.Known(100, "q/s"), 4, func(o *metrics.PerfOp) metrics.Value { return o.InsnPerOp }, 20, ""},
		{"not supported", metrics.Known(100, "q/s"), 1, func(o *metrics.PerfOp) metrics.Value { return o.CyclesPerOp }, 0, "cycles not supported"},
		{"IPC without cycles", metrics.Known(100, "q/s"), 1, func(o *metrics.PerfOp) metrics.Value { return o.IPC }, 0, "cycles not supported"},
		{"absent", metrics.Known(100, "q/s"), 1, func(o *metrics.PerfOp) metrics.Value { return o.CSPerOp }, 0, "no sample counted context-switches"},
		{"rate 0", metrics.Known(0, "q/s"), 1, func(o *metrics.PerfOp) metrics.Value { return o.InsnPerOp }, 0, "operation rate is 0"},
		{"rate NA", metrics.NA("q/s", "no sb.o"), 1, func(o *metrics.PerfOp) metrics.Value { return o.InsnPerOp }, 0, "no sb.o"},
	}
	for _, tc := range tests {
		v := tc.v(metrics.ComputePerfOp([]*parse.PerfStat{p}, tc.rate, tc.procs))
		if tc.wantWhyIn != "" {
			if v.OK() || !strings.Contains(v.Why, tc.wantWhyIn) {
				t.Errorf("%s: %+v, want NA with %q", tc.name, v, tc.wantWhyIn)
			}
			continue
		}
		if !v.OK() || v.V != tc.want {
			t.Errorf("%s: %+v, want %v", tc.name, v, tc.want)
		}
	}
	for _, tc := range []struct {
		dbms string
		want int
	}{{"x.pg1110_o2nofp.c.pk1", 40}, {"x.my8032_rel.c.pk1", 1}, {"postgres17", 40}, {"x.oriole.c.pk1", 40}, {"x.ma1011.c.pk1", 1}} {
		if got := metrics.PerfProcs(tc.dbms, 40); got != tc.want {
			t.Errorf("PerfProcs(%s) = %d, want %d", tc.dbms, got, tc.want)
		}
	}
}

// TestDecomposeCPU is the attribution table one level below cpu/o:
// which of instructions per operation and IPC explain a CPU change.
func TestDecomposeCPU(t *testing.T) {
	k := func(v float64) metrics.Value { return metrics.Known(v, "") }
	op := func(insn, ipc float64) *metrics.PerfOp { return &metrics.PerfOp{InsnPerOp: k(insn), IPC: k(ipc)} }
	tests := []struct {
		name        string
		base, other *metrics.PerfOp
		cpu         float64 // cpu/o other ÷ base
		want        string  // cited parts
	}{
		{"more instructions", op(100000, 1.25), op(148000, 1.20), 1.54, "insn/o +48%"},
		{"lower IPC", op(100000, 1.50), op(101000, 1.00), 1.52, "IPC -33%"},
		{"both", op(100000, 1.50), op(130000, 1.10), 1.77, "IPC -27%, insn/o +30%"}, // IPC accounts for more: |log 0.733| > |log 1.3|
		{"both, instructions first", op(100000, 1.50), op(160000, 1.30), 1.85, "insn/o +60%, IPC -13%"},
		{"cpu fell with fewer instructions", op(100000, 1.2), op(70000, 1.2), 0.70, "insn/o -30%"},
		{"wrong direction is no explanation", op(100000, 1.2), op(80000, 0.6), 1.6, "IPC -50%"},
		{"cpu within band", op(100000, 1.2), op(150000, 1.2), 1.02, ""},
		{"below the floor", op(500, 1.2), op(900, 1.2), 1.8, ""},
		{"IPC below its floor", op(100000, 0.01), op(100000, 0.04), 0.5, ""},
		{"a small share is not cited", op(100000, 1.25), op(148000, 1.20), 1.54, "insn/o +48%"}, // IPC -4%: share 0.09
		{"no counters", nil, op(1, 1), 1.5, ""},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range metrics.Decompose(metrics.CPUParts(tc.base, tc.other), tc.cpu, metrics.SimilarBand) {
			got = append(got, c.Name+" "+signedPct(c.Change))
		}
		if g := strings.Join(got, ", "); g != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, g, tc.want)
		}
	}
	// Attribute carries the detail with the cause it explains.
	ms := []metrics.Measure{{Name: "cpu/o", Cost: true, Base: k(0.0001), Other: k(0.000154), Parts: metrics.CPUParts(op(100000, 1.25), op(148000, 1.20))}}
	cs := metrics.Attribute(ms, 0.65, metrics.SimilarBand)
	if len(cs) != 1 || len(cs[0].Detail) != 1 || cs[0].Detail[0].Name != "insn/o" {
		t.Errorf("Attribute = %+v, want cpu/o with insn/o", cs)
	}
}

func signedPct(c float64) string { return fmt.Sprintf("%+.0f%%", 100*c) }
