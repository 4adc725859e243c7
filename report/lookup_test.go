package report_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// TestTreeByShownName checks that a tree is found by the name the outputs
// show as well as by its folder name, and that an unknown name lists the
// names there are.
func TestTreeByShownName(t *testing.T) {
	res, _, err := report.Load("../testdata/example", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pg15.c1", "2m.pg15.c1"} {
		tr, err := res.FindTree(name)
		if err != nil || tr == nil || tr.Name() != "2m.pg15.c1" {
			t.Errorf("FindTree(%q) = %v, %v; want 2m.pg15.c1", name, tr, err)
		}
		if res.Tree(name) != tr {
			t.Errorf("Tree(%q) differs from FindTree", name)
		}
	}
	tr, err := res.FindTree("typo")
	if tr != nil || err == nil || !strings.Contains(err.Error(), "pg15.c1") {
		t.Errorf("FindTree(typo) = %v, %v; want an error listing pg15.c1", tr, err)
	}
	// The docs' pattern on a name that is not there: NA, not a panic.
	if st := res.Tree("typo").Step("l.i0"); st != nil {
		t.Errorf("Step of a missing tree: %v", st)
	}
}

// TestNilArguments checks the messages of the library's entry points
// given nil: errors that say what is missing.
func TestNilArguments(t *testing.T) {
	if _, err := report.Build(nil, report.BuildOptions{}); err == nil || !strings.Contains(err.Error(), "nil *Results") {
		t.Errorf("Build(nil): %v", err)
	}
	if _, err := report.BuildSeries([]report.ResultSet{{Name: "a"}}, report.BuildOptions{}); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("BuildSeries with nil Results: %v", err)
	}
	if _, _, err := report.History(nil, report.BuildOptions{}); err == nil || strings.Contains(err.Error(), "-1") {
		t.Errorf("History(nil): %v", err)
	}
	var res *report.Results
	if w := res.Warnings(); w != nil {
		t.Errorf("nil Results has warnings %v", w)
	}
	if _, err := res.FindTree("x"); err == nil {
		t.Error("FindTree on nil Results: no error")
	}
}

// TestListSuggestsFolder checks that a DBMS list naming a DBMS as the
// outputs show it ("pg15.c1") is answered with the folder name to use.
func TestListSuggestsFolder(t *testing.T) {
	// Load keeps the list; building the tables checks it.
	res, _, err := report.Load("../testdata/example", report.LoadOptions{List: []report.Entry{{Name: "pg15.c1"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = res.Tables(nil)
	if err == nil || !strings.Contains(err.Error(), `did you mean "2m.pg15.c1"?`) {
		t.Errorf("list naming pg15.c1: %v", err)
	}
}
