package report

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// SysbenchOptions control SysbenchTables.
type SysbenchOptions struct {
	// Tag names the summary files, as the <tag> argument of the original
	// scripts: o.met.<tag>.dop<nt>, sum.<tag>, qps.abs.<tag>.tsv, ...
	// "" means "sb".
	Tag string
	// Groups replaces the default point / range / write grouping of the
	// summary statistics (nil: default).
	Groups []parse.SysbenchGroup
	// GroupSplit is the largest default group kept whole (0: the default).
	GroupSplit int
	// Extra holds user-supplied per-query columns for the engine table.
	Extra *parse.SysbenchExtra
}

// SysbenchTables builds the sysbench summaries of the original scripts from
// a computed set, in their file formats:
//
//	<dbms>/sb.met.<sfx>.dop<nt>, <dbms>/sb.prepare.met.<sfx0>   an.sh
//	<dbms>/sb.r.{qps,trx,rtavg,rtmax,rt95}.<sfx>               run.sh
//	o.met.<tag>.dop<nt>                                         sum_met.sh
//	o.qps.{abs,rel}.<tag>, o.qps.{abs,rel}.<tag>.jan21          sumr.sh (current and January 2021 layouts)
//	sum.<tag>                                                   sum_qps.sh
//	qps.{abs,rel}.<tag>[.nopre].{tsv,csv}                       sum_qps_csv.sh (and _nopre)
//	pre_vs_post.<dbms>.{tsv,csv}                                pre_vs_post.sh
//
// and two tables the scripts did not write: qps.groups.<tag>.dop<nt>
// (statistics of the relative QPS per test group) and
// per-query.<tag>.dop<nt> (QPS, latency and user columns per test). The
// set's Options.Compat selects byte-compatible output.
func SysbenchTables(set *metrics.SysbenchSet, opt SysbenchOptions) ([]File, []string, error) {
	if len(set.DBMS) == 0 {
		return nil, nil, fmt.Errorf("no sysbench results")
	}
	if opt.Tag == "" {
		opt.Tag = "sb"
	}
	t := &sbTables{set: set, opt: opt, compat: set.Options.Compat, fs: newFileSet()}
	t.warns = append(t.warns, set.Warnings()...)
	t.perDBMS()
	for _, nt := range set.Threads {
		t.oMet(nt)
	}
	t.sumr()
	t.sumQps()
	t.qpsCSV(false)
	t.qpsCSV(true)
	t.preVsPost()
	t.groups()
	t.perQuery()
	return t.fs.Files(), t.warns, nil
}

type sbTables struct {
	set    *metrics.SysbenchSet
	opt    SysbenchOptions
	compat bool
	fs     *FileSet
	warns  []string
	// qps holds each DBMS's sb.r.qps line by test suffix, the input of the
	// summaries that read those files.
	qps map[string]map[string]string
}

func (t *sbTables) warnf(format string, args ...any) {
	t.warns = append(t.warns, fmt.Sprintf(format, args...))
}

// threadsOf lists the thread counts of a test as run.sh looped over them:
// in compat mode the runs that exist, otherwise every thread count of the
// DBMS, so that a missing one is an NA cell.
func (t *sbTables) threadsOf(d *metrics.SysbenchDBMS, sfx string) []int {
	if t.compat {
		return d.Dir.Threads[sfx]
	}
	return d.Dir.AllThreads()
}

func engine(d *metrics.SysbenchDBMS) string {
	for _, r := range d.Results {
		if r.Engine != "" {
			return r.Engine
		}
	}
	return "NA"
}

// perDBMS writes each DBMS's sb.met and sb.r files.
func (t *sbTables) perDBMS() {
	t.qps = map[string]map[string]string{}
	for _, d := range t.set.DBMS {
		t.qps[d.Name] = map[string]string{}
		eng := engine(d)
		for _, r := range d.Results {
			t.fs.line(fmt.Sprintf("%s/sb.met.%s.dop%d", d.Name, r.Test.Sfx, r.Threads), r.HW.MetLines()...)
		}
		if d.Load != nil {
			t.fs.line(d.Name+"/sb.prepare.met."+d.Load.Sfx, d.Load.HW.MetLines()...)
		}
		for _, test := range d.Dir.Tests {
			var rs []*metrics.SysbenchResult
			for _, nt := range t.threadsOf(d, test.Sfx) {
				rs = append(rs, d.Result(test.Sfx, nt))
			}
			for m, name := range metrics.RMetrics {
				line := metrics.RLine(m, rs, eng, test, t.compat)
				t.fs.line(d.Name+"/sb.r."+name+"."+test.Sfx, line)
				if m == metrics.RQPS {
					t.qps[d.Name][test.Sfx] = line
				}
			}
		}
	}
}

// lsrt orders names as `ls -rt` lists them: oldest first; equal times in
// reverse name order (ls reverses its whole comparison).
func lsrt(names []string, mtime func(string) time.Time) {
	sort.SliceStable(names, func(i, j int) bool {
		a, b := mtime(names[i]), mtime(names[j])
		if !a.Equal(b) {
			return a.Before(b)
		}
		return names[i] > names[j]
	})
}

// mtimeOf returns the modification time of a derived file of d, or, when
// the folder does not hold it (the tables recompute it), that of the newest
// file it was computed from.
func mtimeOf(d *parse.SysbenchDir, name string, from ...string) time.Time {
	if m, ok := d.ModTime[name]; ok {
		return m
	}
	var best time.Time
	for _, f := range from {
		if m, ok := d.ModTime[f]; ok && m.After(best) {
			best = m
		}
	}
	return best
}

// runOf is one run of the base DBMS with its sb.met name.
type runOf struct {
	test parse.SysbenchTest
	nt   int
}

func (r runOf) met() string { return fmt.Sprintf("sb.met.%s.dop%d", r.test.Sfx, r.nt) }

// oMet writes o.met.<tag>.dop<nt> (sum_met.sh with dop nt).
func (t *sbTables) oMet(nt int) {
	base := t.set.Base()
	name := fmt.Sprintf("o.met.%s.dop%d", t.opt.Tag, nt)
	var lines []string
	if base.Load != nil {
		var others []metrics.OMetRow
		for _, d := range t.set.DBMS[1:] {
			row := metrics.OMetRow{DBMS: d.Name}
			if d.Load != nil && d.Load.Sfx == base.Load.Sfx {
				row.HW = &d.Load.HW
			} else {
				t.warnf("%s: %s has no load step %s", name, d.Name, base.Load.Sfx)
			}
			others = append(others, row)
		}
		lines = append(lines, metrics.OMetBlock("sb.prepare.met."+base.Load.Sfx, metrics.OMetRow{DBMS: base.Name, HW: &base.Load.HW}, others, t.compat)...)
	}
	var runs []runOf
	if t.compat {
		// sum_met.sh: every run at this dop but point-query.warm and scan,
		// then every scan run at any dop, each list by modification time.
		var plain, scans []runOf
		for _, r := range base.Results {
			ro := runOf{r.Test, r.Threads}
			switch n := ro.met(); {
			case strings.Contains(n, "scan"):
				scans = append(scans, ro)
			case r.Threads == nt && !strings.Contains(n, "point-query.warm"):
				plain = append(plain, ro)
			}
		}
		for _, l := range [][]runOf{plain, scans} {
			names := map[string]runOf{}
			var keys []string
			for _, r := range l {
				names[r.met()] = r
				keys = append(keys, r.met())
			}
			lsrt(keys, func(n string) time.Time {
				r := names[n]
				return mtimeOf(base.Dir, n, fmt.Sprintf("sb.o.%s.dop%d", r.test.Sfx, r.nt))
			})
			for _, k := range keys {
				runs = append(runs, names[k])
			}
		}
	} else {
		for _, test := range t.set.Tests {
			if test.Phase == parse.Warm || test.Phase == parse.WarmPre {
				continue
			}
			runs = append(runs, runOf{test, nt})
		}
	}
	for _, r := range runs {
		b := base.Result(r.test.Sfx, r.nt)
		var brow metrics.OMetRow
		brow.DBMS = base.Name
		if b != nil {
			brow.HW = &b.HW
		} else {
			t.warnf("%s: %s: the base DBMS %s has no run with %d threads", name, r.test.Sfx, base.Name, r.nt)
		}
		var others []metrics.OMetRow
		for _, d := range t.set.DBMS[1:] {
			row := metrics.OMetRow{DBMS: d.Name}
			if o := d.Result(r.test.Sfx, r.nt); o != nil {
				row.HW = &o.HW
			} else {
				t.warnf("%s: %s has no %s", name, d.Name, r.met())
			}
			others = append(others, row)
		}
		lines = append(lines, metrics.OMetBlock(r.met(), brow, others, t.compat)...)
	}
	t.fs.line(name, lines...)
}

var reScanName = regexp.MustCompile(`.scan.`)

// qpsFiles lists the base's sb.r.qps files as sumr.sh does: by modification
// time without point-query.warm (compat), or in run order without warm-up
// runs.
func (t *sbTables) qpsFiles() []parse.SysbenchTest {
	base := t.set.Base()
	var out []parse.SysbenchTest
	if t.compat {
		byName := map[string]parse.SysbenchTest{}
		var names []string
		for _, test := range base.Dir.Tests {
			n := "sb.r.qps." + test.Sfx
			if strings.Contains(n, "point-query.warm") {
				continue
			}
			byName[n] = test
			names = append(names, n)
		}
		lsrt(names, func(n string) time.Time {
			var from []string
			for _, nt := range base.Dir.Threads[byName[n].Sfx] {
				from = append(from, fmt.Sprintf("sb.o.%s.dop%d", byName[n].Sfx, nt))
			}
			return mtimeOf(base.Dir, n, from...)
		})
		for _, n := range names {
			out = append(out, byName[n])
		}
		return out
	}
	for _, test := range t.set.Tests {
		if test.Phase != parse.Warm && test.Phase != parse.WarmPre {
			out = append(out, test)
		}
	}
	return out
}

// ncols is sumr.sh's column count: the number of thread counts.
func (t *sbTables) ncols() int { return max(len(t.set.Threads), 1) }

// loadIPS is token 10 of the Load seconds line of a DBMS, "" without one.
func loadIPS(d *metrics.SysbenchDBMS, sfx string) (string, bool) {
	if d.Load == nil || d.Load.Sfx != sfx {
		return "", false
	}
	return d.Load.IPSText, d.Load.IPSText != ""
}

// qpsCells returns the first n values of a DBMS's sb.r.qps line for a test
// as sumr.sh reads them (compat: `cut -f 1-n`, then blank-separated fields),
// or QPS values at each thread count (default, NA when missing).
func (t *sbTables) qpsCells(d *metrics.SysbenchDBMS, test parse.SysbenchTest, n int) (cut string, cells []string, ok bool) {
	if t.compat {
		line, ok := t.qps[d.Name][test.Sfx]
		if !ok {
			return "", make([]string, n), false
		}
		cut = metrics.CutFields(line, n)
		for i := 1; i <= n; i++ {
			cells = append(cells, metrics.Field(cut, i))
		}
		return cut, cells, true
	}
	for _, nt := range t.set.Threads[:min(n, len(t.set.Threads))] {
		c := "NA"
		if r := d.Result(test.Sfx, nt); r != nil && r.QPS.OK() {
			c = r.QPS.Text
		}
		cells = append(cells, c)
	}
	return strings.Join(cells, "\t"), cells, true
}

func (t *sbTables) ucols(test parse.SysbenchTest) int {
	if reScanName.MatchString("sb.r.qps." + test.Sfx) {
		return 1
	}
	return t.ncols()
}

// sumr writes o.qps.{abs,rel}.<tag> in the current wide layout and in the
// January 2021 per-file blocks.
func (t *sbTables) sumr() {
	base := t.set.Base()
	others := t.set.DBMS[1:]
	files := t.qpsFiles()
	var abs, rel, abs21, rel21 []string
	var hdr []string
	for i, d := range t.set.DBMS {
		abs = append(abs, fmt.Sprintf("db_%d =\t%s", i+1, d.Name))
		hdr = append(hdr, "db_"+strconv.Itoa(i+1))
	}
	abs = append(abs, "", strings.Join(hdr, "\t"))
	rel = append(rel, abs...)
	if base.Load != nil {
		sfx := base.Load.Sfx
		basef := "sb.prepare.o." + sfx
		bv, _ := loadIPS(base, sfx)
		a := bv
		r := "1.00"
		abs21 = append(abs21, basef, bv+"\t"+base.Name)
		rel21 = append(rel21, basef)
		for _, d := range others {
			v, ok := loadIPS(d, sfx)
			ratio := t.loadRatio(v, ok, bv)
			if ok || !t.compat {
				if !ok {
					v = "NA"
				}
				a += "\t" + v
				abs21 = append(abs21, v+"\t"+d.Name)
			}
			r += "\t" + ratio
			rel21 = append(rel21, ratio+"\t"+d.Name)
		}
		abs = append(abs, a+"\t"+basef)
		rel = append(rel, r+"\t"+basef)
		abs21 = append(abs21, "")
		rel21 = append(rel21, "")
	}
	for _, test := range files {
		basef := "sb.r.qps." + test.Sfx
		n := t.ucols(test)
		bcut, bcells, _ := t.qpsCells(base, test, n)
		a, r := bcut, "1.00"
		abs21 = append(abs21, basef, bcut+"\t"+base.Name)
		rel21 = append(rel21, basef)
		for _, d := range others {
			cut, cells, ok := t.qpsCells(d, test, n)
			if ok {
				a += "\t" + cut
				abs21 = append(abs21, cut+"\t"+d.Name)
			} else {
				t.warnf("o.qps: %s has no %s", d.Name, basef)
			}
			// The January 2021 layout printed "1" and "inf" with print,
			// which adds a newline: the row breaks there.
			var row strings.Builder
			for c := range n {
				x := t.ratioCell(cells[c], bcells[c])
				r += "\t" + x
				if t.compat && (x == "1" || x == "inf") {
					row.WriteString(x + "\t\n")
				} else {
					row.WriteString(x + "\t")
				}
			}
			row.WriteString(d.Name)
			rel21 = append(rel21, strings.Split(row.String(), "\n")...)
		}
		abs = append(abs, a+"\t"+basef)
		rel = append(rel, r+"\t"+basef)
		abs21 = append(abs21, "")
		rel21 = append(rel21, "")
	}
	tag := t.opt.Tag
	t.fs.line("o.qps.abs."+tag, abs...)
	t.fs.line("o.qps.rel."+tag, rel...)
	t.fs.line("o.qps.abs."+tag+".jan21", abs21...)
	t.fs.line("o.qps.rel."+tag+".jan21", rel21...)
}

func (t *sbTables) loadRatio(v string, ok bool, base string) string {
	if t.compat {
		return metrics.SumrLoadRatio(v, base)
	}
	if !ok || base == "" {
		return "NA"
	}
	return metrics.SBRatio(value(v), value(base)).Text
}

func (t *sbTables) ratioCell(o, b string) string {
	if t.compat {
		return metrics.SumrRatio(o, b)
	}
	return metrics.SBRatio(value(o), value(b)).Text
}

// value turns a printed cell back into a SBValue; "NA" stays NA.
func value(s string) metrics.SBValue {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return metrics.SBValue{Text: "NA", Why: "no value"}
	}
	return metrics.SBValue{V: v, Text: s}
}

// sumQps writes sum.<tag> (sum_qps.sh): the first value of every sb.r.qps
// line, pasted by position in compat mode, joined by test otherwise.
func (t *sbTables) sumQps() {
	var out []string
	var hdr []string
	for i, d := range t.set.DBMS {
		out = append(out, fmt.Sprintf("col-%d : %s", i+1, d.Name))
		hdr = append(hdr, "col-"+strconv.Itoa(i+1))
	}
	out = append(out, "", strings.Join(hdr, "\t"))
	if t.compat {
		cols := make([][]string, len(t.set.DBMS))
		var labels []string
		for i, d := range t.set.DBMS {
			for _, test := range sortedTests(d.Dir.Tests) {
				line := t.qps[d.Name][test.Sfx]
				cols[i] = append(cols[i], metrics.Field(line, 1))
				if i == 0 {
					var b strings.Builder
					for _, f := range strings.Fields(line)[2:] {
						b.WriteString(f + " ")
					}
					labels = append(labels, b.String())
				}
			}
		}
		out = append(out, paste("\t", append(cols, labels)...)...)
	} else {
		for _, test := range t.qpsFiles() {
			var cells []string
			for _, d := range t.set.DBMS {
				_, c, _ := t.qpsCells(d, test, 1)
				cells = append(cells, c[0])
			}
			out = append(out, strings.Join(cells, "\t")+"\t"+engine(t.set.Base())+" "+test.Label())
		}
	}
	t.fs.line("sum."+t.opt.Tag, out...)
}

// sortedTests orders tests by their sb.r.qps file names in byte order, as
// `ls | sort` with LC_ALL=C and shell globs list them.
func sortedTests(tests []parse.SysbenchTest) []parse.SysbenchTest {
	out := append([]parse.SysbenchTest(nil), tests...)
	sort.Slice(out, func(i, j int) bool { return out[i].Sfx < out[j].Sfx })
	return out
}

// paste joins columns line by line as paste(1): shorter columns give empty
// cells.
func paste(sep string, cols ...[]string) []string {
	n := 0
	for _, c := range cols {
		n = max(n, len(c))
	}
	out := make([]string, n)
	for i := range n {
		cells := make([]string, len(cols))
		for j, c := range cols {
			if i < len(c) {
				cells[j] = c[i]
			}
		}
		out[i] = strings.Join(cells, sep)
	}
	return out
}

var reWrites = regexp.MustCompile(`delete|insert|update|write`)

// qpsGroup is sum_qps_csv.sh's selection of sb.r.qps lines for a group.
func qpsGroup(group, line string, nopre bool) bool {
	if nopre && group != "write" && strings.Contains(line, "pre") {
		return false
	}
	switch group {
	case "point":
		return strings.Contains(line, "point") && !strings.Contains(line, "warm")
	case "range":
		return !strings.Contains(line, "point") && !reWrites.MatchString(line)
	}
	return reWrites.MatchString(line)
}

// qpsCSV writes qps.{abs,rel}.<tag>.{tsv,csv} (sum_qps_csv.sh, or its
// _nopre variant as qps.*.<tag>.nopre.*).
func (t *sbTables) qpsCSV(nopre bool) {
	name := t.opt.Tag
	if nopre {
		name += ".nopre"
	}
	dbms := t.set.DBMS
	var inAbs, inRel []string
	var hAbs, hRel []string
	for i, d := range dbms {
		inAbs = append(inAbs, fmt.Sprintf("col-%d : %s", i+1, d.Name))
		hAbs = append(hAbs, "col-"+strconv.Itoa(i+1))
		if i == 0 {
			inRel = append(inRel, "Relative to: "+d.Name)
		} else {
			inRel = append(inRel, fmt.Sprintf("col-%d : %s", i, d.Name))
			hRel = append(hRel, "col-"+strconv.Itoa(i))
		}
	}
	inAbs, inRel = append(inAbs, ""), append(inRel, "")
	tsvAbs := append(append([]string{}, inAbs...), strings.Join(hAbs, "\t"))
	tsvRel := append(append([]string{}, inRel...), strings.Join(hRel, "\t"))
	var csvAbs, csvRel []string
	for _, g := range []string{"point", "range", "write"} {
		labels, cols := t.qpsGroupCols(g, nopre)
		for _, sep := range []string{"\t", ","} {
			abs := paste(sep, cols...)
			var rel []string
			for _, l := range abs {
				if r, ok := t.relRow(l, sep); ok {
					rel = append(rel, r)
				}
			}
			if sep == "\t" {
				tsvAbs = append(tsvAbs, paste("\t", abs, labels)...)
				tsvRel = append(tsvRel, paste("\t", rel, labels)...)
			} else {
				csvAbs = append(csvAbs, paste(",", labels, abs)...)
				csvRel = append(csvRel, paste(",", labels, rel)...)
			}
		}
	}
	t.fs.line("qps.abs."+name+".tsv", tsvAbs...)
	t.fs.line("qps.rel."+name+".tsv", tsvRel...)
	t.fs.touch("qps.abs." + name + ".csv")
	t.fs.line("qps.abs."+name+".csv", csvAbs...)
	t.fs.touch("qps.rel." + name + ".csv")
	t.fs.line("qps.rel."+name+".csv", csvRel...)
}

// qpsGroupCols returns the labels and, per DBMS, the values of one group:
// compat takes each DBMS's own lines in sorted file order (pasted by
// position later); otherwise the tests of the base DBMS's list, in run
// order, with NA where a DBMS lacks one.
func (t *sbTables) qpsGroupCols(g string, nopre bool) ([]string, [][]string) {
	cols := make([][]string, len(t.set.DBMS))
	var labels []string
	if t.compat {
		for i, d := range t.set.DBMS {
			for _, test := range sortedTests(d.Dir.Tests) {
				line := t.qps[d.Name][test.Sfx]
				if !qpsGroup(g, line, nopre) {
					continue
				}
				cols[i] = append(cols[i], metrics.Field(line, 1))
				if i == 0 {
					labels = append(labels, strings.Join(strings.Fields(line)[2:], "_"))
				}
			}
		}
		return labels, cols
	}
	eng := engine(t.set.Base())
	for _, test := range t.qpsFiles() {
		line := eng + " " + test.Label()
		if !qpsGroup(g, test.Type, nopre) || test.Phase == parse.Warm || test.Phase == parse.WarmPre {
			continue
		}
		labels = append(labels, strings.ReplaceAll(line, " ", "_"))
		for i, d := range t.set.DBMS {
			_, c, _ := t.qpsCells(d, test, 1)
			cols[i] = append(cols[i], c[0])
		}
	}
	return labels, cols
}

// relRow is the awk program of sum_qps_csv.sh: each value after the first
// divided by the first, "%.2f", no zero check; a row with one value prints
// nothing at all (not even a newline).
func (t *sbTables) relRow(l, sep string) (string, bool) {
	var f []string
	if sep == "," {
		f = strings.Split(l, ",")
	} else {
		f = strings.Fields(l)
	}
	if !t.compat {
		f = strings.Split(l, sep)
	}
	if len(f) < 2 {
		return "", false
	}
	var out []string
	for _, c := range f[1:] {
		if t.compat {
			out = append(out, metrics.AwkDiv(c, f[0]))
		} else {
			out = append(out, metrics.SBRatio(value(c), value(f[0])).Text)
		}
	}
	return strings.Join(out, sep), true
}

// preVsPostPairs are the fixed test pairs of pre_vs_post.sh.
var preVsPostPairs = []string{
	"point-query.range100", "points-covered-pk.range100", "points-covered-si.range100",
	"points-notcovered-pk.range100", "points-notcovered-si.range100", "random-points.range1000",
	"random-points.range100", "random-points.range10", "range-covered-pk.range100",
	"range-covered-si.range100", "range-notcovered-pk.range100", "range-notcovered-si.range100",
	"read-only.range10000", "read-only.range100", "read-only.range10",
}

// preVsPost writes pre_vs_post.<dbms>.{tsv,csv} for every DBMS that ran a
// test both before (.pre) and after the writes. Compat mode lists the
// script's fixed 15 pairs; otherwise every pre test and its post run.
func (t *sbTables) preVsPost() {
	for _, d := range t.set.DBMS {
		hasPre := false
		for _, test := range d.Dir.Tests {
			hasPre = hasPre || test.Phase == parse.Pre
		}
		if !hasPre {
			continue
		}
		var tsv, csv []string
		add := func(pre, post, ratio, name string) {
			tsv = append(tsv, pre+"\t"+post+"\t"+ratio+"\t"+name)
			csv = append(csv, name+","+ratio+","+pre+","+post)
		}
		if t.compat {
			first := func(key string) string {
				for _, test := range d.Dir.Tests {
					if test.Key() == key && test.PK == d.Dir.PK {
						return metrics.Field(t.qps[d.Name][test.Sfx], 1)
					}
				}
				return ""
			}
			for _, post := range preVsPostPairs {
				i := strings.LastIndex(post, ".range")
				pre := post[:i] + ".pre" + post[i:]
				a, b := first(pre), first(post)
				add(a, b, metrics.SumrLoadRatio(b, a), post)
			}
		} else {
			nt := t.set.Threads[0]
			for _, test := range d.Dir.Tests {
				if test.Phase != parse.Pre {
					continue
				}
				postSfx := fmt.Sprintf("%s.range%d.pk%d", test.Base, test.Range, test.PK)
				pre, post := qpsAt(d, test.Sfx, nt), qpsAt(d, postSfx, nt)
				add(pre.Text, post.Text, metrics.SBRatio(post, pre).Text, fmt.Sprintf("%s.range%d", test.Base, test.Range))
			}
		}
		t.fs.line("pre_vs_post."+d.Name+".tsv", tsv...)
		t.fs.line("pre_vs_post."+d.Name+".csv", csv...)
	}
}

func qpsAt(d *metrics.SysbenchDBMS, sfx string, nt int) metrics.SBValue {
	r := d.Result(sfx, nt)
	if r == nil {
		return metrics.SBValue{Text: "NA", Why: sfx + " did not run"}
	}
	return r.QPS
}

// groups writes qps.groups.<tag>.dop<nt>: per group, the average, median,
// minimum, maximum and standard deviation of each DBMS's QPS relative to
// the base.
func (t *sbTables) groups() {
	if len(t.set.DBMS) < 2 {
		return
	}
	groups := metrics.DefaultSysbenchGroups(t.set.Tests, t.opt.GroupSplit)
	if t.opt.Groups != nil {
		var warns []string
		groups, warns = metrics.CustomSysbenchGroups(t.opt.Groups, t.set.Tests)
		t.warns = append(t.warns, warns...)
	}
	others := t.set.DBMS[1:]
	for _, nt := range t.set.Threads {
		stats := t.set.GroupStats(groups, nt)
		var out []string
		for gi, g := range groups {
			row := stats[gi*len(others) : (gi+1)*len(others)]
			hdr := []string{g.Name}
			for _, s := range row {
				hdr = append(hdr, s.DBMS)
				t.warns = append(t.warns, s.Warnings...)
			}
			out = append(out, strings.Join(hdr, "\t"))
			for _, stat := range []struct {
				name string
				get  func(metrics.GroupStats) metrics.SBValue
			}{
				{"Average", func(s metrics.GroupStats) metrics.SBValue { return s.Average }},
				{"Median", func(s metrics.GroupStats) metrics.SBValue { return s.Median }},
				{"Min", func(s metrics.GroupStats) metrics.SBValue { return s.Min }},
				{"Max", func(s metrics.GroupStats) metrics.SBValue { return s.Max }},
				{"Stddev", func(s metrics.GroupStats) metrics.SBValue { return s.Stddev }},
			} {
				cells := []string{stat.name}
				for _, s := range row {
					cells = append(cells, stat.get(s).Text)
				}
				out = append(out, strings.Join(cells, "\t"))
			}
			cells := []string{"Tests"}
			for _, s := range row {
				cells = append(cells, strconv.Itoa(len(s.Ratios)))
			}
			out = append(out, strings.Join(cells, "\t"), "")
		}
		t.fs.line(fmt.Sprintf("qps.groups.%s.dop%d", t.opt.Tag, nt), out...)
	}
}

// perQuery writes per-query.<tag>.dop<nt>: for each test a block with one
// row per DBMS: QPS, average and percentile latency, and the user columns.
func (t *sbTables) perQuery() {
	for _, nt := range t.set.Threads {
		tab, warns := t.set.EngineTable(nt, t.opt.Extra)
		t.warns = append(t.warns, warns...)
		var out []string
		for _, b := range tab.Blocks {
			out = append(out, b.Test.Label()+" ("+b.Test.Sfx+")",
				strings.Join(append([]string{"dbms", "qps", "lat(ms)", "lat" + b.PercentileLabel() + "(ms)"}, tab.Extra...), "\t"))
			for _, r := range b.Rows {
				out = append(out, strings.Join(append([]string{r.DBMS, r.QPS.Text, r.LatAvg.Text, r.LatPct.Text}, r.Extra...), "\t"))
			}
			out = append(out, "")
		}
		t.fs.line(fmt.Sprintf("per-query.%s.dop%d", t.opt.Tag, nt), out...)
	}
}
