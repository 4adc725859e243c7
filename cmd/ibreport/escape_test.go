package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct {
		in, want, wantLines string
	}{
		{in: "2m.pg15.c1/l.i1/o.vm.dop2:4: column cs: \"NaN\" is not a number", want: "2m.pg15.c1/l.i1/o.vm.dop2:4: column cs: \"NaN\" is not a number"},
		{in: "é… – ordinary text", want: "é… – ordinary text"},
		{in: "a\n::error::x", want: `a\n::error::x`, wantLines: "a\n::error::x"},
		{in: "red\x1b[31m\r\t", want: `red\x1b[31m\r\t`},
		{in: "bad\xffbyte", want: `bad\xffbyte`},
		{in: "bidi\u202e", want: `bidi\u202e`},
	} {
		if got := printable(tc.in, false); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
		wantLines := tc.wantLines
		if wantLines == "" {
			wantLines = tc.want
		}
		if got := printable(tc.in, true); got != wantLines {
			t.Errorf("printable(%q, keep newlines) = %q, want %q", tc.in, got, wantLines)
		}
	}
}

func TestErrorTextQuotesPaths(t *testing.T) {
	_, err := os.Stat("no\n::error::x")
	if got, want := errorText(fmt.Errorf("reading: %w", err)), `reading: stat "no\n::error::x": no such file or directory`; got != want {
		t.Errorf("errorText = %q, want %q", got, want)
	}
	if got, want := errorText(errors.New("a.log:3: bad\nb.log:4: bad")), "a.log:3: bad\nb.log:4: bad"; got != want {
		t.Errorf("errorText = %q, want %q", got, want)
	}
}

// TestLogSafe: no "##[" reaches stdout or stderr, also split across
// writes, and on stderr no line starts with "::"; other text is unchanged.
func TestLogSafe(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		lines  bool
		want   string
	}{
		{[]string{"plain text # and #[ and ##"}, false, "plain text # and #[ and ##"},
		{[]string{"x ##[stop-commands]tok y"}, false, `x #\u0023[stop-commands]tok y`},
		{[]string{"x #", "#[add-mask]s"}, false, `x #\u0023[add-mask]s`},
		{[]string{"x ##", "[error]e"}, false, `x #\u0023[error]e`},
		{[]string{"a\n::error::x"}, false, "a\n::error::x"},
		{[]string{"a\n::error::x"}, true, `a` + "\n" + `:\x3aerror::x`},
		{[]string{"a\n", ":", ":warning::x"}, true, "a\n" + `:\x3awarning::x`},
		{[]string{"::error::first"}, true, `:\x3aerror::first`},
		{[]string{"a:: b\n"}, true, "a:: b\n"},
	} {
		var b bytes.Buffer
		l := logSafeOf(&b, tc.lines)
		for _, w := range tc.writes {
			if n, err := l.Write([]byte(w)); err != nil || n != len(w) {
				t.Fatalf("%q: wrote %d, %v", w, n, err)
			}
		}
		if err := l.Flush(); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tc.want {
			t.Errorf("%q (lines %v): %q, want %q", tc.writes, tc.lines, got, tc.want)
		}
	}
}

// TestNoRunnerCommandInLogs: a DBMS name only in NEW that holds the
// runner's legacy command form reaches neither stdout nor stderr as a
// command, in any format of diff.
func TestNoRunnerCommandInLogs(t *testing.T) {
	newer := copyArchive(t)
	edit(t, newer, "mrg.l.i1", "pg15.c2", "##[stop-commands]tok")
	for _, format := range []string{"text", "md", "json", "github"} {
		_, out, stderr := runCmd(t, "diff", "--allow-missing", "--format", format, "../../testdata/ibench/reference/res", newer)
		// github annotates what NEW lacks, not what only NEW has.
		if format != "github" && !strings.Contains(out+stderr, "stop-commands") {
			t.Errorf("%s: the name is not shown at all:\n%s%s", format, out, stderr)
		}
		if strings.Contains(out+stderr, "##[") {
			t.Errorf("%s: a runner command reaches the log:\n%s%s", format, out, stderr)
		}
		if format == "json" {
			var v map[string]any
			if err := json.Unmarshal([]byte(out), &v); err != nil || !strings.Contains(fmt.Sprint(v), "##[stop-commands]tok") {
				t.Errorf("json: %v; the name does not read back:\n%s", err, out)
			}
		}
	}
}
