package metrics

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// A Direction says which way a metric is better.
type Direction int

// The directions.
const (
	// NoDirection is that of rates of resource use per second: they grow
	// with throughput as much as with waste, so neither way is better.
	NoDirection Direction = iota
	HigherIsBetter
	LowerIsBetter
)

// String is "higher", "lower" or "none", as the diff's outputs print it.
func (d Direction) String() string {
	switch d {
	case HigherIsBetter:
		return "higher"
	case LowerIsBetter:
		return "lower"
	}
	return "none"
}

// A Gate is the default rule by which the CI gate (package diff) judges a
// change of a metric. Warn and Fail are relative changes in the bad
// direction (0.05 = 5%); 0 disables the level.
type Gate struct {
	Class      string // throughput, efficiency, latency, size or rate; "" when the gate does not compare the column
	Warn, Fail float64
	// NoFloor leaves Props.Floor out of the gate: a column whose floor is
	// its last printed digit (cpu/o) is already covered by the gate's
	// rounding rule, which treats a change of one printed unit as noise.
	NoFloor bool
	// Noise is the least run-to-run relative standard deviation of one
	// run of the column that a one-run gate judges it with, when the
	// declared run noise (of throughput) is smaller; 0 for the declared.
	// CPU per operation, from vmstat's whole CPU percentages, moves by
	// 5.7% rms between two runs of the same MySQL build (3.1% for seven
	// PostgreSQL builds run on two dates) where QPS moves by 1.2%: judged
	// at throughput's 1% it fails real pairs of the same build.
	Noise float64
}

// The gates of the classes of metrics: throughput is gated tightest, sizes
// and response times, which vary more from run to run, loosest.
var (
	throughputGate = Gate{Class: "throughput", Warn: 0.03, Fail: 0.05}
	efficiencyGate = Gate{Class: "efficiency", Warn: 0.05, Fail: 0.10}
	// cpuGate is efficiencyGate with the noise of CPU per operation: 4%
	// per run, 5.7% rms of two runs over √2.
	cpuGate     = Gate{Class: "efficiency", Warn: 0.05, Fail: 0.10, Noise: 0.04}
	dbSizeGate  = Gate{Class: "size", Warn: 0.05, Fail: 0.10}
	rssGate     = Gate{Class: "size", Warn: 0.10, Fail: 0.20}
	latencyGate = Gate{Class: "latency", Warn: 0.10, Fail: 0.20}
	rateGate    = Gate{Class: "rate"}
)

// Props are the properties of one metric column, as the outputs name it.
// Every table, colour, finding and gate rule of a metric reads them here
// (PropsByName, Metric.Props), so that each is defined once.
type Props struct {
	// Name is the column name the outputs show: "cpupq" in the insert
	// benchmark's mrg.<step> and rel.<step> tables, "cpu/o" in sysbench's
	// o.met and HW-per-operation tables. Sysbench's QPS column is "qps",
	// the insert benchmark's.
	Name string
	// Metric is the insert benchmark's metric; for a sysbench column, the
	// one of the same quantity (cs/o: CSPQ; o/s, the operation rate: QPS).
	Metric Metric
	// Sysbench is true for the columns of sysbench's tables only.
	Sysbench bool
	// Unit is what the column measures; "op" stands for the operation a
	// step or test counts (inserted row, indexed row, query): Metric.Unit
	// names it.
	Unit Unit
	// Better is the direction in which the metric improves: throughput
	// up, cost per operation, size and response time down; rates of
	// resource use per second have none.
	Better Direction
	// Floor is the magnitude below which a value is too small to compare
	// by ratio: tiny values flap by large percentages, and 0.010 vs 0.000
	// reads per query is no change in what a query costs. The gate ignores
	// a change when both values are below it; Attribute cites a metric only
	// when both are at or above it. 0 for none.
	Floor float64
	// Gate is the metric's default rule in the CI gate.
	Gate Gate
	// Digits are the decimals a metrics row (o.sum.t) or o.met prints;
	// MergeDigits those of the mrg.<step> tables, which round rps to an
	// integer. -1 prints the shortest text that reads back as the number
	// (the rates the client printed).
	Digits, MergeDigits int
	// Meaning explains the metric in one phrase, for legends.
	Meaning string
}

// opUnit stands for the operation in Props.Unit: "reads/op" per
// operation, "op/s" for the operation rate.
const opUnit = "op"

// The floors follow the printed precision and what is physically
// meaningful: a context switch per 20 operations, 0.1 KiB or 0.01 I/O per
// operation, a CPU microsecond per operation, 50 ms of maximum response
// time, 1 GiB of database, 0.5 GiB of RSS and 1 operation per second. The
// sysbench columns take those of their insert-benchmark peers (like), cpu/o
// that of its printed precision (a millionth of a CPU percent per
// operation).
var props = func() []Props {
	out := []Props{
		IPS:   {Name: "ips", Unit: InsertsPerSec, Better: HigherIsBetter, Floor: 1, Gate: throughputGate, Meaning: "average inserted rows per second over the step (l.x: rows indexed per second)"},
		QPS:   {Name: "qps", Unit: QueriesPerSec, Better: HigherIsBetter, Floor: 1, Gate: throughputGate, Meaning: "average queries per second (0 for load steps)"},
		RPS:   {Name: "rps", Unit: ReadsPerSec, Gate: rateGate, Digits: 1, Meaning: "storage read requests per second (iostat r/s)"},
		RMBPS: {Name: "rmbps", Unit: MiBPerSec, Gate: rateGate, Digits: 1, MergeDigits: 1, Meaning: "storage MiB read per second"},
		WPS:   {Name: "wps", Unit: WritesPerSec, Gate: rateGate, Digits: 1, MergeDigits: 1, Meaning: "storage write requests per second (iostat w/s)"},
		WMBPS: {Name: "wmbps", Unit: MiBPerSec, Gate: rateGate, Digits: 1, MergeDigits: 1, Meaning: "storage MiB written per second"},
		RPQ:   {Name: "rpq", Unit: PerOp("reads", opUnit), Better: LowerIsBetter, Floor: 0.01, Gate: efficiencyGate, Digits: 3, MergeDigits: 3, Meaning: "storage reads per operation"},
		RKBPQ: {Name: "rkbpq", Unit: PerOp("KiB", opUnit), Better: LowerIsBetter, Floor: 0.1, Gate: efficiencyGate, Digits: 3, MergeDigits: 3, Meaning: "storage KiB read per operation"},
		WPI:   {Name: "wpi", Unit: PerOp("writes", "insert"), Better: LowerIsBetter, Floor: 0.01, Gate: efficiencyGate, Digits: 3, MergeDigits: 3, Meaning: "storage writes per inserted row"},
		WKBPI: {Name: "wkbpi", Unit: PerOp("KiB", "insert"), Better: LowerIsBetter, Floor: 0.1, Gate: efficiencyGate, Digits: 3, MergeDigits: 3, Meaning: "storage KiB written per inserted row"},
		CSPS:  {Name: "csps", Unit: CSPerSec, Gate: rateGate, Meaning: "context switches per second (vmstat cs)"},
		CPUPS: {Name: "cpups", Unit: CPUPercent, Gate: rateGate, Digits: 1, MergeDigits: 1, Meaning: "CPU utilization: average vmstat us + sy, percent of all CPUs"},
		CSPQ:  {Name: "cspq", Unit: PerOp("cs", opUnit), Better: LowerIsBetter, Floor: 0.05, Gate: efficiencyGate, Digits: 3, MergeDigits: 3, Meaning: "context switches per operation"},
		CPUPQ: {Name: "cpupq", Unit: PerOp("CPU µs", opUnit), Better: LowerIsBetter, Floor: 1, Gate: cpuGate, Meaning: "CPU microseconds per operation, all processes on the host"},
		DBGB1: {Name: "dbgb1", Unit: GiB, Better: LowerIsBetter, Floor: 1, Gate: dbSizeGate, Digits: 1, MergeDigits: 1, Meaning: "database size in GiB as reported by the DBMS or its data directory"},
		DBGB2: {Name: "dbgb2", Unit: GiB, Better: LowerIsBetter, Floor: 1, Gate: dbSizeGate, Digits: 1, MergeDigits: 1, Meaning: "size of the whole data directory in GiB"},
		RSS:   {Name: "rss", Unit: GiB, Better: LowerIsBetter, Floor: 0.5, Gate: rssGate, Digits: 1, MergeDigits: 1, Meaning: "RSS in GiB of the DBMS process (largest sample)"},
		MaxOp: {Name: "maxop", Unit: Seconds, Better: LowerIsBetter, Floor: 0.05, Gate: latencyGate, Digits: 3, MergeDigits: 3, Meaning: "maximum response time in seconds (insert statement for load steps, query for read+write steps)"},
		// p50 and p99 are per-interval rates, not latencies: more is better.
		P50: {Name: "p50", Unit: opUnit + "/s", Better: HigherIsBetter, Floor: 1, Gate: throughputGate, Digits: -1, MergeDigits: -1, Meaning: "median of client 1's per-interval rates (inserts/s for load steps, queries/s for read+write steps)"},
		P99: {Name: "p99", Unit: opUnit + "/s", Better: HigherIsBetter, Floor: 1, Gate: throughputGate, Digits: -1, MergeDigits: -1, Meaning: "the per-interval rate of client 1 that 99% of its intervals reached"},
	}
	for i := range out {
		out[i].Metric = Metric(i)
	}
	// like is a sysbench column of the same quantity as an insert-benchmark
	// metric: its direction, floor and gate.
	like := func(m Metric, name string, u Unit, digits int, meaning string) Props {
		p := out[m]
		p.Name, p.Sysbench, p.Unit, p.Digits, p.MergeDigits, p.Meaning = name, true, u, digits, digits, meaning
		return p
	}
	// The HW-per-operation columns of sysbench in the order of its tables.
	cpu := like(CPUPQ, "cpu/o", PerOp(string(CPUPercent), opUnit), 6, "vmstat us + sy (percent of all CPUs) divided by operations per second")
	cpu.Floor, cpu.Gate.NoFloor = 1e-6, true
	micros := like(CPUPQ, "µs/o", PerOp("CPU µs", opUnit), 1, "CPU microseconds per operation, when the CPU count is known")
	rate := like(QPS, "o/s", opUnit+"/s", 0, "operations per second, the rate the per-operation values divide by")
	// The gate compares the columns of o.met, not those the report adds.
	micros.Gate, rate.Gate = Gate{}, Gate{}
	return append(out,
		cpu,
		micros,
		like(CSPQ, "cs/o", PerOp("cs", opUnit), 3, "context switches per operation"),
		like(RPQ, "r/o", PerOp("reads", opUnit), 3, "storage reads per operation"),
		like(RKBPQ, "rKB/o", PerOp("KiB read", opUnit), 3, "storage KiB read per operation"),
		like(WKBPI, "wKB/o", PerOp("KiB written", opUnit), 3, "storage KiB written per operation"),
		rate,
	)
}()

// AllProps lists the properties of every metric column: the insert
// benchmark's twenty in table order (indexed by Metric), then sysbench's
// HW-per-operation columns cpu/o µs/o cs/o r/o rKB/o wKB/o o/s.
func AllProps() []Props { return append([]Props(nil), props...) }

// Props are the properties of the metric; the zero Props for a value that
// is not a metric.
func (m Metric) Props() Props {
	if m < 0 || m >= NumMetrics {
		return Props{Metric: m}
	}
	return props[m]
}

// PropsByName finds the properties of a column by the name the outputs
// show ("cpupq", "cpu/o"). For an unknown name the error lists the names
// there are, and the Props have no name, direction, floor or gate (and
// Metric NumMetrics, which is no metric).
func PropsByName(name string) (Props, error) {
	for _, p := range props {
		if p.Name == name {
			return p, nil
		}
	}
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.Name
	}
	return Props{Metric: NumMetrics}, fmt.Errorf("unknown metric %q (want one of %s)", name, strings.Join(names, " "))
}

// Floor is the magnitude below which a value of the named metric is too
// small for its ratio to mean anything (Props.Floor); 0 for a metric
// without a floor or an unknown name.
func Floor(name string) float64 {
	p, _ := PropsByName(name)
	return p.Floor
}

// SysbenchColumns are the sysbench columns of the properties table, in
// table order; gated keeps only those the CI gate compares (o.met's cpu/o
// cs/o r/o rKB/o wKB/o).
func SysbenchColumns(gated bool) []Props {
	var out []Props
	for _, p := range props[NumMetrics:] {
		if !gated || p.Gate.Class != "" {
			out = append(out, p)
		}
	}
	return out
}

// Unit is the metric's unit in a step of the given kind.
func (m Metric) Unit(k parse.StepKind) Unit {
	if m < 0 || m >= NumMetrics {
		return NoUnit
	}
	if m == IPS && k == parse.CreateIndex {
		return RowsPerSec
	}
	return props[m].Unit.in(k)
}

// in is the unit in a step of the given kind, "op" named: an inserted row
// for load steps, an indexed row for the create-index step and a query for
// read+write steps.
func (u Unit) in(k parse.StepKind) Unit {
	op, rate := "insert", InsertsPerSec
	switch {
	case k.ReadWrite():
		op, rate = "query", QueriesPerSec
	case k == parse.CreateIndex:
		op, rate = "row", RowsPerSec
	}
	return u.of(op, rate)
}

// UnitOf is the column's unit with its operation named: op in a
// per-operation unit ("reads/op" → "reads/query"), rate for the
// operation rate (p50, p99, o/s).
func (p Props) UnitOf(op string, rate Unit) Unit { return p.Unit.of(op, rate) }

// sbUnit is the unit of a sysbench column in a test whose operation is op.
func sbUnit(name, op string) Unit {
	p, _ := PropsByName(name)
	return p.UnitOf(op, NoUnit)
}

// of names the operation of a unit: op for "<x>/op", rate for "op/s".
func (u Unit) of(op string, rate Unit) Unit {
	if u == opUnit+"/s" {
		return rate
	}
	if what, ok := strings.CutSuffix(string(u), "/"+opUnit); ok {
		return PerOp(what, op)
	}
	return u
}
