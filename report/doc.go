// Package report lays computed benchmark results out as the files and pages
// users read.
//
// Load reads a results folder: its settings, the DBMS list and every raw
// DBMS tree (computed by ComputeTree: package metrics, or with
// MetricsOptions.Compat the compat edge, which computes as the original
// scripts did), every sysbench folder, or an archived folder of
// mrg.<step> files (ReadArchive). The result is one typed model
// (Results.Tree gives a tree's StepResult values). From it:
//
//   - Results.Tables (and Tables, TablesFromArchive) render the text tables
//     of the original pipeline: mrg/rel per step, the response-time and rate
//     merges and the iostat averages. WriteFiles puts them on disk
//     atomically.
//   - SysbenchTables renders the sysbench summaries of the original
//     summarizers: sb.met, sb.r.*, o.met, o.qps, sum, qps.abs/rel,
//     pre_vs_post, group statistics and the per-query table. In compat
//     mode Results.Tables has the compat edge write the scripts' files.
//     Load finds both kinds of results in one folder.
//   - Build computes the report: a format-agnostic Report holding tables of
//     cells (each with its text, the number and unit behind it or why it is
//     NA, and its colour band), chart series and notes. It takes its numbers
//     from the same merged model the tables are rendered from, never from
//     rendered text, so a report never disagrees with the mrg files.
//   - Write lays a Report out as HTML (html/template with the templates of
//     package templates, charts drawn as inline SVG with gonum/plot),
//     Markdown (text/template), text (tablewriter) or JSON (the model,
//     schema SchemaVersion). Renderers compute nothing.
//
// BuildOptions.Series adds the series part: the DBMS taken in list order as
// a series, with the change points of every test (stats.ChangePoints), a
// heat table and a chart per test. BuildSeries makes the same part from
// result sets in order (`ibreport series`), and History judges the last of
// them against the noise of the others (`ibreport diff --history`).
//
// Diff is the loading half of `ibreport diff`: each run is a folder of raw
// DBMS trees (their merged model, with cells printed as `ibreport tables`
// prints them) or of archived mrg.<step>/rel.<step> files, read strictly, since a CI gate
// must not pass on a file it could not read. diff.Compare judges the
// cells; WriteDiff renders the verdicts as text (tablewriter), GitHub-
// flavored Markdown for a pull request or job summary, JSON (schema
// Schema) or GitHub Actions annotations. ExitCode maps the worst finding
// to the gate's exit status.
//
// Third-party libraries stay at the edges: gonum/plot only in svg.go,
// tablewriter only in text.go and diff_text.go, goldmark only in html.go and
// (the introduction's headings and plain text) markdown.go and text.go.
//
// Load, Results, Build, BuildSeries, History, Report and its JSON schema,
// Write, Tables, Diff and WriteDiff are the stable API: fields may be added, not renamed or
// removed, and a JSON change that is not an addition changes SchemaVersion.
package report
