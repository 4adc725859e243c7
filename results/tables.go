package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// qpsTable is one qps.abs or qps.rel table, TSV or CSV, as read: the
// columns it names and a row per test.
type qpsTable struct {
	file string
	// base is the "Relative to:" build of a relative TSV table; cols the
	// builds of its "col-N : <build>" lines (none in a CSV table).
	base string
	cols []string
	rows []qpsRow
	// blocks are the header blocks of a TSV table, each with the title
	// after "->" ("" for none) and its first and end row.
	blocks []qpsBlock
}

type qpsBlock struct {
	title      string
	start, end int
}

// qpsRow is one row of a TSV or CSV qps table: the test its label names
// and the value fields as printed.
type qpsRow struct {
	test   parse.SysbenchTest
	label  string
	fields []string
	line   int
	file   string
}

// cell is field i as queries per second (thousands of rows per second
// for a scan test).
func (r *qpsRow) cell(i int, scan bool) metrics.Value {
	u := metrics.QueriesPerSec
	if scan {
		u = metrics.KRowsPerSec
	}
	return r.cellUnit(i, u)
}

// cellUnit is field i in unit u: NA when it is empty, no number, not
// finite or negative, the reason naming the file and line.
func (r *qpsRow) cellUnit(i int, u metrics.Unit) metrics.Value {
	if r == nil || i < 0 || i >= len(r.fields) {
		return metrics.NA(u, "no value in the table")
	}
	text := strings.TrimSpace(r.fields[i])
	if text == "" {
		return metrics.NAf(u, "%s:%d: empty cell", r.file, r.line)
	}
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return metrics.NAf(u, "%s:%d: %q is not a number", r.file, r.line, text)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return metrics.NAf(u, "%s:%d: %q is not a finite number", r.file, r.line, text)
	case v < 0:
		return metrics.NAf(u, "%s:%d: %s is negative, not a rate", r.file, r.line, text)
	}
	return metrics.Known(v, u).Printed(text)
}

// readQPSTSV reads a TSV qps table (FORMATS.md §5.15). An absolute one:
//
//	col-1 : <build 1>
//	…
//	<empty line>
//	col-1⇥col-2⇥…[⇥-> <title>]
//	<value>⇥<value>⇥…⇥<label>
//
// A relative one starts with "Relative to: <base>" and its col-N lines
// name the other builds. The header line repeats before each group of
// tests; the author's edited copies (.tsv.edit) regroup the rows, some
// headers with a "-> title". A row of other than one field per column and
// the label, a label that names no test and a test twice are errors,
// naming the file and line.
func readQPSTSV(file string, data []byte, relative bool) (*qpsTable, error) {
	t := &qpsTable{}
	seen := map[string]int{}
	n := 0
	for l := range strings.Lines(string(data)) {
		n++
		line := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "Relative to:"):
			if !relative || t.base != "" || len(t.cols) > 0 {
				return nil, inputerr.Errorf("%s:%d: a \"Relative to:\" line where none belongs", names.Quoted(file), n)
			}
			t.base = strings.TrimSpace(strings.TrimPrefix(line, "Relative to:"))
			continue
		case strings.HasPrefix(line, "col-") && strings.Contains(line, " : "):
			num, name, _ := strings.Cut(line, " : ")
			if k, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(num), "col-")); err != nil || k != len(t.cols)+1 {
				return nil, inputerr.Errorf("%s:%d: %q: want col-%d", names.Quoted(file), n, num, len(t.cols)+1)
			}
			if len(t.rows) > 0 {
				return nil, inputerr.Errorf("%s:%d: a column name after the rows", names.Quoted(file), n)
			}
			t.cols = append(t.cols, strings.TrimSpace(name))
			continue
		case line == "col-1" || strings.HasPrefix(line, "col-1\t"):
			title := ""
			if _, after, ok := strings.Cut(line, "->"); ok {
				title = strings.TrimSpace(after)
			}
			if k := len(t.blocks); k > 0 {
				t.blocks[k-1].end = len(t.rows)
			}
			t.blocks = append(t.blocks, qpsBlock{title: title, start: len(t.rows), end: len(t.rows)})
			continue
		}
		if len(t.cols) == 0 {
			return nil, inputerr.Errorf("%s:%d: a row before any \"col-N : <build>\" line", names.Quoted(file), n)
		}
		if relative && t.base == "" {
			return nil, inputerr.Errorf("%s:%d: a relative table without its \"Relative to:\" line", names.Quoted(file), n)
		}
		f := strings.Split(line, "\t")
		if len(f) != len(t.cols)+1 {
			return nil, inputerr.Errorf("%s:%d: %d fields, want %d (a value per build and the label)", names.Quoted(file), n, len(f), len(t.cols)+1)
		}
		row, err := newRow(file, n, f[len(f)-1], f[:len(f)-1], seen)
		if err != nil {
			return nil, err
		}
		t.rows = append(t.rows, row)
	}
	if k := len(t.blocks); k > 0 {
		t.blocks[k-1].end = len(t.rows)
	}
	if len(t.cols) == 0 {
		return nil, inputerr.Errorf("%s: no \"col-N : <build>\" line: not a qps table", names.Quoted(file))
	}
	if len(t.rows) == 0 {
		return nil, inputerr.Errorf("%s: no test rows", names.Quoted(file))
	}
	return t, nil
}

// newRow checks a row's label and that its test is new to the table.
func newRow(file string, line int, label string, fields []string, seen map[string]int) (qpsRow, error) {
	test, ok := labelTest(label)
	if !ok {
		return qpsRow{}, inputerr.Errorf("%s:%d: %q is not a test label (<test>_range=<N>)", names.Quoted(file), line, label)
	}
	if prev, dup := seen[test.Sfx]; dup {
		return qpsRow{}, inputerr.Errorf("%s:%d: %s again (first at line %d): a duplicate row", names.Quoted(file), line, test.Label(), prev)
	}
	seen[test.Sfx] = line
	return qpsRow{test: test, label: label, fields: fields, line: line, file: file}, nil
}

// readQPSCSV reads a CSV qps table (sum_qps_csv.sh with as_csv 1): no
// header, a row per test, the label first, then a value per build (per
// build but the base in a relative table). The rows are read with
// gocsv's decoder into the TSV tables' row type.
func readQPSCSV(file string, data []byte) (*qpsTable, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	dec := gocsv.NewSimpleDecoderFromCSVReader(cr)
	t := &qpsTable{}
	seen := map[string]int{}
	width := -1
	for {
		rec, err := dec.GetCSVRow()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, inputerr.Errorf("%s: %v", names.Quoted(file), err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) < 2 {
			return nil, inputerr.Errorf("%s:%d: a row with no value", names.Quoted(file), line)
		}
		if width >= 0 && len(rec) != width {
			return nil, inputerr.Errorf("%s:%d: %d fields where the first row has %d", names.Quoted(file), line, len(rec), width)
		}
		width = len(rec)
		row, err := newRow(file, line, rec[0], rec[1:], seen)
		if err != nil {
			return nil, err
		}
		t.rows = append(t.rows, row)
	}
	if len(t.rows) == 0 {
		return nil, inputerr.Errorf("%s: no test rows", names.Quoted(file))
	}
	return t, nil
}

// editTable is the author's regrouped copy of a relative table,
// qps.rel.<set>.tsv.edit: blocks of rows, each under a "- <title>" line or
// a header line, the labels sometimes shortened to the test type
// ("hot-points"). Only its grouping is read.
type editTable struct {
	file   string
	blocks []editBlock
	// problems are the lines that could not be read, for warnings.
	problems []string
}

type editBlock struct {
	title  string
	line   int
	labels []string
}

// readEdit reads the blocks of a .tsv.edit table.
func readEdit(file string, data []byte) *editTable {
	t := &editTable{}
	n := 0
	open := false // the last block has rows
	newBlock := func(title string) {
		if k := len(t.blocks); k > 0 && len(t.blocks[k-1].labels) == 0 {
			if title != "" {
				t.blocks[k-1].title = title
			}
			return
		}
		t.blocks = append(t.blocks, editBlock{title: title, line: n})
	}
	for l := range strings.Lines(string(data)) {
		n++
		line := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(line) == "", strings.HasPrefix(line, "Relative to:"),
			strings.HasPrefix(line, "col-") && strings.Contains(line, " : "):
			continue
		case strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "-> "):
			newBlock(strings.TrimSpace(strings.TrimLeft(line, "->")))
			open = false
			continue
		case line == "col-1" || strings.HasPrefix(line, "col-1\t"):
			title := ""
			if _, after, ok := strings.Cut(line, "->"); ok {
				title = strings.TrimSpace(after)
			}
			if !open && len(t.blocks) > 0 && len(t.blocks[len(t.blocks)-1].labels) == 0 {
				if title != "" {
					t.blocks[len(t.blocks)-1].title = title
				}
				continue
			}
			newBlock(title)
			open = false
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			t.problems = append(t.problems, fmt.Sprintf("%s:%d: %q is no row", file, n, line))
			continue
		}
		if len(t.blocks) == 0 {
			newBlock("")
		}
		b := &t.blocks[len(t.blocks)-1]
		b.labels = append(b.labels, strings.TrimSpace(f[len(f)-1]))
		open = true
	}
	return t
}

// authorGroups are the author's test groups: the blocks of the .tsv.edit
// copy, else the titled blocks of the main table; nil when there are
// none. A block without a title is named by the kind of most of its tests
// (point, range without aggregation, …), numbered when two share one. A
// shortened label ("hot-points") names the test of that type when the set
// has one; a label that names no test of the set is a warning.
func (s *Set) authorGroups(dir string, edit *editTable, main *qpsTable) []parse.SysbenchGroup {
	type block struct {
		title string
		file  string
		line  int
		tests []parse.SysbenchTest
	}
	var blocks []block
	if edit != nil {
		for _, p := range edit.problems {
			s.warn(edit.file, 0, "", "%s (its groups are read without it)", p)
		}
		byType := map[string][]parse.SysbenchTest{}
		byKey := map[string]parse.SysbenchTest{}
		for _, r := range main.rows {
			byType[r.test.Type] = append(byType[r.test.Type], r.test)
			byKey[r.test.Key()] = r.test
		}
		for _, b := range edit.blocks {
			g := block{title: b.title, file: edit.file, line: b.line}
			for _, label := range b.labels {
				if t, ok := labelTest(label); ok {
					if t, ok := byKey[t.Key()]; ok {
						g.tests = append(g.tests, t)
						continue
					}
				} else if ts := byType[label]; len(ts) == 1 {
					g.tests = append(g.tests, ts[0])
					continue
				}
				s.warn(edit.file, b.line, "", "%s: %q in the block of line %d names no single test of set %s", path.Join(dir, edit.file), label, b.line, s.Name)
			}
			if len(g.tests) > 0 {
				blocks = append(blocks, g)
			}
		}
	}
	if len(blocks) < 2 && main != nil {
		blocks = nil
		titled := false
		for _, b := range main.blocks {
			titled = titled || b.title != ""
		}
		for _, b := range main.blocks {
			if titled && b.end > b.start {
				g := block{title: b.title, file: main.file, line: main.rows[b.start].line}
				for _, r := range main.rows[b.start:b.end] {
					g.tests = append(g.tests, r.test)
				}
				blocks = append(blocks, g)
			}
		}
	}
	if len(blocks) < 2 {
		return nil
	}
	var out []parse.SysbenchGroup
	used := map[string]int{}
	for _, b := range blocks {
		g := parse.SysbenchGroup{Pos: parse.Pos{File: path.Join(dir, b.file), Line: b.line}, Name: b.title}
		kinds := map[string]int{}
		for _, t := range b.tests {
			g.Tests = append(g.Tests, t.Key())
			kinds[metrics.SysbenchPartOf(t)]++
		}
		if g.Name == "" {
			best := 0
			for _, k := range []string{metrics.PartPoint, metrics.PartRange, metrics.PartRangeAgg, metrics.PartWrites} {
				if kinds[k] > best {
					g.Name, best = k, kinds[k]
				}
			}
		}
		used[g.Name]++
		if used[g.Name] > 1 {
			g.Name += " " + strconv.Itoa(used[g.Name])
		}
		out = append(out, g)
	}
	return out
}
