package diff

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// FuzzNewResultTable reads arbitrary text as an mrg table and compares it
// with itself, with the same values as the merged model would hold them
// (typed, without text), and with a copy whose first row is dropped. It
// must never panic, every cell must keep its text, a table compared with
// itself or its typed twin must never warn or fail, and every finding must
// have a verdict.
func FuzzNewResultTable(f *testing.F) {
	f.Add(testHeader + "\n" + strings.Join(testRow["a"], "\t") + "\n" + strings.Join(testRow["b"], "\t") + "\n")
	f.Add("ips\ttag\n-nan\tpg\ninf\tpg\n\t20m.\n")
	f.Add("ips\tqps\ttag\n1e400\t0x1p3\ta\n-\n0\t0\ta\n")
	f.Add("ips\ttag\n\t0")          // no value at all
	f.Add("ips\t\t\ttag\n\t\t0\t0") // a value in a second column of the same name
	for _, glob := range []string{"mrg.l.i*", "rel.qp*"} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "ibench", "reference", "res", glob))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, input string) {
		pt, err := parse.ReadTable(strings.NewReader(input), "mrg.l.i0")
		if pt == nil {
			t.Fatal("nil table")
		}
		if err != nil && parse.SyntaxErrors(err) == nil {
			t.Fatal(err)
		}
		rt, err := newResultTable("mrg", "l.i0", "mrg.l.i0", pt)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		typed := rt
		typed.Rows, typed.Built = nil, true
		rows, valued := 0, false
		for _, l := range pt.Lines {
			if l.Kind == parse.TableRow {
				r := rt.Rows[rows]
				rows++
				if r.DBMS == "" || seen[r.DBMS] || len(r.Cells) != len(rt.Columns) {
					t.Fatalf("row %+v of columns %q", r, rt.Columns)
				}
				seen[r.DBMS] = true
				tr := ResultRow{DBMS: r.DBMS}
				for i, c := range r.Cells {
					if text, ok := c.Text(); !ok || text != l.Cells[i] {
						t.Fatalf("cell %q read as %+v", l.Cells[i], c)
					}
					// Columns are joined by name: the first of a name counts.
					valued = valued || c.OK() && slices.Index(rt.Columns, rt.Columns[i]) == i
					if c.OK() {
						tr.Cells = append(tr.Cells, metrics.Known(c.V, c.Unit))
					} else {
						tr.Cells = append(tr.Cells, metrics.NA(c.Unit, c.Why))
					}
				}
				typed.Rows = append(typed.Rows, tr)
			}
		}
		rs := &ResultSet{Name: "x", Tables: []ResultTable{rt}}
		c, err := Compare([]*ResultSet{rs}, []*ResultSet{rs}, DefaultCompareOptions())
		if len(rt.Rows) == 0 {
			if err == nil {
				t.Error("a table without rows compared without error")
			}
			return
		}
		if err != nil && errors.Is(err, errMismatch) && !valued {
			return // no value to compare: an error, never a pass
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Findings {
			if f.Verdict == "" || f.Level >= LevelWarn {
				t.Errorf("self comparison: %s %s %s %v", f.DBMS, f.Metric, f.Verdict, f.Level)
			}
		}
		c, err = Compare([]*ResultSet{rs}, []*ResultSet{{Name: "typed", Tables: []ResultTable{typed}}}, DefaultCompareOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Findings {
			if f.Verdict == "" || f.Level >= LevelWarn {
				t.Errorf("file against its typed values: %s %s %s %v", f.DBMS, f.Metric, f.Verdict, f.Level)
			}
		}
		short := rt
		short.Rows = rt.Rows[1:]
		opt := DefaultCompareOptions()
		opt.AllowMissing = true
		c, err = Compare([]*ResultSet{rs}, []*ResultSet{{Name: "y", Tables: []ResultTable{short}}}, opt)
		if len(short.Rows) > 0 && err != nil {
			t.Fatal(err)
		}
		if err == nil && c.Count(VerdictMissing) != 1 {
			t.Errorf("dropping a row gives %d missing findings, want 1", c.Count(VerdictMissing))
		}
	})
}
