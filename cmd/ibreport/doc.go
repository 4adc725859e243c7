// Command ibreport turns insert-benchmark (iibench) result trees into the
// tables and reports that the original mytools scripts produced.
//
// Usage:
//
//	ibreport build [flags] RESULTS [-o FILE]
//	ibreport tables [flags] RESULTS -o DIR
//	ibreport inspect [flags] STEPDIR
//	ibreport diff [flags] BASE NEW
//
// build writes the report of RESULTS (raw DBMS trees or archived mrg.<step>
// files) to stdout or, atomically, to FILE: one self-contained HTML page with
// inline SVG charts, or the same report as Markdown, text or JSON. Its own
// flags:
//
//	--format F      html (default), md, text or json
//	--clients N     benchmark clients, for the insert-rate targets (archives need it)
//	--title S       report title
//	--intro FILE    test description in Markdown
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
//	--device NAME   block device of the database in the iostat files (default:
//	                the md/dm volume covering its members, else the busiest)
//	--dbms FILE     DBMS in report order; "-" or BREAK starts a group
//	--some LIST     comma-separated steps for mrg.some and rel.some (tables), or
//	                the steps the report shows (build); default: the archived
//	                mrg.some
//	-o PATH         output folder (tables) or file (build)
//	--sb-tag TAG    sysbench: tag in the summary file names (default sb)
//	--sb-groups F   sysbench: test groups for qps.groups ("<name>: <test> ..." lines)
//	--sb-extra F    sysbench: CSV of extra per-query columns (dbms,test[,threads],...)
//	--scan-gen N    sysbench: scan row-rate generation 1, 2 or 3 (default: the
//	                one the archived rates show, else 3)
//
// --cores, --ps-user and --device may also be given by an ibreport.settings
// file ("key = value" lines) in RESULTS.
//
// diff is a CI gate: it compares the NEW results with the BASE results per
// step, DBMS and metric and exits 1 when NEW is worse by a fail threshold.
// BASE and NEW are folders of mrg.<step>/rel.<step> files or raw DBMS
// trees; a comma-separated list (or repeated --base DIR / --new DIR flags)
// gives several runs of a side, compared by medians with a Mann-Whitney U
// test. Its flags:
//
//	--threshold LIST  fail levels, metric=N%[,…] or metric=off (ips=5%,cpupq=10%);
//	                  N above 0, at most 1000 (at most 100 for ips, qps, p50, p99)
//	--warn LIST       warn levels, same syntax
//	--alpha A         significance level for replicated runs (0.05); half
//	                  of it bounds the false failures of a one-run report
//	--run-noise F     run-to-run relative sd of one run for one-run
//	                  comparisons (default: BASE's settings, else 0.01)
//	--tables KIND     auto (every kind all runs have), mrg, rel or both
//	--allow-missing   report a step, DBMS or column on one side only and go on
//	--strict          exit 1 on warnings too
//	--format F        text, md, json or github
//	--all             list every comparison, not only the notable ones (text, md, json)
//
// plus --cores, --ps-user, --device and --dbms for raw trees. See docs/diff.md
// for the rules, thresholds and floors.
//
// Exit status: 0 on success (diff: no fail-level finding), 1 when the output
// could not be produced (diff: a fail-level regression, or a warning with
// --strict), 2 for bad usage or unreadable, mismatched input. Numeric flags
// are checked before anything is read: NaN, ±Inf, and 0 or negative values
// where they mean nothing exit 2. A diff in which no cell has a value on
// both sides, or a diff --history that checked no test, compared nothing
// and exits 2.
package main
