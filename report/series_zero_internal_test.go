package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
)

// TestBuildSeriesZeroFirst: a series whose first members have a throughput
// of 0 is relative to the first member above 0, says so, and keeps its
// change point with finite before and after levels; a test at 0 for every
// member has no relative values, each NA with why.
func TestBuildSeriesZeroFirst(t *testing.T) {
	levels := []float64{0, 1000, 1010, 990, 1005, 995, 1500, 1510, 1490, 1505, 1495, 1500}
	members := make([]string, len(levels))
	var shift, flat0 seriesTest
	shift.name, shift.unit = "shift", "inserts/s"
	flat0.name, flat0.unit = "zero", "inserts/s"
	for i, v := range levels {
		members[i] = "n" + string(rune('a'+i))
		shift.values = append(shift.values, metrics.Known(v, "inserts/s"))
		flat0.values = append(flat0.values, metrics.Known(0, "inserts/s"))
	}
	g := buildSeries(seriesInput{id: "s", title: "S", members: members, tests: []seriesTest{shift, flat0}}, stats.ChangePointOptions{})
	for _, tc := range []struct {
		name  string
		row   int
		texts []string
	}{
		{"shift", 0, []string{"0.00", "1.00", "1.01", "0.99", "1.00", "0.99", "1.50", "1.51", "1.49", "1.50", "1.50", "1.50"}},
		{"zero", 1, slices.Repeat([]string{"NA"}, len(levels))},
	} {
		var got []string
		for _, c := range g.Heat.Rows[tc.row].Cells[1:] {
			got = append(got, c.Text)
			if c.Text == "NA" && c.NA != "no member has a value above 0 to be relative to" {
				t.Errorf("%s: NA cell without the reason: %+v", tc.name, c)
			}
		}
		if !slices.Equal(got, tc.texts) {
			t.Errorf("%s: heat %q, want %q", tc.name, got, tc.texts)
		}
	}
	if c := g.Heat.Rows[0].Cells[2]; c.Band != Base {
		t.Errorf("the reference %+v is not marked as the base", c)
	}
	for _, want := range []string{"shift: relative to 2 nb, the first member with a value above 0 (1 na has 0).",
		"shift, 1 na: 0, a run that did nothing: left out of the change points.",
		"zero: no member has a value above 0, so no relative values."} {
		if !slices.Contains(g.Heat.Notes, want) {
			t.Errorf("notes %q lack %q", g.Heat.Notes, want)
		}
	}
	var found bool
	for _, c := range g.Changes {
		if c.Test == "shift" && c.Index == 6 {
			found = true
			if b, a := float64(c.Before), float64(c.After); math.IsNaN(b) || math.IsNaN(a) || math.IsInf(a, 0) || a/b < 1.4 {
				t.Errorf("change %+v: want finite levels relative to nb", c)
			}
		}
	}
	if !found {
		t.Errorf("no change point of shift at member 7: %+v", g.Changes)
	}
	for _, ch := range g.Charts {
		for _, p := range ch.Series[0].Points {
			if math.IsInf(float64(p.Y), 0) || math.IsNaN(float64(p.Y)) {
				t.Errorf("%s: point %+v", ch.Title, p)
			}
		}
		if strings.HasPrefix(ch.Title, "shift") && ch.Title != "shift: relative to 2 nb" {
			t.Errorf("chart title %q", ch.Title)
		}
	}
}

// TestHistoryZeroMean: NEW against a history whose every run is 0 has a
// verdict but no percentage, NA with why; a usable history has both.
func TestHistoryZeroMean(t *testing.T) {
	for _, tc := range []struct {
		name        string
		values      []Num
		pct, pctWhy string
		verdict     string
	}{
		{"history of 0", []Num{0, 0, 0, 0, 100}, "NA", "base: the history's mean is 0", "improvement"},
		{"usable history", []Num{100, 101, 99, 100, 100}, "+0.0%", "", "ok"},
	} {
		g := &SeriesGroup{ID: "h", Title: "H", Members: []string{"a", "b", "c", "d", "e"},
			Labels: []string{"1 a", "2 b", "3 c", "4 d", "5 e"}, Tests: []string{"t"}, Unit: "queries/s",
			Values: [][]Num{tc.values}}
		var v HistoryVerdict
		row := historyTable(g, 1, &v, nil, false).Rows[0].Cells
		pct, verdict := row[len(row)-3], row[len(row)-1]
		if pct.Text != tc.pct || pct.NA != tc.pctWhy || verdict.Text != tc.verdict {
			t.Errorf("%s: change %+v, verdict %q; want %s (%s), %s", tc.name, pct, verdict.Text, tc.pct, tc.pctWhy, tc.verdict)
		}
	}
}
