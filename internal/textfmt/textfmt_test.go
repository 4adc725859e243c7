package textfmt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/renderer"
)

func TestMarkdownEscape(t *testing.T) {
	for in, want := range map[string]string{
		"pg15.c1":               "pg15.c1",
		"<script>":              "&lt;script&gt;",
		"a_b*c`d[e]|f~g\\h & i": `a\_b\*c\` + "`" + `d\[e\]\|f\~g\\h &amp; i`,
		"qr100.L1 -5%":          "qr100.L1 -5%",
	} {
		if got := MarkdownEscape(in); got != want {
			t.Errorf("MarkdownEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := MarkdownCell("two\nlines|x"); got != `two lines\|x` {
		t.Errorf("MarkdownCell = %q", got)
	}
	if got := MarkdownCell(""); got != "" {
		t.Errorf("MarkdownCell of nothing = %q", got)
	}
}

func TestRawHTMLLine(t *testing.T) {
	for md, want := range map[string]int{
		"# Server\n\nplain text\n":                0,
		"# Server\n\n<div>block</div>\n":          3,
		"line one\nline <b>two</b>\n":             2,
		"`<code>` is code\n\n    <pre>indented\n": 0,
		"": 0,
	} {
		if got := RawHTMLLine(md); got != want {
			t.Errorf("RawHTMLLine(%q) = %d, want %d", md, got, want)
		}
	}
}

func TestNewTable(t *testing.T) {
	var b bytes.Buffer
	tb := NewTable(&b, []string{"dbms", "ips"}, []int{1}, renderer.NewBlueprint())
	tb.Append([]string{"pg15.c1", "7"})
	tb.Append([]string{"x", "12345"})
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// Headers keep their case and numbers are right-aligned.
	if !strings.Contains(out, "dbms") || !strings.Contains(out, "    7") {
		t.Errorf("table:\n%s", out)
	}
}
