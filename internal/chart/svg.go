package chart

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/report"
)

// The charts are drawn by gonum/plot in Liberation Sans, whose metrics are
// Arial's and Helvetica's: the SVG names those fonts after it, so that a
// browser without Liberation Sans draws text of the widths the layout was
// computed with, and the page (style.css) uses the same list.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

const chartFontFamily = "Liberation Sans,Arial,Helvetica,sans-serif"

// Sizes of the chart layout, in points.
const (
	tickSize   = 9    // tick labels, legend entries, value labels
	labelSize  = 9.5  // axis labels
	titleSize  = 10.5 // chart and panel titles
	barWidth   = 11   // a bar of a one-series panel
	groupBar   = 6    // a bar of a grouped chart
	barGap     = 7    // between categories
	panelWidth = 250  // the data part of one panel of a bar chart
	panelGap   = 45   // after a panel: its last tick label, a gap
	lineWidth  = 430  // a line chart
	lineHeight = 190  // the plot part of a line chart
	maxLabel   = 270  // the longest category or legend label before it is cut
	legendRow  = 13   // one row of a legend
	minTicks   = 5    // labelled ticks per value axis, at least
	margin     = 4    // around the plot: font boxes reach past the plot's
)

func textStyle(size float64) draw.TextStyle {
	return draw.TextStyle{
		Color:   color.Black,
		Font:    font.From(chartFont, vg.Length(size)),
		Handler: plot.DefaultTextHandler,
		XAlign:  draw.XLeft,
		YAlign:  draw.YBottom,
	}
}

// chartSVG draws a chart as an SVG element for inlining in HTML. The SVG
// comes from gonum/plot, which escapes every text it writes (titles, DBMS
// names), so it is safe to mark it as HTML.
func chartSVG(c *report.Chart) (template.HTML, error) {
	l, err := layoutChart(c)
	if err != nil || l == nil {
		return "", err
	}
	canvas := vgsvg.New(l.w, l.h)
	l.draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", err
	}
	return template.HTML(finishSVG(buf.Bytes(), l.cut)), nil
}

// finishSVG makes gonum/plot's SVG fit for inlining: it drops the XML
// declaration and the generator comment (inline SVG starts at <svg>), gives
// the text the font list of the page, and puts the whole name of every
// label that was cut short in a <title>, which browsers show on hover.
func finishSVG(b []byte, cut map[string]string) string {
	if i := bytes.Index(b, []byte("<svg")); i >= 0 {
		b = b[i:]
	}
	s := strings.ReplaceAll(string(b), "font-family:Liberation Sans;", "font-family:"+chartFontFamily+";")
	for short, full := range cut {
		s = strings.ReplaceAll(s, ">"+html.EscapeString(short)+"</text>",
			"><title>"+html.EscapeString(full)+"</title>"+html.EscapeString(short)+"</text>")
	}
	return s
}

// chartLayout is a chart sized and ready to draw.
type chartLayout struct {
	w, h vg.Length
	draw func(draw.Canvas)
	cut  map[string]string // label drawn -> the whole name
}

// layoutChart sizes a chart; nil when it has nothing to draw.
func layoutChart(c *report.Chart) (*chartLayout, error) {
	if !c.HasData() {
		return nil, nil // nothing to draw; the tables say NA
	}
	switch c.Kind {
	case "bar":
		return barLayout(c)
	case "line":
		return lineLayout(c)
	}
	return nil, fmt.Errorf("chart %s: unknown chart kind %q", c.ID, c.Kind)
}

// fitLabel cuts s in the middle to fit width w, keeping both ends: DBMS
// names tend to differ at the start (the version) and at the end (the
// configuration).
func fitLabel(sty draw.TextStyle, s string, w vg.Length) string {
	if sty.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for keep := len(r) - 1; keep > 1; keep-- {
		head := (keep + 1) / 2
		t := string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
		if sty.Width(t) <= w {
			return t
		}
	}
	return "…"
}

// fitLabels cuts every label to width w, recording what was cut in cut.
func fitLabels(sty draw.TextStyle, names []string, w vg.Length, cut map[string]string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fitLabel(sty, n, w)
		if out[i] != n {
			cut[out[i]] = n
		}
	}
	return out
}

func maxWidth(sty draw.TextStyle, names []string) vg.Length {
	var w vg.Length
	for _, n := range names {
		w = max(w, sty.Width(n))
	}
	return w
}

// newPlot is a plot in the chart font, with readable ticks and a light
// grid.
func newPlot() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle = textStyle(titleSize)
	p.Title.TextStyle.XAlign, p.Title.TextStyle.YAlign = draw.XCenter, draw.YTop
	p.Title.Padding = 4
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = textStyle(labelSize)
		a.Tick.Label = textStyle(tickSize)
		a.Tick.Marker = niceTicks{}
	}
	p.X.Label.TextStyle.XAlign = draw.XCenter
	p.Y.Label.TextStyle.XAlign = draw.XCenter
	p.X.Tick.Label.XAlign = draw.XCenter
	p.X.Tick.Label.YAlign = draw.YTop
	p.Y.Tick.Label.XAlign = draw.XRight
	p.Y.Tick.Label.YAlign = draw.YCenter
	p.BackgroundColor = color.Transparent
	return p
}

var gridColor = color.Gray{Y: 225}

// grid draws light lines at the value ticks of one or both axes.
func grid(p *plot.Plot, vertical, horizontal bool) {
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = gridColor, gridColor
	g.Vertical.Width, g.Horizontal.Width = 0.5, 0.5
	if !vertical {
		g.Vertical.Color = nil
	}
	if !horizontal {
		g.Horizontal.Color = nil
	}
	p.Add(g)
}

// palette holds fourteen colours: Tableau 10, which stay apart for readers
// with the common colour-vision deficiencies too, then four that differ
// from them in lightness as well as hue (near-black, deep purple, cyan,
// dark gold), so that a series of thirteen releases has a colour each.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 0xff}, color.RGBA{0xf2, 0x8e, 0x2b, 0xff}, color.RGBA{0xe1, 0x57, 0x59, 0xff},
	color.RGBA{0x76, 0xb7, 0xb2, 0xff}, color.RGBA{0x59, 0xa1, 0x4f, 0xff}, color.RGBA{0xed, 0xc9, 0x48, 0xff},
	color.RGBA{0xb0, 0x7a, 0xa1, 0xff}, color.RGBA{0xff, 0x9d, 0xa7, 0xff}, color.RGBA{0x9c, 0x75, 0x5f, 0xff},
	color.RGBA{0xba, 0xb0, 0xac, 0xff},
	color.RGBA{0x33, 0x33, 0x33, 0xff}, color.RGBA{0x6a, 0x3d, 0x9a, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff},
	color.RGBA{0x8c, 0x6d, 0x00, 0xff},
}

// seriesColor is the colour of the i-th series; after fourteen colours the
// lines repeat them dashed (dashes).
func seriesColor(i int) color.Color { return palette[i%len(palette)] }

// dashes is the dash pattern of the i-th line: solid for the first
// fourteen.
func dashes(i int) []vg.Length { return plotutil.Dashes(i / len(palette)) }

// finite reports whether v can be drawn.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// barLayout draws bars horizontally, one row per category with its name on
// the left, so that names of any length stay readable. A chart with Panels
// draws each series in a panel of its own with its own scale (queries/s
// beside inserts/s); otherwise the series are grouped within a category and
// named in a legend under the plot.
func barLayout(c *report.Chart) (*chartLayout, error) {
	cut := map[string]string{}
	tick := textStyle(tickSize)
	labels := fitLabels(tick, c.Categories, maxLabel, cut)
	labelW := maxWidth(tick, labels) + 8

	panels := [][]report.Series{c.Series}
	if c.Panels {
		panels = panels[:0]
		for _, s := range c.Series {
			panels = append(panels, []report.Series{s})
		}
	}
	perGroup := len(panels[0])
	bw := vg.Length(barWidth)
	if perGroup > 1 {
		bw = groupBar
	}
	n := len(c.Categories)
	rowH := vg.Length(perGroup)*bw + barGap
	title := textStyle(titleSize)
	// Title, data rows, x tick labels and the axis label.
	plotH := title.Height("X") + 8 + vg.Length(n)*rowH + 4 + tick.Height("0") + textStyle(labelSize).Height("X") + 16

	var legend *legendLayout
	if !c.Panels && perGroup > 1 {
		names := make([]string, len(c.Series))
		for i, s := range c.Series {
			names[i] = s.Name
		}
		legend = newLegend(names, "bar", labelW+vg.Length(panelWidth)+40, cut)
	}
	pw := vg.Length(panelWidth)
	if !c.Panels {
		pw += 120 // one wide panel
	}
	w := labelW + 30 + vg.Length(len(panels))*(pw+panelGap) + 2*margin
	h := plotH + 2*margin
	if legend != nil {
		h += legend.h
		w = max(w, legend.w+labelW)
	}

	plots := make([]*plot.Plot, len(panels))
	for k, ser := range panels {
		p := newPlot()
		p.Title.Text = c.Title
		unit := c.YLabel
		if c.Panels {
			p.Title.Text = ser[0].Name
			if ser[0].Unit != "" {
				unit = ser[0].Unit
			}
		}
		p.X.Label.Text = unit
		grid(p, true, false)
		maxv := 0.0
		for i, s := range ser {
			vals := make(plotter.Values, n)
			var nas plotter.XYLabels
			for j := range n {
				v := math.NaN()
				if j < len(s.Values) {
					v = float64(s.Values[j])
				}
				pos := float64(n - 1 - j) // the first category on top
				if !finite(v) || v < 0 {
					nas.XYs = append(nas.XYs, plotter.XY{X: 0, Y: pos + barOffset(i, perGroup, bw, rowH)})
					nas.Labels = append(nas.Labels, "NA")
					continue
				}
				vals[n-1-j] = v
				maxv = max(maxv, v)
			}
			bars, err := plotter.NewBarChart(vals, bw)
			if err != nil {
				return nil, fmt.Errorf("chart %s: %w", c.ID, err)
			}
			bars.Horizontal = true
			bars.LineStyle.Width = 0
			bars.Color = seriesColor(i)
			if c.Panels {
				bars.Color = seriesColor(k)
			}
			bars.Offset = vg.Length(float64(perGroup-1)/2-float64(i)) * bw
			p.Add(bars)
			if len(nas.XYs) > 0 {
				if l, err := valueLabels(nas); err == nil {
					p.Add(l)
				}
			}
		}
		// Room right of the longest bar for its value label.
		room := 0.0
		if perGroup == 1 {
			var xy plotter.XYLabels
			for j, v := range ser[0].Values {
				if f := float64(v); finite(f) && f >= 0 {
					xy.XYs = append(xy.XYs, plotter.XY{X: f, Y: float64(n - 1 - j)})
					label := chartNumber(f)
					if c.Reference != 0 {
						label = strconv.FormatFloat(f, 'f', 2, 64) // a ratio, as the tables print it
					}
					xy.Labels = append(xy.Labels, label)
					room = max(room, float64(tick.Width(label)+8))
				}
			}
			if l, err := valueLabels(xy); err == nil && len(xy.XYs) > 0 {
				p.Add(l)
			}
		}
		if c.Reference > 0 {
			maxv = max(maxv, c.Reference*1.05)
			p.Add(vline(c.Reference, -0.5, float64(n)-0.5, referenceStyle))
		}
		if maxv <= 0 {
			maxv = 1
		}
		p.X.Min = 0
		p.X.Max = maxv / math.Max(0.5, 1-room/float64(pw))
		p.X.Tick.Marker = niceTicks{width: float64(pw), style: tick}
		p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
		names := make([]string, n) // only the first panel names the rows
		if k == 0 {
			for j := range n {
				names[n-1-j] = labels[j]
			}
		}
		p.NominalY(names...)
		plots[k] = p
	}

	draw := func(dc draw.Canvas) {
		area := draw.Crop(dc, margin, -margin, margin, -margin)
		if legend != nil {
			legend.draw(draw.Crop(dc, labelW, 0, 0, -(h - legend.h)))
			area = draw.Crop(dc, margin, -margin, legend.h, -margin)
		}
		x := area.Min.X
		for k, p := range plots {
			pwk := pw + panelGap
			if k == 0 {
				pwk += labelW
			}
			sub := area
			sub.Min.X, sub.Max.X = x, x+pwk
			p.Draw(sub)
			x += pwk
		}
	}
	return &chartLayout{w: w, h: h, draw: draw, cut: cut}, nil
}

// referenceStyle draws a chart's reference value (1 on relative charts):
// dashed gray.
var referenceStyle = draw.LineStyle{Color: color.Gray{Y: 60}, Width: 1, Dashes: []vg.Length{4, 3}}

// vline is a vertical line at x from y0 to y1, in data units.
func vline(x, y0, y1 float64, sty draw.LineStyle) *plotter.Line {
	return &plotter.Line{XYs: plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}}, LineStyle: sty}
}

// barOffset is the position, in category units, of the i-th bar of a
// group of m, relative to the category's centre.
func barOffset(i, m int, bw, rowH vg.Length) float64 {
	return float64((float64(m-1)/2 - float64(i)) * float64(bw) / float64(rowH))
}

func valueLabels(xy plotter.XYLabels) (*plotter.Labels, error) {
	l, err := plotter.NewLabels(xy)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i] = textStyle(tickSize)
		l.TextStyle[i].YAlign = draw.YCenter
	}
	l.Offset = vg.Point{X: 4}
	return l, nil
}

// chartNumber prints a bar's value: whole numbers from 100 on, three
// significant digits below.
func chartNumber(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// lineLayout draws one line per series over time, with the legend under
// the plot so that it never hides a line.
func lineLayout(c *report.Chart) (*chartLayout, error) {
	cut := map[string]string{}
	p := newPlot()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	grid(p, true, true)
	tick := textStyle(tickSize)
	var names []string
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, lv := range c.Levels {
		// The level between change points: a broad translucent band,
		// drawn first so that the line stays on top of it.
		x0, x1, y := float64(lv.X0), float64(lv.X1), float64(lv.Y)
		if !finite(x0) || !finite(x1) || !finite(y) {
			continue
		}
		if x1 == x0 {
			x0, x1 = x0-0.25, x1+0.25
		}
		p.Add(&plotter.Line{XYs: plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}}, LineStyle: levelStyle})
	}
	styles := make([][]vg.Length, len(c.Series))
	drawn := make([]plotter.XYs, len(c.Series))
	for i, s := range c.Series {
		xy := make(plotter.XYs, 0, len(s.Points))
		for _, pt := range s.Points {
			x, y := float64(pt.X), float64(pt.Y)
			if !finite(x) || !finite(y) {
				continue
			}
			xy = append(xy, plotter.XY{X: x, Y: y})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		names = append(names, s.Name)
		styles[i] = dashes(i)
		drawn[i] = xy
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(decimate(xy))
		if err != nil {
			return nil, fmt.Errorf("chart %s: %w", c.ID, err)
		}
		l.Color = seriesColor(i)
		l.Width = 1.2
		l.Dashes = styles[i]
		if hidden(drawn[:i], xy) {
			// A line on top of an earlier one would hide it: dashed,
			// the earlier line shows between the dashes.
			l.Dashes = sameDashes
			styles[i] = sameDashes
			l.Width = 1.6
		}
		p.Add(l)
		if eb := errorBars(s.Points, seriesColor(i)); eb != nil {
			p.Add(eb)
			for _, pt := range s.Points {
				if top, bot := float64(pt.Y+pt.Err), float64(pt.Y-pt.Err); finite(top) && finite(bot) {
					ymax, ymin = math.Max(ymax, top), math.Min(ymin, bot)
				}
			}
		}
		if len(xy) <= 20 || len(c.XTicks) > 0 {
			// Few points (a sweep of client counts, a series of releases):
			// mark each measurement.
			if sc, err := plotter.NewScatter(xy); err == nil {
				sc.GlyphStyle.Color = seriesColor(i)
				sc.GlyphStyle.Radius = 2.2
				sc.GlyphStyle.Shape = draw.CircleGlyph{}
				p.Add(sc)
			}
		}
	}
	for _, lv := range c.Levels {
		if y := float64(lv.Y); finite(y) {
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
	}
	p.Y.Min, p.Y.Max = yRange(ymin, ymax, c.Reference)
	for k, x := range c.Marks {
		// A stall began, or a level shifted, here: a thin dashed line over
		// the plot, in the colour of the line it belongs to.
		col := color.Color(color.RGBA{0x55, 0x55, 0x55, 0xff})
		if k < len(c.MarkSeries) {
			col = seriesColor(c.MarkSeries[k])
		}
		p.Add(vline(x, p.Y.Min, p.Y.Max, draw.LineStyle{Color: col, Width: 0.8, Dashes: []vg.Length{2, 2}}))
	}
	if xmax > xmin {
		p.X.Min, p.X.Max = xmin, xmax
	}
	if c.Reference > 0 && xmax > xmin {
		// 1 on a chart of relative values: a dashed gray line across.
		p.Add(&plotter.Line{XYs: plotter.XYs{{X: xmin, Y: c.Reference}, {X: xmax, Y: c.Reference}},
			LineStyle: referenceStyle})
	}
	p.X.Tick.Marker = niceTicks{width: lineWidth - 60, style: tick}
	var extra vg.Length // below the plot, for turned x labels
	if len(c.XTicks) > 0 {
		var ticks plot.ConstantTicks
		var labels []string
		for k, x := range c.XTicks {
			label := strconv.FormatFloat(x, 'f', -1, 64)
			if k < len(c.XLabels) && c.XLabels[k] != "" {
				label = fitLabel(tick, c.XLabels[k], 90)
				if label != c.XLabels[k] {
					cut[label] = c.XLabels[k]
				}
			}
			labels = append(labels, label)
			ticks = append(ticks, plot.Tick{Value: x, Label: label})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		}
		p.X.Tick.Marker = ticks
		p.X.Min, p.X.Max = xmin, xmax
		if len(c.XLabels) > 0 {
			// Names wider than their share of the axis are turned upright.
			share := vg.Length(lineWidth-60) / vg.Length(max(1, len(labels)))
			if maxWidth(tick, labels)+6 > share {
				p.X.Tick.Label.Rotation = math.Pi / 2
				p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
				extra = maxWidth(tick, labels)
			}
			// Half a member of room each side, so that the first and last
			// names stay inside the chart.
			p.X.Min, p.X.Max = xmin-0.5, xmax+0.5
		}
	}
	p.Y.Tick.Marker = niceTicks{width: lineHeight - 50, style: tick, vertical: true}
	legend := newLegendStyled(names, styles, "line", lineWidth-10, cut)
	w, h := vg.Length(lineWidth), lineHeight+extra+legend.h+2*margin
	draw := func(dc draw.Canvas) {
		legend.draw(draw.Crop(dc, 10, 0, 0, -(h - legend.h)))
		p.Draw(draw.Crop(dc, margin, -margin, legend.h, -margin))
	}
	return &chartLayout{w: w, h: h, draw: draw, cut: cut}, nil
}

// sameDashes is the dash pattern of a line drawn on top of an identical
// earlier one.
var sameDashes = []vg.Length{5, 4}

// levelStyle draws the level of a series between change points.
var levelStyle = draw.LineStyle{Color: color.RGBA{0x30, 0x30, 0x30, 0x60}, Width: 5}

// hidden reports whether line xy would hide one of the lines drawn before
// it: the same points, to a part in a million of the values.
func hidden(before []plotter.XYs, xy plotter.XYs) bool {
	for _, b := range before {
		if len(b) != len(xy) || len(b) == 0 {
			continue
		}
		same := true
		for k := range b {
			tol := 1e-6 * math.Max(math.Abs(b[k].Y), 1e-9)
			if b[k].X != xy[k].X || math.Abs(b[k].Y-xy[k].Y) > tol {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// yRange is the value axis of a line chart: from 0 to a little above the
// largest value, except on a chart of relative values (ref above 0), whose
// axis is fitted to the data and ref, with a margin, so that a shift of a
// few percent shows.
func yRange(lo, hi, ref float64) (float64, float64) {
	if !finite(lo) || !finite(hi) {
		lo, hi = 0, 1
	}
	if ref <= 0 {
		if hi <= 0 {
			hi = 1
		}
		return 0, hi * 1.05
	}
	lo, hi = math.Min(lo, ref), math.Max(hi, ref)
	pad := 0.08 * (hi - lo)
	if pad < 0.01*ref {
		pad = 0.01 * ref // a flat line still gets an axis
	}
	return math.Max(0, lo-pad), hi + pad
}

// errorBars draws the 95% intervals of the points that have one; nil when
// none has.
func errorBars(pts []report.Point, c color.Color) *plotter.YErrorBars {
	var v struct {
		plotter.XYs
		plotter.YErrors
	}
	for _, pt := range pts {
		x, y, e := float64(pt.X), float64(pt.Y), float64(pt.Err)
		if finite(x) && finite(y) && finite(e) && e > 0 {
			v.XYs = append(v.XYs, plotter.XY{X: x, Y: y})
			v.YErrors = append(v.YErrors, struct{ Low, High float64 }{e, e})
		}
	}
	if len(v.XYs) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(v)
	if err != nil {
		return nil
	}
	eb.LineStyle.Color = c
	eb.LineStyle.Width = 0.8
	eb.CapWidth = 4
	return eb
}

// legendLayout is a legend laid out in columns under a plot.
type legendLayout struct {
	names      []string
	dashes     [][]vg.Length // per entry of a line legend; nil: dashes(i)
	kind       string
	colW, w, h vg.Length
	cols       int
}

const swatch = 16 // the line or box before a legend entry

func newLegend(names []string, kind string, width vg.Length, cut map[string]string) *legendLayout {
	sty := textStyle(tickSize)
	names = fitLabels(sty, names, min(maxLabel, width-swatch-8), cut)
	l := &legendLayout{names: names, kind: kind}
	l.colW = maxWidth(sty, names) + swatch + 16
	l.cols = max(1, min(len(names), int(width/l.colW)))
	rows := (len(names) + l.cols - 1) / l.cols
	l.w = vg.Length(l.cols) * l.colW
	l.h = vg.Length(rows)*legendRow + 8
	return l
}

// newLegendStyled is newLegend with the dash pattern of each line.
func newLegendStyled(names []string, dashes [][]vg.Length, kind string, width vg.Length, cut map[string]string) *legendLayout {
	l := newLegend(names, kind, width, cut)
	l.dashes = dashes
	return l
}

func (l *legendLayout) draw(dc draw.Canvas) {
	sty := textStyle(tickSize)
	sty.YAlign = draw.YCenter
	rows := (len(l.names) + l.cols - 1) / l.cols
	for i, name := range l.names {
		col, row := i/rows, i%rows
		x := dc.Min.X + vg.Length(col)*l.colW
		y := dc.Max.Y - 4 - (vg.Length(row)+0.5)*legendRow
		if l.kind == "bar" {
			dc.FillPolygon(seriesColor(i), []vg.Point{{X: x, Y: y - 4}, {X: x + swatch - 4, Y: y - 4}, {X: x + swatch - 4, Y: y + 4}, {X: x, Y: y + 4}})
		} else {
			ls := draw.LineStyle{Color: seriesColor(i), Width: 1.5, Dashes: dashes(i)}
			if i < len(l.dashes) {
				ls.Dashes = l.dashes[i]
			}
			dc.StrokeLine2(ls, x, y, x+swatch-2, y)
		}
		dc.FillText(sty, vg.Point{X: x + swatch + 2, Y: y}, name)
	}
}

// niceTicks puts at least minTicks labelled ticks on an axis, at steps of
// 1, 2, 5 (or, from 25 on, 2.5) times a power of ten, and no more than the labels fit in
// the axis length (width, in points; vertical axes need a label's height
// each). Labels are plain decimals, with k and M from ten thousand on.
type niceTicks struct {
	width    float64
	style    draw.TextStyle
	vertical bool
}

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo, 1)}}
	}
	steps := []float64{5, 2.5, 2, 1}
	mag := math.Pow(10, math.Floor(math.Log10(hi-lo)))
	var best []float64
	var bestStep float64
	// From the largest step down: the first that gives minTicks labels,
	// unless its labels would not fit.
	for e := mag; e >= mag/1000; e /= 10 {
		for _, m := range steps {
			step := m * e
			if m == 2.5 && step < 10 {
				continue // 0.25 and 2.5 steps print a digit more than their neighbours
			}
			vals := tickValues(lo, hi, step)
			if len(vals) < minTicks {
				best, bestStep = vals, step
				continue
			}
			if !t.fits(vals, step) && best != nil {
				return makeTicks(best, bestStep)
			}
			return makeTicks(vals, step)
		}
	}
	return makeTicks(best, bestStep)
}

func (t niceTicks) fits(vals []float64, step float64) bool {
	if t.width == 0 || t.style.Font.Size == 0 {
		return true
	}
	var need vg.Length
	for _, v := range vals {
		if t.vertical {
			need += t.style.Height("0") + 2
		} else {
			need += t.style.Width(tickLabel(v, step)) + 6
		}
	}
	return float64(need) <= t.width
}

func tickValues(lo, hi, step float64) []float64 {
	var out []float64
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
		if len(out) > 100 {
			break
		}
	}
	return out
}

func makeTicks(vals []float64, step float64) []plot.Tick {
	hi := 0.0
	for _, v := range vals {
		hi = math.Max(hi, math.Abs(v))
	}
	f := tickFormat(hi, step)
	out := make([]plot.Tick, len(vals))
	for i, v := range vals {
		out[i] = plot.Tick{Value: v, Label: f(v)}
	}
	return out
}

// tickLabel prints a tick value as the labels of an axis up to |v| print.
func tickLabel(v, step float64) string { return tickFormat(math.Abs(v), step)(v) }

// tickFormat prints the ticks of an axis whose largest |value| is hi: in
// thousands (k) or millions (M) from ten thousand on, with the decimals
// the step needs, the same for every label of the axis.
func tickFormat(hi, step float64) func(float64) string {
	unit, suffix := 1.0, ""
	switch {
	case hi >= 1e7 && step >= 1e5:
		unit, suffix = 1e6, "M"
	case hi >= 1e4 && step >= 100:
		unit, suffix = 1e3, "k"
	}
	s := step / unit
	digits := 0
	for digits < 8 && math.Abs(s*math.Pow(10, float64(digits))-math.Round(s*math.Pow(10, float64(digits)))) > 1e-6 {
		digits++
	}
	return func(v float64) string {
		if math.Abs(v) < step*1e-9 {
			return "0"
		}
		return strconv.FormatFloat(v/unit, 'f', digits, 64) + suffix
	}
}

// Render draws every chart of the report, in parallel: drawing is the
// slowest part of writing the page.
func Render(r *report.Report) (map[*report.Chart]template.HTML, error) {
	charts := allCharts(r)
	out := make([]template.HTML, len(charts))
	errs := make([]error, len(charts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, c := range charts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			out[i], errs[i] = chartSVG(c)
			<-sem
		}()
	}
	wg.Wait()
	m := map[*report.Chart]template.HTML{}
	for i, c := range charts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		m[c] = out[i]
	}
	return m, nil
}

// allCharts lists every chart of a report in page order.
func allCharts(r *report.Report) []*report.Chart {
	var charts []*report.Chart
	if r.Sweep != nil {
		if r.Sweep.Chart != nil {
			charts = append(charts, r.Sweep.Chart)
		}
		for _, s := range r.Sweep.Steps {
			charts = append(charts, s.Chart)
		}
	}
	for _, s := range r.Sections {
		if s.Throughput != nil {
			charts = append(charts, s.Throughput)
		}
		charts = append(charts, s.Intervals...)
	}
	if sr := r.Series; sr != nil {
		for _, g := range sr.Groups {
			charts = append(charts, g.Charts...)
		}
	}
	if sb := r.Sysbench; sb != nil {
		if sb.SweepChart != nil {
			charts = append(charts, sb.SweepChart)
		}
		for _, t := range sb.Threads {
			charts = append(charts, t.GroupCharts...)
			charts = append(charts, t.Intervals...)
		}
	}
	return charts
}

// decimate keeps at most metrics.MaxSeriesPoints points of a line, as the
// model keeps its series (metrics.Decimate): the lowest and highest point of
// each bucket, so that spikes stay.
func decimate(xy plotter.XYs) plotter.XYs {
	if len(xy) <= metrics.MaxSeriesPoints {
		return xy
	}
	x, y := make([]float64, len(xy)), make([]float64, len(xy))
	for i, p := range xy {
		x[i], y[i] = p.X, p.Y
	}
	d := metrics.Decimate(x, y, metrics.MaxSeriesPoints)
	out := make(plotter.XYs, len(d.X))
	for i := range d.X {
		out[i] = plotter.XY{X: d.X[i], Y: d.Y[i]}
	}
	return out
}
