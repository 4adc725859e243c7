package render

import (
	"fmt"
	"strings"

	"github.com/ibreport/ibreport/report"
)

// tablePart is a table, or one part of a table split by its columns, as
// the Markdown and text reports draw it.
type tablePart struct {
	// Label numbers the part, "(part 1 of 3)" and "(continued, part 2 of
	// 3)", or says that rows and columns are swapped; "" for a table drawn
	// as the model has it.
	Label  string
	Header []string
	Rows   [][]string
	Left   []bool // columns of names, aligned left
}

// fitTable lays out a table of header and rows (cells as they will be
// written) so that no row is wider than limit, a row being drawn as "| "
// and " | " between cells and " |" at the end, each cell width(cell) wide:
//
//   - the table as it is when it fits;
//   - else the table transposed, one row per column, when that fits: a
//     table of few rows and many columns (the metrics of two DBMS, the
//     groups of a sysbench test against nine releases) reads across a row
//     as a column of the original;
//   - else parts of whole columns, each repeating the keys leading columns
//     that name the rows, numbered.
//
// Only a table whose rows are named by one column, with no row of another
// kind or group, is transposed: its row names become the header.
func fitTable(header []string, rows [][]string, left []bool, keys int, transposable bool, limit int, width func(cell string, left bool) int) []tablePart {
	n := len(left)
	if n == 0 {
		return nil
	}
	widths := columnWidths(header, rows, left, width)
	whole := tablePart{Header: header, Rows: rows, Left: left}
	if rowWidth(widths) <= limit {
		return []tablePart{whole}
	}
	if transposable && keys == 1 && len(rows) > 0 {
		th, tr, tl := transpose(header, rows, left)
		if rowWidth(columnWidths(th, tr, tl, width)) <= limit {
			label := "(rows and columns swapped to fit the width)"
			if h := strings.TrimSpace(header[0]); h != "" {
				label = "(rows and columns swapped to fit the width: one column per " + h + ")"
			}
			return []tablePart{{Label: label, Header: th, Rows: tr, Left: tl}}
		}
	}
	groups := splitColumns(widths, keys, limit)
	if len(groups) == 1 {
		return []tablePart{whole}
	}
	pick := func(cells []string, cols []int) []string {
		sub := make([]string, len(cols))
		for i, c := range cols {
			sub[i] = cells[c]
		}
		return sub
	}
	var parts []tablePart
	for pi, cols := range groups {
		p := tablePart{Header: pick(header, cols), Label: fmt.Sprintf("(continued, part %d of %d)", pi+1, len(groups))}
		if pi == 0 {
			p.Label = fmt.Sprintf("(part 1 of %d)", len(groups))
		}
		for _, c := range cols {
			p.Left = append(p.Left, left[c])
		}
		for _, r := range rows {
			p.Rows = append(p.Rows, pick(r, cols))
		}
		parts = append(parts, p)
	}
	return parts
}

// columnWidths is the width of each column: its widest cell or header.
func columnWidths(header []string, rows [][]string, left []bool, width func(string, bool) int) []int {
	widths := make([]int, len(left))
	for j := range widths {
		if j < len(header) {
			widths[j] = width(header[j], left[j])
		}
		for _, r := range rows {
			if j < len(r) {
				widths[j] = max(widths[j], width(r[j], left[j]))
			}
		}
	}
	return widths
}

// rowWidth is the width of a row drawn with these column widths: "| a | b |".
func rowWidth(widths []int) int {
	w := 1
	for _, c := range widths {
		w += c + 3
	}
	return w
}

// transpose swaps the rows and columns of a table named by its first
// column: the first column lists the other columns' headers, the header
// the rows' names above an empty corner. A column of the
// transposed table holds names only when every column of the original
// after the first does.
func transpose(header []string, rows [][]string, left []bool) (th []string, tr [][]string, tl []bool) {
	th = []string{""}
	for _, r := range rows {
		th = append(th, r[0])
	}
	words := true
	for _, l := range left[1:] {
		words = words && l
	}
	tl = []bool{true}
	for range rows {
		tl = append(tl, words)
	}
	for j := 1; j < len(left); j++ {
		h := ""
		if j < len(header) {
			h = header[j]
		}
		row := []string{h}
		for _, r := range rows {
			row = append(row, r[j])
		}
		tr = append(tr, row)
	}
	return th, tr, tl
}

// transposable reports whether a table may be drawn transposed: every row
// a data row of the same group, no cell on several lines.
func transposable(t *report.Table, rows [][]string) bool {
	for _, r := range t.Rows {
		if r.Kind != report.DataRow || r.GroupStart {
			return false
		}
	}
	for _, r := range rows {
		for _, c := range r {
			if strings.Contains(c, "\n") {
				return false
			}
		}
	}
	return len(rows) > 0
}

// gridOf returns the header and rows of a table as written, n cells each,
// with the band markers.
func gridOf(dt *docTable, cell func(j int, c string) string) (header []string, rows [][]string) {
	n := len(dt.names)
	header = make([]string, n)
	copy(header, dt.Header)
	rows = make([][]string, len(dt.Rows))
	for i, r := range dt.Rows {
		rows[i] = make([]string, n)
		for j, c := range rowTexts(r) {
			if j < n {
				rows[i][j] = cell(j, c)
			}
		}
	}
	return header, rows
}
