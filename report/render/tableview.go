package render

import (
	"math"
	"strings"

	"github.com/ibreport/ibreport/internal/chart"
	"github.com/ibreport/ibreport/report"
)

// A table too wide for a printed page would lose its right-hand columns
// on paper, where nothing scrolls. So a wide table is also written in
// parts of columns that fit a page, each part repeating the columns that
// name its rows; print CSS shows the parts instead of the table, and the
// screen shows the table. On screen the wide table scrolls in its box,
// which is then made a labelled region reachable by keyboard.

// printWidth is what a table's columns may take on a printed page, in CSS
// px: an A4 page (794 px) less the 1 cm margins of the print CSS, with a
// margin for the error of the estimate. Letter paper is wider.
const printWidth = 690

// Print sizes, in px, of the print CSS: the body's 11 px, tables at 0.9 em,
// cells padded 0.45 em each side, plus a border.
const (
	printFont    = 11 * 0.9
	printPadding = 2*0.45*printFont + 1
	// boldFactor widens the header cells' bold text: Liberation Sans Bold
	// is about 8% wider than the regular face the widths are of.
	boldFactor = 1.1
)

// tableView is a table as the page writes it.
type tableView struct {
	*report.Table
	// Scroll is set when the table's box may scroll: it is then a region
	// with tabindex 0, labelled by the table's title.
	Scroll bool
	// Parts are the column parts printed instead of the table; none when
	// it fits a printed page.
	Parts []htmlPart
}

// htmlPart is a run of columns of a table, after the columns that name
// the rows.
type htmlPart struct {
	From, To, Of int // columns From to To (1-based, of the data columns) of Of
	Header       []string
	Rows         []report.Row
}

// view is the tableView of t; scroll is set for a box that scrolls
// whatever the table's width (the series' heat table, of bounded height).
func view(t *report.Table, scroll bool) tableView {
	v := tableView{Table: t, Scroll: scroll}
	if t == nil {
		return v
	}
	v.Parts = printParts(t)
	if len(v.Parts) > 0 {
		v.Scroll = true
	}
	return v
}

// printColumnWidths estimates the printed width of each column of t: the
// widest of its cells (which do not wrap) and of the longest unbreakable
// run of its header (headerRuns, where breakable lets it break).
func printColumnWidths(t *report.Table) []int {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r.Cells))
	}
	w := make([]float64, n)
	for i, h := range t.Header {
		for _, part := range strings.FieldsFunc(h, func(r rune) bool { return r == ' ' }) {
			for _, run := range headerRuns(part) {
				w[i] = max(w[i], boldFactor*chart.TextWidth(printFont, run))
			}
		}
	}
	for _, r := range t.Rows {
		for i, c := range r.Cells {
			s := c.Text
			if m := c.Band.Marker(); m != "" {
				s += " " + m
			}
			if c.WithinNoise || c.ChangePoint {
				s += " ~"
			}
			cw := chart.TextWidth(printFont, s)
			if isWords(c) && i > 0 {
				// Words wrap: a long text takes about a short line.
				cw = min(cw, 20*printFont)
			}
			w[i] = max(w[i], cw)
		}
	}
	px := make([]int, n)
	for i := range w {
		px[i] = int(math.Ceil(w[i] + printPadding))
	}
	return px
}

// headerRuns cuts a column header where it may break: after the
// underscores and dashes that join the parts of DBMS names, and after a dot
// unless it sits between two digits, so that a version ("10.11.14") stays
// whole on one line rather than "10.11." over "14".
func headerRuns(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '_' || c == '-':
		case c == '.' && !(i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1])):
		default:
			continue
		}
		out = append(out, s[start:i+1])
		start = i + 1
	}
	return append(out, s[start:])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// printParts cuts t into parts of columns that fit a printed page, or
// returns none when the whole table fits. The parts are balanced as those
// of the text report (splitColumns).
func printParts(t *report.Table) []htmlPart {
	w := printColumnWidths(t)
	total := 0
	for _, x := range w {
		total += x
	}
	if total <= printWidth || len(w) < 3 {
		return nil
	}
	_, keys := nameColumns(t)
	groups := splitColumns(w, keys, printWidth)
	if len(groups) < 2 {
		return nil
	}
	parts := make([]htmlPart, len(groups))
	for i, cols := range groups {
		p := &parts[i]
		p.From, p.To, p.Of = cols[keys]-keys+1, cols[len(cols)-1]-keys+1, len(w)-keys
		for _, c := range cols {
			h := ""
			if c < len(t.Header) {
				h = t.Header[c]
			}
			p.Header = append(p.Header, h)
		}
		for _, r := range t.Rows {
			nr := r
			nr.Cells = make([]report.Cell, 0, len(cols))
			for _, c := range cols {
				if c < len(r.Cells) {
					nr.Cells = append(nr.Cells, r.Cells[c])
				}
			}
			p.Rows = append(p.Rows, nr)
		}
	}
	return parts
}
