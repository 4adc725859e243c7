package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Bad inputs the pipeline fuzzers found: numbers that only a broken or
// edited file gives, which came out negative.
func init() {
	moreBadCases = append(moreBadCases,
		badCase{name: "ps CPU time going down", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.x", "o.ps.dop2"), 1,
				"postgres 11024  0.1  0.1 217120 29332 ?        Ss   21:30   1:00 postgres -D pgdata.c1")
			return []string{"build", "--format", "json", "--cores", "2", w.res, "-o", w.out}
		}, code: 0, stderr: []string{
			"warning: 2m.pg15.c1/l.x/o.ps.dop2: the CPU time of the first sample (60 s) is more than the last's (0 s); DBMS CPU seconds are NA",
		}, check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil || !strings.Contains(string(b), `o.ps.dop2: the CPU time of the first sample (60 s) is more than the last's (0 s); DBMS CPU seconds are NA"`) {
				t.Errorf("the report's notes do not say why the DBMS CPU seconds are NA (%v)", err)
			}
		}},
		badCase{name: "client log times going back", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c2, "qr100.L1", "o.ib.dop2.1"), 10,
				"1.0\t2.5\t100\t92\t100\t92\t23594\t21274\t4344\t2157\t3125\t550\t550\t127680\t0\t0\t0")
			return []string{"build", "--format", "md", "--cores", "2", w.res, "-o", w.out}
		}, code: 0, stderr: []string{
			"warning: 2m.pg15.c2/qr100.L1/o.ib.dop2.1: interval 6 ends at 2.5 s, before interval 5 (5 s); stalls and SLA are NA",
		}, check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil {
				t.Fatal(err)
			}
			_, rows := mdTableUnder(string(b), "### qr100.L1: noise, stalls and SLA")
			for _, r := range rows {
				if len(r) > 1 && r[0] == "pg15.c2" && r[1] != "" && r[1][0] >= '1' && r[1][0] <= '9' && slices.Index(r, "NA") > 0 && len(slices.DeleteFunc(slices.Clone(r), func(c string) bool { return c != "NA" })) == 8 {
					return // the noise row: mean and interval known, stalls and SLA NA
				}
			}
			t.Error("no qr100.L1 noise row of pg15.c2 with stalls and SLA NA")
		}},
	)
}

// iostatCells returns, from a Markdown report, the header and the row of
// tag in the table under heading.
func iostatCells(t *testing.T, md, heading, tag string) (hdr, row []string) {
	t.Helper()
	hdr, rows := mdTableUnder(md, heading)
	for _, r := range rows {
		if len(r) > 0 && r[0] == tag {
			return hdr, r
		}
	}
	t.Fatalf("no %s row under %q", tag, heading)
	return nil, nil
}

// mdTableUnder returns the header and rows of the first Markdown table
// under heading, as the model has them: a table the Markdown transposed
// to fit the page ("(rows and columns swapped …)") is swapped back.
func mdTableUnder(md, heading string) (hdr []string, rows [][]string) {
	lines := strings.Split(md, "\n")
	cells := func(l string) []string {
		f := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f
	}
	for i, l := range lines {
		if l != heading {
			continue
		}
		swapped := false
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(lines[j], "(rows and columns swapped") {
				swapped = true
			}
			if !strings.HasPrefix(lines[j], "| ") {
				continue
			}
			var grid [][]string
			for k := j; k < len(lines) && strings.HasPrefix(lines[k], "|"); k++ {
				if k != j+1 {
					grid = append(grid, cells(lines[k]))
				}
			}
			if swapped {
				t := make([][]string, len(grid[0]))
				for c := range t {
					for _, r := range grid {
						if c < len(r) {
							t[c] = append(t[c], r[c])
						}
					}
				}
				t[0][0] = "dbms"
				grid = t
			}
			return grid[0], grid[1:]
		}
	}
	return nil, nil
}

func init() {
	moreBadCases = append(moreBadCases,
		badCase{name: "iostat files with other columns", setup: func(t *testing.T, w *work) []string {
			// pg15.c1's iostat names two columns the other way round: the
			// values of pg15.c2 must stay under their own names.
			p := w.path(c1, "qr100.L1", "o.io.dop2")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), "rrqm/s  %rrqm", "%rrqm  rrqm/s")), 0o644); err != nil {
				t.Fatal(err)
			}
			return []string{"build", "--format", "md", "--cores", "2", "--device", "vda", w.res, "-o", w.out}
		}, code: 0, check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil {
				t.Fatal(err)
			}
			const heading = "### qr100.L1: iostat averages, all columns"
			_, stdout, _ := runCmd(t, "build", "--format", "md", "--cores", "2", "--device", "vda", example)
			wantHdr, want := iostatCells(t, stdout, heading, "pg15.c2")
			hdr, got := iostatCells(t, string(b), heading, "pg15.c2")
			for _, col := range []string{"rrqm/s", "%rrqm", "r/s", "%util"} {
				i, j := slices.Index(wantHdr, col), slices.Index(hdr, col)
				if i < 0 || j < 0 || want[i] != got[j] {
					t.Errorf("pg15.c2 %s: %v under %v, want %v under %v", col, got, hdr, want, wantHdr)
				}
			}
			if !strings.Contains(string(b), "different columns; each value is under its own column's name") {
				t.Error("no note says the columns differ")
			}
		}},
	)
}

func init() {
	moreBadCases = append(moreBadCases,
		badCase{name: "archive: a column of no known metric beyond 1e15", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			copyDir(t, "../../testdata/ibench/reference/res", arc)
			p := filepath.Join(arc, "mrg.qr100.L1")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			editLine(t, p, 1, strings.Replace(lines[0], "\tcsps\t", "\trsps\t", 1))
			f := strings.Split(lines[1], "\t")
			f[10] = "8E224" // the csps column
			editLine(t, p, 2, strings.Join(f, "\t"))
			return []string{"build", "--format", "md", "--clients", "2", arc, "-o", w.out}
		}, code: 0, stderr: []string{"warning: mrg.qr100.L1:2: rsps: 8e+224 is beyond 1e+15, not a measured value; the cell is NA"},
			check: func(t *testing.T, w *work) {
				b, err := os.ReadFile(w.out)
				if err != nil || strings.Contains(string(b), "| 8E224 |") {
					t.Errorf("a table shows the absurd cell (%v)", err)
				}
			}},
		badCase{name: "archive: a cell that is no number", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			copyDir(t, "../../testdata/ibench/reference/res", arc)
			p := filepath.Join(arc, "mrg.l.i0")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			lines[1] = strings.Replace(lines[1], "\t0.023\t", "\t(-023\t", 1)
			editLine(t, p, 2, lines[1])
			return []string{"build", "--format", "md", "--clients", "2", arc, "-o", w.out}
		}, code: 0, stderr: []string{`warning: mrg.l.i0:2: wpi: "(-023" is not a number; the cell is NA`},
			check: func(t *testing.T, w *work) {
				b, err := os.ReadFile(w.out)
				if err != nil || strings.Contains(string(b), "| (-023 |") {
					t.Errorf("a table shows the damaged cell (%v)", err)
				}
			}},
	)
}
