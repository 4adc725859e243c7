package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/fsout"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// tablesOptions control Tables.
type tablesOptions struct {
	Metrics metrics.Options
	// Some lists the steps concatenated into mrg.some and rel.some; empty
	// means every step.
	Some []string
}

// Tables renders computed trees as the text tables of the original report
// pipeline, in its file formats:
//
//	mrg.<step>, rel.<step>            rows of all DBMS per step, relative rows
//	mrg.<step>.some, .ips / .qps      rows and throughput of the shown DBMS
//	mrg.some, rel.some                chosen steps concatenated
//	mrg.<step>.rt.<kind>[.some]       response-time histograms per DBMS
//	mrg.<step>.rate.<kind>            ten-interval average rates per client
//	o.sum.t.<tree>, o.sum.c.<tree>    the 21-column rows of each tree
//	o.iostat.avg.header.dop<D>, o.iostat.avg.data.dop<D>.<step>
//
// list gives the DBMS order and groups. The returned warnings explain
// missing steps and NA cells. The trees must have been computed in the mode
// of opt.Metrics.Compat (metrics.ComputeTree, or the compat edge).
func buildTables(trees []*metrics.TreeResult, list []Entry, opt tablesOptions) ([]File, []string, error) {
	steps, merged, typed, err := mergeResults(trees, list, opt.Metrics)
	if err != nil {
		return nil, nil, err
	}
	warns := metrics.WarningTexts(typed)
	fs := fsout.NewSet()
	treeTables(fs, trees, steps, opt.Metrics.Compat)
	prefix := parse.RowPrefix(firstName(list))
	writeMerged(fs, merged, shown(list), prefix, opt, &warns)
	byName := map[string]*metrics.TreeResult{}
	for _, t := range trees {
		byName[t.Name()] = t
	}
	for _, st := range steps {
		edge := newIbEdge(opt.Metrics.Compat)
		rtFiles(fs, rtMerges(byName, list, st, prefix, edge, &warns), shown(list), prefix, edge)
		rateFiles(fs, byName, list, st, prefix, opt.Metrics.Compat)
	}
	iostatFiles(fs, byName, shown(list), steps, prefix, opt.Metrics.Compat)
	return filesOf(fs.Files()), warns, nil
}

// mergeResults checks the list against the trees and merges them: every
// step of any tree, in report order, its merged table, and the warnings
// about missing steps and NA cells.
func mergeResults(trees []*metrics.TreeResult, list []Entry, opt metrics.Options) ([]parse.Step, []*mergedTable, []metrics.Warning, error) {
	if err := checkList(trees, list); err != nil {
		return nil, nil, nil, err
	}
	steps := unionSteps(trees)
	return steps, mergeTrees(trees, list, steps, opt), treeWarnings(trees, steps, opt.Compat), nil
}

// checkList makes sure every listed DBMS has a tree and the list names one.
func checkList(trees []*metrics.TreeResult, list []Entry) error {
	have := map[string]bool{}
	for _, t := range trees {
		have[t.Name()] = true
	}
	for _, e := range list {
		if !e.Break && !have[e.Name] {
			return fmt.Errorf("DBMS %q is listed but no result tree has that name%s", e.Name, suggestTree(trees, e.Name))
		}
	}
	if firstName(list) == "" {
		return fmt.Errorf("the DBMS list names no DBMS")
	}
	return nil
}

// suggestTree is the end of the message for a listed name no tree has:
// the folder names that end in it (a list that gives the names the outputs
// show, "pg15.c1" for 2m.pg15.c1), else the folder names there are.
func suggestTree(trees []*metrics.TreeResult, name string) string {
	var like, all []string
	for _, t := range trees {
		all = append(all, strconv.Quote(t.Name()))
		if strings.HasSuffix(t.Name(), "."+name) {
			like = append(like, strconv.Quote(t.Name()))
		}
	}
	switch {
	case len(like) > 0:
		return "; the list names tree folders: did you mean " + strings.Join(like, " or ") + "?"
	case len(all) > 0:
		return "; the trees are " + strings.Join(all, ", ")
	}
	return ""
}

// treeWarnings lists, tree by tree, the missing steps, the NA values
// (default mode) and the problems met while reading the steps.
// The NA values are listed step by step, the steps' other warnings after
// them.
func treeWarnings(trees []*metrics.TreeResult, steps []parse.Step, compatMode bool) []metrics.Warning {
	var warns []metrics.Warning
	for _, t := range trees {
		if len(t.Steps) == 0 {
			warns = append(warns, metrics.Warning{File: t.Tree.Dir, DBMS: t.Name(),
				Text: fmt.Sprintf("%s: no step folders (l.i0, l.x, qr100.L1, …); every step is NA", t.Tree.Dir)})
		}
		for _, st := range steps {
			sr := t.Step(st.MergeName)
			if sr == nil {
				warns = append(warns, metrics.Warning{DBMS: t.Name(), Step: st.MergeName,
					Text: fmt.Sprintf("%s: step %s is missing", t.Name(), st.MergeName)})
				if !compatMode {
					warns = append(warns, metrics.Warning{Kind: metrics.NotAvailable, DBMS: t.Name(), Step: st.MergeName,
						Text: fmt.Sprintf("%s %s: all is NA: step %s is missing", t.Name(), st.MergeName, st.MergeName)})
				}
				continue
			}
			for i, v := range sr.Metrics {
				if !compatMode && !v.OK() {
					warns = append(warns, metrics.NAWarning(t.Name(), st.MergeName, metrics.Metric(i), v))
				}
			}
		}
		for _, sr := range t.Steps {
			for _, w := range sr.Warnings {
				if w.Kind != metrics.NotAvailable {
					warns = append(warns, w)
				}
			}
		}
	}
	return warns
}

// treeTables writes each tree's rows as etl.sh did (o.sum.t, o.sum.c). A
// missing step is a row of NA (compat: the almost empty row etl.sh printed
// without o.res).
func treeTables(fs *fsout.Set, trees []*metrics.TreeResult, steps []parse.Step, compatMode bool) {
	for _, t := range trees {
		sum := "o.sum.t." + t.Name()
		sumc := "o.sum.c." + t.Name()
		fs.Line(sum, metrics.MergeHeader)
		fs.Line(sumc, strings.Join(metrics.RowColumns, ","))
		for _, st := range steps {
			row := stepRow(t.Step(st.MergeName), st, compatMode)
			cells := make([]string, 0, len(row)+1)
			for i, v := range row {
				cells = append(cells, v.Format(metrics.Metric(i).Digits()))
			}
			cells = append(cells, t.Name())
			fs.Line(sum, strings.Join(cells, "\t"))
			fs.Line(sumc, strings.Join(cells, ","))
		}
	}
}

// writeMerged writes mrg.<step>, rel.<step>, mrg.some and rel.some, and the
// rows and throughput of the shown DBMS (mrg.<step>.some, .ips or .qps) as
// chart_all.sh made them.
func writeMerged(fs *fsout.Set, merged []*mergedTable, tags []string, prefix string, opt tablesOptions, warns *[]string) {
	compatMode := opt.Metrics.Compat
	byStep := map[string]*mergedTable{}
	rel := map[string][]string{}
	for _, mt := range merged {
		byStep[mt.step.MergeName] = mt
		name := mt.step.MergeName
		if !mt.archive {
			fs.Line("mrg."+name, mt.lines()...)
		}
		rel[name] = mt.relLines(compatMode, warns)
		fs.Touch("rel." + name)
		fs.Line("rel."+name, rel[name]...)
	}
	chosen := opt.Some
	if len(chosen) == 0 {
		for _, mt := range merged {
			chosen = append(chosen, mt.step.MergeName)
		}
	}
	for _, name := range chosen {
		mt, ok := byStep[name]
		if !ok {
			*warns = append(*warns, "mrg.some: no step "+name)
			continue
		}
		fs.Line("mrg.some", "", name)
		fs.Line("mrg.some", mt.lines()...)
		fs.Line("rel.some", "", name)
		fs.Line("rel.some", rel[name]...)
	}
	for _, mt := range merged {
		if mt.archive {
			continue
		}
		name := "mrg." + mt.step.MergeName
		kind := ".ips"
		if mt.step.Kind.ReadWrite() {
			kind = ".qps"
		}
		fs.Line(name+".some", metrics.MergeHeader)
		fs.Touch(name + kind)
		for _, tag := range displayTags(tags, prefix, compatMode) {
			r := mt.find(tag, compatMode)
			if r == nil {
				continue
			}
			line := mt.text(r)
			fs.Line(name+".some", line)
			var f []string
			if compatMode {
				f = strings.Fields(line) // awk's fields: an empty cell is not one
			} else {
				f = strings.Split(line, "\t")
			}
			switch {
			case len(f) != len(metrics.RowColumns):
			case mt.step.Kind.ReadWrite():
				fs.Line(name+kind, f[0]+"\t"+f[1]+"\t"+tag)
			default:
				fs.Line(name+kind, f[0]+"\t"+tag)
			}
		}
	}
}

// displayTags are the tags of the shown DBMS as the merged tables print
// them (displayTag).
func displayTags(names []string, prefix string, compatMode bool) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = displayTag(n, prefix, compatMode)
	}
	return out
}

// unionSteps lists every step of any tree once, in report order.
func unionSteps(trees []*metrics.TreeResult) []parse.Step {
	seen := map[string]bool{}
	var out []parse.Step
	for _, t := range trees {
		for _, sr := range t.Steps {
			st := sr.Step
			if st.Kind == parse.LoadWithDeletes {
				st.Kind = parse.Load // kinds of one name may differ by tree; the name decides the order
			}
			if !seen[st.MergeName] {
				seen[st.MergeName] = true
				out = append(out, st)
			}
		}
	}
	parse.SortSteps(out)
	return out
}

// rateFiles writes the ten-interval rates of every client of every DBMS of
// a read+write step (mrg.extra.sh).
func rateFiles(fs *fsout.Set, byName map[string]*metrics.TreeResult, list []Entry, st parse.Step, prefix string, compatMode bool) {
	if !st.Kind.ReadWrite() {
		return
	}
	for _, k := range []parse.HistKind{parse.Insert, parse.Delete, parse.Query} {
		name := "mrg." + st.MergeName + ".rate." + k.String()
		fs.Touch(name)
		for _, e := range list {
			fs.Line(name, "-")
			if e.Break {
				continue
			}
			fs.Line(name, "qps-1\tqps-2\tqps-3\tqps-4\tqps-5\tqps-6\tqps-7\tqps-8\tqps-9\tqps-10\ttag")
			sr := rowOf(byName[e.Name], st)
			if sr == nil {
				continue
			}
			for _, rw := range sr.Rates[k] {
				var b strings.Builder
				for _, v := range rw.Values {
					b.WriteString(v.Format(0))
					b.WriteByte('\t')
				}
				b.WriteString(strconv.Itoa(rw.Client) + ":")
				if compatMode {
					fs.Line(name, compat.StripPrefix(b.String()+e.Name, prefix))
				} else {
					fs.Line(name, b.String()+stripPrefix(e.Name, prefix))
				}
			}
		}
	}
}

// iostatFiles writes the per-step iostat averages of the shown DBMS, one row
// per DBMS ending with TAB TAB tag, and the header of the last DBMS and step
// (report.sh overwrote it in its loop).
func iostatFiles(fs *fsout.Set, byName map[string]*metrics.TreeResult, tags []string, steps []parse.Step, prefix string, compatMode bool) {
	dop := 0
	var header []string
	for _, st := range steps {
		name := "o.iostat.avg.data.dop%d." + st.MergeName
		var lines []string
		for _, full := range tags {
			sr := rowOf(byName[full], st)
			if sr == nil {
				continue
			}
			if sr.Dop > 0 {
				dop = sr.Dop
			}
			if sr.IostatAvg.Header != nil {
				header = sr.IostatAvg.Header
			}
			lines = append(lines, compat.TabTerminated(iostatTexts(sr.IostatAvg.Values))+"\t"+displayTag(full, prefix, compatMode))
		}
		fs.Touch(fmt.Sprintf(name, dop))
		fs.Line(fmt.Sprintf(name, dop), lines...)
	}
	if header != nil {
		fs.Line("o.iostat.avg.header.dop"+strconv.Itoa(dop), compat.TabTerminated(header))
	}
}

// iostatTexts prints iostat averages with the decimals of their magnitude.
func iostatTexts(vals []metrics.Value) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.Format(iostatDigits(v.V))
	}
	return out
}

// Tag is the tag of a DBMS tree's rows in the merged tables: its name
// without the row-count prefix ("pg15.c1" for 2m.pg15.c1) that the first
// DBMS of the list shares with it.
func (r *Results) Tag(tree string) string {
	if r == nil {
		return tree
	}
	return displayTag(tree, parse.RowPrefix(firstName(r.List)), r.Options.Compat)
}

// joinLines is lines as the content of a file.
func joinLines(lines []string) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// iostatDigits is the number of decimals the iostat averages print a value
// with: fewer for larger values, as sum_iostat.sh did.
func iostatDigits(v float64) int {
	switch {
	case v >= 100000:
		return 0
	case v >= 100:
		return 1
	case v >= 10:
		return 2
	}
	return 3
}
