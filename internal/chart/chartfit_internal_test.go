package chart

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// textBox is where a text was drawn, in the chart's points (y up).
type textBox struct {
	text                   string
	minX, minY, maxX, maxY float64
}

// affine is a 2-D transform: x' = a*x + c*y + e, y' = b*x + d*y + f.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

func (m affine) then(n affine) affine { // m followed by n in local terms: m*n
	return affine{
		a: m.a*n.a + m.c*n.b, b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d, d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e, f: m.b*n.e + m.d*n.f + m.f,
	}
}

// recorder is an SVG canvas that also records the box of every text, from
// the metrics of the font the text is drawn in, and the colour of every
// filled shape.
type recorder struct {
	*vgsvg.Canvas
	m     affine
	stack []affine
	color color.Color
	texts []textBox
	fills map[color.Color]int
}

func newRecorder(w, h vg.Length) *recorder {
	return &recorder{Canvas: vgsvg.New(w, h), m: affine{a: 1, d: 1}, fills: map[color.Color]int{}}
}

func (r *recorder) Push() { r.stack = append(r.stack, r.m); r.Canvas.Push() }
func (r *recorder) Pop() {
	r.m = r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	r.Canvas.Pop()
}
func (r *recorder) SetColor(c color.Color) { r.color = c; r.Canvas.SetColor(c) }

func (r *recorder) Translate(pt vg.Point) {
	r.m = r.m.then(affine{a: 1, d: 1, e: float64(pt.X), f: float64(pt.Y)})
	r.Canvas.Translate(pt)
}

func (r *recorder) Rotate(rad float64) {
	s, c := math.Sincos(rad)
	r.m = r.m.then(affine{a: c, b: s, c: -s, d: c})
	r.Canvas.Rotate(rad)
}

func (r *recorder) Scale(x, y float64) {
	r.m = r.m.then(affine{a: x, d: y})
	r.Canvas.Scale(x, y)
}

func (r *recorder) Fill(p vg.Path) {
	r.fills[r.color]++
	r.Canvas.Fill(p)
}

func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	if strings.TrimSpace(s) != "" {
		e := f.Extents()
		x0, x1 := float64(pt.X), float64(pt.X+f.Width(s))
		y0, y1 := float64(pt.Y-vg.Length(math.Abs(float64(e.Descent)))), float64(pt.Y+e.Ascent)
		b := textBox{text: s, minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
		for _, p := range [][2]float64{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
			x, y := r.m.apply(p[0], p[1])
			b.minX, b.maxX = math.Min(b.minX, x), math.Max(b.maxX, x)
			b.minY, b.maxY = math.Min(b.minY, y), math.Max(b.maxY, y)
		}
		r.texts = append(r.texts, b)
	}
	r.Canvas.FillString(f, pt, s)
}

// drawRecorded lays a chart out and draws it on a recorder.
func drawRecorded(t *testing.T, c *report.Chart) (*chartLayout, *recorder) {
	t.Helper()
	l, err := layoutChart(c)
	if err != nil {
		t.Fatal(err)
	}
	if l == nil {
		return nil, nil
	}
	r := newRecorder(l.w, l.h)
	l.draw(draw.New(r))
	return l, r
}

// overlaps lists the pairs of text boxes that overlap by more than half a
// point both ways, and the boxes that stick out of the chart.
func overlaps(l *chartLayout, boxes []textBox) []string {
	const tol = 0.5
	var out []string
	for i, a := range boxes {
		if a.minX < -tol || a.minY < -tol || a.maxX > float64(l.w)+tol || a.maxY > float64(l.h)+tol {
			out = append(out, fmt.Sprintf("%q at %.1f,%.1f-%.1f,%.1f is outside the %.0fx%.0f chart",
				a.text, a.minX, a.minY, a.maxX, a.maxY, float64(l.w), float64(l.h)))
		}
		for _, b := range boxes[i+1:] {
			w := math.Min(a.maxX, b.maxX) - math.Max(a.minX, b.minX)
			h := math.Min(a.maxY, b.maxY) - math.Max(a.minY, b.minY)
			if w > tol && h > tol {
				out = append(out, fmt.Sprintf("%q and %q overlap by %.1fx%.1f pt", a.text, b.text, w, h))
			}
		}
	}
	return out
}

// reportCharts builds the report of a results folder and returns its
// charts.
func reportCharts(t *testing.T, dir string) []*report.Chart {
	t.Helper()
	res, _, err := report.Load(dir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(res, report.BuildOptions{})
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
	for _, dir := range []string{"../../testdata/longnames", "../../testdata/example", "../../testdata/arc/nov25.sb.mysql/dop1", "../../testdata/sysbench/raw"} {
		charts := reportCharts(t, dir)
		for _, c := range charts {
			l, r := drawRecorded(t, c)
			if l == nil {
				continue
			}
			for _, o := range overlaps(l, r.texts) {
				t.Errorf("%s %s: %s", dir, c.ID, o)
			}
			if c.Kind != "bar" {
				continue
			}
			// Every category is named, whole or cut in the middle.
			drawn := map[string]bool{}
			for _, b := range r.texts {
				drawn[b.text] = true
				if full, ok := l.cut[b.text]; ok {
					drawn[full] = true
				}
			}
			for _, name := range c.Categories {
				if !drawn[name] {
					t.Errorf("%s %s: category %q is not drawn", dir, c.ID, name)
				}
			}
			// Every finite value has its bar: one filled shape of its
			// series' colour (a grouped chart's legend adds one more).
			for i, s := range c.Series {
				want := 0
				for _, v := range s.Values {
					if f := float64(v); finite(f) && f > 0 {
						want++
					}
				}
				if !c.Panels && len(c.Series) > 1 {
					want++
				}
				if got := r.fills[seriesColor(i)]; got < want {
					t.Errorf("%s %s: series %q has %d bars, want %d", dir, c.ID, s.Name, got, want)
				}
			}
		}
	}
}

// TestLongNamesHaveTheirTree checks that the long-name tree is the example
// under other names, so that the charts above draw real data.
func TestLongNamesHaveTheirTree(t *testing.T) {
	c := reportCharts(t, "../../testdata/longnames")[0]
	if len(c.Categories) != 3 || !strings.HasPrefix(c.Categories[1], "fbmy8028_rel_lto.") {
		t.Fatalf("categories %q", c.Categories)
	}
}

func TestFitLabel(t *testing.T) {
	sty := textStyle(tickSize)
	long := "fbmy8028_rel_lto_with_a_very_long_suffix.cy9c_4g_gcp_c2s30_new_and_more_options"
	for _, tc := range []struct {
		s    string
		w    vg.Length
		same bool
	}{
		{"pg15.c1", 100, true},
		{long, maxLabel, false},
		{long, 40, false},
	} {
		got := fitLabel(sty, tc.s, tc.w)
		if (got == tc.s) != tc.same {
			t.Errorf("fitLabel(%q, %v) = %q", tc.s, tc.w, got)
		}
		if sty.Width(got) > tc.w {
			t.Errorf("fitLabel(%q, %v) = %q is %v wide", tc.s, tc.w, got, sty.Width(got))
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

func TestFinishSVG(t *testing.T) {
	in := []byte(`<?xml version="1.0"?><!-- gen --><svg><text style="font-family:Liberation Sans;font-size:9px">a…z</text></svg>`)
	got := finishSVG(in, map[string]string{"a…z": "a<b>z"})
	want := `<svg><text style="font-family:` + chartFontFamily + `;font-size:9px"><title>a&lt;b&gt;z</title>a…z</text></svg>`
	if got != want {
		t.Errorf("finishSVG:\n got %s\nwant %s", got, want)
	}
}
