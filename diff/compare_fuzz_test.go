package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// FuzzNewResultTable reads arbitrary text as an mrg table and compares it
// with itself and with a copy whose first row is dropped. It must never
// panic, a table compared with itself must never warn or fail, and every
// finding must have a verdict.
func FuzzNewResultTable(f *testing.F) {
	f.Add(testHeader + "\n" + strings.Join(testRow["a"], "\t") + "\n" + strings.Join(testRow["b"], "\t") + "\n")
	f.Add("ips\ttag\n-nan\tpg\ninf\tpg\n\t20m.\n")
	f.Add("ips\tqps\ttag\n1e400\t0x1p3\ta\n-\n0\t0\ta\n")
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
		for _, r := range rt.Rows {
			if r.DBMS == "" || seen[r.DBMS] || len(r.Cells) != len(rt.Columns) {
				t.Fatalf("row %+v of columns %q", r, rt.Columns)
			}
			seen[r.DBMS] = true
		}
		rs := &ResultSet{Name: "x", Tables: []ResultTable{rt}}
		c, err := Compare([]*ResultSet{rs}, []*ResultSet{rs}, DefaultCompareOptions())
		if len(rt.Rows) == 0 {
			if err == nil {
				t.Error("a table without rows compared without error")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range c.Findings {
			if f.Verdict == "" || f.Level >= LevelWarn {
				t.Errorf("self comparison: %s %s %s %v", f.DBMS, f.Metric, f.Verdict, f.Level)
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
