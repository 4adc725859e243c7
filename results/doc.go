// Package results is the loading stage of ibreport: it reads what a
// results folder holds into typed values, before anything is computed from
// them for a report.
//
// Its first reader is of the summary tables a published sysbench study
// keeps in place of the per-build result folders: the qps.abs.<set> and
// qps.rel.<set> tables (TSV and CSV, as sum_qps_csv.sh writes them), the
// o.met.<set> blocks of sum_met.sh, and the author's regrouped
// qps.rel.<set>.tsv.edit. A folder often holds several sets, each a list
// of builds the author chose (latest, all, my.84plus, …); ReadSummaries
// returns each of them, DefaultSet names the one a report shows when the
// user picks none, and Summaries.Choose returns the set a user named or
// that default one. Set.Sysbench turns a set into the typed sysbench
// model that reports, tables and the CI gate are built from.
//
// Every value is a metrics.Value: a number with its unit, or NA with the
// reason. A cell the tables print as a number that is not plausible (NaN,
// an infinity, a negative rate) is NA, and the ratios of qps.rel are
// checked against qps.abs, a disagreement beyond their print rounding
// being a warning naming both files and the cell.
//
// Every function takes nil and zero arguments and returns an error or an
// empty value; none panics.
//
// # Stability
//
// ReadSummaries, Summaries (Choose, Set), Set, Row, Cell, Met and DefaultSet are stable:
// fields and methods may be added, not renamed or removed. The order of
// Summaries.Skipped and the texts of warnings may change.
package results
