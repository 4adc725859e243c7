// Package compat is the compat edge: it computes and prints results exactly
// as the original mytools scripts did (bench/ibench and bench/sysbench.lua),
// quirks included, for `--compat`. It is the only package that knows about
// their awk and bc arithmetic (internal/awk), shell pipelines (grep, sort,
// paste, cut, ls -rt) and printing.
//
// Its results are the model of package metrics, computed the way the scripts
// computed them: every value carries the text the scripts printed for it
// (metrics.Value.Printed), and the number the scripts' next step read from
// that text. Package report renders that model like any other, and calls
// the edge for the files whose layout depends on the scripts' text
// processing.
package compat
