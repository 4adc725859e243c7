package sbsum

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Options control the summaries.
type Options struct {
	// Tag names the summary files, as the <tag> argument of the original
	// scripts: o.met.<tag>.dop<nt>, sum.<tag>, qps.abs.<tag>.tsv, ...
	// "" means "sb".
	Tag string
	// GroupSplit is the largest default group kept whole (0: the default).
	GroupSplit int
	// Collate is the locale order in which the original summaries listed
	// sorted file names, for compat mode: "en_US" ("" means en_US) or "C".
	Collate string
	// Groups replaces the default point / range / write grouping of the
	// summary statistics (nil: default).
	Groups []parse.SysbenchGroup
	// Extra holds user-supplied per-query columns for the engine table.
	Extra *parse.SysbenchExtra
}

// Tables writes the sysbench summaries of set in the file formats of the
// original scripts:
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
// per-query.<tag>.dop<nt> (QPS, latency and user columns per test). sbc,
// when not nil, is the compat computation of the set, whose edge writes
// the scripts' files byte for byte; the two new tables are written from
// set in both modes.
func Tables(set *metrics.SysbenchSet, sbc *compat.Sysbench, opt Options) ([]fsout.File, []string, error) {
	if len(set.DBMS) == 0 {
		return nil, nil, fmt.Errorf("no sysbench results")
	}
	if opt.Tag == "" {
		opt.Tag = "sb"
	}
	t := &sbTables{set: set, opt: opt, fs: fsout.NewSet()}
	t.warns = append(t.warns, set.Warnings()...)
	var coll compat.Collation
	if sbc != nil {
		var err error
		if coll, err = compat.ParseCollation(cmp.Or(opt.Collate, "en_US")); err != nil {
			return nil, nil, err
		}
	}
	if !set.Grouped() {
		t.write(sbc, coll, true)
		return t.fs.Files(), t.warns, nil
	}
	// A grouped set: the files of each DBMS once, and the summaries of
	// each group, with its own base, as the scripts wrote them when run
	// once per group, under the tag <tag>.g<N>.
	if sbc == nil {
		t.perDBMS()
		t.preVsPost()
	}
	for k, g := range set.Split() {
		gt := &sbTables{set: g, opt: opt, fs: fsout.NewSet()}
		gt.opt.Tag = fmt.Sprintf("%s.g%d", opt.Tag, k+1)
		var gsbc *compat.Sysbench
		if sbc != nil {
			gsbc = sbc.Sub(g)
		}
		gt.write(gsbc, coll, false)
		for _, f := range gt.fs.Files() {
			// Per-DBMS files are the same in every group that has the
			// DBMS: the first is kept.
			t.fs.Put(f.Name, f.Data)
		}
		t.warns = append(t.warns, gt.warns...)
	}
	return t.fs.Files(), t.warns, nil
}

// write writes the summaries of t.set; perDBMS also writes the files of
// each DBMS (sb.met, sb.r, pre_vs_post) in the default mode, which the
// compat edge always writes.
func (t *sbTables) write(sbc *compat.Sysbench, coll compat.Collation, perDBMS bool) {
	if sbc != nil {
		files, warns := compat.SysbenchTables(sbc, t.opt.Tag, coll)
		for _, f := range files {
			t.fs.Line(f.Name, f.Lines...)
		}
		t.warns = append(t.warns, warns...)
	} else {
		if perDBMS {
			t.perDBMS()
		}
		for _, nt := range t.set.Threads {
			t.oMet(nt)
		}
		t.oMetDops()
		t.sumr()
		t.sumQPS()
		t.qpsCSV(false)
		t.qpsCSV(true)
		if perDBMS {
			t.preVsPost()
		}
	}
	t.groups()
	t.perQuery()
}

type sbTables struct {
	set   *metrics.SysbenchSet
	opt   Options
	fs    *fsout.Set
	warns []string
}

// Decimals of the sysbench files: rates as run.sh's %.0f, latencies as
// sysbench printed them (they keep their text), relative values two.
const (
	RateDigits = 0
	LatDigits  = 2
	RelDigits  = 2
)

// The sb.r.<metric> files, in the order run.sh writes them, with the value
// each prints.
var sbRMetrics = []struct {
	name string
	get  func(*metrics.SysbenchResult) metrics.Value
	digs int
}{
	{"qps", func(r *metrics.SysbenchResult) metrics.Value { return r.QPS }, RateDigits},
	{"trx", func(r *metrics.SysbenchResult) metrics.Value { return r.TPS }, RateDigits},
	{"rtavg", func(r *metrics.SysbenchResult) metrics.Value { return r.LatAvg }, LatDigits},
	{"rtmax", func(r *metrics.SysbenchResult) metrics.Value { return r.LatMax }, LatDigits},
	{"rt95", func(r *metrics.SysbenchResult) metrics.Value { return r.LatPct }, LatDigits},
}

func engine(d *metrics.SysbenchDBMS) string {
	if e := d.Engine(); e != "" {
		return e
	}
	return "NA"
}

// metLines renders sb.met (an.sh): iostat and vmstat sample counts,
// averages per second and per operation, and the operation rate.
func metLines(h *metrics.SysbenchHW) []string {
	f := func(v metrics.Value, d int) string { return v.Format(d) }
	return []string{
		"iostat, vmstat normalized by operation rate",
		"samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s",
		strings.Join([]string{strconv.Itoa(h.IostatSamples), f(h.ReadsPerSec, 1), f(h.ReadMBPerSec, 1), f(h.WritesPerSec, 1), f(h.WriteMBPerSec, 1),
			f(h.ReadsPerOp, 3), f(h.ReadKBPerOp, 3), f(h.WriteKBPerOp, 3), f(h.Rate, RateDigits)}, "\t"),
		"",
		"samp\tcs/s\tcpu/s\tcs/o\tcpu/o",
		strings.Join([]string{strconv.Itoa(h.VmstatSamples), f(h.CsPerSec, 0), f(h.CPUPerSec, 1), f(h.CsPerOp, 3), f(h.CPUPerOp, 6)}, "\t"),
	}
}

// perDBMS writes each DBMS's sb.met and sb.r files. An sb.r line has a
// value for every thread count of the DBMS, NA where a run is missing or
// sysbench printed no value.
func (t *sbTables) perDBMS() {
	for _, d := range t.set.DBMS {
		eng := engine(d)
		for _, r := range d.Results {
			t.fs.Line(fmt.Sprintf("%s/sb.met.%s.dop%d", d.Name, r.Test.Sfx, r.Threads), metLines(&r.HW)...)
		}
		if d.Load != nil {
			t.fs.Line(d.Name+"/sb.prepare.met."+d.Load.Sfx, metLines(&d.Load.HW)...)
		}
		for _, test := range d.Dir.Tests {
			threads := d.Dir.AllThreads()
			if test.Warmup() {
				threads = d.Dir.Threads[test.Sfx] // its own, not a thread count of the folder
			}
			for _, m := range sbRMetrics {
				var b strings.Builder
				for _, nt := range threads {
					v := "NA"
					if r := d.Result(test.Sfx, nt); r != nil {
						v = m.get(r).Format(m.digs)
					}
					b.WriteString(v + "\t")
				}
				b.WriteString(eng + " " + test.Label())
				t.fs.Line(d.Name+"/sb.r."+m.name+"."+test.Sfx, b.String())
			}
		}
	}
}

// oMetRow is one DBMS of an o.met block: the HW metrics of the run, or nil
// when the DBMS has no such run.
type oMetRow struct {
	dbms string
	hw   *metrics.SysbenchHW
}

// oMetSpec is one block of o.met: the run's name and the runs of the base
// and the other DBMS (hw nil where a DBMS lacks it).
type oMetSpec struct {
	name   string
	other  string // sum_met_dop.sh: the name of the others' run
	base   oMetRow
	others []oMetRow
}

// oMetSpecs lists the blocks of o.met.<tag>.dop<nt> (sum_met.sh with dop
// nt): the prepare block, then a block per test at this thread count, and
// a warning for every run a DBMS lacks.
func oMetSpecs(set *metrics.SysbenchSet, nt int, file string) ([]oMetSpec, []string) {
	base := set.Base()
	var specs []oMetSpec
	var warns []string
	if base.Load != nil {
		spec := oMetSpec{name: "sb.prepare.met." + base.Load.Sfx, base: oMetRow{base.Name, &base.Load.HW}}
		for _, d := range set.DBMS[1:] {
			row := oMetRow{dbms: d.Name}
			if d.Load != nil && d.Load.Sfx == base.Load.Sfx {
				row.hw = &d.Load.HW
			} else {
				warns = append(warns, fmt.Sprintf("%s: %s has no load step %s", file, d.Name, base.Load.Sfx))
			}
			spec.others = append(spec.others, row)
		}
		specs = append(specs, spec)
	}
	for _, test := range Tests(set) {
		spec := oMetSpec{name: fmt.Sprintf("sb.met.%s.dop%d", test.Sfx, nt), base: oMetRow{dbms: base.Name}}
		if b := base.Result(test.Sfx, nt); b != nil {
			spec.base.hw = &b.HW
		} else {
			warns = append(warns, fmt.Sprintf("%s: %s: the base DBMS %s has no run with %s", file, test.Sfx, base.Name, metrics.Plural(nt, "thread")))
		}
		for _, d := range set.DBMS[1:] {
			row := oMetRow{dbms: d.Name}
			if o := d.Result(test.Sfx, nt); o != nil {
				row.hw = &o.HW
			} else {
				warns = append(warns, fmt.Sprintf("%s: %s has no %s", file, d.Name, spec.name))
			}
			spec.others = append(spec.others, row)
		}
		specs = append(specs, spec)
	}
	return specs, warns
}

// oMet writes o.met.<tag>.dop<nt>.
func (t *sbTables) oMet(nt int) {
	name := fmt.Sprintf("o.met.%s.dop%d", t.opt.Tag, nt)
	specs, warns := oMetSpecs(t.set, nt, name)
	t.warns = append(t.warns, warns...)
	var lines []string
	for _, s := range specs {
		lines = append(lines, oMetBlock(s.name, s.base, s.others)...)
	}
	t.fs.Line(name, lines...)
}

// oMetDops writes o.met.<tag>.dop<n0>.dop<nt> (sum_met_dop.sh): for the
// smallest thread count n0 and each other count nt, the HW use per
// operation of the base's runs at n0 beside every DBMS's same test at nt,
// and their ratios. The prepare step is compared with itself, as the
// script did.
func (t *sbTables) oMetDops() {
	files, warns := oMetDopSpecs(t.set, t.opt.Tag)
	for _, f := range files {
		var lines []string
		for _, s := range f.specs {
			out := oMetBlock(s.name, s.base, s.others)
			lines = append(lines, out[0], "base1 "+s.name+" and base2 "+s.other)
			lines = append(lines, out[1:]...)
		}
		t.fs.Line(f.name, lines...)
	}
	t.warns = append(t.warns, warns...)
}

// oMetDopFile is one o.met.<tag>.dop<n0>.dop<nt>: its blocks, whose others
// are every DBMS's run at nt.
type oMetDopFile struct {
	name  string
	specs []oMetSpec
}

// oMetDopSpecs lists the o.met.<tag>.dop<n0>.dop<nt> files for the smallest
// thread count n0 and every other count nt, and a warning for every run at
// nt a DBMS lacks.
func oMetDopSpecs(set *metrics.SysbenchSet, tag string) ([]oMetDopFile, []string) {
	if len(set.Threads) < 2 {
		return nil, nil
	}
	n0 := slices.Min(set.Threads)
	base := set.Base()
	var files []oMetDopFile
	var warns []string
	for _, nt := range set.Threads {
		if nt == n0 {
			continue
		}
		f := oMetDopFile{name: fmt.Sprintf("o.met.%s.dop%d.dop%d", tag, n0, nt)}
		// spec is a block: the base's run b named name1 beside each DBMS's
		// run of name2, which other finds.
		spec := func(name1, name2 string, b *metrics.SysbenchHW, other func(d *metrics.SysbenchDBMS) *metrics.SysbenchHW) {
			s := oMetSpec{name: name1, other: name2, base: oMetRow{base.Name, b}}
			for _, d := range set.DBMS {
				row := oMetRow{dbms: d.Name, hw: other(d)}
				if row.hw == nil {
					warns = append(warns, fmt.Sprintf("%s: %s has no %s", f.name, d.Name, name2))
				}
				s.others = append(s.others, row)
			}
			f.specs = append(f.specs, s)
		}
		if base.Load != nil {
			n := "sb.prepare.met." + base.Load.Sfx
			spec(n, n, &base.Load.HW, func(d *metrics.SysbenchDBMS) *metrics.SysbenchHW {
				if d.Load == nil || d.Load.Sfx != base.Load.Sfx {
					return nil
				}
				return &d.Load.HW
			})
		}
		for _, test := range Tests(set) {
			var b *metrics.SysbenchHW
			if r := base.Result(test.Sfx, n0); r != nil {
				b = &r.HW
			}
			spec(fmt.Sprintf("sb.met.%s.dop%d", test.Sfx, n0), fmt.Sprintf("sb.met.%s.dop%d", test.Sfx, nt), b, func(d *metrics.SysbenchDBMS) *metrics.SysbenchHW {
				if r := d.Result(test.Sfx, nt); r != nil {
					return &r.HW
				}
				return nil
			})
		}
		files = append(files, f)
	}
	return files, warns
}

// formatG prints a value as printf "%.6g" does, NA when unknown.
func formatG(v metrics.Value) string {
	switch {
	case !v.OK() || math.IsNaN(v.V):
		return "NA"
	case math.IsInf(v.V, 0):
		return metrics.FormatFloat(v.V, 0, true)
	}
	return strconv.FormatFloat(v.V, 'g', 6, 64)
}

// oMetBlock renders one block of o.met: the file name, the absolute rows
// of the base and each other DBMS, and the relative rows. Values are
// unrounded (r/o, rKB/o and wKB/o printed with %.6g), a missing run is a
// row of NA and ratios follow metrics.RatioText.
func oMetBlock(basename string, base oMetRow, others []oMetRow) []string {
	out := []string{basename, "--- absolute", "cpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms"}
	for _, r := range append([]oMetRow{base}, others...) {
		h := r.hw
		if h == nil {
			out = append(out, "NA\tNA\tNA\tNA\tNA\tNA\t"+r.dbms)
			continue
		}
		out = append(out, strings.Join([]string{h.CPUPerOp.Format(6), h.CsPerOp.Format(3), formatG(h.ReadsPerOp), formatG(h.ReadKBPerOp), formatG(h.WriteKBPerOp),
			metrics.FormatFloat(h.Rate.V, RateDigits, h.Rate.OK()), r.dbms}, "\t"))
	}
	out = append(out, "--- relative to first result")
	for _, r := range others {
		rel := [6]string{"NA", "NA", "NA", "NA", "NA", "NA"}
		if h, b := r.hw, base.hw; h != nil && b != nil {
			vals := [6][2]metrics.Value{{h.CPUPerOp, b.CPUPerOp}, {h.CsPerOp, b.CsPerOp}, {h.ReadsPerOp, b.ReadsPerOp},
				{h.ReadKBPerOp, b.ReadKBPerOp}, {h.WriteKBPerOp, b.WriteKBPerOp}, {h.Rate, b.Rate}}
			for i, p := range vals {
				rel[i] = metrics.RatioText(p[0], p[1])
			}
		}
		out = append(out, rel[0]+"\t\t"+strings.Join(rel[1:], "\t")+"\t"+r.dbms)
	}
	return append(out, "")
}

var reScanName = regexp.MustCompile(`.scan.`)

// ncols is sumr.sh's column count: the number of thread counts.
func (t *sbTables) ncols() int { return max(len(t.set.Threads), 1) }

func (t *sbTables) ucols(test parse.SysbenchTest) int {
	if reScanName.MatchString("sb.r.qps." + test.Sfx) {
		return 1
	}
	return t.ncols()
}

// qpsAtThreads returns the QPS of a DBMS's test at the first n thread
// counts of the set, NA where the run is missing.
func (t *sbTables) qpsAtThreads(d *metrics.SysbenchDBMS, test parse.SysbenchTest, n int) []metrics.Value {
	var out []metrics.Value
	for i := range n {
		if i >= len(t.set.Threads) {
			out = append(out, metrics.NA(metrics.QueriesPerSec, "no such thread count"))
			continue
		}
		out = append(out, QPSAt(d, test.Sfx, t.set.Threads[i]))
	}
	return out
}

// rounded is a QPS as the summaries read it from sb.r: rounded to an
// integer.
func rounded(v metrics.Value) metrics.Value {
	if v.OK() {
		v.V = math.RoundToEven(v.V)
	}
	return v
}

func joinValues(vs []metrics.Value, digits int, sep string) string {
	cells := make([]string, len(vs))
	for i, v := range vs {
		cells[i] = v.Format(digits)
	}
	return strings.Join(cells, sep)
}

// loadIPS is the load rate of a DBMS as the Load seconds line printed it,
// "" without one.
func loadIPS(d *metrics.SysbenchDBMS, sfx string) (metrics.Value, bool) {
	if d.Load == nil || d.Load.Sfx != sfx {
		return metrics.NA(metrics.InsertsPerSec, "no load step "+sfx), false
	}
	return d.Load.IPS, d.Load.IPS.OK()
}

// sumr writes o.qps.{abs,rel}.<tag> in the current wide layout and in the
// January 2021 per-file blocks: QPS per thread count (one column for scan
// tests), relative values of the QPS as sb.r prints them.
func (t *sbTables) sumr() {
	base := t.set.Base()
	others := t.set.DBMS[1:]
	var abs, rel, abs21, rel21 []string
	abs, hdr := compat.Legend(t.set.Names(), "db_%d =\t%s", "db_")
	abs = append(abs, "", strings.Join(hdr, "\t"))
	rel = append(rel, abs...)
	if base.Load != nil {
		sfx := base.Load.Sfx
		basef := "sb.prepare.o." + sfx
		bv, bok := loadIPS(base, sfx)
		btext := ""
		if bok {
			btext = bv.Format(RateDigits)
		}
		a, r := btext, "1.00"
		abs21 = append(abs21, basef, btext+"\t"+base.Name)
		rel21 = append(rel21, basef)
		for _, d := range others {
			v, ok := loadIPS(d, sfx)
			ratio := "NA"
			if ok && bok {
				ratio = metrics.RatioText(v, bv)
			}
			text := v.Format(RateDigits)
			a += "\t" + text
			abs21 = append(abs21, text+"\t"+d.Name)
			r += "\t" + ratio
			rel21 = append(rel21, ratio+"\t"+d.Name)
		}
		abs = append(abs, a+"\t"+basef)
		rel = append(rel, r+"\t"+basef)
		abs21 = append(abs21, "")
		rel21 = append(rel21, "")
	}
	for _, test := range Tests(t.set) {
		basef := "sb.r.qps." + test.Sfx
		n := t.ucols(test)
		bq := t.qpsAtThreads(base, test, n)
		bcut := joinValues(bq, RateDigits, "\t")
		a, r := bcut, "1.00"
		abs21 = append(abs21, basef, bcut+"\t"+base.Name)
		rel21 = append(rel21, basef)
		for _, d := range others {
			q := t.qpsAtThreads(d, test, n)
			cut := joinValues(q, RateDigits, "\t")
			a += "\t" + cut
			abs21 = append(abs21, cut+"\t"+d.Name)
			var row strings.Builder
			for c := range n {
				x := metrics.RatioText(rounded(q[c]), rounded(bq[c]))
				r += "\t" + x
				row.WriteString(x + "\t")
			}
			row.WriteString(d.Name)
			rel21 = append(rel21, row.String())
		}
		abs = append(abs, a+"\t"+basef)
		rel = append(rel, r+"\t"+basef)
		abs21 = append(abs21, "")
		rel21 = append(rel21, "")
	}
	tag := t.opt.Tag
	t.fs.Line("o.qps.abs."+tag, abs...)
	t.fs.Line("o.qps.rel."+tag, rel...)
	t.fs.Line("o.qps.abs."+tag+".jan21", abs21...)
	t.fs.Line("o.qps.rel."+tag+".jan21", rel21...)
}

// sumQPS writes sum.<tag> (sum_qps.sh): the QPS of every test at the first
// thread count, a column per DBMS, joined by test.
func (t *sbTables) sumQPS() {
	out, hdr := compat.Legend(t.set.Names(), "col-%d : %s", "col-")
	out = append(out, "", strings.Join(hdr, "\t"))
	for _, test := range Tests(t.set) {
		out = append(out, joinValues(t.firstQPS(test), RateDigits, "\t")+"\t"+engine(t.set.Base())+" "+test.Label())
	}
	t.fs.Line("sum."+t.opt.Tag, out...)
}

// firstQPS is the QPS of every DBMS for a test at the first thread count.
func (t *sbTables) firstQPS(test parse.SysbenchTest) []metrics.Value {
	var out []metrics.Value
	for _, d := range t.set.DBMS {
		out = append(out, t.qpsAtThreads(d, test, 1)[0])
	}
	return out
}

// qpsCSV writes qps.{abs,rel}.<tag>.{tsv,csv} (sum_qps_csv.sh, or its
// _nopre variant as qps.*.<tag>.nopre.*): per group the QPS of each DBMS
// at the first thread count and its ratio to the base's, joined by test.
func (t *sbTables) qpsCSV(nopre bool) {
	name := t.opt.Tag
	if nopre {
		name += ".nopre"
	}
	inAbs, hAbs, inRel, hRel := compat.QPSLegends(t.set.Names())
	inAbs, inRel = append(inAbs, ""), append(inRel, "")
	tsvAbs := append(append([]string{}, inAbs...), strings.Join(hAbs, "\t"))
	tsvRel := append(append([]string{}, inRel...), strings.Join(hRel, "\t"))
	var csvAbs, csvRel []string
	eng := engine(t.set.Base())
	for _, g := range []string{"point", "range", "write"} {
		for _, test := range Tests(t.set) {
			if !compat.QPSGroup(g, test.Type, nopre) {
				continue
			}
			label := strings.ReplaceAll(eng+" "+test.Label(), " ", "_")
			q := t.firstQPS(test)
			var rtext []string
			for _, v := range q[1:] {
				rtext = append(rtext, metrics.RatioText(rounded(v), rounded(q[0])))
			}
			tsvAbs = append(tsvAbs, joinValues(q, RateDigits, "\t")+"\t"+label)
			tsvRel = append(tsvRel, strings.Join(rtext, "\t")+"\t"+label)
			csvAbs = append(csvAbs, label+","+joinValues(q, RateDigits, ","))
			csvRel = append(csvRel, label+","+strings.Join(rtext, ","))
		}
	}
	t.fs.Line("qps.abs."+name+".tsv", tsvAbs...)
	t.fs.Line("qps.rel."+name+".tsv", tsvRel...)
	t.fs.Line("qps.abs."+name+".csv", csvAbs...)
	t.fs.Line("qps.rel."+name+".csv", csvRel...)
}

// preVsPost writes pre_vs_post.<dbms>.{tsv,csv} for every DBMS that ran a
// test both before (.pre) and after the writes: every pre test and its
// post run, at the first thread count.
func (t *sbTables) preVsPost() {
	for _, d := range t.set.DBMS {
		var tsv, csv []string
		hasPre := false
		for _, test := range d.Dir.Tests {
			if test.Phase != parse.Pre {
				continue
			}
			hasPre = true
			nt := t.set.Threads[0]
			postSfx := fmt.Sprintf("%s.range%d.pk%d", test.Base, test.Range, test.PK)
			pre, post := QPSAt(d, test.Sfx, nt), QPSAt(d, postSfx, nt)
			a, b, ratio := pre.Format(RateDigits), post.Format(RateDigits), metrics.RatioText(post, pre)
			name := fmt.Sprintf("%s.range%d", test.Base, test.Range)
			tsv = append(tsv, a+"\t"+b+"\t"+ratio+"\t"+name)
			csv = append(csv, name+","+ratio+","+a+","+b)
		}
		if !hasPre {
			continue
		}
		t.fs.Line("pre_vs_post."+d.Name+".tsv", tsv...)
		t.fs.Line("pre_vs_post."+d.Name+".csv", csv...)
	}
}

func QPSAt(d *metrics.SysbenchDBMS, sfx string, nt int) metrics.Value {
	r := d.Result(sfx, nt)
	if r == nil {
		return metrics.NA(metrics.QueriesPerSec, sfx+" did not run")
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
	groups, warns := Groups(t.set, t.opt)
	t.warns = append(t.warns, warns...)
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
				get  func(metrics.GroupStats) metrics.Value
				digs int
			}{
				{"Average", func(s metrics.GroupStats) metrics.Value { return s.Average }, 2},
				{"Median", func(s metrics.GroupStats) metrics.Value { return s.Median }, 2},
				{"Min", func(s metrics.GroupStats) metrics.Value { return s.Min }, 2},
				{"Max", func(s metrics.GroupStats) metrics.Value { return s.Max }, 2},
				{"Stddev", func(s metrics.GroupStats) metrics.Value { return s.Stddev }, 3},
			} {
				cells := []string{stat.name}
				for _, s := range row {
					cells = append(cells, stat.get(s).Format(stat.digs))
				}
				out = append(out, strings.Join(cells, "\t"))
			}
			cells := []string{"Tests"}
			for _, s := range row {
				cells = append(cells, strconv.Itoa(len(s.Ratios)))
			}
			out = append(out, strings.Join(cells, "\t"), "")
		}
		t.fs.Line(fmt.Sprintf("qps.groups.%s.dop%d", t.opt.Tag, nt), out...)
	}
}

// Groups are the test groups of the summary statistics: the
// user's (with warnings for names that match nothing) or the default ones.
func Groups(set *metrics.SysbenchSet, opt Options) ([]metrics.SysbenchGroup, []string) {
	if opt.Groups != nil {
		return metrics.CustomSysbenchGroups(opt.Groups, set.Tests)
	}
	return metrics.DefaultSysbenchGroups(set.Tests, opt.GroupSplit), nil
}

// Notes are the warnings of a sysbench set, from the model and in
// the order the tables report them: what computing the runs met, the runs
// a DBMS lacks, problems of the groups and of the per-query columns. Those
// of the runs are typed (SysbenchSet.Notes); the others are texts only.
func Notes(set *metrics.SysbenchSet, opt Options) []metrics.Warning {
	if opt.Tag == "" {
		opt.Tag = "sb"
	}
	warns := set.Notes()
	var texts []string
	for _, nt := range set.Threads {
		_, w := oMetSpecs(set, nt, fmt.Sprintf("o.met.%s.dop%d", opt.Tag, nt))
		texts = append(texts, w...)
	}
	_, w := oMetDopSpecs(set, opt.Tag)
	texts = append(texts, w...)
	if len(set.DBMS) >= 2 {
		groups, w := Groups(set, opt)
		texts = append(texts, w...)
		for _, nt := range set.Threads {
			for _, s := range set.GroupStats(groups, nt) {
				texts = append(texts, s.Warnings...)
			}
		}
	}
	for _, nt := range set.Threads {
		_, w := set.EngineTable(nt, opt.Extra)
		texts = append(texts, w...)
	}
	return append(warns, metrics.TextWarnings(texts)...)
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
				out = append(out, strings.Join(append([]string{r.DBMS, r.QPS.Format(RateDigits), r.LatAvg.Format(LatDigits), r.LatPct.Format(LatDigits)}, r.Extra...), "\t"))
			}
			out = append(out, "")
		}
		t.fs.Line(fmt.Sprintf("per-query.%s.dop%d", t.opt.Tag, nt), out...)
	}
}

// Tests lists the tests a table shows: warm-up runs are left out, as in
// the original summaries.
func Tests(set *metrics.SysbenchSet) []parse.SysbenchTest {
	var out []parse.SysbenchTest
	for _, t := range set.Tests {
		if !t.Warmup() {
			out = append(out, t)
		}
	}
	return out
}
