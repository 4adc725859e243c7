package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
)

// archiveFS is the fixture's archived mrg tables with one line of one
// file replaced (n is 1-based).
func archiveFS(t *testing.T, file string, n int, line string) fstest.MapFS {
	t.Helper()
	const dir = "../testdata/ibench/reference/res"
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == file {
			lines := strings.Split(string(b), "\n")
			lines[n-1] = line
			b = []byte(strings.Join(lines, "\n"))
		}
		fsys[e.Name()] = &fstest.MapFile{Data: b}
	}
	return fsys
}

// mrgRow is a row of the fixture's mrg tables with the cell of column col
// (0-based) replaced.
func mrgRow(row string, col int, text string) string {
	c := strings.Split(row, "\t")
	c[col] = text
	return strings.Join(c, "\t")
}

const (
	li0c1 = "86956\t0\t11\t1.1\t2009.3\t29.0\t0.000\t0.013\t0.023\t0.341\t13058\t60.5\t0.150\t14\t0.2\t0.6\t0.0\t0.026\t91420\t26996\tpg15.c1"
	li0c2 = "111111\t0\t16\t0.2\t75.1\t36.3\t0.000\t0.002\t0.001\t0.335\t13540\t63.4\t0.122\t11\t0.2\t0.6\t0.0\t0.006\tNA\tNA\tpg15.c2"
)

// TestArchivePlausible makes one archived cell implausible: the default
// mode makes it NA with a warning naming file:line and column, in the
// report's tables and findings and in rel.<step>; compat mode keeps the
// original's reading of it.
func TestArchivePlausible(t *testing.T) {
	for _, tc := range []struct {
		name   string
		line   int
		row    string
		col    string
		warn   string
		relCol string // the rel.l.i0 cell of pg15.c2 in that column
		rel    string
	}{
		{"negative base ips", 2, mrgRow(li0c1, 0, "-5"), "ips",
			"mrg.l.i0:2: ips: -5 is negative, not a rate; the cell is NA", "ips", "NA"},
		{"1e300 ips", 3, mrgRow(li0c2, 0, "1e300"), "ips",
			"mrg.l.i0:3: ips: 1e+300 is beyond 1e+15, not a rate; the cell is NA", "ips", "NA"},
		{"cpups above 100", 3, mrgRow(li0c2, 11, "163.4"), "cpups",
			"mrg.l.i0:3: cpups: 163.4 is more than 100, not a percentage; the cell is NA", "cpups", "NA"},
		{"negative maxop", 2, mrgRow(li0c1, 17, "-0.026"), "maxop",
			"mrg.l.i0:2: maxop: -0.026 is negative, not a duration; the cell is NA", "maxop", "NA"},
		{"huge rss", 3, mrgRow(li0c2, 16, "1e300"), "rss",
			"mrg.l.i0:3: rss: 1e+300 is beyond 1e+15, not a size; the cell is NA", "rss", "NA"},
		{"negative wkbpi", 3, mrgRow(li0c2, 9, "-0.335"), "wkbpi",
			"mrg.l.i0:3: wkbpi: -0.335 is negative, not a count; the cell is NA", "wkbpi", "NA"},
		{"a cell that is no number", 2, mrgRow(li0c1, 8, "(-023"), "wpi",
			`mrg.l.i0:2: wpi: "(-023" is not a number; the cell is NA`, "wpi", "NA"},
		{"base rps of 0", 2, mrgRow(li0c1, 2, "0"), "",
			"rel.l.i0: pg15.c2 rps is NA: base rps is 0", "rps", "NA"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := archiveFS(t, "mrg.l.i0", tc.line, tc.row)
			res, _, err := LoadFS(fsys, ".", LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			files, warns, err := res.Tables(nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(warns, []string{tc.warn}) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
			for _, f := range files {
				if f.Name != "rel.l.i0" {
					continue
				}
				lines := strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
				hdr, row := strings.Split(lines[0], "\t"), strings.Split(lines[1], "\t")
				if i := slices.Index(hdr, tc.relCol); row[i] != tc.rel {
					t.Errorf("rel.l.i0 %s = %q, want %q:\n%s", tc.relCol, row[i], tc.rel, f.Data)
				}
				if strings.Contains(string(f.Data), "inf") || strings.Contains(string(f.Data), "e+") {
					t.Errorf("rel.l.i0 cites an absurd number:\n%s", f.Data)
				}
			}
			rep, err := Build(res, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.col != "" && !slices.Contains(metrics.WarningTexts(rep.Notes), tc.warn) {
				t.Errorf("notes %q lack %q", rep.Notes, tc.warn)
			}
			if tc.col != "" {
				sec := rep.Sections[0]
				if sec.Step.Name != "l.i0" {
					t.Fatalf("first section %s", sec.Step.Name)
				}
				i := slices.Index(sec.Metrics.Header, tc.col)
				var got []string
				for _, r := range sec.Metrics.Rows {
					got = append(got, r.Cells[i].Text)
				}
				if !slices.Contains(got, "NA") {
					t.Errorf("l.i0 metrics %s: %q, want an NA", tc.col, got)
				}
			}
			for _, b := range rep.Bullets {
				if strings.Contains(b.Text, "e+") || strings.Contains(b.Text, "inf") || len(b.Text) > 300 {
					t.Errorf("finding cites an absurd number: %s", b.Text)
				}
			}

			// Compat mode's tables are the original's (sum_met.awk of
			// the lines); its report has the NA cell all the same.
			cres, _, err := LoadFS(fsys, ".", LoadOptions{Metrics: metrics.Options{Compat: true}})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if tc.col != "" {
				want = []string{strings.TrimSuffix(tc.warn, "; the cell is NA") + "; the report shows NA, the tables keep the original's reading"}
			}
			if _, warns, err := cres.Tables(nil); err != nil || !slices.Equal(warns, want) {
				t.Errorf("compat: warnings %q, %v; want %q", warns, err, want)
			}
			crep, err := Build(cres, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.col != "" {
				sec := crep.Sections[0]
				i := slices.Index(sec.Metrics.Header, tc.col)
				var got []string
				for _, r := range sec.Metrics.Rows {
					got = append(got, r.Cells[i].Text)
				}
				if !slices.Contains(got, "NA") {
					t.Errorf("compat: l.i0 metrics %s: %q, want an NA", tc.col, got)
				}
			}
			for _, row := range crep.Relative.Rows {
				for _, c := range row.Cells {
					if len(c.Text) > 12 {
						t.Errorf("compat: relative cell %q", c.Text)
					}
				}
			}
		})
	}
}

// TestArchiveRatioBase checks the findings and relative cells of a base
// whose throughput is 0 or tiny: NA with the reason, never inf or hundreds
// of digits.
func TestArchiveRatioBase(t *testing.T) {
	for _, tc := range []struct {
		name, ips, why string
	}{
		{"base ips 0", "0", "base ips is 0"},
		{"base ips 1e-300", "1e-300", "ips relative to its base: 1.11111e+305 is beyond 1e+15, not a ratio"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, _, err := LoadFS(archiveFS(t, "mrg.l.i0", 2, mrgRow(li0c1, 0, tc.ips)), ".", LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Build(res, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if note := "l.i0: pg15.c2 ips relative to pg15.c1 is NA: " + tc.why; !slices.Contains(metrics.WarningTexts(rep.Notes), note) {
				t.Errorf("notes %q lack %q", rep.Notes, note)
			}
			c := rep.Relative.Rows[1].Cells[1]
			if c.Text != "NA" || c.Value != nil || c.NA != tc.why {
				t.Errorf("relative l.i0 of pg15.c2: %+v, want NA because %s", c, tc.why)
			}
			for _, b := range rep.Bullets {
				if strings.Contains(b.Text, "l.i0") || strings.Contains(b.Text, "e+") || strings.Contains(b.Text, "inf") {
					t.Errorf("finding cites l.i0: %s", b.Text)
				}
			}
		})
	}
}

// TestArchiveLongNumberText: an archived number written with hundreds of
// digits keeps its value, and the report shows it rounded, with a warning,
// in both modes.
func TestArchiveLongNumberText(t *testing.T) {
	text := "36.3" + strings.Repeat("0", 100)
	fsys := archiveFS(t, "mrg.l.i0", 3, mrgRow(li0c2, 5, text))
	want := "mrg.l.i0:3: wmbps: a number written with 104 characters; the report shows it rounded"
	for _, compat := range []bool{false, true} {
		res, _, err := LoadFS(fsys, ".", LoadOptions{Metrics: metrics.Options{Compat: compat}})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Build(res, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(metrics.WarningTexts(rep.Notes), want) {
			t.Errorf("compat=%v: notes %q lack %q", compat, rep.Notes, want)
		}
		sec := rep.Sections[0]
		i := slices.Index(sec.Metrics.Header, "wmbps")
		for _, r := range sec.Metrics.Rows {
			if c := r.Cells[i]; len(c.Text) > 12 || c.Value == nil && c.Text != "NA" {
				t.Errorf("compat=%v: wmbps cell %q", compat, c.Text)
			}
		}
	}
}
