package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// reference is the archived mrg/rel tables the original pipeline wrote.
const reference = "../../testdata/ibench/reference/res"

// The fixture's rows of mrg.l.i0: pg15.c1 is the base, pg15.c2 the other.
const (
	arcRowC1 = "86956\t0\t11\t1.1\t2009.3\t29.0\t0.000\t0.013\t0.023\t0.341\t13058\t60.5\t0.150\t14\t0.2\t0.6\t0.0\t0.026\t91420\t26996\tpg15.c1"
	arcRowC2 = "111111\t0\t16\t0.2\t75.1\t36.3\t0.000\t0.002\t0.001\t0.335\t13540\t63.4\t0.122\t11\t0.2\t0.6\t0.0\t0.006\tNA\tNA\tpg15.c2"
)

// withCell is an archived row with the cell of column col (0-based)
// replaced.
func withCell(row string, col int, text string) string {
	c := strings.Split(row, "\t")
	c[col] = text
	return strings.Join(c, "\t")
}

// archiveCase sets up a copy of the reference archive in arc with line n
// of mrg.l.i0 replaced, and returns the command line args(arc, out).
func archiveCase(n int, line string, args func(arc, out string) []string) func(t *testing.T, w *work) []string {
	return func(t *testing.T, w *work) []string {
		arc := filepath.Join(w.dir, "arc")
		copyDir(t, reference, arc)
		editLine(t, filepath.Join(arc, "mrg.l.i0"), n, line)
		return args(arc, w.out)
	}
}

// archiveUnchanged checks that the edited mrg.l.i0 of an archive case is
// as its setup left it.
func archiveUnchanged(t *testing.T, w *work, n int, line string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reference, "mrg.l.i0"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[n-1] = line
	unchanged("arc/mrg.l.i0", strings.Join(lines, "\n"))(t, w)
}

// relCell is a cell of a rel.<step> file the case wrote.
func relCell(t *testing.T, w *work, step, tag, col string) string {
	return cell(t, filepath.Join(w.out, "rel."+step), tag, col)
}

// jsonReport is what the cases read of a JSON report.
type jsonReport struct {
	Summary, Relative jsonTable
	Sections          []struct {
		Metrics    jsonTable
		Efficiency *jsonTable
	}
	Bullets []struct{ Text string }
	Notes   []struct{ Kind, Text string }
}

type jsonTable struct {
	Rows []struct {
		Cells []struct {
			Text string
			NA   string
		}
	}
}

func readReport(t *testing.T, p string) jsonReport {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// noAbsurdFindings checks that no finding cites inf or a number of
// hundreds of digits.
func noAbsurdFindings(t *testing.T, r jsonReport) {
	t.Helper()
	for _, b := range r.Bullets {
		if strings.Contains(b.Text, "inf") || strings.Contains(b.Text, "e+") || len(b.Text) > 300 {
			t.Errorf("finding cites an absurd number: %s", b.Text)
		}
	}
}

func init() {
	tables := func(arc, out string) []string { return []string{"tables", "--quiet", arc, "-o", out} }
	compatTables := func(arc, out string) []string { return []string{"tables", "--quiet", "--compat", arc, "-o", out} }
	build := func(arc, out string) []string { return []string{"build", "--format", "json", arc, "-o", out} }
	neg := withCell(arcRowC1, 0, "-5")
	huge := withCell(arcRowC2, 0, "1e300")
	zero := withCell(arcRowC1, 0, "0")
	moreBadCases = append(moreBadCases,
		badCase{name: "archive: negative base ips", setup: archiveCase(2, neg, tables),
			stderr: []string{"mrg.l.i0:2: ips: -5 is negative, not a rate; the cell is NA"},
			check: func(t *testing.T, w *work) {
				if got := relCell(t, w, "l.i0", "pg15.c2", "ips"); got != "NA" {
					t.Errorf("rel.l.i0 pg15.c2 ips = %q, want NA", got)
				}
				if got := relCell(t, w, "l.i0", "pg15.c2", "qps"); got != "1" {
					t.Errorf("rel.l.i0 pg15.c2 qps = %q, want 1 (0/0)", got)
				}
				archiveUnchanged(t, w, 2, neg)
			}},
		badCase{name: "archive: ips 1e300 in the report", setup: archiveCase(3, huge, build),
			stderr: []string{"mrg.l.i0:3: ips: 1e+300 is beyond 1e+15, not a rate; the cell is NA"},
			check: func(t *testing.T, w *work) {
				r := readReport(t, w.out)
				// Summary and relative rows: pg15.c1, pg15.c2; column 1 is l.i0.
				if c := r.Summary.Rows[1].Cells[1]; c.Text != "NA" || c.NA != "mrg.l.i0:3: ips: 1e+300 is beyond 1e+15, not a rate" {
					t.Errorf("summary l.i0 of pg15.c2: %+v", c)
				}
				if c := r.Relative.Rows[1].Cells[1]; c.Text != "NA" {
					t.Errorf("relative l.i0 of pg15.c2: %+v", c)
				}
				if c := r.Sections[0].Metrics.Rows[1].Cells[1]; c.Text != "NA" {
					t.Errorf("l.i0 metrics ips of pg15.c2: %+v", c)
				}
				noAbsurdFindings(t, r)
				archiveUnchanged(t, w, 3, huge)
			}},
		badCase{name: "archive: base ips 0", setup: archiveCase(2, zero, build),
			stderr: []string{"warning: l.i0: pg15.c2 ips relative to pg15.c1 is NA: base ips is 0"},
			check: func(t *testing.T, w *work) {
				r := readReport(t, w.out)
				if c := r.Relative.Rows[1].Cells[1]; c.Text != "NA" || c.NA != "base ips is 0" {
					t.Errorf("relative l.i0 of pg15.c2: %+v, want NA: base ips is 0", c)
				}
				if c := r.Sections[0].Efficiency.Rows[0].Cells[1]; c.Text != "NA" || c.NA != "base ips is 0" {
					t.Errorf("l.i0 efficiency ips of pg15.c2: %+v, want NA: base ips is 0", c)
				}
				for _, b := range r.Bullets {
					if strings.Contains(b.Text, "l.i0") {
						t.Errorf("finding cites l.i0: %s", b.Text)
					}
				}
				noAbsurdFindings(t, r)
				archiveUnchanged(t, w, 2, zero)
			}},
		badCase{name: "archive: base ips 0 in rel tables", setup: archiveCase(2, zero, tables),
			stderr: []string{"rel.l.i0: pg15.c2 ips is NA: base ips is 0"},
			check: func(t *testing.T, w *work) {
				if got := relCell(t, w, "l.i0", "pg15.c2", "ips"); got != "NA" {
					t.Errorf("rel.l.i0 pg15.c2 ips = %q, want NA", got)
				}
				archiveUnchanged(t, w, 2, zero)
			}},
		// Compat mode's report has the NA cell, not a 297-digit ratio.
		badCase{name: "archive: compat report of ips 1e300", setup: archiveCase(3, huge, func(arc, out string) []string {
			return []string{"build", "--compat", "--format", "json", arc, "-o", out}
		}),
			stderr: []string{"mrg.l.i0:3: ips: 1e+300 is beyond 1e+15, not a rate; the report shows NA, the tables keep the original's reading"},
			check: func(t *testing.T, w *work) {
				r := readReport(t, w.out)
				if c := r.Summary.Rows[1].Cells[1]; c.Text != "NA" {
					t.Errorf("summary l.i0 of pg15.c2: %+v", c)
				}
				if c := r.Relative.Rows[1].Cells[1]; c.Text != "NA" {
					t.Errorf("relative l.i0 of pg15.c2: %+v", c)
				}
				noAbsurdFindings(t, r)
				archiveUnchanged(t, w, 3, huge)
			}},
		badCase{name: "archive: compat report of a base ips of 1e-300", setup: archiveCase(2, withCell(arcRowC1, 0, "1e-300"), func(arc, out string) []string {
			return []string{"build", "--compat", "--format", "json", arc, "-o", out}
		}),
			check: func(t *testing.T, w *work) {
				r := readReport(t, w.out)
				if c := r.Relative.Rows[1].Cells[1]; c.Text != "NA" || c.NA != "ips relative to its base: 1.11111e+305 is beyond 1e+15, not a ratio" {
					t.Errorf("relative l.i0 of pg15.c2: %+v", c)
				}
				noAbsurdFindings(t, r)
				archiveUnchanged(t, w, 2, withCell(arcRowC1, 0, "1e-300"))
			}},
		// Compat mode writes what sum_met.awk wrote for these lines.
		badCase{name: "archive: compat keeps the original's inf", setup: archiveCase(2, zero, compatTables),
			check: func(t *testing.T, w *work) {
				if got := relCell(t, w, "l.i0", "pg15.c2", "ips"); got != "inf" {
					t.Errorf("rel.l.i0 pg15.c2 ips = %q, want inf", got)
				}
				archiveUnchanged(t, w, 2, zero)
			}},
		badCase{name: "archive: compat keeps the original's ratio to -5", setup: archiveCase(2, neg, compatTables),
			stderr: []string{"mrg.l.i0:2: ips: -5 is negative, not a rate; the report shows NA, the tables keep the original's reading"},
			check: func(t *testing.T, w *work) {
				if got := relCell(t, w, "l.i0", "pg15.c2", "ips"); got != "-22222.20" {
					t.Errorf("rel.l.i0 pg15.c2 ips = %q, want -22222.20", got)
				}
				archiveUnchanged(t, w, 2, neg)
			}},
	)
}

// seriesGroup is what the series cases read of a series report.
type seriesGroup struct {
	Title   string
	Changes []struct {
		Test          string
		Index         int
		Before, After *float64
	}
	Heat struct {
		jsonTable
		Notes []string
	}
}

func init() {
	// Ten nightly archives; the first run inserted nothing, the level of
	// pg15.c1's l.i0 shifts by half at the sixth.
	ips := []string{"0", "86956", "87500", "86500", "87100", "130000", "131000", "129500", "130400", "130900"}
	moreBadCases = append(moreBadCases, badCase{name: "series: first member with ips 0",
		setup: func(t *testing.T, w *work) []string {
			args := []string{"series", "--format", "json", "-o", w.out}
			for i, v := range ips {
				d := filepath.Join(w.dir, fmt.Sprintf("n%02d", i+1))
				copyDir(t, reference, d)
				editLine(t, filepath.Join(d, "mrg.l.i0"), 2, withCell(arcRowC1, 0, v))
				args = append(args, d)
			}
			return args
		},
		stderr: []string{"warning: n01: the client count is unknown for archived results"},
		check: func(t *testing.T, w *work) {
			b, err := os.ReadFile(w.out)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Series struct{ Groups []seriesGroup }
			}
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			g := r.Series.Groups[0]
			if g.Title != "Insert benchmark: pg15.c1" {
				t.Fatalf("first group %q", g.Title)
			}
			var heat []string
			for _, c := range g.Heat.Rows[0].Cells {
				heat = append(heat, c.Text)
			}
			want := []string{"l.i0", "0.00", "1.00", "1.01", "0.99", "1.00", "1.50", "1.51", "1.49", "1.50", "1.51"}
			if !slices.Equal(heat, want) {
				t.Errorf("heat %q, want %q", heat, want)
			}
			for _, note := range []string{"l.i0: relative to 2 n02, the first member with a value above 0 (1 n01 has 0).",
				"l.i0, 1 n01: 0, a run that did nothing: left out of the change points."} {
				if !slices.Contains(g.Heat.Notes, note) {
					t.Errorf("notes %q lack %q", g.Heat.Notes, note)
				}
			}
			if len(g.Changes) != 1 || g.Changes[0].Test != "l.i0" || g.Changes[0].Index != 5 ||
				g.Changes[0].Before == nil || g.Changes[0].After == nil || *g.Changes[0].After < 1.4 {
				t.Errorf("changes %+v, want l.i0 at n06 relative to n02", g.Changes)
			}
			b, err = os.ReadFile(filepath.Join(w.dir, "n01", "mrg.l.i0"))
			if err != nil || !strings.Contains(string(b), "\n0\t0\t11\t") {
				t.Errorf("n01/mrg.l.i0 changed: %q, %v", b, err)
			}
		}})
}

func init() {
	moreBadCases = append(moreBadCases, badCase{name: "base DBMS with an empty step folder keeps the delete histogram",
		setup: func(t *testing.T, w *work) []string {
			ents, _ := os.ReadDir(w.path(c1, "l.i1"))
			for _, e := range ents {
				os.Remove(w.path(c1, "l.i1", e.Name()))
			}
			return w.tables()
		},
		stderr: []string{c1 + " l.i1: no delete histogram", c1 + " l.i1: no insert histogram", c1 + "/l.i1: no client logs"},
		check: func(t *testing.T, w *work) {
			rt := filepath.Join(w.out, "mrg.l.i1.rt.delete")
			for _, tc := range []struct{ tag, col, want string }{
				{"pg15.c1", "256us", "NA"}, {"pg15.c1", "max", "NA"},
				{"pg15.c2", "256us", "0.688"}, {"pg15.c2", "1ms", "95.433"}, {"pg15.c2", "max", "0.083"},
			} {
				if got := cell(t, rt, tc.tag, tc.col); got != tc.want {
					t.Errorf("mrg.l.i1.rt.delete %s %s = %q, want %q", tc.tag, tc.col, got, tc.want)
				}
			}
			if got := cell(t, filepath.Join(w.out, "mrg.l.i1.rt.insert"), "pg15.c1", "max"); got != "NA" {
				t.Errorf("mrg.l.i1.rt.insert pg15.c1 max = %q, want NA", got)
			}
			if ents, err := os.ReadDir(w.path(c1, "l.i1")); err != nil || len(ents) != 0 {
				t.Errorf("%s/l.i1 changed: %v, %v", c1, ents, err)
			}
		}})
}
