package report_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

// TestMergedIsWhatTheTablesPrint checks that the typed tables of the
// merged model (Results.Merged) are what MergedTables prints, in default
// and compat mode: the same tables, steps, columns and rows in the same
// order, each cell printing as the file holds it (the mrg tables' digits,
// two decimals for ratios, the text "1" of 0/0; in compat mode the text
// the scripts printed), with the same warnings.
func TestMergedIsWhatTheTablesPrint(t *testing.T) {
	for _, compat := range []bool{false, true} {
		t.Run(fmt.Sprint("compat=", compat), func(t *testing.T) {
			res, _, err := report.Load("../testdata/example", report.LoadOptions{Metrics: metrics.Options{Compat: compat}})
			if err != nil {
				t.Fatal(err)
			}
			typed, twarns, err := res.Merged()
			if err != nil {
				t.Fatal(err)
			}
			files, fwarns, err := res.MergedTables()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(twarns) != fmt.Sprint(fwarns) {
				t.Errorf("warnings %q, the files' %q", twarns, fwarns)
			}
			if len(typed) != len(files) || len(typed) == 0 {
				t.Fatalf("%d typed tables, %d files", len(typed), len(files))
			}
			cells := 0
			for i, mt := range typed {
				f := files[i]
				if f.Name != mt.Kind+"."+mt.Step {
					t.Fatalf("table %d: %s.%s, file %s", i, mt.Kind, mt.Step, f.Name)
				}
				pt, _ := parse.ReadTable(bytes.NewReader(f.Data), f.Name)
				if fmt.Sprint(pt.Header) != fmt.Sprint(append(append([]string(nil), mt.Columns...), "tag")) {
					t.Fatalf("%s: header %q, columns %q", f.Name, pt.Header, mt.Columns)
				}
				var rows []parse.TableLine
				for _, l := range pt.Lines {
					if l.Kind == parse.TableRow {
						rows = append(rows, l)
					}
				}
				if len(rows) != len(mt.Rows) {
					t.Fatalf("%s: %d rows, %d typed", f.Name, len(rows), len(mt.Rows))
				}
				for j, r := range mt.Rows {
					l := rows[j]
					if tag := l.Cells[len(l.Cells)-1]; tag != r.Tag {
						t.Errorf("%s row %d: tag %q, typed %q", f.Name, j, tag, r.Tag)
					}
					for k, v := range r.Cells {
						if got, want := printed(mt, k, v), l.Cells[k]; got != want {
							t.Errorf("%s %s %s: typed %v prints %q, the file has %q", f.Name, r.Tag, mt.Columns[k], v.V, got, want)
						}
						cells++
					}
				}
			}
			if cells != 10*20*3 {
				t.Errorf("%d cells compared, want 600", cells)
			}
		})
	}
}

// printed is a typed cell as the tables print it.
func printed(mt report.MergedTable, k int, v metrics.Value) string {
	if mt.Kind == "rel" {
		return v.Format(2)
	}
	m, _ := metrics.MetricByName(mt.Columns[k])
	return v.Format(m.MergeDigits())
}

// TestMergedNilSafe checks Merged on nil and archived results.
func TestMergedNilSafe(t *testing.T) {
	var r *report.Results
	if tables, warns, err := r.Merged(); tables != nil || warns != nil || err != nil {
		t.Errorf("nil Results: %v %v %v", tables, warns, err)
	}
	res, _, err := report.Load("../testdata/ibench/reference/res", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tables, _, err := res.Merged(); tables != nil || err != nil {
		t.Errorf("archived folder: %d tables, %v", len(tables), err)
	}
}

// The typed mrg and rel tables of raw trees: what `ibreport tables`
// prints, before it is printed, and what `ibreport diff` compares. The
// rel cells are the unrounded ratios.
func ExampleResults_Merged() {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tables, _, err := res.Merged()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, mt := range tables[:2] {
		r := mt.Rows[0]
		fmt.Println(mt.Kind, mt.Step, r.Tag, mt.Columns[0], r.Cells[0].V, r.Cells[0].Unit)
	}
	// Output:
	// mrg l.i0 pg15.c1 ips 86956.52173913043 inserts/s
	// rel l.i0 pg15.c2 ips 1.277777777777778 ratio
}
