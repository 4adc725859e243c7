package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// wideTable is a table of a name column, a statistic column of words and
// n columns of numbers headed by names of the given length.
func wideTable(n, nameLen int) *report.Table {
	t := &report.Table{ID: "t", Header: []string{"group", "statistic"}}
	for j := range n {
		t.Header = append(t.Header, fmt.Sprintf("%0*d", nameLen, j))
	}
	for i, st := range []string{"Average", "Median"} {
		cells := []report.Cell{{Text: "Point-1"}, {Text: st}}
		for j := range n {
			v := float64(i*n + j)
			cells = append(cells, report.Cell{Text: fmt.Sprintf("%.2f", v), Value: &v})
		}
		t.Rows = append(t.Rows, report.Row{Kind: report.DataRow, Cells: cells})
	}
	return t
}

// TestPrintParts: a table that fits a printed page is printed whole; a
// wider one in parts that each fit, repeat the name columns and hold every
// column once, in order.
func TestPrintParts(t *testing.T) {
	for _, tc := range []struct {
		name          string
		t             *report.Table
		parts         int // 0: printed whole
		scrollFocused bool
	}{
		{"narrow", wideTable(3, 6), 0, false},
		{"nine releases", wideTable(9, 8), 0, false},
		{"35 builds", wideTable(35, 12), 7, true},
		{"22 columns", wideTable(22, 10), 3, true},
		{"names that do not break", wideTable(12, 40), 12, true},
		{"empty", &report.Table{ID: "e"}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := view(tc.t, false)
			if tc.parts == 0 {
				if len(v.Parts) != 0 || v.Scroll {
					t.Fatalf("got %d parts, scroll %v; want the table whole", len(v.Parts), v.Scroll)
				}
				return
			}
			if len(v.Parts) < 2 || len(v.Parts) > tc.parts {
				t.Fatalf("got %d parts, want 2 to %d", len(v.Parts), tc.parts)
			}
			if v.Scroll != tc.scrollFocused {
				t.Errorf("scroll %v, want %v", v.Scroll, tc.scrollFocused)
			}
			next := 1
			var all []string
			for i, p := range v.Parts {
				if p.From != next || p.To < p.From || p.Of != len(tc.t.Header)-2 {
					t.Errorf("part %d: columns %d-%d of %d, want from %d of %d", i, p.From, p.To, p.Of, next, len(tc.t.Header)-2)
				}
				next = p.To + 1
				if p.Header[0] != "group" || p.Header[1] != "statistic" {
					t.Errorf("part %d: header %q does not start with the name columns", i, p.Header)
				}
				w := 0
				for _, x := range printColumnWidths(&report.Table{Header: p.Header, Rows: p.Rows}) {
					w += x
				}
				if w > printWidth {
					t.Errorf("part %d: %d px wide, more than %d", i, w, printWidth)
				}
				for _, r := range p.Rows {
					if len(r.Cells) != len(p.Header) {
						t.Errorf("part %d: a row of %d cells under %d headers", i, len(r.Cells), len(p.Header))
					}
				}
				all = append(all, p.Header[2:]...)
			}
			if fmt.Sprint(all) != fmt.Sprint(tc.t.Header[2:]) {
				t.Errorf("the parts' columns are\n%q\nwant\n%q", all, tc.t.Header[2:])
			}
		})
	}
}

// TestViewHeat: a box that scrolls whatever its width (the heat table) is
// focusable even when its table fits.
func TestViewHeat(t *testing.T) {
	if v := view(wideTable(3, 6), true); !v.Scroll || len(v.Parts) != 0 {
		t.Errorf("heat view: scroll %v, %d parts; want scroll, no parts", v.Scroll, len(v.Parts))
	}
	if v := view(nil, true); v.Table != nil || len(v.Parts) != 0 {
		t.Errorf("view of nil: %+v", v)
	}
}

func TestHeaderRuns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // runs joined by |
	}{
		{"10.11.14", "10.11.14"},
		{"10.2.44 z12b", "10.2.44 z12b"},
		{"pg15.c1", "pg15.|c1"},
		{"8.0.44.cz12a_bee", "8.0.44.|cz12a_|bee"},
		{"my8028_rel-withdbg", "my8028_|rel-|withdbg"},
		{"1.", "1.|"},
		{".5", ".|5"},
		{"", ""},
	} {
		if got := strings.Join(headerRuns(tc.in), "|"); got != tc.want {
			t.Errorf("headerRuns(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got, want := string(breakable(tc.in)), strings.ReplaceAll(tc.want, "|", "<wbr>"); got != want {
			t.Errorf("breakable(%q) = %q, want %q", tc.in, got, want)
		}
	}
}
