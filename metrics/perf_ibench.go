package metrics

import (
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// IbenchPerfOp normalizes the perf stat samples of an insert benchmark
// step (np.sh's o.perf.hw.dop<D>.<n>) by the step's operation rate, the
// one cpupq divides by: the query rate of a read+write step, the insert
// rate of a load or create-index step.
//
// np.sh counts one process: for PostgreSQL the backend of client 1 (its
// query connection in a read+write step; in a load step its insert
// connection, or on odd samples its delete connection when it deletes), so
// that backend does 1/D of the operations of D clients, assuming the
// clients share the load evenly (they run the same loop at the same
// target rate). A MySQL or MariaDB server is one process and counts every
// client's work. tree is the tree's folder name ("800m.pg19b1_o2nofp…").
// A nil sr gives nil.
func IbenchPerfOp(sr *StepResult, tree string, samples []*parse.PerfStat) *PerfOp {
	if sr == nil {
		return nil
	}
	rate := sr.InsertRate
	if sr.Step.Kind.ReadWrite() {
		rate = sr.QueryRate
	}
	return ComputePerfOp(samples, rate, ibenchPerfProcs(tree, sr.Dop))
}

// ibenchPerfProcs is PerfProcs for a tree name: the DBMS follows the
// "<N>m." prefix of the rows loaded ("20m.pg15.c1" is PostgreSQL), and D
// clients each have their own backend.
func ibenchPerfProcs(tree string, dop int) int {
	name := tree
	if p := parse.RowPrefix(tree); p != "" {
		name = strings.TrimPrefix(tree, p+".")
	}
	return PerfProcs(name, dop)
}

// WithCPUParts gives the cpupq measure of RowMeasures its parts,
// instructions per operation and IPC (CPUParts), from the perf stat
// counters of the base and the other DBMS in the step; without counters
// for both it stays a cause without detail.
func WithCPUParts(ms []Measure, base, other *PerfOp) {
	for i := range ms {
		if ms[i].Name == CPUPQ.String() {
			ms[i].Parts = CPUParts(base, other)
		}
	}
}
