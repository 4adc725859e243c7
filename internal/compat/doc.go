// Package compat is the compat edge: it computes and prints results exactly
// as the original mytools scripts did (bench/ibench and bench/sysbench.lua),
// quirks included, for `--compat`. It is the only package that knows about
// their awk and bc arithmetic (internal/awk), shell pipelines (grep, sort,
// paste, cut, ls -rt) and printing.
//
// Its results are the model of package metrics, computed the way the scripts
// computed them: every value carries the text the scripts printed for it
// (metrics.Value.Printed). Its number is the one the scripts went on with:
// awk's reading of the printed text where the next script read the text
// (the insert benchmark's rows, merged tables and histograms), the
// unrounded value where the summaries kept computing with it (sysbench).
// Package report renders that model like any other, and calls the edge for
// the files whose layout depends on the scripts' text processing.
package compat
