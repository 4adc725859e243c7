package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dec2020 is a trimmed copy of a December 2020 sysbench study: gzipped
// sb.o files in folders named fbmy56 and fbmy80, and the per-file QPS
// summaries o.sum.rx.abs / o.sum.rx.rel of that time (see
// testdata/arc/README.md).
const dec2020 = "../../testdata/arc/sysbench.dec2020/myrocks.inmem"

// qpsBlocks splits a per-file summary (sumr.sh blocks: the sb.r.qps file
// name, then one row per DBMS) into rows by block and DBMS, keeping the
// first n fields of each row. The archived rows name the DBMS by the
// folder it had when the summary was written (x.fbmy56.x6a.pk1), the
// copy by the name it has now (fbmy56): the DBMS is the name's second
// dot-separated part when it starts with "x.".
//
// The archived relative rows end with the rest of the other DBMS's sb.r
// line instead of its name: with byRow, rows are keyed by position.
func qpsBlocks(t *testing.T, file string, n int, byRow bool) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, blk := range strings.Split(string(b), "\n\n") {
		lines := strings.Split(strings.Trim(blk, "\n"), "\n")
		if len(lines) < 2 {
			continue
		}
		rows := map[string]string{}
		for i, l := range lines[1:] {
			f := strings.Split(l, "\t")
			if len(f) < 2 {
				t.Fatalf("%s: short row %q", file, l)
			}
			// A test run at one thread count (point-query.warm) has
			// fewer values: the row keeps what it has.
			dbms := f[len(f)-1]
			if p := strings.Split(dbms, "."); len(p) > 2 && p[0] == "x" {
				dbms = p[1]
			}
			if byRow {
				dbms = fmt.Sprintf("row %d", i+1)
			}
			rows[dbms] = strings.Join(f[:min(n, len(f)-1)], "\t")
		}
		out[lines[0]] = rows
	}
	return out
}

// TestDec2020Summaries rebuilds the QPS summaries of the December 2020
// study from its gzipped sb.o files: every value of o.sum.rx.abs and
// o.sum.rx.rel (4 thread counts per test) for the tests the copy keeps.
// The archive's layout differs in what is not a value: its rows end with
// the sb.r label text and with the folder names of the time, which the
// comparison leaves out (see qpsBlocks). o.met.rx cannot be rebuilt: the
// study archived no vmstat or iostat files.
func TestDec2020Summaries(t *testing.T) {
	for _, mode := range [][]string{{"--compat"}, nil} {
		out := t.TempDir()
		args := append(append([]string{"tables"}, mode...), "--cores", "4", dec2020, "-o", out)
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", mode, code, stderr)
		}
		for _, c := range []struct {
			ours, archived string
			byRow          bool
		}{
			{"o.qps.abs.sb.jan21", "o.sum.rx.abs", false},
			{"o.qps.rel.sb.jan21", "o.sum.rx.rel", true},
		} {
			got := qpsBlocks(t, filepath.Join(out, c.ours), 4, c.byRow)
			want := qpsBlocks(t, filepath.Join(dec2020, c.archived), 4, c.byRow)
			compared := 0
			for name, rows := range got {
				w, ok := want[name]
				if !ok {
					t.Errorf("%v %s: block %s is not in %s", mode, c.ours, name, c.archived)
					continue
				}
				for dbms, row := range rows {
					if w[dbms] != row {
						t.Errorf("%v %s %s %s: got %q, archived %q", mode, c.ours, name, dbms, row, w[dbms])
					}
					compared++
				}
				if len(rows) != len(w) {
					t.Errorf("%v %s %s: %d rows, archived %d", mode, c.ours, name, len(rows), len(w))
				}
			}
			// 4 tests: two DBMS rows each in abs, one in rel.
			if wantN := map[string]int{"o.sum.rx.abs": 8, "o.sum.rx.rel": 4}[c.archived]; compared != wantN {
				t.Errorf("%v %s: %d rows compared, want %d", mode, c.ours, compared, wantN)
			}
		}
	}
}
