package main

import (
	"errors"
	"fmt"
	"os"
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
