package compat

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// File is one file the compat edge writes: its name relative to the
// output folder and its lines, each ended by a newline when written. A file
// without lines is an empty file.
type File struct {
	Name  string
	Lines []string
}

// SysbenchTables writes the sysbench summaries byte for byte as the
// original scripts did, tag being their <tag> argument:
//
//	<dbms>/sb.met.<sfx>.dop<nt>, <dbms>/sb.prepare.met.<sfx0>   an.sh
//	<dbms>/sb.r.{qps,trx,rtavg,rtmax,rt95}.<sfx>               run.sh
//	o.met.<tag>.dop<nt>                                         sum_met.sh
//	o.qps.{abs,rel}.<tag>, o.qps.{abs,rel}.<tag>.jan21          sumr.sh
//	sum.<tag>                                                   sum_qps.sh
//	qps.{abs,rel}.<tag>[.nopre].{tsv,csv}                       sum_qps_csv.sh (and _nopre)
//	pre_vs_post.<dbms>.{tsv,csv}                                pre_vs_post.sh
//
// The summaries read the printed sb.r and sb.met tokens, list files by
// modification time or sorted name, and paste DBMS by position. It returns
// the files in the order written and the warnings. coll is the collation
// of the locale the scripts ran in, which ordered sorted names and broke
// ties of modification times.
func SysbenchTables(sb *Sysbench, tag string, coll Collation) ([]File, []string) {
	t := &tables{sb: sb, set: sb.Set, tag: tag, coll: coll}
	t.perDBMS()
	for _, nt := range t.set.Threads {
		t.oMet(nt)
	}
	t.oMetDops()
	t.sumr()
	t.sumQPS()
	t.qpsCSV(false)
	t.qpsCSV(true)
	t.preVsPost()
	return t.files, t.warns
}

type tables struct {
	sb    *Sysbench
	set   *metrics.SysbenchSet
	tag   string
	coll  Collation
	files []File
	warns []string
	// qps holds each DBMS's sb.r.qps line by test suffix, the input of the
	// summaries that read those files.
	qps map[string]map[string]string
}

func (t *tables) file(name string, lines ...string) {
	t.files = append(t.files, File{Name: name, Lines: lines})
}

func (t *tables) warnf(format string, args ...any) {
	t.warns = append(t.warns, fmt.Sprintf(format, args...))
}

func engine(d *metrics.SysbenchDBMS) string {
	if e := d.Engine(); e != "" {
		return e
	}
	return "NA"
}

// perDBMS writes each DBMS's sb.met and sb.r files. An sb.r line has a value
// for each run of the test, in thread order, and leaves out a value
// sysbench did not print: the later ones shift left, as in run.sh's output.
func (t *tables) perDBMS() {
	t.qps = map[string]map[string]string{}
	for _, d := range t.set.DBMS {
		t.qps[d.Name] = map[string]string{}
		eng := engine(d)
		for _, r := range d.Results {
			t.file(fmt.Sprintf("%s/sb.met.%s.dop%d", d.Name, r.Test.Sfx, r.Threads), t.sb.runs[r].met.lines()...)
		}
		if d.Load != nil {
			t.file(d.Name+"/sb.prepare.met."+d.Load.Sfx, t.sb.loads[d.Load].lines()...)
		}
		for _, test := range d.Dir.Tests {
			for m, name := range rMetrics {
				var b strings.Builder
				for _, nt := range d.Dir.Threads[test.Sfx] {
					r := d.Result(test.Sfx, nt)
					if r == nil || t.sb.runs[r].r[m] == "" {
						continue
					}
					b.WriteString(t.sb.runs[r].r[m] + "\t")
				}
				b.WriteString(eng + " " + test.Label())
				line := b.String()
				t.file(d.Name+"/sb.r."+name+"."+test.Sfx, line)
				if m == rQPS {
					t.qps[d.Name][test.Sfx] = line
				}
			}
		}
	}
}

// runOf is one run of the base DBMS with its sb.met name.
type runOf struct {
	test parse.SysbenchTest
	nt   int
}

func (r runOf) met() string { return fmt.Sprintf("sb.met.%s.dop%d", r.test.Sfx, r.nt) }

// oMetRow is one DBMS of an o.met block: its sb.met, or nil when the DBMS
// has no such file.
type oMetRow struct {
	dbms string
	met  *metText
}

// oMet writes o.met.<tag>.dop<nt> (sum_met.sh with dop nt): the prepare
// block, then every run at this dop but point-query.warm and scan, then
// every scan run at any dop, each list by modification time.
func (t *tables) oMet(nt int) {
	base := t.set.Base()
	name := fmt.Sprintf("o.met.%s.dop%d", t.tag, nt)
	var lines []string
	if base.Load != nil {
		var others []oMetRow
		for _, d := range t.set.DBMS[1:] {
			row := oMetRow{dbms: d.Name}
			if d.Load != nil && d.Load.Sfx == base.Load.Sfx {
				row.met = t.sb.loads[d.Load]
			} else {
				t.warnf("%s: %s has no load step %s", name, d.Name, base.Load.Sfx)
			}
			others = append(others, row)
		}
		lines = append(lines, oMetBlock("sb.prepare.met."+base.Load.Sfx, oMetRow{base.Name, t.sb.loads[base.Load]}, others)...)
	}
	for _, r := range t.metRuns(nt) {
		brow := oMetRow{dbms: base.Name}
		if b := base.Result(r.test.Sfx, r.nt); b != nil {
			brow.met = &t.sb.runs[b].met
		}
		var others []oMetRow
		for _, d := range t.set.DBMS[1:] {
			row := oMetRow{dbms: d.Name}
			if o := d.Result(r.test.Sfx, r.nt); o != nil {
				row.met = &t.sb.runs[o].met
			} else {
				t.warnf("%s: %s has no %s", name, d.Name, r.met())
			}
			others = append(others, row)
		}
		lines = append(lines, oMetBlock(r.met(), brow, others)...)
	}
	t.file(name, lines...)
}

// oMetDops writes o.met.<tag>.dop<n0>.dop<nt> for the smallest thread
// count n0 and every other count nt: sum_met_dop.sh run as
// `sum_met_dop.sh sb.met <base> n0 nt <every DBMS>`, which compares the
// base's runs at n0 with each DBMS's run of the same name with its first
// "dop<n0>" replaced by "dop<nt>" (so a scan run of another count, or
// dop16 with n0 1, is compared as the script did).
func (t *tables) oMetDops() {
	if len(t.set.Threads) < 2 {
		return
	}
	n0 := slices.Min(t.set.Threads)
	for _, nt := range t.set.Threads {
		if nt != n0 {
			t.oMetDop(n0, nt)
		}
	}
}

func (t *tables) oMetDop(n0, nt int) {
	base := t.set.Base()
	name := fmt.Sprintf("o.met.%s.dop%d.dop%d", t.tag, n0, nt)
	// Each DBMS's sb.met texts by file name.
	mets := map[*metrics.SysbenchDBMS]map[string]*metText{}
	for _, d := range t.set.DBMS {
		m := map[string]*metText{}
		for _, r := range d.Results {
			m[runOf{r.Test, r.Threads}.met()] = &t.sb.runs[r].met
		}
		if d.Load != nil {
			m["sb.prepare.met."+d.Load.Sfx] = t.sb.loads[d.Load]
		}
		mets[d] = m
	}
	block := func(basename, base2 string) []string {
		brow := oMetRow{dbms: base.Name, met: mets[base][basename]}
		var others []oMetRow
		for _, d := range t.set.DBMS {
			row := oMetRow{dbms: d.Name, met: mets[d][base2]}
			if row.met == nil {
				t.warnf("%s: %s has no %s", name, d.Name, base2)
			}
			others = append(others, row)
		}
		lines := oMetBlock(basename, brow, others)
		return append(lines[:1], append([]string{"base1 " + basename + " and base2 " + base2}, lines[1:]...)...)
	}
	var lines []string
	if base.Load != nil {
		n := "sb.prepare.met." + base.Load.Sfx
		lines = append(lines, block(n, strings.Replace(n, fmt.Sprintf("dop%d", n0), fmt.Sprintf("dop%d", nt), 1))...)
	}
	for _, r := range t.metRuns(n0) {
		k := r.met()
		lines = append(lines, block(k, strings.Replace(k, fmt.Sprintf("dop%d", n0), fmt.Sprintf("dop%d", nt), 1))...)
	}
	t.file(name, lines...)
}

// metRuns are the base's runs as sum_met.sh and sum_met_dop.sh list their
// sb.met files: those at nt threads but point-query.warm and scans, then
// the scans of every thread count, each list by modification time.
func (t *tables) metRuns(nt int) []runOf {
	base := t.set.Base()
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
	var runs []runOf
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
		}, t.coll)
		for _, k := range keys {
			runs = append(runs, names[k])
		}
	}
	return runs
}

// oMetBlock renders one block of o.met from the printed sb.met lines 3
// and 6, split into fields as awk does (an empty sample count shifts the
// later fields left): the file name, the absolute rows of the base and
// each other DBMS (a missing file drops its row), and the relative rows (a
// missing file divides by nothing: inf).
func oMetBlock(basename string, base oMetRow, others []oMetRow) []string {
	out := []string{basename, "--- absolute", "cpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms"}
	for _, r := range append([]oMetRow{base}, others...) {
		if m := r.met; m != nil {
			io, vm := m.line(3), m.line(6)
			out = append(out, strings.Join([]string{field(vm, 5), field(vm, 4), awkG(field(io, 6)), awkG(field(io, 7)), awkG(field(io, 8)), awkF0(field(io, 9)), r.dbms}, "\t"))
		}
	}
	out = append(out, "--- relative to first result")
	tok := func(m *metText) [6]string {
		if m == nil {
			return [6]string{}
		}
		io, vm := m.line(3), m.line(6)
		return [6]string{field(vm, 5), field(vm, 4), field(io, 6), field(io, 7), field(io, 8), awkF0(field(io, 9))}
	}
	b := tok(base.met)
	for _, r := range others {
		o := tok(r.met)
		var rel [6]string
		for i := range rel {
			rel[i] = echoRatio(o[i], b[i])
		}
		out = append(out, rel[0]+"\t\t"+strings.Join(rel[1:], "\t")+"\t"+r.dbms)
	}
	return append(out, "")
}

var reScanName = regexp.MustCompile(`.scan.`)

// qpsFiles lists the base's sb.r.qps files as sumr.sh does: by
// modification time, without point-query.warm.
func (t *tables) qpsFiles() []parse.SysbenchTest {
	base := t.set.Base()
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
	}, t.coll)
	out := make([]parse.SysbenchTest, 0, len(names))
	for _, n := range names {
		out = append(out, byName[n])
	}
	return out
}

// ncols is sumr.sh's column count: the number of thread counts.
func (t *tables) ncols() int { return max(len(t.set.Threads), 1) }

// loadIPS is token 10 of the Load seconds line of a DBMS, "" without one.
func (t *tables) loadIPS(d *metrics.SysbenchDBMS, sfx string) (string, bool) {
	if d.Load == nil || d.Load.Sfx != sfx {
		return "", false
	}
	ips := t.sb.loads[d.Load].rate
	return ips, ips != ""
}

// qpsCells returns the first n values of a DBMS's sb.r.qps line for a test
// as sumr.sh reads them: `cut -f 1-n`, then blank-separated fields.
func (t *tables) qpsCells(d *metrics.SysbenchDBMS, test parse.SysbenchTest, n int) (cut string, cells []string, ok bool) {
	line, ok := t.qps[d.Name][test.Sfx]
	if !ok {
		return "", make([]string, n), false
	}
	cut = cutFields(line, n)
	for i := 1; i <= n; i++ {
		cells = append(cells, field(cut, i))
	}
	return cut, cells, true
}

func (t *tables) ucols(test parse.SysbenchTest) int {
	if reScanName.MatchString("sb.r.qps." + test.Sfx) {
		return 1
	}
	return t.ncols()
}

// sumr writes o.qps.{abs,rel}.<tag> in the current wide layout and in the
// January 2021 per-file blocks.
func (t *tables) sumr() {
	base := t.set.Base()
	others := t.set.DBMS[1:]
	var abs, rel, abs21, rel21 []string
	abs, hdr := Legend(t.set.Names(), "db_%d =\t%s", "db_")
	abs = append(abs, "", strings.Join(hdr, "\t"))
	rel = append(rel, abs...)
	if base.Load != nil {
		sfx := base.Load.Sfx
		basef := "sb.prepare.o." + sfx
		bv, _ := t.loadIPS(base, sfx)
		a, r := bv, "1.00"
		abs21 = append(abs21, basef, bv+"\t"+base.Name)
		rel21 = append(rel21, basef)
		for _, d := range others {
			v, ok := t.loadIPS(d, sfx)
			ratio := echoDiv(v, bv)
			if ok {
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
	for _, test := range t.qpsFiles() {
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
				x := echoRatio(cells[c], bcells[c])
				r += "\t" + x
				if x == "1" || x == "inf" {
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
	t.file("o.qps.abs."+t.tag, abs...)
	t.file("o.qps.rel."+t.tag, rel...)
	t.file("o.qps.abs."+t.tag+".jan21", abs21...)
	t.file("o.qps.rel."+t.tag+".jan21", rel21...)
}

// sumQPS writes sum.<tag> (sum_qps.sh): the first value of every sb.r.qps
// line, each DBMS's files in sorted name order, pasted by position, and
// tokens 3..NF of the base's line.
func (t *tables) sumQPS() {
	out, hdr := Legend(t.set.Names(), "col-%d : %s", "col-")
	out = append(out, "", strings.Join(hdr, "\t"))
	cols := make([][]string, len(t.set.DBMS))
	var labels []string
	for i, d := range t.set.DBMS {
		for _, test := range sortedTests(d.Name, d.Dir.Tests, t.coll) {
			line := t.qps[d.Name][test.Sfx]
			cols[i] = append(cols[i], field(line, 1))
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
	t.file("sum."+t.tag, out...)
}

var reWrites = regexp.MustCompile(`delete|insert|update|write`)

// QPSGroup is sum_qps_csv.sh's selection of tests for a group (point,
// range or write) by the text that names the test: an sb.r.qps line or a
// test type.
func QPSGroup(group, line string, nopre bool) bool {
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

// Legend is the block that opens the sysbench summary files: a line per
// DBMS that names its column (format takes the column number and the
// name) and the column names (col followed by the number). Columns count
// from 1.
func Legend(names []string, format, col string) (lines, header []string) {
	for i, n := range names {
		lines = append(lines, fmt.Sprintf(format, i+1, n))
		header = append(header, col+strconv.Itoa(i+1))
	}
	return lines, header
}

// QPSLegends are the legends of qps.abs and qps.rel: the relative file
// names the base and numbers the others from 1.
func QPSLegends(names []string) (inAbs, hAbs, inRel, hRel []string) {
	inAbs, hAbs = Legend(names, "col-%d : %s", "col-")
	if len(names) > 0 {
		inRel = append([]string{"Relative to: " + names[0]}, inRel...)
		l, h := Legend(names[1:], "col-%d : %s", "col-")
		inRel, hRel = append(inRel, l...), h
	}
	return inAbs, hAbs, inRel, hRel
}

// qpsCSV writes qps.{abs,rel}.<tag>.{tsv,csv} (sum_qps_csv.sh, or its
// _nopre variant as qps.*.<tag>.nopre.*).
func (t *tables) qpsCSV(nopre bool) {
	name := t.tag
	if nopre {
		name += ".nopre"
	}
	inAbs, hAbs, inRel, hRel := QPSLegends(t.set.Names())
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
				if r, ok := relRow(l, sep); ok {
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
	t.file("qps.abs."+name+".tsv", tsvAbs...)
	t.file("qps.rel."+name+".tsv", tsvRel...)
	t.file("qps.abs."+name+".csv", csvAbs...)
	t.file("qps.rel."+name+".csv", csvRel...)
}

// qpsGroupCols returns the labels and, per DBMS, the values of one group:
// each DBMS's own lines in sorted file order, pasted by position later.
func (t *tables) qpsGroupCols(g string, nopre bool) ([]string, [][]string) {
	cols := make([][]string, len(t.set.DBMS))
	var labels []string
	for i, d := range t.set.DBMS {
		for _, test := range sortedTests(d.Name, d.Dir.Tests, t.coll) {
			line := t.qps[d.Name][test.Sfx]
			if !QPSGroup(g, line, nopre) {
				continue
			}
			cols[i] = append(cols[i], field(line, 1))
			if i == 0 {
				labels = append(labels, strings.Join(strings.Fields(line)[2:], "_"))
			}
		}
	}
	return labels, cols
}

// relRow is the awk program of sum_qps_csv.sh: each value after the first
// divided by the first, "%.2f", no zero check; a row with one value prints
// nothing at all (not even a newline).
func relRow(l, sep string) (string, bool) {
	var f []string
	if sep == "," {
		f = strings.Split(l, ",")
	} else {
		f = strings.Fields(l)
	}
	if len(f) < 2 {
		return "", false
	}
	var out []string
	for _, c := range f[1:] {
		out = append(out, awkDiv(c, f[0]))
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

// preVsPost writes pre_vs_post.<dbms>.{tsv,csv} with the script's fixed 15
// pairs for every DBMS that ran a test before the writes (.pre).
func (t *tables) preVsPost() {
	for _, d := range t.set.DBMS {
		hasPre := false
		for _, test := range d.Dir.Tests {
			hasPre = hasPre || test.Phase == parse.Pre
		}
		if !hasPre {
			continue
		}
		first := func(key string) string {
			for _, test := range d.Dir.Tests {
				if test.Key() == key && test.PK == d.Dir.PK {
					return field(t.qps[d.Name][test.Sfx], 1)
				}
			}
			return ""
		}
		var tsv, csv []string
		for _, post := range preVsPostPairs {
			i := strings.LastIndex(post, ".range")
			a, b := first(post[:i]+".pre"+post[i:]), first(post)
			ratio := echoDiv(b, a)
			tsv = append(tsv, a+"\t"+b+"\t"+ratio+"\t"+post)
			csv = append(csv, post+","+ratio+","+a+","+b)
		}
		t.file("pre_vs_post."+d.Name+".tsv", tsv...)
		t.file("pre_vs_post."+d.Name+".csv", csv...)
	}
}
