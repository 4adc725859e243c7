package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/report"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

const (
	// textWidth is the widest line of the text report: wider tables are
	// split into parts, each with the columns that name the rows. Only a
	// part with the names and a single other column may be wider.
	textWidth = 160
	// paraWidth is where headings, paragraphs and long cells of words wrap.
	paraWidth = 100
	// cellWidth is where a long cell of words (a legend's meaning) wraps.
	cellWidth = 80
)

// WriteText writes the report as plain text: the parts and headings of the
// Markdown report, underlined, the introduction as plain text, paragraphs
// wrapped at 100 columns and aligned tables with markers for the bands,
// split into parts of at most 160 columns.
func WriteText(w io.Writer, r *report.Report) error {
	if err := checkArgs(w, r); err != nil {
		return err
	}
	r = r.WithShortNames()
	d := outline(r)
	bw := bufio.NewWriter(w)
	t := &textWriter{w: bw}
	if d.Title != "" {
		t.heading(d.Title, '=')
	}
	if d.Setup != "" {
		t.lines(wrap(d.Setup, paraWidth, "", ""))
		t.line("")
	}
	if len(d.Warnings) > 0 {
		for _, l := range d.Warnings {
			t.lines(wrap(l, paraWidth, "- ", "  "))
		}
		t.line("")
	}
	if d.HeadLead != "" {
		t.lines(wrap(d.HeadLead, paraWidth, "", ""))
		t.line("")
	}
	if len(d.Lead) > 0 {
		for _, l := range d.Lead {
			t.lines(wrap(l, paraWidth, "- ", "  "))
		}
		t.line("")
	}
	for _, p := range d.Parts {
		t.line("")
		t.heading(p.Heading, '-')
		if p.Intro != "" {
			t.lines(plainMarkdown(p.Intro, paraWidth))
			t.line("")
		}
		if p.IsContents {
			for _, e := range p.Contents {
				t.lines(wrap(entryText(e), paraWidth, "- ", "  "))
			}
			t.line("")
		}
		for _, it := range p.Items {
			switch {
			case it.Table != nil:
				t.table(it.Table)
			case len(it.Bullets) > 0:
				for _, b := range it.Bullets {
					t.lines(wrap(b, paraWidth, "- ", "  "))
				}
				t.line("")
			default:
				t.para(it.Para)
			}
		}
	}
	if t.err != nil {
		return t.err
	}
	return bw.Flush()
}

// entryText is a line of the contents as text.
func entryText(e docEntry) string {
	var names []string
	for _, l := range e.Links {
		names = append(names, l.Text)
	}
	s := strings.Join(names, ", ")
	if e.Label != "" {
		s = e.Label + ": " + s
	}
	return s
}

type textWriter struct {
	w   *bufio.Writer
	err error
}

func (t *textWriter) line(s string) {
	if t.err == nil {
		_, t.err = t.w.WriteString(s + "\n")
	}
}

func (t *textWriter) lines(ls []string) {
	for _, l := range ls {
		t.line(l)
	}
}

// heading writes a heading wrapped at paraWidth and underlined.
func (t *textWriter) heading(s string, under rune) {
	ls := wrap(s, paraWidth, "", "")
	t.lines(ls)
	n := 0
	for _, l := range ls {
		n = max(n, utf8.RuneCountInString(l))
	}
	t.line(strings.Repeat(string(under), n))
	t.line("")
}

func (t *textWriter) para(s string) {
	t.lines(wrap(s, paraWidth, "", ""))
	t.line("")
}

// table writes a table under its heading and caption; a table wider than
// textWidth comes in parts.
func (t *textWriter) table(dt *docTable) {
	if dt.Heading != "" {
		t.heading(dt.Heading, '~')
	}
	if dt.Caption != "" {
		t.para(dt.Caption)
	}
	ls, err := tableLines(dt)
	if err != nil {
		if t.err == nil {
			t.err = fmt.Errorf("table %s: %w", dt.ID, err)
		}
		return
	}
	t.lines(ls)
	for _, n := range dt.Notes {
		t.lines(wrap(n, paraWidth, "  note: ", "        "))
	}
	t.line("")
}

// tableLines lays out a table with tablewriter: headers as given (no
// title-casing), numbers right-aligned, names left-aligned. A table wider
// than textWidth is transposed when that fits (fitTable), so that a row
// reads across all DBMS, else split into parts of whole columns, each
// repeating the leading columns that name the rows; the parts after the
// first follow a "(continued …)" line.
func tableLines(dt *docTable) ([]string, error) {
	n := len(dt.names)
	if n == 0 {
		return nil, nil
	}
	header, rows := gridOf(dt, func(j int, c string) string {
		c = oneLine(c)
		if j > 0 && dt.left(j) && utf8.RuneCountInString(c) > cellWidth {
			c = strings.Join(wrap(c, cellWidth, "", ""), "\n")
		}
		return c
	})
	parts := fitTable(header, rows, dt.names, dt.keys, transposable(dt.Table, rows), textWidth, func(c string, _ bool) int { return textWidthOf(c) })
	var out []string
	for pi, p := range parts {
		if p.Label != "" {
			if pi > 0 {
				out = append(out, "")
			}
			out = append(out, p.Label)
		}
		var right []int
		for i, l := range p.Left {
			if !l {
				right = append(right, i)
			}
		}
		var buf bytes.Buffer
		tbl := textfmt.NewTable(&buf, p.Header, right, renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)}))
		for _, r := range p.Rows {
			if err := tbl.Append(r); err != nil {
				return nil, err
			}
		}
		if err := tbl.Render(); err != nil {
			return nil, err
		}
		out = append(out, strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")...)
	}
	return out, nil
}

// textWidthOf is the width of a cell in runes: its longest line.
func textWidthOf(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// splitColumns splits the columns of a table whose cells are widths runes
// wide into parts no wider than limit as tablewriter draws them ("| " and
// " " around each cell, "|" at the end): the first keys columns in every
// part, then as many of the others as fit, at least one. The parts are as
// few as the limit allows and about as wide as each other.
func splitColumns(widths []int, keys, limit int) [][]int {
	keys = min(keys, len(widths))
	base := 1
	for _, w := range widths[:keys] {
		base += w + 3
	}
	fill := func(limit int) [][]int {
		var parts [][]int
		cur, width := []int(nil), base
		for i := keys; i < len(widths); i++ {
			if len(cur) > 0 && width+widths[i]+3 > limit {
				parts = append(parts, cur)
				cur, width = nil, base
			}
			cur = append(cur, i)
			width += widths[i] + 3
		}
		return append(parts, cur)
	}
	parts := fill(limit)
	if len(parts) > 1 {
		// The narrowest limit that needs no more parts.
		lo, hi := base, limit
		for lo < hi {
			mid := (lo + hi) / 2
			if len(fill(mid)) <= len(parts) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		parts = fill(lo)
	}
	for i, p := range parts {
		cols := make([]int, 0, keys+len(p))
		for k := range keys {
			cols = append(cols, k)
		}
		parts[i] = append(cols, p...)
	}
	return parts
}

// wrap breaks s into lines of at most width runes at spaces, the first
// line after first and the others after rest. A word longer than a line
// has a line of its own, broken only where it would pass textWidth.
func wrap(s string, width int, first, rest string) []string {
	var out []string
	prefix, line, n := first, "", 0 // n counts the runes of line
	room := func() int { return max(width-utf8.RuneCountInString(prefix), 1) }
	for _, word := range strings.Fields(s) {
		wn := utf8.RuneCountInString(word)
		if n > 0 && n+1+wn <= room() {
			line, n = line+" "+word, n+1+wn
			continue
		}
		if n > 0 {
			out = append(out, prefix+line)
			prefix = rest
		}
		for hard := max(textWidth-utf8.RuneCountInString(prefix), 1); wn > hard; hard = max(textWidth-utf8.RuneCountInString(prefix), 1) {
			r := []rune(word)
			out = append(out, prefix+string(r[:hard]))
			prefix, word, wn = rest, string(r[hard:]), wn-hard
		}
		line, n = word, wn
	}
	if n > 0 || len(out) == 0 {
		out = append(out, prefix+line)
	}
	return out
}

// plainMarkdown renders Markdown (the introduction) as plain text, wrapped
// at width: no markup, "- " and "1. " for the items of lists, links as
// their text and address, code indented, raw HTML left out as the HTML
// report does.
func plainMarkdown(src string, width int) []string {
	source := []byte(src)
	root := newMarkdown().Parser().Parse(text.NewReader(source))
	p := plainText{source: source, width: width}
	return p.children(root, "", "")
}

type plainText struct {
	source []byte
	width  int
}

// children renders the blocks in n, a blank line between two unless they
// are items or the text of an item of a tight list.
func (p plainText) children(n ast.Node, first, rest string) []string {
	tight := false
	switch n := n.(type) {
	case *ast.List:
		tight = n.IsTight
	case *ast.ListItem:
		if l, ok := n.Parent().(*ast.List); ok {
			tight = l.IsTight
		}
	}
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		ls := p.block(c, first, rest)
		if len(ls) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, strings.TrimRight(rest, " "))
		}
		out = append(out, ls...)
		first = rest
	}
	return out
}

func (p plainText) block(n ast.Node, first, rest string) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock, *ast.Heading:
		var out []string
		for _, l := range strings.Split(inlineText(n, p.source), "\n") {
			out = append(out, wrap(l, p.width, first, rest)...)
			first = rest
		}
		return out
	case *ast.List:
		var out []string
		for i, item := 0, n.FirstChild(); item != nil; i, item = i+1, item.NextSibling() {
			bullet := "- "
			if n.IsOrdered() {
				bullet = fmt.Sprintf("%d. ", n.Start+i)
			}
			if i > 0 && !n.IsTight {
				out = append(out, strings.TrimRight(rest, " "))
			}
			pad := strings.Repeat(" ", len(bullet))
			ls := p.children(item, first+bullet, rest+pad)
			if len(ls) == 0 {
				ls = []string{strings.TrimRight(first+bullet, " ")}
			}
			out = append(out, ls...)
			first = rest
		}
		return out
	case *ast.Blockquote:
		return p.children(n, first+"  ", rest+"  ")
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var out []string
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			code := []rune(strings.TrimRight(string(seg.Value(p.source)), "\r\n"))
			for {
				// A line longer than the widest line goes on in the next.
				room := max(textWidth-utf8.RuneCountInString(first)-4, 1)
				n := min(len(code), room)
				out = append(out, first+"    "+string(code[:n]))
				first, code = rest, code[n:]
				if len(code) == 0 {
					break
				}
			}
		}
		return out
	case *ast.HTMLBlock, *ast.ThematicBreak:
		return nil
	case *east.Table:
		return p.table(n, first, rest)
	}
	return p.children(n, first, rest)
}

// table renders a GFM table of the introduction as a text table.
func (p plainText) table(n *east.Table, first, rest string) []string {
	t := &report.Table{}
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []report.Cell
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, report.Cell{Text: oneLine(inlineText(c, p.source))})
		}
		if _, ok := r.(*east.TableHeader); ok {
			for _, c := range cells {
				t.Header = append(t.Header, c.Text)
			}
			continue
		}
		t.Rows = append(t.Rows, report.Row{Kind: report.DataRow, Cells: cells})
	}
	dt := newDocTable(t)
	for i := range dt.names {
		dt.names[i] = i < len(n.Alignments) && n.Alignments[i] != east.AlignRight
	}
	ls, err := tableLines(dt)
	if err != nil {
		return nil
	}
	for i := range ls {
		if i == 0 {
			ls[i] = first + ls[i]
		} else {
			ls[i] = rest + ls[i]
		}
	}
	return ls
}

// inlineText is the text of the inline content of n as GitHub shows it:
// escapes and entities resolved, no markup; a hard line break is a "\n".
func inlineText(n ast.Node, source []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Value(source)
			if !c.IsRaw() {
				v = unescape(v)
			}
			b.Write(v)
			switch {
			case c.HardLineBreak():
				b.WriteByte('\n')
			case c.SoftLineBreak():
				b.WriteByte(' ')
			}
		case *ast.String:
			if c.IsCode() || c.IsRaw() {
				b.Write(c.Value)
			} else {
				b.Write(unescape(c.Value))
			}
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				switch t := t.(type) {
				case *ast.Text:
					b.Write(t.Value(source))
				case *ast.String:
					b.Write(t.Value)
				}
			}
		case *ast.AutoLink:
			b.Write(c.URL(source))
		case *ast.Link:
			s := inlineText(c, source)
			b.WriteString(s)
			if dest := string(c.Destination); dest != "" && dest != s && !strings.HasPrefix(dest, "#") {
				b.WriteString(" (" + dest + ")")
			}
		case *ast.RawHTML:
		case *east.TaskCheckBox:
			if c.IsChecked {
				b.WriteString("[x] ")
			} else {
				b.WriteString("[ ] ")
			}
		default:
			b.WriteString(inlineText(c, source))
		}
	}
	return b.String()
}

// unescape resolves the backslash escapes and entities of Markdown text.
func unescape(v []byte) []byte {
	return util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
}
