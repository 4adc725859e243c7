// Package report lays computed benchmark results out as the files and pages
// users read: the mrg/rel tables of every step, the response-time and rate
// merges, the iostat averages, and (later) the HTML report. Builders return
// file contents; WriteFiles puts them on disk atomically.
package report
