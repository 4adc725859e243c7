// Package report lays computed benchmark results out as the files and pages
// users read: the mrg/rel tables of every step, the response-time and rate
// merges, the iostat averages, the sysbench summaries (SysbenchTables: sb.met,
// sb.r.*, o.met, o.qps, sum, qps.abs/rel, pre_vs_post, group statistics and
// the per-query table), and (later) the HTML report. Load detects both kinds
// of results in one folder. Builders return
// file contents; WriteFiles puts them on disk atomically.
package report
