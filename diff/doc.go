// Package diff is the CI gate of ibreport (`ibreport diff`): it compares
// the mrg/rel tables of a NEW result set with those of a BASE and says, per
// step, DBMS and metric, whether NEW regressed.
//
// Run loads each side — folders of raw DBMS trees, whose tables are the
// typed tables of the report's merged model (report.Results.Merged: the
// values `ibreport tables` prints, never printed and read back, so that
// the gate and the report cannot disagree), or archived mrg.<step> and
// rel.<step> files, read once into values that keep their text — and
// Compare judges the cells:
// a direction-aware Rule per metric (DefaultRules, built from the
// properties table of package metrics, metrics.Props: throughput higher is
// better; work per operation, response time and sizes lower is better;
// per-second resource rates informational), with warn and fail thresholds,
// absolute floors and the printed precision keeping tiny or rounded values
// from flapping. With replicated runs it compares medians; a change is real
// when a Mann-Whitney U test shows it (exact for small samples without
// ties, Holm-adjusted across the whole comparison) or when every NEW run is
// beyond every BASE run, so that more runs never make the gate blinder than
// one; overlapping runs are within the measured run-to-run noise, and the
// report says so. Sysbench runs (DBMS result folders or the summary tables
// qps.abs and o.met) are compared as tables of the same kind (sysbench.go).
// NA cells are findings, never a silent pass. A failing throughput names
// the efficiency metrics of the same cell that moved with it, or says
// unexplained; runs that did not do the same work (clients, rows, steps,
// CPUs, device) are listed as not comparable.
//
// Write renders a Comparison as text (tablewriter), GitHub-flavored
// Markdown for a pull request or job summary, JSON (schema Schema) or
// GitHub Actions annotations, one per regressed row; ExitCode maps the
// worst finding to the gate's exit status, and a comparison with Problems
// (a step or DBMS on one side only, the rest compared) to 2. WriteError
// writes, in the same formats, why nothing could be compared. The
// judgement of a run against the history of a series (`ibreport diff
// --history`) is report.History, since it is a series report with a
// verdict per test.
//
// # Stability
//
// Run, Compare, Write, WriteError, ExitCode, Comparison, Finding and the
// options are stable: fields and constants may be added, not renamed or
// removed. The
// JSON output follows its schema (Schema): a change that is not an addition
// changes its version. Text and Markdown layouts may change.
package diff
