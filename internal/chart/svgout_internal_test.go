package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// wellFormed decodes an SVG as XML to its end.
func wellFormed(svg string) error {
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// TestChartsAreWellFormedXML writes every chart of the example report and
// of the nine MySQL releases and decodes each as XML.
func TestChartsAreWellFormedXML(t *testing.T) {
	for _, dir := range []string{"../../testdata/example", "../../testdata/arc/nov25.sb.mysql/dop1"} {
		res, _, err := report.Load(dir, report.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.Build(res, report.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		charts := allCharts(r)
		svgs, err := Render(charts)
		if err != nil {
			t.Fatal(err)
		}
		drawn := 0
		for i, svg := range svgs {
			c := charts[i]
			if svg == "" {
				continue
			}
			drawn++
			if err := wellFormed(string(svg)); err != nil {
				t.Errorf("%s %s: %v", dir, c.ID, err)
			}
			if !strings.HasPrefix(string(svg), "<svg ") || !strings.HasSuffix(string(svg), "</svg>\n") {
				t.Errorf("%s %s: not one <svg> element", dir, c.ID)
			}
		}
		if drawn < 4 { // the nine releases: a chart per test group (point, two range groups, writes)
			t.Errorf("%s: %d charts drawn", dir, drawn)
		}
	}
}

// barChart is a chart of one series over the given categories.
func barChart(cats []string, vals ...float64) *Chart {
	s := Series{Name: "s", Values: vals}
	return &Chart{ID: "t", Kind: "bar", Title: "t", YLabel: "u", Categories: cats, Series: []Series{s}}
}

// TestNamesAreEscaped draws names that are markup and checks that they
// come out as text, in labels, legends and tooltips.
func TestNamesAreEscaped(t *testing.T) {
	evil := "<script>alert(1)</script>"
	long := evil + strings.Repeat("x", 80) + `"&'` // cut, so also in a <title>
	bar := barChart([]string{evil, long}, 1, 2)
	bar.Title = evil
	grouped := barChart([]string{"a"}, 1)
	grouped.Series = append(grouped.Series, Series{Name: evil, Values: []float64{2}})
	line := &Chart{ID: "l", Kind: "line", Title: evil, XLabel: evil, YLabel: evil, Series: []Series{
		{Name: evil, Points: []Point{{X: 1, Y: 1}, {X: 2, Y: 2}}},
		{Name: long, Points: []Point{{X: 1, Y: 2}, {X: 2, Y: 3}}},
	}, XTicks: []float64{1, 2}, XLabels: []string{evil, long}}
	for _, c := range []*Chart{bar, grouped, line} {
		svg, err := chartSVG(c)
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		if strings.Contains(s, "<script") || strings.Contains(s, "</script") {
			t.Errorf("%s: a name came out as markup:\n%s", c.Kind, s)
		}
		if !strings.Contains(s, "&lt;script&gt;") {
			t.Errorf("%s: the escaped name is missing:\n%s", c.Kind, s)
		}
		if err := wellFormed(s); err != nil {
			t.Errorf("%s: %v", c.Kind, err)
		}
	}
	if s, _ := chartSVG(bar); !strings.Contains(string(s), "<title>&lt;script&gt;") {
		t.Errorf("the cut name has no escaped tooltip:\n%s", s)
	}
}

// TestBadValuesStayOut draws values that are not drawable (NaN, ±Inf,
// negative) beside good ones and checks that no coordinate is NaN or Inf
// and that the bad bars are labelled NA.
func TestBadValuesStayOut(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bar := barChart([]string{"a", "b", "c", "d", "e"}, nan, inf, -3, 5, math.Inf(-1))
	ref := barChart([]string{"a", "b"}, nan, 1.2)
	ref.Reference = 1
	line := &Chart{ID: "l", Kind: "line", Title: "l", Series: []Series{{Name: "s", Points: []Point{
		{X: 1, Y: nan}, {X: inf, Y: 2}, {X: 3, Y: -4, Err: inf}, {X: 4, Y: 5, Err: nan}, {X: 5, Y: 6, Err: 1},
	}}}, Marks: []float64{nan, 2}, MarkSeries: []int{0, 7}, Levels: []Level{{X0: nan, X1: 2, Y: 1}, {X0: 1, X1: 1, Y: 3}},
		XTicks: []float64{inf, 1, 5}}
	single := &Chart{ID: "p", Kind: "line", Title: "p", Series: []Series{{Name: "s", Points: []Point{{X: 3, Y: 3}}}}}
	flat := &Chart{ID: "f", Kind: "line", Title: "f", Reference: 1, Series: []Series{{Name: "s", Points: []Point{{X: 1, Y: 0}, {X: 2, Y: 0}}}}}
	for _, c := range []*Chart{bar, ref, line, single, flat} {
		svg, err := chartSVG(c)
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		if s == "" {
			t.Errorf("%s: not drawn", c.ID)
			continue
		}
		for _, bad := range []string{"NaN", "Inf", "inf"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s: %q in the SVG:\n%s", c.ID, bad, s)
			}
		}
		if err := wellFormed(s); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
	}
	s, _ := chartSVG(bar)
	if n := strings.Count(string(s), ">NA</text>"); n != 4 {
		t.Errorf("%d NA labels, want 4:\n%s", n, s)
	}
	if n := strings.Count(string(s), "<rect"); n != 1 {
		t.Errorf("%d bars, want 1 (of the one good value)", n)
	}
}

// TestTextWidths checks the width table against Liberation Sans: single
// letters in font units (W 1933, i 455, 0 1139 of 2048 per em), and whole
// strings as the font measured them at 1000 pt (with kerning, which only
// narrows: the table may be wider by a few thousandths, never narrower).
func TestTextWidths(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want float64
	}{
		{"W", 944}, {"i", 222}, {"0", 556}, {"…", 1000}, {"é", 556},
		{"fbmy8028_rel_lto.cy9c_4g_gcp_c2s30", 17066.8945},
		{"pg15.c1", 3558.5938},
		{"queries/s", 4057.6172},
		{"125k", 2168.4570},
		{"MySQL 8.4.3 <script>", 9633.7891},
	} {
		got := textWidth(1000, tc.s)
		if got < tc.want-0.5*float64(len(tc.s)) || got > tc.want*1.005 {
			t.Errorf("width of %q = %v, want %v", tc.s, got, tc.want)
		}
	}
	// Runes outside the table: an em for wide scripts, 0.6 em else.
	for _, tc := range []struct {
		s    string
		want float64
	}{{"漢字", 2000}, {"ｶ", 1000}, {"Ж", 600}, {"\u0085", 600}} {
		if got := textWidth(1000, tc.s); got != tc.want {
			t.Errorf("width of %q = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestNum checks the compact printing of coordinates.
func TestNum(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{1, "1"}, {1.5, "1.5"}, {1.234, "1.23"}, {-0.001, "0"}, {100.10, "100.1"}, {math.NaN(), "0"}, {math.Inf(-1), "0"}} {
		if got := num(tc.v).String(); got != tc.want {
			t.Errorf("num(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestLongSeriesIsDecimated checks that a line of many points is drawn
// with at most the model's point limit.
func TestLongSeriesIsDecimated(t *testing.T) {
	s := Series{Name: "s"}
	for i := range 20000 {
		s.Points = append(s.Points, Point{X: float64(i), Y: float64(i % 13)})
	}
	svg, err := chartSVG(&Chart{ID: "l", Kind: "line", Title: "l", Series: []Series{s}})
	if err != nil {
		t.Fatal(err)
	}
	// The series' line is the longest path in its colour (the other is
	// its legend entry).
	line := ""
	for _, p := range strings.Split(string(svg), "<path ") {
		if strings.Contains(p, `stroke="`+seriesColor(0)+`"`) && len(p) > len(line) {
			line = p
		}
	}
	if n := strings.Count(line, "L") + 1; n < 100 || n > metrics.MaxSeriesPoints {
		t.Errorf("%d points drawn, want at most %d", n, metrics.MaxSeriesPoints)
	}
}

// TestTallChartFitsAScreen checks that a chart laid out taller than a
// screen is shown at most maxHeight tall, whole (its viewBox keeps the
// layout), and that a short one is shown at its size.
func TestTallChartFitsAScreen(t *testing.T) {
	size := regexp.MustCompile(`^<svg width="([0-9.]+)pt" height="([0-9.]+)pt" viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
	var cats []string
	var vals []float64
	for i := range 80 {
		cats = append(cats, fmt.Sprintf("dbms%d", i))
		vals = append(vals, float64(i+1))
	}
	for _, tc := range []struct {
		c      *Chart
		scaled bool
	}{{barChart(cats[:3], vals[:3]...), false}, {barChart(cats, vals...), true}} {
		svg, err := chartSVG(tc.c)
		if err != nil {
			t.Fatal(err)
		}
		m := size.FindStringSubmatch(string(svg))
		if m == nil {
			t.Fatalf("no size in %.100s", svg)
		}
		f := make([]float64, 4)
		for i := range f {
			f[i], _ = strconv.ParseFloat(m[i+1], 64)
		}
		if f[1] > maxHeight {
			t.Errorf("%d rows: shown %v pt tall, more than %d", len(tc.c.Categories), f[1], maxHeight)
		}
		if scaled := f[3] > f[1]; scaled != tc.scaled {
			t.Errorf("%d rows: shown %vx%v of a %vx%v layout", len(tc.c.Categories), f[0], f[1], f[2], f[3])
		}
		if tc.scaled && math.Abs(f[0]/f[1]-f[2]/f[3]) > 0.01 {
			t.Errorf("%d rows: shown %vx%v, not in the proportions of %vx%v", len(tc.c.Categories), f[0], f[1], f[2], f[3])
		}
	}
}
