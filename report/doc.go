// Package report lays computed benchmark results out as the files and pages
// users read.
//
// Load reads a results folder (raw DBMS trees, computed with package
// metrics, or an archived folder of mrg.<step> files). From it:
//
//   - Results.Tables (and Tables, TablesFromArchive) build the text tables of
//     the original pipeline: mrg/rel per step, the response-time and rate
//     merges and the iostat averages. WriteFiles puts them on disk
//     atomically.
//   - SysbenchTables builds the sysbench summaries of the original
//     summarizers: sb.met, sb.r.*, o.met, o.qps, sum, qps.abs/rel,
//     pre_vs_post, group statistics and the per-query table. Load finds
//     both kinds of results in one folder.
//   - Build computes the report: a format-agnostic Report holding tables of
//     cells with their colour bands, chart series and notes. It takes its
//     numbers from the same text tables, so a report never disagrees with
//     the mrg files.
//   - Write lays a Report out as HTML (html/template with the templates of
//     package templates, charts drawn as inline SVG with gonum/plot),
//     Markdown (text/template), text (tablewriter) or JSON (the model).
//     Renderers compute nothing.
//
// Diff is the loading half of `ibreport diff`: each run is a folder of raw
// DBMS trees (tables built in memory, as `ibreport tables` would write them)
// or of archived mrg.<step>/rel.<step> files, read strictly, since a CI gate
// must not pass on a file it could not read. metrics.Compare judges the
// cells; WriteDiff renders the verdicts as text (tablewriter), GitHub-
// flavored Markdown for a pull request or job summary, JSON (schema
// DiffSchema) or GitHub Actions annotations. ExitCode maps the worst finding
// to the gate's exit status.
//
// Third-party libraries stay at the edges: gonum/plot only in svg.go,
// tablewriter only in text.go and diff_text.go, goldmark only in html.go.
package report
