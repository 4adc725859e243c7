package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func TestSeriesLabels(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{"x.pg1222_o2nofp.x10a_c32r128.pk1", "x.pg180_o2nofp.x10b_c32r128.pk1"}, []string{"1 12.22 x10a", "2 18.0 x10b"}},
		{[]string{"my8043_rel.z12a", "my8044_rel.z12a", "my9500_rel.z12a"}, []string{"1 8.0.43", "2 8.0.44", "3 9.5.0"}},
		{[]string{"pg15.c1"}, []string{"1 pg15.c1"}},
		{[]string{"a", "a"}, []string{"1 a", "2 a"}},
		{[]string{"run.1", "run.2", "run"}, []string{"1 run.1", "2 run.2", "3 run"}},
	} {
		if got := seriesLabels(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("seriesLabels(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestBuildSeries plants a +20% shift at the sixth of twelve members of one
// test, leaves another flat, and makes a third NA at one member.
func TestBuildSeries(t *testing.T) {
	members := []string{"v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12"}
	noise := []float64{1, -1, 0.5, -0.5, 0, 1, -1, 0.5, -0.5, 0, 0.3, -0.3}
	in := seriesInput{id: "s", title: "Test series", members: members}
	for _, name := range []string{"shift", "flat test", "missing"} {
		st := seriesTest{name: name, unit: "queries/s"}
		for i := range members {
			v := 1000 + 10*noise[i]
			if name == "shift" && i >= 5 {
				v *= 1.2
			}
			val := metrics.Known(v, "queries/s")
			if name == "missing" && i == 3 {
				val = metrics.NA("queries/s", "sb.o is missing")
			}
			st.values = append(st.values, val)
			st.noise = append(st.noise, 0.01)
		}
		in.tests = append(in.tests, st)
	}
	g := buildSeries(in, stats.ChangePointOptions{})
	if len(g.Changes) != 1 {
		t.Fatalf("changes %+v, want one", g.Changes)
	}
	c := g.Changes[0]
	if c.Test != "shift" || c.Member != "v6" || c.Index != 5 || math.Abs(c.Shift-0.2) > 0.01 || math.Abs(float64(c.After)/float64(c.Before)-1.2) > 0.01 {
		t.Errorf("change %+v, want shift at v6 by +20%%", c)
	}
	if row := g.Heat.Rows[0]; !row.Cells[6].ChangePoint || row.Cells[1].Band != Base || !strings.HasSuffix(row.Cells[6].Marked(), "◆") {
		t.Errorf("heat row %+v: want ◆ at v6 and the first member as base", row)
	}
	if cell := g.Heat.Rows[2].Cells[4]; cell.NA == "" || !strings.Contains(cell.NA, "sb.o is missing") {
		t.Errorf("NA cell %+v: want the reason", cell)
	}
	if g.ChangeTable == nil || len(g.ChangeTable.Rows) != 1 || g.ChangeTable.Rows[0].Cells[1].Text != "6 v6" {
		t.Errorf("change table %+v", g.ChangeTable)
	}
	if g.Charts[0].Title != "shift: relative to 1 v1" || len(g.Charts[0].Marks) != 1 || g.Charts[0].Marks[0] != 5.5 {
		t.Errorf("first chart %q marks %v: want the shifted test first, marked between 5 and 6", g.Charts[0].Title, g.Charts[0].Marks)
	}
	for _, c := range g.Charts {
		if strings.ContainsAny(c.ID, " \t") {
			t.Errorf("chart id %q: an HTML id has no spaces", c.ID)
		}
	}
	if pt := g.Charts[0].Series[0].Points[0]; pt.Err != 0.01 {
		t.Errorf("first point %+v: want an error bar of 0.01", pt)
	}

	short := buildSeries(seriesInput{id: "t", title: "Two", members: members[:2], tests: in.tests[:1]}, stats.ChangePointOptions{})
	if short.ChangeTable != nil || len(short.Changes) != 0 || len(short.Notes) != 1 || !strings.Contains(short.Notes[0], "needs at least 4") {
		t.Errorf("two members: changes %v, notes %q; want none and a note", short.Changes, short.Notes)
	}
}

// TestSeriesInputsGroups: a group break of the DBMS list starts a new
// series; values come from the summary cells, NA cells keep their reason.
func TestSeriesInputsGroups(t *testing.T) {
	num := func(v float64) Cell { return Cell{Text: "x", Value: &v, Unit: "inserts/s"} }
	r := &Report{
		Steps: []StepInfo{{Name: "l.i0", Column: "l.i0", Unit: "inserts/s"}, {Name: "l.i1", Column: "l.i1", Unit: "inserts/s"}},
		Summary: &Table{Rows: []Row{
			{Kind: DataRow, Cells: []Cell{{Text: "a1"}, num(1), num(2)}},
			{Kind: DataRow, Cells: []Cell{{Text: "a2"}, num(3), {Text: "NA", NA: "l.i1 is missing"}}},
			{Kind: DataRow, GroupStart: true, Cells: []Cell{{Text: "b1"}, num(5), num(6)}},
		}},
	}
	// An archive's builder: no raw trees, so no noise.
	b := &seriesBuild{rep: r, noise: &ibench{}, steps: []parse.Step{{MergeName: "l.i0"}, {MergeName: "l.i1"}}}
	ins := b.seriesInputs()
	if len(ins) != 2 {
		t.Fatalf("%d series, want 2", len(ins))
	}
	if !slices.Equal(ins[0].members, []string{"a1", "a2"}) || !slices.Equal(ins[1].members, []string{"b1"}) ||
		ins[0].title != "Insert benchmark, series 1" || ins[1].title != "Insert benchmark, series 2" {
		t.Errorf("series %+v", ins)
	}
	if v := ins[0].tests[1].values[1]; v.OK() || v.Why != "l.i1 is missing" {
		t.Errorf("NA value %+v", v)
	}
	if v := ins[1].tests[0].values[0]; !v.OK() || v.V != 5 || !math.IsNaN(ins[1].tests[0].noise[0]) {
		t.Errorf("value %+v, noise %v", v, ins[1].tests[0].noise)
	}
}

// TestBuildSeriesNoFirst: a test the first member lacks is relative to the
// first member that has it, and says so; an implausible value is NA with
// why.
func TestBuildSeriesNoFirst(t *testing.T) {
	vals := []metrics.Value{metrics.NA("queries/s", "sb.o is missing"), metrics.Known(100, "queries/s"),
		metrics.Known(-5, "queries/s"), metrics.Known(110, "queries/s")}
	g := buildSeries(seriesInput{id: "s", title: "S", members: []string{"r1", "r2", "r3", "r4"},
		tests: []seriesTest{{name: "t", unit: "queries/s", values: vals}}}, stats.ChangePointOptions{})
	row := g.Heat.Rows[0]
	if row.Cells[2].Band != Base || row.Cells[4].Text != "1.10" || row.Cells[1].NA != "sb.o is missing" ||
		!strings.Contains(row.Cells[3].NA, "-5 is negative, not a rate") {
		t.Errorf("row %+v", row.Cells)
	}
	if !slices.Contains(g.Heat.Notes, "t: relative to 2 r2, the first member with a value.") || g.Charts[0].Title != "t: relative to 2 r2" {
		t.Errorf("notes %q, chart %q", g.Heat.Notes, g.Charts[0].Title)
	}
	if buildSeries(seriesInput{id: "e", title: "E"}, stats.ChangePointOptions{}) != nil {
		t.Error("a series without members is not nil")
	}
}
