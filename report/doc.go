// Package report turns benchmark results into the model that every output
// of ibreport is rendered from.
//
// Load reads a results folder: its settings, the DBMS list and every raw
// insert-benchmark tree (each step computed by the typed metrics, or, with
// metrics.Options.Compat, as the original scripts computed it), every
// sysbench folder, or an archived folder of mrg.<step> files. It returns
// the Results and the warnings met on the way. The typed results are
// TreeResult and StepResult for the insert benchmark (Results.Tree(name)
// .Step(step).Metrics[metrics.CPUPQ] is a metrics.Value: a number with its
// Unit, or why it is not available; name is the one the outputs show,
// "pg15.c1", or the folder's, "2m.pg15.c1", and Results.FindTree says
// which names there are) and SysbenchSet for sysbench.
//
// Every function and method takes nil and zero arguments (and a nil
// receiver): it returns an error, an NA value or an empty one, never
// panics.
//
// From Results:
//
//   - Results.Tables renders the text tables of the original pipeline: the
//     mrg/rel tables per step, the response-time and rate merges, the iostat
//     averages and the sysbench summaries, byte for byte as the scripts
//     wrote them in compat mode. Results.Merged gives the mrg/rel
//     tables typed, which package diff compares.
//   - Build computes the Report: tables of cells (each with its text, the
//     number and unit behind it or why it is NA, and its colour band),
//     chart series, findings (Bullets) and notes. It takes its numbers from
//     the same merged model the tables are rendered from, never from
//     rendered text, so a report never disagrees with the mrg files.
//     BuildOptions.Series adds where each test's level shifted along the
//     DBMS list taken as a series.
//   - BuildSeries builds that series part from result sets in order
//     (`ibreport series`), and History judges the last set against the
//     noise of the sets before it (`ibreport diff --history`).
//
// Package report/render lays a Report out as HTML, Markdown, text or JSON;
// package diff is the CI gate over the mrg/rel tables of two runs.
//
// The typed results (Value, StepResult, TreeResult, SysbenchSet, …) are
// those of package metrics; the records they are computed from, those of
// package parse.
//
// # Stability
//
// Load, Results, Build, BuildSeries, History, Inspect, the Report model and
// its JSON schema (SchemaVersion) are stable: fields,
// methods and constants may be added, not renamed or removed, and a JSON
// change that is not an addition changes SchemaVersion. MinHistory may
// change with the statistics of History. The Inspection
// (the output of `ibreport inspect`) may change with the tool.
package report
