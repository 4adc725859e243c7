package diff

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// textReaders are the functions of the package that may read numbers
// from text, each a reader of a file a user gives (an archived table, a
// sysbench summary, the settings) or of a flag: text the package did not
// make.
var textReaders = map[string]bool{
	"ReadResultTable":    true, // an archived mrg.<step> or rel.<step>
	"addTable":           true, // the same, from a folder
	"newResultTable":     true, // its rows, read once into values
	"fileCell":           true, // one cell of a user's file
	"parseCell":          true,
	"loadSysbenchTables": true, // qps.abs.*.tsv and o.met.*
	"summaryCell":        true, // a value of the summary tables, with its text
	"settingsRunNoise":   true, // ibreport.settings
	"readTestNoise":      true, // its run-noise.<step>.<metric> keys
	"SetThresholds":      true, // --threshold
}

// writers are the files that print values: text only in the writers.
var writers = map[string]bool{"format.go": true, "text.go": true, "markdown.go": true, "json.go": true}

// TestReadsNoTextOfItsOwnMaking checks the package's source: no file asks
// the report for its rendered tables (MergedTables), only the writers
// print a value (Format), and text is read into numbers (ReadTable,
// ParseFloat, parseCell, fileCell) only by the readers of users' files
// (textReaders). So a table built from raw results reaches Compare as the
// report's typed values, and the gate and the report cannot disagree.
func TestReadsNoTextOfItsOwnMaking(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				checked++
				var fn string
				switch x := call.Fun.(type) {
				case *ast.SelectorExpr:
					fn = x.Sel.Name
				case *ast.Ident:
					fn = x.Name
				}
				at := fset.Position(call.Pos()).String() + " (" + fd.Name.Name + ")"
				switch fn {
				case "MergedTables":
					t.Errorf("%s: reads the report's rendered tables; use Results.Merged, the typed model", at)
				case "Format":
					if !writers[name] {
						t.Errorf("%s: prints a value outside the writers (%s)", at, strings.Join(slices.Sorted(maps.Keys(writers)), " "))
					}
				case "ReadTable", "ParseFloat", "parseCell", "fileCell":
					if !textReaders[fd.Name.Name] {
						t.Errorf("%s: reads a number from text outside the readers of users' files", at)
					}
				}
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("only %d calls checked: the walk missed the package", checked)
	}
}

// TestBuiltCellsAreTheReportsValues checks that the tables of a raw tree
// reach Compare as the report's own typed values: every cell of
// LoadResultSet has the float64 bits and the NA of the same cell of the
// report's merged model (Results.Merged), rows and columns in the same
// order, and none keeps a text but the "1" the rel tables print for 0/0.
// The rel cells are the report's unrounded ratios: some differ from their
// two printed decimals.
func TestBuiltCellsAreTheReportsValues(t *testing.T) {
	const dir = "../testdata/example"
	res, _, err := report.Load(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := res.Merged()
	if err != nil {
		t.Fatal(err)
	}
	rs, _, err := LoadResultSet(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Tables) != len(want) || len(want) == 0 {
		t.Fatalf("%d tables, the report has %d", len(rs.Tables), len(want))
	}
	cells, unrounded := 0, 0
	for i, mt := range want {
		got := rs.Tables[i]
		if got.Kind != mt.Kind || got.Step != mt.Step || !slices.Equal(got.Columns, mt.Columns) || !got.Built || len(got.Rows) != len(mt.Rows) {
			t.Fatalf("table %d: %s.%s %q built %v, %d rows; the report's %s.%s %q, %d rows", i, got.Kind, got.Step, got.Columns, got.Built, len(got.Rows), mt.Kind, mt.Step, mt.Columns, len(mt.Rows))
		}
		for j, row := range mt.Rows {
			g := got.Rows[j]
			if g.DBMS != row.Tag {
				t.Errorf("%s.%s row %d: DBMS %q, the report's %q", mt.Kind, mt.Step, j, g.DBMS, row.Tag)
			}
			for k, v := range row.Cells {
				c := g.Cells[k]
				if math.Float64bits(c.V) != math.Float64bits(v.V) || c.OK() != v.OK() || c.Why != v.Why {
					t.Errorf("%s.%s %s %s: %v (%q), the report's %v (%q)", mt.Kind, mt.Step, row.Tag, mt.Columns[k], c.V, c.Why, v.V, v.Why)
				}
				if text, ok := c.Text(); ok && !(mt.Kind == "rel" && text == "1" && c.V == 1) {
					t.Errorf("%s.%s %s %s: keeps the text %q", mt.Kind, mt.Step, row.Tag, mt.Columns[k], text)
				}
				cells++
				if mt.Kind == "rel" && c.OK() && c.V != metrics.Round(c.V, 2) {
					unrounded++
				}
			}
		}
	}
	// The example has 2 DBMS, 10 steps, 20 columns: a mrg and a rel table
	// per step.
	if cells != 10*20*3 || unrounded == 0 {
		t.Errorf("%d cells compared, %d unrounded rel cells", cells, unrounded)
	}
	// And they are the step's metrics themselves.
	tree := res.Tree("pg15.c2")
	if tree == nil {
		t.Fatal("no tree pg15.c2")
	}
	for _, tb := range rs.Tables {
		if tb.Kind != "mrg" {
			continue
		}
		sr := tree.Step(tb.Step)
		for _, row := range tb.Rows {
			if row.DBMS != "pg15.c2" {
				continue
			}
			for k, col := range tb.Columns {
				m, _ := metrics.MetricByName(col)
				if v := sr.Metrics[m]; math.Float64bits(v.V) != math.Float64bits(row.Cells[k].V) {
					t.Errorf("mrg.%s pg15.c2 %s: %v, the step's %v", tb.Step, col, row.Cells[k].V, v.V)
				}
			}
		}
	}
}

// TestBuiltSysbenchCellsAreTheRunsValues checks the same for raw sysbench
// folders: each sb cell is the run's typed value (QPS, HW per operation),
// and each sbgroup cell the geometric mean of the unrounded QPS.
func TestBuiltSysbenchCellsAreTheRunsValues(t *testing.T) {
	const dir = "../testdata/sysbench/raw"
	res, _, err := report.Load(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rs, _, err := LoadResultSet(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set := res.Sysbench
	qps := map[string]float64{}
	n, groups := 0, 0
	for _, nt := range set.Threads {
		for _, test := range set.Tests {
			for _, d := range set.DBMS {
				r := d.Result(test.Sfx, nt)
				if r == nil || test.Warmup() {
					continue
				}
				step := sbStep(test, nt)
				tb := tablesOf([]*ResultSet{rs}, "sb", step)
				if len(tb) != 1 {
					t.Fatalf("no sb table %s", step)
				}
				want := []metrics.Value{r.QPS, r.HW.CPUPerOp, r.HW.CsPerOp, r.HW.ReadsPerOp, r.HW.ReadKBPerOp, r.HW.WriteKBPerOp}
				rows := rowsOf(tb, d.Name)
				if len(rows) != 1 {
					t.Fatalf("sb.%s: no row %s", step, d.Name)
				}
				for k, v := range want {
					if c := rows[0].row.Cells[k]; math.Float64bits(c.V) != math.Float64bits(v.V) || c.OK() != v.OK() {
						t.Errorf("sb.%s %s %s: %v, the run's %v", step, d.Name, tb[0].Columns[k], c.V, v.V)
					}
					n++
				}
				qps[step+"\x00"+d.Name] = r.QPS.V
			}
		}
	}
	for _, tb := range rs.Tables {
		if tb.Kind != "sbgroup" {
			continue
		}
		for _, row := range tb.Rows {
			sum := 0.0
			for _, m := range tb.Members {
				sum += math.Log(qps[m+"\x00"+row.DBMS])
			}
			want := math.Exp(sum / float64(len(tb.Members)))
			if got := row.Cells[0]; !got.OK() || math.Abs(got.V-want) > 1e-9*want {
				t.Errorf("sbgroup.%s %s: %v, want the mean of the unrounded QPS %v", tb.Step, row.DBMS, got.V, want)
			}
			groups++
		}
	}
	if n == 0 || groups == 0 {
		t.Fatalf("%d sb cells, %d group cells compared", n, groups)
	}
}

// TestFileCellsKeepTheirText checks that the cells of an archived table
// are read once into values that keep the file's text, and are printed
// with it.
func TestFileCellsKeepTheirText(t *testing.T) {
	in := "ips\tqps\tcpupq\ttag\n1000.50\tNA\t\t2m.a\n"
	rt, err := ReadResultTable(strings.NewReader(in), "mrg", "l.i0", "mrg.l.i0")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text string
		ok   bool
		v    float64
	}{{"1000.50", true, 1000.5}, {"NA", false, 0}, {"", false, 0}}
	cells := rt.Rows[0].Cells
	for i, w := range want {
		text, has := cells[i].Text()
		if !has || text != w.text || cells[i].OK() != w.ok || w.ok && cells[i].V != w.v || valueText(cells[i], 0) != w.text {
			t.Errorf("cell %d: %+v (text %q), want %q", i, cells[i], text, w.text)
		}
	}
	if rt.Rows[0].DBMS != "a" || cells[0].Unit != metrics.InsertsPerSec {
		t.Errorf("row %q, unit %q", rt.Rows[0].DBMS, cells[0].Unit)
	}
	if d := resolution(cellRef{cells[0], false}, 0); d != 2 {
		t.Errorf("resolution of 1000.50: %d decimals, want 2 (its text's)", d)
	}
	if d := resolution(cellRef{metrics.Known(1000.5, metrics.InsertsPerSec), true}, columnDigits("mrg", "ips")); d != 0 {
		t.Errorf("resolution of a built ips: %d decimals, want 0 (the column's)", d)
	}
	if d := resolution(cellRef{metrics.Known(1000.25, metrics.NoUnit), true}, columnDigits("mrg", "p50")); d != 2 {
		t.Errorf("resolution of a built p50: %d decimals, want 2 (its shortest text)", d)
	}
	// 0/0 of a rel table keeps the text "1" the tables print; it is a
	// value of the model, as precise as the column.
	if d := resolution(cellRef{metrics.Known(1, metrics.RatioUnit).Printed("1"), true}, columnDigits("rel", "qps")); d != 2 {
		t.Errorf("resolution of a built 0/0: %d decimals, want 2 (the column's)", d)
	}
}
