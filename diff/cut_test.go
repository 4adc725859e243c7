package diff_test

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ibreport/ibreport/diff"
)

// TestMarkdownMaxBytes: a Markdown report longer than MaxBytes lists the
// first rows of its findings table that fit, whole, and says how many it
// left out and where the full report is; its footnotes are those of the
// rows listed; shorter reports are unchanged. The archive of ten
// PostgreSQL builds against itself lists 3,135 rows with --all (about
// 400 kB).
func TestMarkdownMaxBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("a large archive")
	}
	c, _, err := diff.Run([]string{"../testdata/arc/nov25.sb.pg/dop40"}, []string{"../testdata/arc/nov25.sb.pg/dop40"}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	render := func(all bool, max int, where string) string {
		var b bytes.Buffer
		if err := diff.Write(&b, c, diff.WriteOptions{Format: "md", All: all, MaxBytes: max, FullReport: where}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	full := render(true, 0, "")
	short := render(false, 0, "")
	row := regexp.MustCompile(`(?m)^\| (ok|\*\*FAIL\*\*|\*\*warn\*\*|NA|~).*\|$`)
	fullRows := row.FindAllString(full, -1)
	if len(full) < 4*diff.MaxCommentChars || len(fullRows) < 3000 {
		t.Fatalf("the full report is %d bytes, %d rows: the test needs a larger one", len(full), len(fullRows))
	}
	for _, tc := range []struct {
		name  string
		all   bool
		max   int
		where string
		cut   string // the line of a cut report; "" when it fits
	}{
		{"no limit", true, 0, "", ""},
		{"fits", false, len(short), "", ""},
		{"a comment", true, diff.MaxCommentChars - 100, "the job summary of https://github.com/o/r/actions/runs/1",
			" of 3135 rows listed, the most severe first; the other "},
		{"small", true, 3000, "", "the full report: the job summary and report file of the run."},
		{"no row fits", true, 900, "the\nrun page", "**Cut to 900 characters:** "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := render(tc.all, tc.max, tc.where)
			if tc.cut == "" {
				want := full
				if !tc.all {
					want = short
				}
				if out != want {
					t.Errorf("the report changed:\n%.2000s", out)
				}
				return
			}
			if len(out) > tc.max {
				t.Errorf("%d bytes, over %d", len(out), tc.max)
			}
			if !strings.Contains(out, tc.cut) || !strings.Contains(out, "**Cut to "+strconv.Itoa(tc.max)+" characters:**") {
				t.Errorf("no line saying what was cut (%q):\n%s", tc.cut, out[max(0, len(out)-1500):])
			}
			if tc.where != "" && !strings.Contains(out, strings.Join(strings.Fields(tc.where), " ")) {
				t.Errorf("the cut line does not say where the full report is (%q)", tc.where)
			}
			if !strings.HasPrefix(out, "### ibreport diff: PASS") {
				t.Errorf("the headline is gone: %.200s", out)
			}
			// The rows kept are the first of the full report's, whole.
			rows := row.FindAllString(out, -1)
			for i, r := range rows {
				if r != fullRows[i] {
					t.Fatalf("row %d %q, want %q", i+1, r, fullRows[i])
				}
			}
			if tc.max >= 3000 {
				if len(rows) == 0 || !strings.Contains(out, "**Cut to "+strconv.Itoa(tc.max)+" characters:** "+strconv.Itoa(len(rows))+" of 3135 rows") {
					t.Errorf("%d rows kept, not what the cut line says:\n%s", len(rows), out[max(0, len(out)-1500):])
				}
				if !strings.Contains(out, "#### Geometric mean") {
					t.Error("the geomean section after the rows is gone")
				}
			}
			if tc.max == diff.MaxCommentChars-100 && len(out) < tc.max-1000 {
				t.Errorf("%d bytes of %d: too much left out", len(out), tc.max)
			}
			// Every footnote printed is referred to by a row listed.
			for _, m := range regexp.MustCompile(`(?m)^\[(\d+)\] `).FindAllStringSubmatch(out, -1) {
				if !strings.Contains(out, `\[`+m[1]+`\]`) {
					t.Errorf("footnote [%s] is referred to by no row listed", m[1])
				}
			}
		})
	}
}

// TestErrorMaxBytes: an error report (nothing compared) whose one message
// line is longer than MaxBytes is cut within that line, on a character
// boundary, to at most MaxBytes, keeping the headline and saying how much
// was left out and where the full report is; a short one is unchanged.
func TestErrorMaxBytes(t *testing.T) {
	long := errors.New("missing in NEW: " + strings.Repeat("2m.pg15.c1 l.i0 — ", 6000))
	for _, tc := range []struct {
		name string
		err  error
		max  int
		cut  bool
	}{
		{"no limit", long, 0, false},
		{"short message", errors.New("NEW: no such folder"), 500, false},
		{"a comment", long, diff.MaxCommentChars - 100, true},
		{"small", long, 400, true},
		{"too small for the note", long, 60, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := diff.WriteError(&b, []string{"base"}, []string{"new"}, tc.err, diff.WriteOptions{Format: "md", MaxBytes: tc.max, FullReport: "the run page"}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if !strings.HasPrefix(out, "### ibreport diff: ERROR (nothing compared, exit 2)\n") || !utf8.ValidString(out) {
				t.Fatalf("the report starts %.80q (valid UTF-8: %v)", out, utf8.ValidString(out))
			}
			var full bytes.Buffer
			diff.WriteError(&full, []string{"base"}, []string{"new"}, tc.err, diff.WriteOptions{Format: "md"})
			switch {
			case !tc.cut && out != full.String():
				t.Errorf("changed: %d bytes of %d", len(out), full.Len())
			case tc.cut && (len(out) > tc.max || !strings.Contains(out, fmt.Sprintf("**Cut to %d characters:** ", tc.max)) ||
				!strings.HasSuffix(out, "the full report: the run page.\n")):
				t.Errorf("%d bytes (max %d), ending %q", len(out), tc.max, out[max(0, len(out)-200):])
			}
		})
	}
}
