package diff

import (
	"fmt"
	"strings"
	"testing"
)

// TestCutLines cuts a Markdown text with a <details>, a code block and a
// table at every size: the text kept is a prefix of whole lines, the code
// block and <details> left open are closed, a table header is never left
// without rows, the note says how many lines and bytes were left out, and
// the result fits (when its first line and the note do).
func TestCutLines(t *testing.T) {
	md := "### head\n\n<details><summary>s</summary>\n\n- a\n- b\n\n</details>\n\n```\nx\ny\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nend\n"
	lines := strings.SplitAfter(md, "\n")
	lines = lines[:len(lines)-1]
	cuts := map[int]bool{}
	for max := 1; max <= len(md)+200; max++ {
		got := string(cutLines([]byte(md), max, "there"))
		body, note, ok := strings.Cut(got, "\n**Cut to ")
		if !ok {
			t.Fatalf("max %d: no note: %q", max, got)
		}
		// The lines the note says are left out, and the closing lines.
		var left, leftBytes int
		if _, err := fmt.Sscanf(note, fmt.Sprint(max)+" characters:** %d ", &left); err != nil {
			t.Fatalf("max %d: note %q", max, note)
		}
		prefix := strings.Join(lines[:len(lines)-left], "")
		rest, ok := strings.CutPrefix(body, prefix)
		if !ok || strings.ReplaceAll(strings.ReplaceAll(rest, "```\n", ""), "\n</details>\n", "") != "" {
			t.Fatalf("max %d: %q is not the first %d lines of the text and closing lines", max, body, len(lines)-left)
		}
		leftBytes = len(md) - len(prefix)
		want := fmt.Sprintf("%d characters:** %d lines (%d bytes) left out; the full report: there.\n", max, left, leftBytes)
		if left == 1 {
			want = strings.Replace(want, "lines", "line", 1)
		}
		n := len(lines) - left
		if note != want {
			t.Errorf("max %d: note %q, want %q", max, note, want)
		}
		if strings.Count(got, "```")%2 != 0 || strings.Count(got, "<details>") != strings.Count(got, "</details>") {
			t.Errorf("max %d: a block left open:\n%s", max, got)
		}
		if strings.HasSuffix(prefix, "|---|---|\n") {
			t.Errorf("max %d: a table header without rows:\n%s", max, got)
		}
		if first := len(lines[0]) + len(note) + len("\n**Cut to "); max >= first && len(got) > max {
			t.Errorf("max %d: %d bytes", max, len(got))
		}
		cuts[n] = true
	}
	if len(cuts) < 10 {
		t.Errorf("cut after only %d line counts", len(cuts))
	}
}

// FuzzCutLines: whatever the Markdown and the size, the cut neither
// panics nor leaves a code block open, starts with the text's first line,
// and is longer than max only when that line alone does not fit.
func FuzzCutLines(f *testing.F) {
	f.Add("### head\n\n<details>\n- a\n```\nx\n", 60)
	f.Add("| a |\n|---|\n| 1 |\n", 10)
	f.Add("no newline", 1)
	f.Add("```\n<details>\n```\n</details>\n\n", 120)
	f.Fuzz(func(t *testing.T, md string, max int) {
		if md == "" || max < 1 || max > 1<<20 {
			return
		}
		got := string(cutLines([]byte(md), max, "there"))
		i := strings.LastIndex(got, "\n**Cut to ")
		if i < 0 || !strings.HasSuffix(got, " left out; the full report: there.\n") {
			t.Fatalf("no note: %q", got)
		}
		body := got[:i]
		first := md + "\n" // a last line without its newline gets one
		if i := strings.Index(md, "\n"); i >= 0 {
			first = md[:i+1]
		}
		if !strings.HasPrefix(body, first) {
			t.Fatalf("the cut does not start with the first line: %q", got)
		}
		fences := 0
		for l := range strings.Lines(body) {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fences++
			}
		}
		if fences%2 != 0 {
			t.Fatalf("a code block left open: %q", got)
		}
		// Over max only when the first line alone does not fit.
		if len(got) > max {
			rest := strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(body, first), "```\n", ""), "\n</details>\n", "")
			if rest != "" {
				t.Fatalf("%d bytes for %d, keeping more than the first line: %q", len(got), max, got)
			}
		}
	})
}
