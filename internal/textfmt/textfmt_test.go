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

// markdownEscapeRef is MarkdownEscape without its shortcut for texts that
// need no escaping.
func markdownEscapeRef(s string) string {
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

// TestMarkdownEscapeShortcut checks MarkdownEscape against the loop on
// every byte at the start, middle and end of a text.
func TestMarkdownEscapeShortcut(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string(rune(0)) + "x", "ab" + string([]byte{byte(c)}) + "cd", "1.25" + string([]byte{byte(c)}), string([]byte{byte(c)}), "é" + string([]byte{byte(c)})} {
			if got, want := MarkdownEscape(s), markdownEscapeRef(s); got != want {
				t.Fatalf("MarkdownEscape(%q) = %q, want %q", s, got, want)
			}
		}
	}
}

func FuzzMarkdownEscape(f *testing.F) {
	for _, s := range []string{"", "x.my8043_rel", "a|b", "\xff", "1.25"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := MarkdownEscape(s), markdownEscapeRef(s); got != want {
			t.Fatalf("MarkdownEscape(%q) = %q, want %q", s, got, want)
		}
	})
}

func TestFormatName(t *testing.T) {
	for in, want := range map[string]string{"markdown": "md", "md": "md", "txt": "text", "text": "text",
		"json": "json", "github": "github", "html": "html", "Markdown": "Markdown", "": ""} {
		if got := FormatName(in); got != want {
			t.Errorf("FormatName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGitHubEscape(t *testing.T) {
	for _, tc := range []struct{ in, msg, prop string }{
		{"plain", "plain", "plain"},
		{"50% a\nb\r", "50%25 a%0Ab%0D", "50%25 a%0Ab%0D"},
		{"a: b, c", "a: b, c", "a%3A b%2C c"},
		{"%3A", "%253A", "%253A"},
	} {
		if got := GitHubEscape(tc.in); got != tc.msg {
			t.Errorf("GitHubEscape(%q) = %q, want %q", tc.in, got, tc.msg)
		}
		if got := GitHubProp(tc.in); got != tc.prop {
			t.Errorf("GitHubProp(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}
