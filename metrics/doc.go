// Package metrics computes the numbers of insert-benchmark and sysbench
// results from the records of package parse, as typed values.
//
// # The model
//
// Every number is a Value: a float64, its Unit ("inserts/s", "KiB/insert",
// "CPU µs/query", "GiB", …) and, when it cannot be known, why (Why; V is
// then NaN). Nothing is 0 for "unknown". A Value prints itself with
// Value.Format and a number of decimals; a value read from a file that
// printed it (an archived table) keeps that text.
//
// For the insert benchmark, ComputeTree reads one DBMS tree and Summarize
// one step into a StepResult:
//
//   - Metrics, a Row of the twenty metrics indexed by Metric: IPS, QPS, the
//     iostat rates RPS … WMBPS, work per operation RPQ, RKBPQ, WPI, WKBPI,
//     context switches CSPS and CSPQ, CPU CPUPS and CPUPQ, sizes DBGB1,
//     DBGB2 and RSS, the largest response time MaxOp and the per-interval
//     rate percentiles P50 and P99. Metric.Name, Digits and Unit describe
//     each one, from the properties table (below);
//   - the step's duration, rows, queries and rates; iostat and vmstat
//     averages (IostatRates, VmstatRates, IostatAverages); the largest
//     response times and per-client percentiles; response-time histograms
//     (Histogram); ten-interval rates (RateWindows); the per-interval series
//     of every client (ClientSeries); and Warnings: one NotAvailable
//     Warning per NA metric, naming it and saying why, and the problems
//     met, each naming its file (and line).
//
// A StepResult holds no parsed records. Row.Relative and Ratio compare two
// DBMS (1 for 0/0, +Inf for x/0, NA when either is NA), on unrounded values.
//
// For sysbench, ComputeSysbench turns result folders into a SysbenchSet:
// per DBMS, test and thread count a SysbenchResult (QPS — for scan tests
// the row rate of the generation chosen by Options.ScanGen —, TPS, latency
// average, percentile and maximum, and the per-operation hardware metrics
// of sb.met), plus the load step. Relative compares a DBMS with the base
// (the first DBMS), GroupStats summarizes relative QPS per test group with
// gonum/stat, and EngineTable lays out the per-query table with user
// columns. The values sysbench printed (latencies, the query rate) keep the
// text it printed. ComputeSysbenchWith takes other rules for computing a
// run; the compat edge passes the scripts'.
//
// # Walkthrough
//
//	fsys := os.DirFS("results")
//	trees, _ := parse.ReadTree(fsys, ".")
//	c1, _ := metrics.ComputeTree(fsys, trees[0], metrics.Options{Cores: 2})
//	c2, _ := metrics.ComputeTree(fsys, trees[1], metrics.Options{Cores: 2})
//	a, b := c1.Step("l.i1").Metrics, c2.Step("l.i1").Metrics
//	fmt.Println(a[metrics.CPUPQ].Format(0), a[metrics.CPUPQ].Unit) // 61 CPU µs/insert
//	rel := b.Relative(&a)
//	fmt.Println(rel[metrics.IPS].Format(2))                          // 1.54
//
// # Properties of the metrics
//
// One table holds what every output and the CI gate know of a metric
// column: Props, with its Name as the outputs show it ("cpupq", "cpu/o"),
// Unit, Direction (Better), materiality Floor, default Gate rule and
// Digits, for the insert benchmark's twenty mrg columns and sysbench's
// HW-per-operation columns (cpu/o µs/o cs/o r/o rKB/o wKB/o o/s).
// PropsByName finds a column by name and says which names exist;
// Metric.Props, AllProps and SysbenchColumns read the same table. Package
// report colours ratios by Better, package diff builds its default rules
// from Gate, Better and Floor, Attribute cites a metric only above its
// Floor: none of them keeps a copy, and a test in the module root fails on
// a second definition keyed by a metric's name.
//
// Package report loads whole results folders (with the DBMS list, settings
// and the compat mode) into this model, and builds reports, tables and
// diffs from it.
//
// # Compat mode
//
// This package computes the default (correct) numbers only, with float64
// arithmetic on the parsed records. Reproducing the original scripts byte
// for byte — bc truncation, awk's number reading and printing, repeated
// vmstat headers counted as samples, substring device matching — is the job
// of the compat edge (internal/compat), which returns this same model with
// every value carrying the text the scripts printed. Options.Compat only
// tells callers which of the two to use. The vmstat samples and iostat rows
// the readers mark Implausible are left out here, with a warning
// "file:line: why; the sample is left out", and used there, as the scripts
// did.
//
// # Stability
//
// The typed model is stable: Value, Unit, Metric and its constants, Row,
// Interval, StepResult, TreeResult, SysbenchSet, SysbenchResult, Options,
// StallOptions and Cause, Warning and WarningKind (the texts of warnings
// may change), and ComputeTree, Summarize and ComputeSysbench;
// so are the properties table's types and lookups (Props, Direction and
// its constants, Gate, PropsByName, AllProps, SysbenchColumns, Floor).
// Fields, methods and constants may be added, not renamed or removed. The
// rest (Inspection, the tuning constants of stall and noise detection, the
// helpers the report builds its tables with) may change with the tool, and
// so may the table's values (floors, gate levels); docs/statistics.md and
// docs/diff.md document the values in force.
package metrics
