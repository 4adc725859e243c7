package chart

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// textBox is where a text is drawn, in the chart's points (y down).
type textBox struct {
	text                   string
	minX, minY, maxX, maxY float64
}

// box is the box of a label from the metrics it is drawn with: from its
// anchor, along its baseline, and from the ascent above the baseline to the
// descent below it, turned about its anchor when it reads upwards.
func (t *text) box() textBox {
	size := float64(t.Size)
	if size == 0 {
		size = tickSize
	}
	w := textWidth(size, t.S)
	var u0 float64 // where the text starts along its baseline
	switch t.Anchor {
	case "middle":
		u0 = -w / 2
	case "end":
		u0 = -w
	}
	x, y := float64(t.X), float64(t.Y)
	if t.Up {
		// rotate(-90) about (x, y): along the baseline is up the page.
		return textBox{t.S, x - ascent*size, y - (u0 + w), x + descent*size, y - u0}
	}
	return textBox{t.S, x + u0, y - ascent*size, x + u0 + w, y + descent*size}
}

// texts lists the boxes of a scene's labels.
func (s *scene) texts() []textBox {
	var out []textBox
	for _, e := range s.Els {
		if e.Text != nil && strings.TrimSpace(e.Text.S) != "" {
			out = append(out, e.Text.box())
		}
	}
	return out
}

// fills counts the filled boxes of each colour.
func (s *scene) fills() map[string]int {
	m := map[string]int{}
	for _, e := range s.Els {
		if e.Rect != nil {
			m[e.Rect.Fill]++
		}
	}
	return m
}

// overlaps lists the pairs of text boxes that overlap by more than half a
// point both ways, and the boxes that stick out of the chart.
func overlaps(s *scene, boxes []textBox) []string {
	const tol = 0.5
	var out []string
	w, h := float64(s.W), float64(s.H)
	for i, a := range boxes {
		if a.minX < -tol || a.minY < -tol || a.maxX > w+tol || a.maxY > h+tol {
			out = append(out, fmt.Sprintf("%q at %.1f,%.1f-%.1f,%.1f is outside the %.0fx%.0f chart",
				a.text, a.minX, a.minY, a.maxX, a.maxY, w, h))
		}
		for _, b := range boxes[i+1:] {
			ow := math.Min(a.maxX, b.maxX) - math.Max(a.minX, b.minX)
			oh := math.Min(a.maxY, b.maxY) - math.Max(a.minY, b.minY)
			if ow > tol && oh > tol {
				out = append(out, fmt.Sprintf("%q and %q overlap by %.1fx%.1f pt", a.text, b.text, ow, oh))
			}
		}
	}
	return out
}

// reportCharts builds the report of a results folder and returns its
// charts.
func reportCharts(t *testing.T, dir string, opts report.BuildOptions) []*Chart {
	t.Helper()
	res, _, err := report.Load(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(res, opts)
	if err != nil {
		t.Fatal(err)
	}
	charts := allCharts(r)
	if len(charts) == 0 {
		t.Fatalf("%s: no charts", dir)
	}
	return charts
}

// TestChartsHoldRealNames draws every chart of reports whose DBMS carry
// real-length names (three insert-benchmark trees named as in published
// reports; nine MySQL releases of a sysbench archive) and checks that every
// DBMS has its bar and that no two texts of a chart overlap, from the
// metrics of the font the charts are drawn in.
func TestChartsHoldRealNames(t *testing.T) {
	for _, dir := range []string{"../../testdata/longnames", "../../testdata/example", "../../testdata/arc/nov25.sb.mysql/dop1", "../../testdata/sysbench/raw", "../../testdata/arc/nov25.sb.pg/dop40"} {
		charts := reportCharts(t, dir, report.BuildOptions{})
		for _, c := range charts {
			s, err := layoutChart(c)
			if err != nil {
				t.Fatal(err)
			}
			if s == nil {
				continue
			}
			texts := s.texts()
			for _, o := range overlaps(s, texts) {
				t.Errorf("%s %s: %s", dir, c.ID, o)
			}
			if c.Kind != "bar" {
				continue
			}
			// Every category is named, whole or cut in the middle.
			drawn := map[string]bool{}
			for _, b := range texts {
				drawn[b.text] = true
				if full, ok := s.cut[b.text]; ok {
					drawn[full] = true
				}
			}
			for _, name := range c.Categories {
				if !drawn[name] {
					t.Errorf("%s %s: category %q is not drawn", dir, c.ID, name)
				}
			}
			// Every finite value has its bar: one filled box of its
			// series' colour (a grouped chart's legend adds one more).
			fills := s.fills()
			for i, sr := range c.Series {
				want := 0
				for _, v := range sr.Values {
					if f := float64(v); finite(f) && f > 0 {
						want++
					}
				}
				if !c.Panels && len(c.Series) > 1 {
					want++
				}
				if got := fills[seriesColor(i)]; got < want {
					t.Errorf("%s %s: series %q has %d bars, want %d", dir, c.ID, sr.Name, got, want)
				}
			}
		}
	}
}

// TestLongNamesHaveTheirTree checks that the long-name tree is the example
// under other names, so that the charts above draw real data.
func TestLongNamesHaveTheirTree(t *testing.T) {
	c := reportCharts(t, "../../testdata/longnames", report.BuildOptions{})[0]
	if len(c.Categories) != 3 || !strings.HasPrefix(c.Categories[1], "fbmy8028_rel_lto.") {
		t.Fatalf("categories %q", c.Categories)
	}
}

func TestFitLabel(t *testing.T) {
	long := "fbmy8028_rel_lto_with_a_very_long_suffix.cy9c_4g_gcp_c2s30_new_and_more_options"
	for _, tc := range []struct {
		s    string
		w    float64
		same bool
	}{
		{"pg15.c1", 100, true},
		{long, maxLabel, false},
		{long, 40, false},
	} {
		got := fitLabel(tickSize, tc.s, tc.w)
		if (got == tc.s) != tc.same {
			t.Errorf("fitLabel(%q, %v) = %q", tc.s, tc.w, got)
		}
		if w := textWidth(tickSize, got); w > tc.w {
			t.Errorf("fitLabel(%q, %v) = %q is %v wide", tc.s, tc.w, got, w)
		}
		if !tc.same && (!strings.HasPrefix(got, tc.s[:3]) || !strings.HasSuffix(got, tc.s[len(tc.s)-2:]) || !strings.Contains(got, "…")) {
			t.Errorf("fitLabel(%q) = %q: want both ends and an ellipsis", tc.s, got)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 125000, "0 25k 50k 75k 100k 125k"},
		{0, 14.5, "0 2 4 6 8 10 12 14"},
		{0, 1.1, "0 0.2 0.4 0.6 0.8 1.0"},
		{1, 12, "2 4 6 8 10 12"},
		{0, 9000, "0 2000 4000 6000 8000"},
		{0, 36000, "0 5k 10k 15k 20k 25k 30k 35k"},
		{0, 2.5e7, "0 5M 10M 15M 20M 25M"},
	} {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			got = append(got, tk.Label)
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("ticks(%v, %v) = %s, want %s", tc.lo, tc.hi, s, tc.want)
		}
		if len(got) < minTicks {
			t.Errorf("ticks(%v, %v): %d labels", tc.lo, tc.hi, len(got))
		}
	}
}

// TestWrapTitle: a title that fits stays one line; a longer one breaks at
// a space into two lines that each fit, losing no word; a second line too
// long for the width is cut in the middle.
func TestWrapTitle(t *testing.T) {
	long := "range without aggregation: QPS of 18 builds relative to their group's base 10.2.44 z12b, 40 threads"
	for _, tc := range []struct {
		title string
		w     float64
		lines int
		whole bool // every word drawn
	}{
		{"point: QPS relative to 10.2.44 z12b, 40 threads", 430, 1, true},
		{long, 430, 2, true},
		{long, 150, 2, false},
		{"x.pg1222_o2nofp.x10a_c32r128.pk1_and_more_of_one_word_without_spaces", 150, 1, false},
	} {
		got := wrapTitle(titleSize, tc.title, tc.w)
		if len(got) != tc.lines {
			t.Errorf("%q at %.0f: %d lines %q, want %d", tc.title, tc.w, len(got), got, tc.lines)
		}
		for _, l := range got {
			if w := textWidth(titleSize, l); w > tc.w {
				t.Errorf("%q at %.0f: line %q is %.1f wide", tc.title, tc.w, l, w)
			}
		}
		if whole := strings.Join(got, " ") == tc.title; whole != tc.whole {
			t.Errorf("%q at %.0f: %q, whole %v, want %v", tc.title, tc.w, got, whole, tc.whole)
		}
	}
}
