// Package report lays computed benchmark results out as the files and pages
// users read: the mrg/rel tables of every step, the response-time and rate
// merges, the iostat averages, and (later) the HTML report. Builders return
// file contents; WriteFiles puts them on disk atomically.
//
// Diff is the loading half of `ibreport diff`: each run is a folder of raw
// DBMS trees (tables built in memory, as `ibreport tables` would write them)
// or of archived mrg.<step>/rel.<step> files, read strictly, since a CI gate
// must not pass on a file it could not read. metrics.Compare judges the
// cells; WriteDiff renders the verdicts as text (tablewriter), GitHub-
// flavored Markdown for a pull request or job summary, JSON (schema
// DiffSchema) or GitHub Actions annotations. ExitCode maps the worst finding
// to the gate's exit status.
package report
