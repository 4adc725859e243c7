package report

import "github.com/ibreport/ibreport/internal/metrics"

// The typed results a report is built from. Numbers are Values: a float64,
// its Unit and, when the number cannot be known, why (Value.Why; V is then
// NaN), so nothing is 0 for "unknown". Results.Tree gives a DBMS tree's
// TreeResult, whose steps are StepResults; Results.Sysbench holds the
// sysbench results.
type (
	// Value is a number with its unit, or why it is not available.
	// Format prints it with a number of decimals; OK says whether it is
	// known.
	Value = metrics.Value
	// Unit names what a Value counts: "inserts/s", "CPU µs/query", "GiB", …
	Unit = metrics.Unit
	// Metric is one of the columns of the mrg tables (IPS, QPS, CPUPQ, …);
	// StepResult.Metrics is indexed by it, and Metric.Name, Digits and
	// Unit describe it.
	Metric = metrics.Metric
	// TreeResult is one DBMS tree (one DBMS configuration of the insert
	// benchmark), every step read and summarized; Step finds one by name
	// and Name is the tree's name.
	TreeResult = metrics.TreeResult
	// StepResult is one step of one DBMS tree: its throughput, the metrics
	// of the mrg table, iostat, vmstat, response times, noise, stalls and
	// the warnings that explain each NA value.
	StepResult = metrics.StepResult
	// SysbenchSet is the sysbench results of several DBMS configurations;
	// Relative compares one with the base, the first.
	SysbenchSet = metrics.SysbenchSet
	// SysbenchResult is one DBMS × test × thread count of sysbench.
	SysbenchResult = metrics.SysbenchResult
	// MetricsOptions control how steps are computed: compat mode, the CPUs
	// of the database host, the DBMS's OS user, the block device, the
	// sysbench scan rate and stall thresholds (LoadOptions.Metrics).
	MetricsOptions = metrics.Options
	// StallOptions are the thresholds of stall detection and of the SLA
	// of rate-limited steps (MetricsOptions.Stall).
	StallOptions = metrics.StallOptions
	// Inspection is every number of one step and the records behind it,
	// as `ibreport inspect` prints it.
	Inspection = metrics.Inspection
)

// The metrics of a StepResult's Metrics row, in the column order of
// mrg.<step>. An operation is an inserted row for load steps, an indexed
// row for l.x and a query for read+write steps.
const (
	IPS   = metrics.IPS   // average inserts per second (l.x: indexed rows per second)
	QPS   = metrics.QPS   // average queries per second; 0 for load steps
	RPS   = metrics.RPS   // storage reads per second (iostat r/s)
	RMBPS = metrics.RMBPS // MiB read per second
	WPS   = metrics.WPS   // storage writes per second (iostat w/s)
	WMBPS = metrics.WMBPS // MiB written per second
	RPQ   = metrics.RPQ   // storage reads per operation
	RKBPQ = metrics.RKBPQ // KiB read per operation
	WPI   = metrics.WPI   // storage writes per inserted row
	WKBPI = metrics.WKBPI // KiB written per inserted row
	CSPS  = metrics.CSPS  // context switches per second (vmstat cs)
	CPUPS = metrics.CPUPS // CPU utilization: vmstat us + sy, percent of all CPUs
	CSPQ  = metrics.CSPQ  // context switches per operation
	CPUPQ = metrics.CPUPQ // CPU microseconds per operation, all processes of the host
	DBGB1 = metrics.DBGB1 // database size in GiB (o.dbsz)
	DBGB2 = metrics.DBGB2 // data directory size in GiB (o.dbdirsz)
	RSS   = metrics.RSS   // largest RSS of a DBMS process in GiB
	MaxOp = metrics.MaxOp // largest response time in seconds
	P50   = metrics.P50   // median per-interval rate of client 1
	P99   = metrics.P99   // the per-interval rate of client 1 that 99% of its intervals reached
)

// DefaultStallOptions are the documented thresholds of stall detection and
// of the SLA; a zero StallOptions field takes its value from here.
var DefaultStallOptions = metrics.DefaultStallOptions

// Cause is an efficiency metric that moved with a change of throughput, as
// a finding (Bullet) cites it.
type Cause = metrics.Cause
