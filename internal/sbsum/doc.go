// Package sbsum writes the sysbench summaries of the original scripts of
// bench/sysbench.lua (an.sh, run.sh, sum_met.sh, sumr.sh, sum_qps.sh,
// sum_qps_csv.sh, pre_vs_post.sh) from a computed sysbench set, and two
// tables they did not write: the statistics of relative QPS per test group
// and the per-query table with user columns.
//
// In the default mode the files are rendered from the typed set; with the
// compat computation (package compat) they are the scripts' bytes. Notes
// are the warnings the summaries report, for a report's notes.
package sbsum
