package report_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// mdTable is one table of a Markdown report as written: the line it
// starts on, whether each column is aligned left, and its rows (the header
// first) as the cells' source.
type mdTable struct {
	line  int
	label string // the paragraph right before it: "(part 1 of 3)", "(rows and columns swapped …)"
	left  []bool
	rows  [][]string
}

func readMDTables(md string) []mdTable {
	lines := strings.Split(md, "\n")
	var out []mdTable
	cells := func(l string) []string {
		return strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
	}
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "| ") || !strings.HasPrefix(lines[i+1], "| ---") {
			continue
		}
		tab := mdTable{line: i + 1}
		if i >= 2 && lines[i-1] == "" && strings.HasPrefix(lines[i-2], "(") {
			tab.label = lines[i-2]
		}
		for _, s := range cells(lines[i+1]) {
			tab.left = append(tab.left, s == "---")
		}
		tab.rows = append(tab.rows, cells(lines[i]))
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			tab.rows = append(tab.rows, cells(lines[j]))
		}
		out = append(out, tab)
		i = j
	}
	return out
}

// mdTableWidth is how wide GitHub draws a table, in characters of its
// source: each column as wide as its widest cell, a cell of words in a
// left-aligned column at most 30 (GitHub wraps it at its spaces), and
// " | " between cells.
func mdTableWidth(tab mdTable) int {
	var widths []int
	for _, r := range tab.rows {
		for j, c := range r {
			w := utf8.RuneCountInString(c)
			if j < len(tab.left) && tab.left[j] && strings.Contains(strings.TrimSpace(c), " ") {
				w = min(w, 30)
			}
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], w)
		}
	}
	total := 1
	for _, w := range widths {
		total += w + 3
	}
	return total
}

var partLabel = regexp.MustCompile(`^\((?:continued, )?part (\d+) of (\d+)\)$`)

// TestMarkdownWidth checks that every table of the Markdown fits a
// GitHub-width page, 120 characters a row as GitHub lays the columns out,
// on the example, the nine MySQL releases and the PostgreSQL release
// series; that wide tables were transposed or split in numbered parts that
// each repeat the names of the rows; and that nothing was lost: the parts
// of a split table hold all its columns.
func TestMarkdownWidth(t *testing.T) {
	const limit = 120
	series := func() *report.Report {
		const dir = "../testdata/arc/nov25.sb.pg/dop40"
		res, _, err := report.Load(dir, report.LoadOptions{DBMSList: dir + ".series"})
		if err != nil {
			t.Fatal(err)
		}
		// As "build --series --dbms dop40.series dop40" makes it.
		r, err := report.Build(res, report.BuildOptions{Series: true})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		name               string
		r                  *report.Report
		transposed, splits bool // at least one table of each
	}{
		{"example", loadBuild(t, example, report.LoadOptions{Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}}, report.BuildOptions{}), true, false},
		{"nov25", loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{}), false, true},
		{"series", series(), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tabs := readMDTables(string(renderAs(t, c.r, "md")))
			if len(tabs) < 10 {
				t.Fatalf("only %d tables read", len(tabs))
			}
			widest, transposed, splits := 0, 0, 0
			for i, tab := range tabs {
				w := mdTableWidth(tab)
				widest = max(widest, w)
				if w > limit {
					t.Errorf("line %d: a table %d characters wide: %.100s", tab.line, w, strings.Join(tab.rows[0], " | "))
				}
				if strings.HasPrefix(tab.label, "(rows and columns swapped") {
					transposed++
				}
				m := partLabel.FindStringSubmatch(tab.label)
				if m == nil || m[1] != "1" {
					continue
				}
				splits++
				n := 0
				for _, ch := range m[2] {
					n = 10*n + int(ch-'0')
				}
				if i+n > len(tabs) {
					t.Fatalf("line %d: %s, but only %d tables follow", tab.line, tab.label, len(tabs)-i)
				}
				for k := 1; k < n; k++ {
					p := tabs[i+k]
					want := "(continued, part " + string(rune('0'+k+1)) + " of " + m[2] + ")"
					if n < 10 && p.label != want {
						t.Errorf("line %d: part labelled %q, want %q", p.line, p.label, want)
					}
					if len(p.rows) != len(tab.rows) {
						t.Errorf("line %d: part %d has %d rows, part 1 %d", p.line, k+1, len(p.rows), len(tab.rows))
						continue
					}
					for ri := range p.rows {
						if p.rows[ri][0] != tab.rows[ri][0] {
							t.Errorf("line %d: part %d row %d names %q, part 1 %q", p.line, k+1, ri, p.rows[ri][0], tab.rows[ri][0])
						}
					}
				}
			}
			t.Logf("%d tables, widest %d characters, %d transposed, %d split", len(tabs), widest, transposed, splits)
			if c.transposed && transposed == 0 {
				t.Error("no table transposed")
			}
			if c.splits && splits == 0 {
				t.Error("no table split")
			}
		})
	}
}

// TestTextTransposed checks the text of the example, whose metrics and
// iostat tables have two rows of DBMS and over 20 columns: those wider
// than 160 columns come transposed, a row per metric and a column per
// DBMS, in one part, none split; and the nine MySQL releases, whose rows read
// across all nine DBMS by their short names with no table split or
// transposed.
func TestTextTransposed(t *testing.T) {
	ex := loadBuild(t, example, report.LoadOptions{Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}}, report.BuildOptions{})
	txt := string(renderAs(t, ex, "text"))
	for i, l := range strings.Split(txt, "\n") {
		if n := utf8.RuneCountInString(l); n > 160 {
			t.Errorf("example line %d has %d columns", i+1, n)
		}
	}
	transposed := 0
	for _, s := range ex.Sections {
		if s.Metrics == nil {
			continue
		}
		at := strings.Index(txt, s.Metrics.Title+"\n")
		if at < 0 {
			t.Fatalf("no table %q", s.Metrics.Title)
		}
		rest := txt[at:]
		tab := strings.Index(rest, "+-")
		if p := strings.Index(rest, "(part 1 of"); p >= 0 && p < tab {
			t.Errorf("%s: split, not transposed", s.Metrics.Title)
		}
		label := strings.Index(rest, "(rows and columns swapped to fit the width: one column per dbms)")
		if label < 0 || label > tab {
			continue // it fits as it is
		}
		transposed++
		// A row per metric, with the value of each DBMS.
		for _, h := range s.Metrics.Header[1:] {
			if !regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(h) + ` +\|`).MatchString(rest[tab:]) {
				t.Errorf("%s: no row %q", s.Metrics.Title, h)
			}
		}
	}
	if transposed == 0 {
		t.Error("example: no metrics table transposed")
	}
	nov := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{})
	txt = string(renderAs(t, nov, "text"))
	for _, s := range []string{"(part 1 of", "(rows and columns swapped"} {
		if n := strings.Count(txt, s); n != 0 {
			t.Errorf("nov25: %d tables with %q", n, s)
		}
	}
}
