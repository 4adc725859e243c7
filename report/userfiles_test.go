package report_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

func TestReadDBMSListBounds(t *testing.T) {
	names := func(n int) string { return strings.Repeat("2m.pg15.c1 -\n", n) }
	for _, tc := range []struct {
		name, text, err string
		entries         int
	}{
		{name: "a thousand names", text: names(1000), entries: 2000},
		{name: "a thousand and one names", text: names(1001), err: "dbms:1001: more than 1000 DBMS names; each is a row of every table and chart of the report"},
		{name: "one long line", text: strings.Repeat("2m.pg15.c1 ", 100) + "\n", entries: 100},
		{name: "a line beyond the file limit", text: "x\n" + strings.Repeat("y", 1<<20+2) + "\n", err: "dbms:2: line longer than 1048576 bytes; a DBMS list is a few lines"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := report.ReadDBMSList(strings.NewReader(tc.text), "dbms")
			switch {
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Errorf("error %v, want %q", err, tc.err)
			case tc.err == "" && (err != nil || len(list) != tc.entries):
				t.Errorf("%d entries, %v; want %d", len(list), err, tc.entries)
			}
		})
	}
}

// Building a report costs work in proportion to the length of the DBMS
// list (every listed name is a row of every table): doubling the list may
// not much more than double the allocations. The allocations are counted,
// not timed, so that the test does not depend on the machine's load.
func TestBuildGrowsLinearlyWithTheList(t *testing.T) {
	if testing.Short() {
		t.Skip("builds reports of hundreds of rows")
	}
	allocs := func(groups int) float64 {
		var list []report.Entry
		for range groups {
			list = append(list, report.Entry{Name: "2m.pg15.c1"}, report.Entry{Name: "2m.pg15.c2"}, report.Entry{Break: true})
		}
		res, _, err := report.Load(example, report.LoadOptions{List: list})
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(1, func() {
			if _, err := report.Build(res, report.BuildOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(50), allocs(200)
	if ratio := large / small; ratio > 4.4 {
		t.Errorf("a list 4 times longer makes %.1f times the allocations (%.0f, %.0f): the work grows faster than the list", ratio, small, large)
	}
}

// The files a user names are read only when they are small regular files.
func TestLoadRefusesSpecialUserFiles(t *testing.T) {
	for _, tc := range []struct {
		opt  report.LoadOptions
		want string
	}{
		{report.LoadOptions{DBMSList: "/dev/zero"}, "--dbms /dev/zero: a device, not a regular file"},
		{report.LoadOptions{DBMSList: example}, "--dbms " + example + ": a folder, not a regular file"},
	} {
		_, _, err := report.Load(example, tc.opt)
		if err == nil || err.Error() != tc.want || !errors.Is(err, report.ErrBadInput) {
			t.Errorf("Load: %v, want %q (bad input)", err, tc.want)
		}
	}
}
