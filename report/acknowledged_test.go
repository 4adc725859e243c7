package report_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

func TestReadAcknowledged(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []report.Acknowledged
		err      string
	}{
		{name: "empty"},
		{name: "comments and blanks", in: "# known\n\n  \n"},
		{name: "a set and a test", in: "\ufeff03-pg180.x10b: io_method config\n05-pg1611 / update-index range=100: bug 1234\r\n",
			want: []report.Acknowledged{
				{Set: "03-pg180.x10b", Reason: "io_method config", Source: "a.txt:1"},
				{Set: "05-pg1611", Test: "update-index range=100", Reason: "bug 1234", Source: "a.txt:2"},
			}},
		{name: "no reason", in: "03-pg180.x10b\n", err: `a.txt:1: "03-pg180.x10b": want`},
		{name: "empty reason", in: "03-pg180.x10b:  \n", err: `a.txt:1: "03-pg180.x10b:": want`},
		{name: "no set", in: " / scan: x\n", err: "a.txt:1: no result set"},
		{name: "duplicate", in: "a: x\n# c\na: y\n", err: "a.txt:3: a acknowledged again (first on line 1)"},
		{name: "same set, other test", in: "a: x\na / scan: y\n", want: []report.Acknowledged{
			{Set: "a", Reason: "x", Source: "a.txt:1"}, {Set: "a", Test: "scan", Reason: "y", Source: "a.txt:2"}}},
		{name: "control character", in: "a: \x1b[31mred\n", err: "a.txt:1:"},
		{name: "workflow command", in: "a: ::error::x\n", want: []report.Acknowledged{{Set: "a", Reason: "::error::x", Source: "a.txt:1"}}},
		{name: "line too long", in: "a: " + strings.Repeat("x", 70000) + "\n", err: "a.txt:1:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := report.ReadAcknowledged(strings.NewReader(c.in), "a.txt")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, report.ErrBadInput) {
					t.Fatalf("err %v, want one with %q wrapping ErrBadInput", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("%+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("%d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
	if _, err := report.ReadAcknowledged(nil, "x"); err == nil {
		t.Error("a nil reader read")
	}
}

func FuzzReadAcknowledged(f *testing.F) {
	f.Add("03-pg180.x10b: io_method config\n")
	f.Add("a / b: c\na: d\n# x\n")
	f.Add("a: b\na: b\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := report.ReadAcknowledged(strings.NewReader(in), "f")
		if err != nil {
			if !errors.Is(err, report.ErrBadInput) || !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error %q does not name the file or is not bad input", err)
			}
			return
		}
		seen := map[[2]string]bool{}
		for _, a := range got {
			if a.Set == "" || a.Reason == "" || seen[[2]string{a.Set, a.Test}] {
				t.Fatalf("%+v", a)
			}
			seen[[2]string{a.Set, a.Test}] = true
		}
	})
}
