package chart

import (
	"fmt"
	"html/template"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/ibreport/ibreport/metrics"
)

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
	margin     = 4    // around the plot: text reaches past the plot's edges
	titlePad   = 4    // under a title
	tickLength = 8    // the tick marks of an axis
	axisPad    = 5    // between an axis line and the data
	axisWidth  = 0.5  // axis lines and tick marks
	dotRadius  = 2.2  // the marks of measurements
	// maxHeight is the tallest a chart is shown: 700 px at 96 px per inch,
	// a screen of 768 px less the browser's bars.
	maxHeight = 525
)

// chartSVG draws a chart as an SVG element for inlining in HTML; empty when
// the chart has nothing to draw.
func chartSVG(c *Chart) (template.HTML, error) {
	s, err := layoutChart(c)
	if err != nil || s == nil {
		return "", err
	}
	return s.svg()
}

// layoutChart lays a chart out; nil when it has nothing to draw.
func layoutChart(c *Chart) (*scene, error) {
	if !c.hasData() {
		return nil, nil // nothing to draw; the tables say NA
	}
	switch c.Kind {
	case "bar":
		return barLayout(c), nil
	case "line":
		return lineLayout(c), nil
	}
	return nil, fmt.Errorf("chart %s: unknown chart kind %q", c.ID, c.Kind)
}

// fitLabel cuts s in the middle to fit width w at size points, keeping both
// ends: DBMS names tend to differ at the start (the version) and at the end
// (the configuration).
func fitLabel(size float64, s string, w float64) string {
	if textWidth(size, s) <= w {
		return s
	}
	r := []rune(s)
	for keep := len(r) - 1; keep > 1; keep-- {
		head := (keep + 1) / 2
		t := string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
		if textWidth(size, t) <= w {
			return t
		}
	}
	return "…"
}

// fitLabels cuts every label to width w, recording what was cut in cut.
func fitLabels(size float64, names []string, w float64, cut map[string]string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fitLabel(size, n, w)
		if out[i] != n {
			cut[out[i]] = n
		}
	}
	return out
}

func maxWidth(size float64, names []string) float64 {
	w := 0.0
	for _, n := range names {
		w = max(w, textWidth(size, n))
	}
	return w
}

// Colours of the frame.
const (
	black      = "#000"
	gridColor  = "#e1e1e1" // light grid lines
	refColor   = "#3c3c3c" // a chart's reference value
	bandColor  = "#f0f0f0" // the floor band around it
	markColor  = "#555"    // a mark of no particular series
	levelColor = "#7f7f7f" // the level of a series between change points
	levelAlpha = 0x60 / 255.0
)

// palette holds fourteen colours: Tableau 10, which stay apart for readers
// with the common colour-vision deficiencies too, then four that differ
// from them in lightness as well as hue (near-black, deep purple, cyan,
// dark gold), so that a series of thirteen releases has a colour each.
var palette = []string{
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
	"#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	"#333333", "#6a3d9a", "#17becf", "#8c6d00",
}

// seriesColor is the colour of the i-th series; after fourteen colours the
// lines repeat them dashed (dashes).
func seriesColor(i int) string { return palette[i%len(palette)] }

// dashPatterns are the line styles of the rounds of fourteen colours:
// solid first, then ever busier dashes.
var dashPatterns = [][]float64{
	nil, {6, 2}, {2, 2}, {1, 1}, {5, 2, 1, 2}, {10, 2, 2, 2, 2, 2, 2, 2}, {10, 2, 2, 2},
}

// dashes is the dash pattern of the i-th line: solid for the first
// fourteen.
func dashes(i int) []float64 { return dashPatterns[(i/len(palette))%len(dashPatterns)] }

// Dash patterns of the reference line, the marks and a line drawn on top
// of an identical earlier one.
var (
	referenceDashes = []float64{4, 3}
	markDashes      = []float64{2, 2}
	sameDashes      = []float64{5, 4}
)

// finite reports whether v can be drawn.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// scale maps data values to positions along one axis of the data area.
type scale struct {
	lo, hi float64 // data
	p0, p1 float64 // positions of lo and hi
}

func (s scale) at(v float64) float64 {
	return s.p0 + (v-s.lo)/(s.hi-s.lo)*(s.p1-s.p0)
}

// norm is where v lies from lo (0) to hi (1).
func (s scale) norm(v float64) float64 { return (v - s.lo) / (s.hi - s.lo) }

// sanitize makes a data range drawable: 0 to 1 when unknown, a unit either
// side of a single value.
func sanitize(lo, hi float64) (float64, float64) {
	if !finite(lo) || !finite(hi) {
		return 0, 1
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo == hi {
		return lo - 1, hi + 1
	}
	return lo, hi
}

// glyph is something drawn at a data position that must stay inside the
// chart: at norm n (0 at the start of the axis, 1 at its end) it reaches
// from lo to hi points about that position. Tick labels (ticks set) only
// pull in the far end of the axis (the right, the top): at the near end
// the other axis' labels leave room for them.
type glyph struct {
	n, lo, hi float64
	tick      bool
}

// fit narrows the span c0..c1 of an axis until every glyph lies inside it
// and returns the positions of the axis' ends. A glyph that sticks out past
// one end pulls that end in; the few rounds settle it when both ends move.
func fit(c0, c1 float64, gs []glyph) (float64, float64) {
	d0, d1 := c0, c1
	for range 4 {
		for _, g := range gs {
			if g.n < -1e-9 || g.n > 1+1e-9 || !finite(g.n) {
				continue // not drawn
			}
			if p := d0 + g.n*(d1-d0); p+g.hi > c1 && g.n > 1e-9 {
				d1 = d0 + (c1-g.hi-d0)/g.n
			}
			if p := d0 + g.n*(d1-d0); p+g.lo < c0 && g.n < 1-1e-9 && !g.tick {
				d0 = (c0 - g.lo - g.n*d1) / (1 - g.n)
			}
		}
	}
	if !(d1-d0 > 10) || !finite(d0) || !finite(d1) {
		return c0, c1 // glyphs wider than the axis: draw them clipped
	}
	return d0, d1
}

// axes are the value scales of a plot and their ticks.
type axes struct {
	x, y           scale
	xticks, yticks []tick
}

// xAxis draws the horizontal axis with its line at lineY under the data
// area: tick marks, their labels (turned to read upwards when up), the axis
// label, and the vertical grid lines over the data when grid is set.
func (s *scene) xAxis(a axes, lineY float64, label string, up, grid bool) {
	top, bottom := math.Min(a.y.p0, a.y.p1), math.Max(a.y.p0, a.y.p1)
	var marks, gridLines [][]point
	for _, t := range a.xticks {
		n := a.x.norm(t.Value)
		if n < -1e-6 || n > 1+1e-6 {
			continue
		}
		x := a.x.at(t.Value)
		marks = append(marks, []point{{num(x), num(lineY)}, {num(x), num(lineY + tickLength)}})
		if grid {
			gridLines = append(gridLines, []point{{num(x), num(top)}, {num(x), num(bottom)}})
		}
		if up {
			// Read upwards, ending under the tick.
			s.text(x+(ascent-descent)/2*tickSize, lineY+tickLength, tickSize, "end", true, t.Label)
		} else {
			s.text(x, lineY+tickLength+ascent*tickSize, tickSize, "middle", false, t.Label)
		}
	}
	s.stroke(gridLines, gridColor, 0.5, nil, 1)
	s.stroke(marks, black, axisWidth, nil, 1)
	s.line(a.x.p0, lineY, a.x.p1, lineY, black, axisWidth, nil)
	if label != "" {
		y := lineY + tickLength + tickHeight(a.xticks, up) + textHeight(labelSize) - descent*labelSize
		s.text((a.x.p0+a.x.p1)/2, y, labelSize, "middle", false, label)
	}
}

// tickHeight is the height of the tick labels of a horizontal axis: their
// longest width when they read upwards.
func tickHeight(ticks []tick, up bool) float64 {
	if len(ticks) == 0 {
		return 0
	}
	if up {
		return tickWidth(ticks)
	}
	return textHeight(tickSize)
}

// xAxisHeight is the room xAxis takes under the data area when its line is
// pad below the data.
func xAxisHeight(ticks []tick, label string, up bool, pad float64) float64 {
	h := pad + axisWidth/2 + tickLength + tickHeight(ticks, up)
	if label != "" {
		h += textHeight(labelSize)
	}
	return h
}

// yAxisWidth is the room yAxis takes left of the data area; nominal axes
// (the names of a bar chart's rows) have no line or tick marks.
func yAxisWidth(ticks []tick, label string, nominal bool) float64 {
	w := float64(axisPad)
	if !nominal {
		w += axisWidth/2 + tickLength
	}
	if lw := tickWidth(ticks); lw > 0 {
		w += lw + textWidth(labelSize, " ")
	}
	if label != "" {
		w += textHeight(labelSize) + descent*labelSize
	}
	return w
}

func tickWidth(ticks []tick) float64 {
	w := 0.0
	for _, t := range ticks {
		w = max(w, textWidth(tickSize, t.Label))
	}
	return w
}

// yAxis draws the vertical axis left of the data area, whose left edge is
// left: the axis label read upwards, tick labels, and (unless nominal) tick
// marks, the axis line and horizontal grid lines when grid is set.
func (s *scene) yAxis(a axes, left float64, label string, nominal, grid bool) {
	x := left
	if label != "" {
		s.text(x+ascent*labelSize, (a.y.p0+a.y.p1)/2, labelSize, "middle", true, label)
		x += textHeight(labelSize) + descent*labelSize
	}
	x += tickWidth(a.yticks)
	var marks, gridLines [][]point
	lineX := x + textWidth(labelSize, " ") + tickLength
	for _, t := range a.yticks {
		n := a.y.norm(t.Value)
		if n < -1e-6 || n > 1+1e-6 {
			continue
		}
		y := a.y.at(t.Value)
		if t.Label != "" {
			s.text(x, y+(ascent-descent)/2*tickSize, tickSize, "end", false, t.Label)
		}
		if !nominal {
			marks = append(marks, []point{{num(lineX - tickLength), num(y)}, {num(lineX), num(y)}})
		}
		if grid {
			gridLines = append(gridLines, []point{{num(a.x.p0), num(y)}, {num(a.x.p1), num(y)}})
		}
	}
	s.stroke(gridLines, gridColor, 0.5, nil, 1)
	if !nominal {
		s.stroke(marks, black, axisWidth, nil, 1)
		s.line(lineX, a.y.p0, lineX, a.y.p1, black, axisWidth, nil)
	}
}

// title draws a title centred over x0..x1 with its top at y and returns
// the room it takes.
func (s *scene) title(x0, x1, y float64, t string) float64 {
	if t == "" {
		return 0
	}
	lines := wrapTitle(titleSize, t, x1-x0)
	for i, l := range lines {
		s.text((x0+x1)/2, y+ascent*titleSize+float64(i)*textHeight(titleSize), titleSize, "middle", false, l)
	}
	return float64(len(lines))*textHeight(titleSize) + titlePad
}

// wrapTitle breaks a title wider than w at spaces into at most two lines,
// the first as full as fits; a second line still too wide is cut in the
// middle (fitLabel). A title names what the chart compares: cut at the
// chart's edge, it would lose the base or the thread count.
func wrapTitle(size float64, t string, w float64) []string {
	if textWidth(size, t) <= w {
		return []string{t}
	}
	words := strings.Fields(t)
	k := 1
	for k < len(words) && textWidth(size, strings.Join(words[:k+1], " ")) <= w {
		k++
	}
	first, rest := strings.Join(words[:k], " "), strings.Join(words[k:], " ")
	if rest == "" {
		return []string{fitLabel(size, first, w)}
	}
	return []string{fitLabel(size, first, w), fitLabel(size, rest, w)}
}

// barLayout draws bars horizontally, one row per category with its name on
// the left, so that names of any length stay readable. A chart with Panels
// draws each series in a panel of its own with its own scale (queries/s
// beside inserts/s); otherwise the series are grouped within a category and
// named in a legend under the plot.
func barLayout(c *Chart) *scene {
	s := &scene{cut: map[string]string{}}
	labels := fitLabels(tickSize, c.Categories, maxLabel, s.cut)
	labelW := maxWidth(tickSize, labels) + 8

	panels := [][]Series{c.Series}
	if c.Panels {
		panels = panels[:0]
		for _, sr := range c.Series {
			panels = append(panels, []Series{sr})
		}
	}
	perGroup := len(panels[0])
	bw := float64(barWidth)
	if perGroup > 1 {
		bw = groupBar
	}
	n := len(c.Categories)
	rowH := float64(perGroup)*bw + barGap
	// Title, data rows, x tick labels and the axis label.
	plotH := textHeight(titleSize) + 8 + float64(n)*rowH + 4 + textHeight(tickSize) + textHeight(labelSize) + 16

	var legend *legendLayout
	if !c.Panels && perGroup > 1 {
		names := make([]string, len(c.Series))
		for i, sr := range c.Series {
			names[i] = sr.Name
		}
		legend = newLegend(names, labelW+panelWidth+40, s.cut)
	}
	pw := float64(panelWidth)
	if !c.Panels {
		pw += 120 // one wide panel
	}
	w := labelW + 30 + float64(len(panels))*(pw+panelGap) + 2*margin
	h := plotH + 2*margin
	bottom := h - margin
	if legend != nil {
		h += legend.h
		w = max(w, legend.w+labelW)
		bottom = h - legend.h
	}
	s.W, s.H = num(w), num(h)

	// The rows: the first category on top, at n-1.
	var rowTicks []tick
	for j := range n {
		rowTicks = append(rowTicks, tick{Value: float64(n - 1 - j), Label: labels[j]})
	}
	x := float64(margin)
	for k, ser := range panels {
		pwk := pw + panelGap
		if k == 0 {
			pwk += labelW
		}
		s.barPanel(c, k, ser, rowTicks, x, x+pwk, margin, bottom, bw, pw)
		x += pwk
	}
	if legend != nil {
		legend.draw(s, labelW, h-legend.h, "bar", nil)
	}
	return s
}

// barPanel draws one panel of a bar chart in the box x0..x1, top..bottom;
// only the first panel names the rows.
func (s *scene) barPanel(c *Chart, k int, ser []Series, rows []tick, x0, x1, top, bottom, bw, pw float64) {
	n := len(rows)
	perGroup := len(ser)
	title, unit := c.Title, c.YLabel
	if c.Panels {
		title = ser[0].Name
		if ser[0].Unit != "" {
			unit = ser[0].Unit
		}
	}
	top += s.title(x0, x1, top, title)

	type bar struct {
		v, pos float64
		i      int
	}
	var bars []bar
	var labels []bar // value and NA labels, left aligned 4 pt right of v
	var labelText []string
	maxv := 0.0
	room := 0.0
	for i, sr := range ser {
		for j := range n {
			v := math.NaN()
			if j < len(sr.Values) {
				v = float64(sr.Values[j])
			}
			pos := float64(n - 1 - j)
			if !finite(v) || v < 0 {
				labels = append(labels, bar{0, pos, i})
				labelText = append(labelText, "NA")
				continue
			}
			bars = append(bars, bar{v, pos, i})
			maxv = max(maxv, v)
			if perGroup == 1 {
				label := chartNumber(v)
				if c.Reference != 0 {
					label = strconv.FormatFloat(v, 'f', 2, 64) // a ratio, as the tables print it
				}
				labels = append(labels, bar{v, pos, i})
				labelText = append(labelText, label)
				// Room right of the longest bar for its value label.
				room = max(room, textWidth(tickSize, label)+8)
			}
		}
	}
	if c.Reference > 0 {
		maxv = max(maxv, c.Reference*1.05)
	}
	if maxv <= 0 {
		maxv = 1
	}
	xmax := maxv / math.Max(0.5, 1-room/pw)
	xticks := niceTicks{width: pw, size: tickSize}.Ticks(0, xmax)
	yticks := rows
	if k > 0 {
		yticks = nil
	}
	// Between the data and the axis line, half a name's height, so that
	// the last row's name stays clear of the axis.
	pad := textHeight(tickSize) / 2
	dataTop, dataBottom := top, bottom-xAxisHeight(xticks, unit, false, pad)
	left := x0 + yAxisWidth(yticks, "", true)
	ys := scale{lo: -0.5, hi: float64(n) - 0.5, p0: dataBottom, p1: dataTop}

	// Keep the tick and value labels inside the panel.
	xs := scale{lo: 0, hi: xmax}
	var gs []glyph
	for _, t := range xticks {
		w := textWidth(tickSize, t.Label)
		gs = append(gs, glyph{xs.norm(t.Value), -w / 2, w / 2, true})
	}
	for i, l := range labels {
		gs = append(gs, glyph{xs.norm(l.v), 4, 4 + textWidth(tickSize, labelText[i]), false})
	}
	xs.p0, xs.p1 = fit(left, x1, gs)
	a := axes{x: xs, y: ys, xticks: xticks, yticks: yticks}
	s.xAxis(a, dataBottom+pad+axisWidth/2, unit, false, true)
	s.yAxis(a, x0, "", true, false)

	offset := func(i int) float64 { return (float64(perGroup-1)/2 - float64(i)) * bw }
	for _, b := range bars {
		if w := xs.at(b.v) - xs.at(0); w > 0 {
			y := ys.at(b.pos) - offset(b.i) - bw/2
			col := seriesColor(b.i)
			if c.Panels {
				col = seriesColor(k)
			}
			s.rect(xs.at(0), y, w, bw, col)
		}
	}
	for i, l := range labels {
		y := ys.at(l.pos)
		if labelText[i] == "NA" {
			y -= offset(l.i)
		}
		s.text(xs.at(l.v)+4, y+(ascent-descent)/2*tickSize, tickSize, "", false, labelText[i])
	}
	if c.Reference > 0 {
		x := xs.at(c.Reference)
		s.line(x, dataTop, x, dataBottom, refColor, 1, referenceDashes)
	}
}

// chartNumber prints a bar's value: whole numbers from 100 on, three
// significant digits below.
func chartNumber(v float64) string {
	if math.Abs(v) >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// xy is a data point of a line.
type xy struct{ X, Y float64 }

// lineLayout draws one line per series over time, with the legend under
// the plot so that it never hides a line.
func lineLayout(c *Chart) *scene {
	s := &scene{cut: map[string]string{}}
	var names []string
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	styles := make([][]float64, len(c.Series))
	same := make([]bool, len(c.Series)) // drawn over an identical line
	drawn := make([][]xy, len(c.Series))
	scatter := make([]bool, len(c.Series))
	for i, sr := range c.Series {
		line := make([]xy, 0, len(sr.Points))
		for _, pt := range sr.Points {
			x, y := float64(pt.X), float64(pt.Y)
			if !finite(x) || !finite(y) {
				continue
			}
			line = append(line, xy{x, y})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
			ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
		}
		names = append(names, sr.Name)
		styles[i] = dashes(i)
		if hidden(drawn[:i], line) {
			// A line on top of an earlier one would hide it: dashed,
			// the earlier line shows between the dashes.
			styles[i], same[i] = sameDashes, true
		}
		drawn[i] = line
		for _, pt := range sr.Points {
			if top, bot := float64(pt.Y+pt.Err), float64(pt.Y-pt.Err); finite(top) && finite(bot) && pt.Err > 0 && finite(float64(pt.X)) {
				ymax, ymin = math.Max(ymax, top), math.Min(ymin, bot)
			}
		}
		// Few points (a sweep of client counts, a series of releases):
		// mark each measurement.
		scatter[i] = len(line) > 0 && (len(line) <= 20 || len(c.XTicks) > 0)
	}
	var levels []Level
	for _, lv := range c.Levels {
		x0, x1, y := float64(lv.X0), float64(lv.X1), float64(lv.Y)
		if !finite(x0) || !finite(x1) || !finite(y) {
			continue
		}
		levels = append(levels, lv)
		ymin, ymax = math.Min(ymin, y), math.Max(ymax, y)
	}
	ylo, yhi := yRange(ymin, ymax, c.Reference)

	// The x axis: its range, ticks and whether its names read upwards.
	xlo, xhi := xmin, xmax
	if !(xmax > xmin) {
		for _, lv := range levels {
			xlo, xhi = math.Min(xlo, float64(lv.X0)), math.Max(xhi, float64(lv.X1))
		}
		xlo, xhi = sanitize(xlo, xhi)
	}
	xticks := niceTicks{width: lineWidth - 60, size: tickSize}.Ticks(xlo, xhi)
	up := false
	var extra float64 // below the plot, for upright x labels
	if len(c.XTicks) > 0 {
		xticks = xticks[:0]
		var labels []string
		for k, x := range c.XTicks {
			if !finite(x) {
				continue
			}
			label := strconv.FormatFloat(x, 'f', -1, 64)
			if k < len(c.XLabels) && c.XLabels[k] != "" {
				label = fitLabel(tickSize, c.XLabels[k], 90)
				if label != c.XLabels[k] {
					s.cut[label] = c.XLabels[k]
				}
			}
			labels = append(labels, label)
			xticks = append(xticks, tick{Value: x, Label: label})
			xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		}
		xlo, xhi = sanitize(xmin, xmax)
		if len(c.XLabels) > 0 {
			// Names wider than their share of the axis are turned upright.
			share := (lineWidth - 60) / float64(max(1, len(labels)))
			if maxWidth(tickSize, labels)+6 > share {
				up = true
				extra = maxWidth(tickSize, labels)
			}
			// Half a member of room each side, so that the first and last
			// names stay inside the chart.
			xlo, xhi = xmin-0.5, xmax+0.5
		}
	}
	yticks := niceTicks{width: lineHeight - 50, size: tickSize, vertical: true}.Ticks(ylo, yhi)

	legend := newLegend(names, lineWidth-10, s.cut)
	w, h := float64(lineWidth), lineHeight+extra+legend.h+2*margin
	s.W, s.H = num(w), num(h)
	left, right, top, bottom := float64(margin), w-margin, float64(margin), h-legend.h
	top += s.title(left, right, top, c.Title)

	// The data area: inside the axes, narrowed so that tick labels and
	// the marks of measurements stay inside the chart.
	xs := scale{lo: xlo, hi: xhi}
	ys := scale{lo: ylo, hi: yhi}
	var gx, gy []glyph
	for _, t := range xticks {
		hw := textWidth(tickSize, t.Label) / 2
		if up {
			hw = textHeight(tickSize) / 2
		}
		gx = append(gx, glyph{xs.norm(t.Value), -hw, hw, true})
	}
	for _, t := range yticks {
		hh := textHeight(tickSize) / 2
		gy = append(gy, glyph{ys.norm(t.Value), -hh, hh, true})
	}
	for i, line := range drawn {
		if !scatter[i] {
			continue
		}
		for _, p := range line {
			gx = append(gx, glyph{xs.norm(p.X), -dotRadius, dotRadius, false})
			gy = append(gy, glyph{ys.norm(p.Y), -dotRadius, dotRadius, false})
		}
	}
	xs.p0, xs.p1 = fit(left+yAxisWidth(yticks, c.YLabel, false), right, gx)
	// The y axis is fitted upwards, from its 0 at the bottom: positions
	// measured up from the bottom of the chart.
	y0, y1 := fit(h-(bottom-xAxisHeight(xticks, c.XLabel, up, axisPad)), h-top, gy)
	ys.p0, ys.p1 = h-y0, h-y1
	a := axes{x: xs, y: ys, xticks: xticks, yticks: yticks}
	s.xAxis(a, ys.p0+axisPad+axisWidth/2, c.XLabel, up, true)
	s.yAxis(a, left, c.YLabel, false, true)

	pt := func(x, y float64) point { return point{num(xs.at(x)), num(ys.at(y))} }
	if b := c.Band; c.Reference > 0 && b > 0 && b < 1 && xmax > xmin {
		// The materiality floor around the reference: a move inside it is
		// not told, and the shading says so.
		top, bot := pt(xmin, c.Reference*(1+b)), pt(xmin, c.Reference*(1-b))
		right := pt(xmax, c.Reference)
		s.rect(float64(top.X), float64(top.Y), float64(right.X-top.X), float64(bot.Y-top.Y), bandColor)
	}
	for _, lv := range levels {
		// The level between change points: a broad translucent band,
		// drawn first so that the line stays on top of it.
		x0, x1, y := float64(lv.X0), float64(lv.X1), float64(lv.Y)
		if x1 == x0 {
			x0, x1 = x0-0.25, x1+0.25
		}
		s.stroke([][]point{{pt(x0, y), pt(x1, y)}}, levelColor, 5, nil, levelAlpha)
	}
	for i, line := range drawn {
		if len(line) == 0 {
			continue
		}
		d := decimate(line)
		pts := make([]point, len(d))
		for k, p := range d {
			pts[k] = pt(p.X, p.Y)
		}
		width := 1.2
		if same[i] {
			width = 1.6 // wider than the line under it, so that both show
		}
		s.stroke([][]point{pts}, seriesColor(i), width, styles[i], 1)
		s.errorBars(c.Series[i].Points, seriesColor(i), pt)
		if scatter[i] {
			at := make([]point, len(line))
			for k, p := range line {
				at[k] = pt(p.X, p.Y)
			}
			s.Els = append(s.Els, el{Dots: &dots{Fill: seriesColor(i), At: at}})
		}
	}
	for k, x := range c.Marks {
		// A stall began, or a level shifted, here: a thin dashed line over
		// the plot, in the colour of the line it belongs to.
		if !finite(x) {
			continue
		}
		col := markColor
		if k < len(c.MarkSeries) && c.MarkSeries[k] >= 0 {
			col = seriesColor(c.MarkSeries[k])
		}
		s.stroke([][]point{{pt(x, ylo), pt(x, yhi)}}, col, 0.8, markDashes, 1)
	}
	if c.Reference > 0 && xmax > xmin {
		// 1 on a chart of relative values: a dashed gray line across.
		s.stroke([][]point{{pt(xmin, c.Reference), pt(xmax, c.Reference)}}, refColor, 1, referenceDashes, 1)
	}
	legend.draw(s, 10, h-legend.h, "line", styles)
	return s
}

// hidden reports whether line l would hide one of the lines drawn before
// it: the same points, to a part in a million of the values.
func hidden(before [][]xy, l []xy) bool {
	for _, b := range before {
		if len(b) != len(l) || len(b) == 0 {
			continue
		}
		same := true
		for k := range b {
			tol := 1e-6 * math.Max(math.Abs(b[k].Y), 1e-9)
			if b[k].X != l[k].X || math.Abs(b[k].Y-l[k].Y) > tol {
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
	if ref > 0 {
		// Relative values: the axis spans at least ±minRelSpan around the
		// reference, so that a move of 4% does not fill the chart.
		lo, hi = math.Min(lo, ref), math.Max(hi, ref)
		pad := 0.08 * (hi - lo)
		return math.Max(0, math.Min(lo-pad, ref*(1-minRelSpan))), math.Max(hi+pad, ref*(1+minRelSpan))
	}
	return yRangeAbs(lo, hi)
}

// minRelSpan is the least half-span of a relative chart's y axis around
// its reference.
const minRelSpan = 0.10

// yRangeAbs is the y range of absolute values: from 0.
func yRangeAbs(lo, hi float64) (float64, float64) {
	if hi <= 0 {
		hi = 1
	}
	return 0, hi * 1.05
}

// errorBars draws the 95% intervals of the points that have one: a
// vertical line with a cap at each end.
func (s *scene) errorBars(pts []Point, col string, at func(x, y float64) point) {
	var lines [][]point
	const capW = 4
	for _, p := range pts {
		x, y, e := float64(p.X), float64(p.Y), float64(p.Err)
		if !finite(x) || !finite(y) || !finite(e) || e <= 0 {
			continue
		}
		lo, hi := at(x, y-e), at(x, y+e)
		lines = append(lines, []point{lo, hi})
		for _, q := range []point{lo, hi} {
			lines = append(lines, []point{{q.X - capW/2, q.Y}, {q.X + capW/2, q.Y}})
		}
	}
	s.stroke(lines, col, 0.8, nil, 1)
}

// legendLayout is a legend laid out in columns under a plot.
type legendLayout struct {
	names   []string
	colW, w float64
	h       float64
	cols    int
}

const swatch = 16 // the line or box before a legend entry

func newLegend(names []string, width float64, cut map[string]string) *legendLayout {
	names = fitLabels(tickSize, names, min(maxLabel, width-swatch-8), cut)
	l := &legendLayout{names: names}
	l.colW = maxWidth(tickSize, names) + swatch + 16
	l.cols = max(1, min(len(names), int(width/l.colW)))
	rows := (len(names) + l.cols - 1) / l.cols
	l.w = float64(l.cols) * l.colW
	l.h = float64(rows)*legendRow + 8
	return l
}

// draw draws the legend with its top left corner at x, y: a box of each
// series' colour before its name for bars, a line of its colour and dash
// pattern (styles, when set, else dashes) for lines.
func (l *legendLayout) draw(s *scene, x, y float64, kind string, styles [][]float64) {
	rows := (len(l.names) + l.cols - 1) / l.cols
	for i, name := range l.names {
		col, row := i/rows, i%rows
		ex := x + float64(col)*l.colW
		ey := y + 4 + (float64(row)+0.5)*legendRow
		if kind == "bar" {
			s.rect(ex, ey-4, swatch-4, 8, seriesColor(i))
		} else {
			d := dashes(i)
			if i < len(styles) {
				d = styles[i]
			}
			s.line(ex, ey, ex+swatch-2, ey, seriesColor(i), 1.5, d)
		}
		s.text(ex+swatch+2, ey+(ascent-descent)/2*tickSize, tickSize, "", false, name)
	}
}

// tick is a labelled value of an axis.
type tick struct {
	Value float64
	Label string
}

// niceTicks puts at least minTicks labelled ticks on an axis, at steps of
// 1, 2, 5 (or, from 25 on, 2.5) times a power of ten, and no more than the labels fit in
// the axis length (width, in points, of labels of size points; vertical
// axes need a label's height each). Labels are plain decimals, with k and M
// from ten thousand on.
type niceTicks struct {
	width    float64
	size     float64
	vertical bool
}

func (t niceTicks) Ticks(lo, hi float64) []tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		if !finite(lo) {
			return nil
		}
		return []tick{{Value: lo, Label: tickLabel(lo, 1)}}
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
	if t.width == 0 || t.size == 0 {
		return true
	}
	need := 0.0
	for _, v := range vals {
		if t.vertical {
			need += textHeight(t.size) + 2
		} else {
			need += textWidth(t.size, tickLabel(v, step)) + 6
		}
	}
	return need <= t.width
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

func makeTicks(vals []float64, step float64) []tick {
	hi := 0.0
	for _, v := range vals {
		hi = math.Max(hi, math.Abs(v))
	}
	f := tickFormat(hi, step)
	out := make([]tick, len(vals))
	for i, v := range vals {
		out[i] = tick{Value: v, Label: f(v)}
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

// Render draws charts, in parallel: drawing is the slowest part of writing
// the page. The i-th SVG is the i-th chart's, empty when it has nothing to
// draw.
func Render(charts []*Chart) ([]template.HTML, error) {
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
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decimate keeps at most metrics.MaxSeriesPoints points of a line, as the
// model keeps its series (metrics.Decimate): the lowest and highest point of
// each bucket, so that spikes stay.
func decimate(l []xy) []xy {
	if len(l) <= metrics.MaxSeriesPoints {
		return l
	}
	x, y := make([]float64, len(l)), make([]float64, len(l))
	for i, p := range l {
		x[i], y[i] = p.X, p.Y
	}
	d := metrics.Decimate(x, y, metrics.MaxSeriesPoints)
	out := make([]xy, len(d.X))
	for i := range d.X {
		out[i] = xy{d.X[i], d.Y[i]}
	}
	return out
}
