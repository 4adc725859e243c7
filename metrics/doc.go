// Package metrics turns parsed insert-benchmark steps into the numbers of
// the report: the per-step summary the benchmark driver printed (o.res), the
// 21-column metrics row (ips qps rps … p99 tag), response-time histogram
// tables, ten-interval average rates, iostat column averages, and relative
// rows against the base DBMS of a group.
//
// Two modes exist. Options.Compat reproduces the original shell and awk
// scripts byte for byte, quirks included (FORMATS.md §7): bc truncation,
// mawk's inf and -nan, repeated vmstat headers counted as samples, substring
// device matching, and so on. The default mode computes the same quantities
// correctly and prints NA, with a reason, where a value cannot be known.
// Both modes share the rounding rules, so the numbers agree whenever the
// quirks do not apply.
//
// For sysbench, ComputeSysbench turns the result folders into a
// SysbenchSet: per DBMS, test and thread count a SysbenchResult (QPS — for
// scan tests the row rate of the generation chosen by Options.ScanGen —,
// TPS, latency average, percentile and maximum, and the per-operation HW
// metrics of sb.met), plus the load step. Relative compares a DBMS with the
// base (the first DBMS), GroupStats summarizes relative QPS per test group
// with gonum/stat, and EngineTable lays out the per-query table with user
// columns. Each number is a Value: the float, the text printed and, when NA,
// why. OMetBlock, RLine and the Awk* helpers print the original summaries'
// lines, with the scripts' awk semantics in compat mode.
//
// Values are kept as the strings the report prints; the reasons for NA cells
// travel with them as warnings. Nothing in this package writes files.
//
// Compare is the engine of `ibreport diff`: it joins the mrg/rel tables of
// a BASE and a NEW result set by step, DBMS and metric and judges each cell
// by a direction-aware rule (DefaultRules: throughput higher is better; work
// per operation, response time and sizes lower is better; per-second
// resource rates informational), with warn and fail thresholds, absolute
// floors and the printed precision keeping tiny or rounded values from
// flapping. With replicated runs it compares medians with a Mann-Whitney U
// test (MannWhitneyU, exact for small samples without ties), adjusts the
// p-values with Holm across the whole comparison, never flags with fewer
// than 4 runs per side, and gives order-statistic intervals of the medians
// (MedianInterval). NA cells are findings, never a silent pass.
package metrics
