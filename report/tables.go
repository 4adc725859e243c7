package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// TablesOptions control Tables.
type TablesOptions struct {
	Metrics metrics.Options
	// Some lists the steps concatenated into mrg.some and rel.some; empty
	// means every step.
	Some []string
}

// Tables builds the text tables of the original report pipeline from
// computed trees, in its file formats:
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
// missing steps and NA cells.
func Tables(trees []*metrics.TreeResult, list []Entry, opt TablesOptions) ([]File, []string, error) {
	compat := opt.Metrics.Compat
	byName := map[string]*metrics.TreeResult{}
	for _, t := range trees {
		byName[t.Tree.Name] = t
	}
	for _, e := range list {
		if !e.Break && byName[e.Name] == nil {
			return nil, nil, fmt.Errorf("DBMS %q is listed but no result tree has that name", e.Name)
		}
	}
	first := firstName(list)
	if first == "" {
		return nil, nil, fmt.Errorf("the DBMS list names no DBMS")
	}
	prefix := parse.RowPrefix(first)
	steps := unionSteps(trees)
	fs := newFileSet()
	var warns []string
	warnf := func(format string, args ...any) { warns = append(warns, fmt.Sprintf(format, args...)) }

	rowOf := func(t *metrics.TreeResult, st parse.Step) metrics.Row {
		if sr := t.Step(st.MergeName); sr != nil {
			return sr.Row
		}
		warnf("%s: step %s is missing", t.Tree.Name, st.MergeName)
		return missingRow(st, t.Tree.Name, compat, opt.Metrics)
	}

	// Per-tree summary rows, as etl.sh wrote them.
	for _, t := range trees {
		sum := "o.sum.t." + t.Tree.Name
		sumc := "o.sum.c." + t.Tree.Name
		fs.line(sum, metrics.MergeHeader)
		fs.line(sumc, strings.Join(metrics.RowColumns, ","))
		for _, st := range steps {
			r := rowOf(t, st)
			fs.line(sum, strings.Join(r.Cells[:], "\t"))
			fs.line(sumc, strings.Join(r.Cells[:], ","))
			for _, col := range append([]string{"all"}, metrics.RowColumns...) {
				if why, ok := r.Notes[col]; ok {
					warnf("%s %s: %s is NA: %s", t.Tree.Name, st.MergeName, col, why)
				}
			}
		}
		for _, sr := range t.Steps {
			for _, w := range sr.Summary.Warnings {
				warnf("%s", w)
			}
		}
	}

	// mrg.<step> and rel.<step>
	mrgText := map[string][]string{}
	for _, st := range steps {
		lines := []string{metrics.MergeHeader}
		for _, e := range list {
			if e.Break {
				lines = append(lines, "-")
				continue
			}
			lines = append(lines, metrics.MergeRow(rowOf(byName[e.Name], st), prefix, compat))
		}
		mrgText[st.MergeName] = lines
		fs.line("mrg."+st.MergeName, lines...)
		fs.line("rel."+st.MergeName, relLines(lines, compat, &warns, "mrg."+st.MergeName)...)
	}
	writeSome(fs, steps, mrgText, opt.Some, compat, &warns)

	// Throughput files of the shown DBMS, as chart_all.sh made them.
	tags := shown(list)
	for _, st := range steps {
		name := "mrg." + st.MergeName
		fs.touch(name + ".some")
		fs.line(name+".some", metrics.MergeHeader)
		kind := ".ips"
		if st.Kind.ReadWrite() {
			kind = ".qps"
		}
		fs.touch(name + kind)
		for _, full := range tags {
			tag := metrics.StripPrefix(full, prefix, compat)
			row, ok := findRow(mrgText[st.MergeName], tag, compat)
			if !ok {
				continue
			}
			fs.line(name+".some", row)
			f := strings.Fields(row)
			if !compat {
				f = strings.Split(row, "\t")
			}
			if len(f) == 21 {
				if st.Kind.ReadWrite() {
					fs.line(name+kind, f[0]+"\t"+f[1]+"\t"+tag)
				} else {
					fs.line(name+kind, f[0]+"\t"+tag)
				}
			}
		}
	}

	rtFiles(fs, byName, list, steps, prefix, compat, &warns)
	iostatFiles(fs, byName, tags, steps, prefix, compat)
	return fs.Files(), warns, nil
}

// relLines computes a rel file from the lines of an mrg file.
func relLines(mrg []string, compat bool, warns *[]string, name string) []string {
	if compat {
		return metrics.RelLinesCompat(mrg)
	}
	out, notes := metrics.RelLines(mrg)
	for _, n := range notes {
		*warns = append(*warns, name+": "+n)
	}
	return out
}

// writeSome writes mrg.some and rel.some: for each chosen step an empty line,
// the step name and the step's table.
func writeSome(fs *FileSet, steps []parse.Step, mrg map[string][]string, some []string, compat bool, warns *[]string) {
	chosen := some
	if len(chosen) == 0 {
		for _, st := range steps {
			chosen = append(chosen, st.MergeName)
		}
	}
	for _, name := range chosen {
		lines, ok := mrg[name]
		if !ok {
			*warns = append(*warns, "mrg.some: no step "+name)
			continue
		}
		fs.line("mrg.some", "", name)
		fs.line("mrg.some", lines...)
		fs.line("rel.some", "", name)
		fs.line("rel.some", relLines(lines, compat, warns, "mrg."+name)...)
	}
}

// findRow returns the first row of a merged table for a tag: compat mode
// uses the original `grep "<tag>$"` (a regular expression that also matches
// longer tags ending the same way), otherwise the tag column must be equal.
func findRow(lines []string, tag string, compat bool) (string, bool) {
	if compat {
		re := metrics.TagRegexp(tag)
		for _, l := range lines {
			if re.MatchString(l) {
				return l, true
			}
		}
		return "", false
	}
	for _, l := range lines[1:] {
		c := strings.Split(l, "\t")
		if len(c) > 1 && c[len(c)-1] == tag {
			return l, true
		}
	}
	return "", false
}

// missingRow is the row of a DBMS that lacks a step: what etl.sh printed for
// a missing o.res in compat mode, NA cells otherwise.
func missingRow(st parse.Step, tag string, compat bool, opt metrics.Options) metrics.Row {
	if compat {
		r := metrics.RowFromRes(nil, false, st.Kind.ReadWrite(), tag, opt.PsUser, opt.Cores)
		r.Step = st
		return r
	}
	r := metrics.Row{Step: st, Notes: map[string]string{}}
	for i := 0; i < metrics.ColTag; i++ {
		r.Cells[i] = "NA"
	}
	r.Notes["all"] = "step " + st.MergeName + " is missing"
	r.Cells[metrics.ColTag] = tag
	return r
}

// unionSteps lists every step of any tree once, in report order.
func unionSteps(trees []*metrics.TreeResult) []parse.Step {
	seen := map[string]bool{}
	var out []parse.Step
	for _, t := range trees {
		for _, sr := range t.Steps {
			st := sr.Data.Step
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

// rtFiles writes the response-time and rate merges (mrg.extra.sh, chart_rt.sh).
func rtFiles(fs *FileSet, byName map[string]*metrics.TreeResult, list []Entry, steps []parse.Step, prefix string, compat bool, warns *[]string) {
	first := byName[firstName(list)]
	tags := shown(list)
	for _, st := range steps {
		if st.Kind == parse.CreateIndex {
			continue // the original has no histogram merge for l.x
		}
		kinds := []parse.HistKind{parse.Insert, parse.Delete}
		if st.Kind.ReadWrite() {
			kinds = append(kinds, parse.Query)
		}
		f1 := first.Step(st.MergeName)
		for _, k := range kinds {
			var hdr *metrics.RTTable
			if f1 != nil {
				hdr = f1.Summary.RT[k]
			}
			if hdr == nil {
				if k == parse.Delete {
					continue // written only when the first DBMS deleted rows
				}
				if compat {
					continue
				}
			}
			name := "mrg." + st.MergeName + ".rt." + k.String()
			if hdr != nil {
				if l := hdr.Lines("\t", "DBMS"); len(l) > 0 {
					fs.line(name, l[0])
				} else {
					fs.touch(name)
				}
			} else {
				fs.line(name, "256us\t1ms\t4ms\t16ms\t64ms\t256ms\t1s\t4s\t16s\tgt\tmax\ttag")
			}
			for _, e := range list {
				if e.Break {
					fs.line(name, "-")
					continue
				}
				sr := byName[e.Name].Step(st.MergeName)
				var t *metrics.RTTable
				if sr != nil {
					t = sr.Summary.RT[k]
				}
				if t == nil {
					if !compat {
						fs.line(name, strings.Repeat("NA\t", 11)+metrics.StripPrefix(e.Name, prefix, false))
						*warns = append(*warns, fmt.Sprintf("%s %s: no %s histogram", e.Name, st.MergeName, k))
					}
					continue
				}
				pct := t.Pct.Values
				if !compat && t.Pct.Values != nil {
					pct = naNaN(pct)
				}
				row := metrics.RTRow{Label: t.Pct.Label, Values: pct, Max: t.Pct.Max}
				line := rtLine(row, e.Name)
				if compat {
					line = strings.ReplaceAll(line, "pct:"+prefix+".", "")
				} else {
					line = strings.TrimSuffix(line, "pct:"+e.Name) + metrics.StripPrefix(e.Name, prefix, false)
				}
				fs.line(name, line)
			}
			// chart_rt.sh: header plus the first row of each shown DBMS.
			lines := strings.Split(strings.TrimSuffix(string(fs.files[name].Bytes()), "\n"), "\n")
			fs.line(name+".some", lines[0])
			for _, full := range tags {
				if row, ok := findRow(lines, metrics.StripPrefix(full, prefix, compat), compat); ok {
					fs.line(name+".some", row)
				}
			}
		}
		if !st.Kind.ReadWrite() {
			continue
		}
		for _, x := range []struct {
			col  int
			kind string
		}{{3, "insert"}, {5, "delete"}, {7, "query"}} {
			name := "mrg." + st.MergeName + ".rate." + x.kind
			fs.touch(name)
			for _, e := range list {
				fs.line(name, "-")
				if e.Break {
					continue
				}
				fs.line(name, "qps-1\tqps-2\tqps-3\tqps-4\tqps-5\tqps-6\tqps-7\tqps-8\tqps-9\tqps-10\ttag")
				sr := byName[e.Name].Step(st.MergeName)
				if sr == nil {
					continue
				}
				for _, rl := range sr.Summary.Rates[x.col] {
					l := rl.Line("\t", e.Name)
					if compat {
						l = metrics.StripPrefix(l, prefix, true)
					} else {
						l = strings.TrimSuffix(l, e.Name) + metrics.StripPrefix(e.Name, prefix, false)
					}
					fs.line(name, l)
				}
			}
		}
	}
}

func rtLine(r metrics.RTRow, dbms string) string {
	var b strings.Builder
	for _, v := range r.Values {
		b.WriteString(v)
		b.WriteByte('\t')
	}
	b.WriteString(r.Max + "\t" + r.Label + ":" + dbms)
	return b.String()
}

func naNaN(v []string) []string {
	out := make([]string, len(v))
	for i, x := range v {
		if x == "-nan" || x == "inf" {
			x = "NA"
		}
		out[i] = x
	}
	return out
}

// iostatFiles writes the per-step iostat averages of the shown DBMS, one row
// per DBMS ending with TAB TAB tag, and the header of the last DBMS and step
// (report.sh overwrote it in its loop).
func iostatFiles(fs *FileSet, byName map[string]*metrics.TreeResult, tags []string, steps []parse.Step, prefix string, compat bool) {
	dop := 0
	var header []string
	for _, st := range steps {
		name := "o.iostat.avg.data.dop%d." + st.MergeName
		var lines []string
		for _, full := range tags {
			sr := byName[full].Step(st.MergeName)
			if sr == nil {
				continue
			}
			if sr.Data.Dop > 0 {
				dop = sr.Data.Dop
			}
			if sr.Summary.IostatHeader != nil {
				header = sr.Summary.IostatHeader
			}
			tag := metrics.StripPrefix(full, prefix, compat)
			lines = append(lines, metrics.TabTerminated(sr.Summary.IostatAvg)+"\t"+tag)
		}
		fs.touch(fmt.Sprintf(name, dop))
		fs.line(fmt.Sprintf(name, dop), lines...)
	}
	if header != nil {
		fs.line("o.iostat.avg.header.dop"+strconv.Itoa(dop), metrics.TabTerminated(header))
	}
}
