// Command ibreport turns insert-benchmark (iibench) result trees into the
// tables and reports that the original mytools scripts produced.
//
// Usage:
//
//	ibreport tables [flags] RESULTS -o DIR
//	ibreport inspect [flags] STEPDIR
//
// tables reads RESULTS, a folder of DBMS result trees (<N>m.<dbms>.<cnf>/
// with one folder per step) or a folder of archived mrg.<step> files, and
// writes into DIR the files of the original pipeline: mrg.<step>,
// rel.<step>, mrg.some, rel.some, mrg.<step>.some and .ips/.qps, the
// response-time merges mrg.<step>.rt.{insert,delete,query} (and .some), the
// rate merges mrg.<step>.rate.*, the per-tree rows o.sum.{t,c}.<tree> and the
// iostat averages o.iostat.avg.*. For archived mrg files it regenerates the
// rel files and the .some concatenations.
//
// When RESULTS holds sysbench result folders (x.<dbms>.<cnf>.pk<n>/ with
// sb.o.* files, also below res.dop<N>.… folders), tables also writes the
// sysbench summaries: <dbms>/sb.met.* and <dbms>/sb.r.* per folder,
// o.met.<tag>.dop<N>, o.qps.{abs,rel}.<tag> (and .jan21), sum.<tag>,
// qps.{abs,rel}.<tag>[.nopre].{tsv,csv}, pre_vs_post.<dbms>.{tsv,csv},
// qps.groups.<tag>.dop<N> and per-query.<tag>.dop<N>. A folder with both
// kinds of results gives both sets of files. The first sysbench folder (in
// natural order, or the first one --dbms names) is the base.
//
// inspect prints one step as JSON: what was read, the recomputed o.res
// summary, the 21-column row and every warning.
//
// Flags:
//
//	--compat        reproduce the original scripts byte for byte, quirks included
//	--cores N       CPUs of the database host (for cpupq)
//	--ps-user NAME  OS user of the DBMS processes in the ps samples
//	--device NAME   block device of the database in the iostat files
//	--dbms FILE     DBMS in report order; "-" or BREAK starts a group
//	--some LIST     comma-separated steps for mrg.some and rel.some
//	-o DIR          output folder (tables)
//	--sb-tag TAG    sysbench: tag in the summary file names (default sb)
//	--sb-groups F   sysbench: test groups for qps.groups ("<name>: <test> ..." lines)
//	--sb-extra F    sysbench: CSV of extra per-query columns (dbms,test[,threads],...)
//	--scan-gen N    sysbench: scan row-rate generation 1, 2 or 3 (default 3)
//
// --cores, --ps-user and --device may also be given by an ibreport.settings
// file ("key = value" lines) in RESULTS.
//
// Exit status: 0 on success, 1 when the output could not be produced, 2 for
// bad usage or unreadable input.
package main
