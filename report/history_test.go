package report_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// A history that judged no test is an error, never a pass: a member of
// another kind leaves every test with too short a history.
func TestHistoryCheckedNothing(t *testing.T) {
	load := func(dir string) *report.Results {
		t.Helper()
		res, _, err := report.Load(dir, report.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ib, sb := load(example), load("../testdata/sysbench/raw")
	set := func(name string, r *report.Results) report.ResultSet { return report.ResultSet{Name: name, Results: r} }
	for _, tc := range []struct {
		name    string
		sets    []report.ResultSet
		err     string // "" when tests are checked
		checked int
		missing int
	}{
		{"the same runs", []report.ResultSet{set("n1", ib), set("n2", ib), set("n3", ib), set("new", ib)}, "", 20, 0},
		{"a sysbench member in an insert-benchmark history",
			[]report.ResultSet{set("n1", ib), set("sb", sb), set("n3", ib), set("new", ib)},
			"the history checked nothing: of 44 tests in 6 series, none has a value in NEW (new) and in at least 3 of the 3 result sets before it; tests with a value per set: n1 20, sb 24, n3 20, new 20", 0, 0},
		{"two sysbench members", []report.ResultSet{set("sb1", sb), set("n2", ib), set("sb3", sb), set("new", ib)},
			"tests with a value per set: sb1 24, n2 20, sb3 24, new 20", 0, 0},
		// What the history has and NEW lacks is missing: the caller fails on it.
		{"sysbench NEW", []report.ResultSet{set("n1", ib), set("n2", ib), set("n3", ib), set("new", sb)}, "", 0, 20},
	} {
		rep, v, err := report.History(tc.sets, report.BuildOptions{})
		switch {
		case tc.err != "":
			if rep != nil || !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case v.Checked != tc.checked || v.Missing != tc.missing:
			t.Errorf("%s: %+v, want %d checked, %d missing", tc.name, v, tc.checked, tc.missing)
		}
	}
}

// Six identical nights have no change point and no regression: a constant
// series (a throughput of 14285.714…) is not a level shift.
func TestSeriesIdenticalNights(t *testing.T) {
	res, _, err := report.Load(example, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sets []report.ResultSet
	for _, n := range []string{"n1", "n2", "n3", "n4", "n5", "n6"} {
		sets = append(sets, report.ResultSet{Name: n, Results: res})
	}
	rep, err := report.BuildSeries(sets, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Series == nil || len(rep.Series.Groups) == 0 {
		t.Fatal("no series")
	}
	for _, g := range rep.Series.Groups {
		if len(g.Changes) > 0 {
			t.Errorf("%s: change points %+v on six identical nights", g.Title, g.Changes)
		}
	}
	hrep, v, err := report.History(sets, report.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.ExitCode() != 0 || v.Checked == 0 || v.RunNoise != 0 {
		t.Errorf("history of six identical nights: %+v, want a pass that checked tests and measured no run noise", v)
	}
	if !slices.ContainsFunc(hrep.Notes, func(n metrics.Warning) bool {
		return strings.HasPrefix(n.Text, "Run-to-run noise of the history: none")
	}) {
		t.Errorf("no note of the run noise the history measured: %q", hrep.Notes)
	}
}
