package parse

import (
	"io"
	"strings"
)

// TableLineKind classifies the lines of mrg.<step> and rel.<step> files.
type TableLineKind int

// The kinds of lines in a merged table.
const (
	TableHeader TableLineKind = iota // "ips qps ... tag"
	TableRow                         // one DBMS
	TableBreak                       // "-": a new group starts
	TableOther                       // anything else; kept verbatim
)

// TableLine is one line of a merged table, split on TABs (empty cells are
// kept, unlike the blank splitting of the original awk scripts).
type TableLine struct {
	Line  int
	Kind  TableLineKind
	Text  string
	Cells []string
}

// Table is a parsed mrg.<step> or rel.<step> file.
type Table struct {
	Name   string
	Header []string
	Lines  []TableLine
}

// ReadTable reads a merged table. The header is the first line whose first
// cell is "ips"; rows are the TAB-separated lines with as many cells as it.
func ReadTable(r io.Reader, name string) (*Table, error) {
	t := &Table{Name: name}
	var errs ErrorList
	sc := newLineScanner(r)
	defer sc.release()
	for sc.Scan() {
		n, line := sc.n, sc.Text()
		if sc.long || binaryJunk(line) {
			errs.add(name, n, "binary data or overlong line")
			continue
		}
		tl := TableLine{Line: n, Text: line, Cells: strings.Split(line, "\t")}
		switch {
		case line == "-":
			tl.Kind = TableBreak
		case tl.Cells[0] == "ips":
			tl.Kind = TableHeader
			if t.Header == nil {
				t.Header = tl.Cells
			}
		case t.Header != nil && len(tl.Cells) == len(t.Header):
			tl.Kind = TableRow
		default:
			tl.Kind = TableOther
			if t.Header != nil && strings.TrimSpace(line) != "" {
				errs.add(name, n, "row has %d cells, the header has %d", len(tl.Cells), len(t.Header))
			}
		}
		t.Lines = append(t.Lines, tl)
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	if len(t.Lines) == 0 {
		errs.add(name, 0, "empty file")
	} else if t.Header == nil {
		errs.add(name, 1, "no header line starting with ips")
	}
	return t, errs.inOrder().Err()
}
