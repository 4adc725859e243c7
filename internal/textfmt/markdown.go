package textfmt

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// MarkdownEscape escapes text for Markdown: the characters that start inline
// markup or end a table cell get a backslash, and <, > and & become
// entities, so no name turns into markup. Dots and dashes stay as they are,
// so numbers read well in the Markdown source too.
func MarkdownEscape(s string) string {
	// Most texts (numbers, names) have nothing to escape: they are
	// returned as they are, without a copy. Bytes beyond ASCII take the
	// loop, which writes invalid UTF-8 as U+FFFD.
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		plain = s[i] < 0x80 && !markdownSpecial[s[i]]
	}
	if plain {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownSpecial are the bytes MarkdownEscape changes.
var markdownSpecial = func() (t [256]bool) {
	for _, c := range []byte("<>&\\`*_[]|~") {
		t[c] = true
	}
	return t
}()

// MarkdownCell escapes a table cell: Markdown escapes, and no line breaks.
func MarkdownCell(s string) string {
	if s == "" {
		return ""
	}
	return MarkdownEscape(strings.ReplaceAll(s, "\n", " "))
}

// RawHTMLLine returns the line of the first raw HTML (a block or inline
// tag) in a Markdown text, 0 when there is none: the HTML page leaves it
// out, and the report says so.
func RawHTMLLine(md string) int {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	offset := -1
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || offset >= 0 {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if n.Lines().Len() > 0 {
				offset = n.Lines().At(0).Start
			}
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				offset = n.Segments.At(0).Start
			}
		}
		return ast.WalkContinue, nil
	})
	if offset < 0 {
		return 0
	}
	return bytes.Count(src[:min(offset, len(src))], []byte("\n")) + 1
}

// ImageLine returns the line of the first image in a Markdown text, 0
// when there is none: the HTML page leaves images out (its content
// security policy loads nothing from outside the page, so a remote image
// would only be a blocked request), and the report says so.
func ImageLine(md string) int {
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	offset := -1
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering && offset < 0 {
			offset = nodeOffset(img)
		}
		return ast.WalkContinue, nil
	})
	if offset < 0 {
		return 0
	}
	return bytes.Count(src[:min(offset, len(src))], []byte("\n")) + 1
}

// nodeOffset is where an inline node starts in the source: at its first
// text, else at the first line of the block holding it.
func nodeOffset(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}
