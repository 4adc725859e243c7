package chart

import (
	"bytes"
	_ "embed"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// A chart is laid out in Go as a scene, a list of shapes in SVG
// coordinates (points, y down), and written by one html/template, so that
// every name and number in the page passes through its escaping.

//go:embed svg.tmpl
var svgTemplate string

var svgTmpl = template.Must(template.New("svg").Parse(svgTemplate))

// num is a coordinate or length, printed with at most two decimals and no
// trailing zeros: a hundredth of a point is below what a screen shows, and
// the charts are most of the page's bytes.
type num float64

func (n num) String() string {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// The layout drops values that are not finite before they get
		// here; this keeps a slip from writing an attribute that makes
		// the whole SVG invalid.
		return "0"
	}
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// point is a position in the scene.
type point struct{ X, Y num }

type rect struct {
	X, Y, W, H num
	Fill       string
}

// path is a stroked polyline or set of segments; D is built by pathData
// from numbers only.
type path struct {
	D       string
	Stroke  string
	Width   num
	Dash    string // stroke-dasharray, empty for a solid line
	Opacity string // stroke-opacity, empty for opaque
}

// dots are the filled circles that mark the measurements of one series.
type dots struct {
	Fill string
	At   []point
}

// text is a label. Y is its baseline; Up turns it to read upwards about
// (X, Y); Size 0 is the chart's tick size; Title is the whole name of a
// label cut short, shown on hover.
type text struct {
	X, Y   num
	Anchor string // "", "middle" or "end"
	Up     bool
	Size   num
	S      string
	Title  string
}

// el is one shape: exactly one field is set.
type el struct {
	Rect *rect
	Path *path
	Dots *dots
	Text *text
}

// scene is a chart laid out and ready to write.
type scene struct {
	W, H num
	Els  []el
	cut  map[string]string // label drawn -> the whole name
}

func (s *scene) rect(x, y, w, h float64, fill string) {
	s.Els = append(s.Els, el{Rect: &rect{X: num(x), Y: num(y), W: num(w), H: num(h), Fill: fill}})
}

// stroke draws polylines: each element of lines is one, of at least two
// points.
func (s *scene) stroke(lines [][]point, color string, width float64, dash []float64, opacity float64) {
	d := pathData(lines)
	if d == "" {
		return
	}
	p := &path{D: d, Stroke: color, Width: num(width)}
	if len(dash) > 0 {
		ds := make([]string, len(dash))
		for i, v := range dash {
			ds[i] = num(v).String()
		}
		p.Dash = strings.Join(ds, ",")
	}
	if opacity > 0 && opacity < 1 {
		p.Opacity = num(opacity).String()
	}
	s.Els = append(s.Els, el{Path: p})
}

// line is stroke of one segment.
func (s *scene) line(x0, y0, x1, y1 float64, color string, width float64, dash []float64) {
	s.stroke([][]point{{{num(x0), num(y0)}, {num(x1), num(y1)}}}, color, width, dash, 1)
}

// text adds a label; the whole name goes in its tooltip when it was cut.
func (s *scene) text(x, y float64, size float64, anchor string, up bool, str string) {
	t := &text{X: num(x), Y: num(y), Anchor: anchor, Up: up, S: str, Title: s.cut[str]}
	if size != tickSize {
		t.Size = num(size)
	}
	s.Els = append(s.Els, el{Text: t})
}

// pathData is the d attribute of polylines, skipping points that are not
// finite and lines left with fewer than two points.
func pathData(lines [][]point) string {
	var b strings.Builder
	for _, l := range lines {
		var ok []point
		for _, p := range l {
			if finite(float64(p.X)) && finite(float64(p.Y)) {
				ok = append(ok, p)
			}
		}
		if len(ok) < 2 {
			continue
		}
		for i, p := range ok {
			if i == 0 {
				b.WriteByte('M')
			} else {
				b.WriteByte('L')
			}
			b.WriteString(p.X.String())
			b.WriteByte(' ')
			b.WriteString(p.Y.String())
		}
	}
	return b.String()
}

// svg writes the scene.
func (s *scene) svg() (template.HTML, error) {
	// A chart taller than a screen is shown smaller, whole, rather than
	// cut or scrolled: its viewBox keeps the layout's size.
	dw, dh := s.W, s.H
	if s.H > maxHeight {
		dw, dh = num(float64(s.W)*maxHeight/float64(s.H)), maxHeight
	}
	var buf bytes.Buffer
	err := svgTmpl.Execute(&buf, struct {
		*scene
		DW, DH num // the size shown
		Font   string
		Size   num
		Dot    num
	}{s, dw, dh, chartFontFamily, tickSize, dotRadius})
	if err != nil {
		return "", err
	}
	// The template escaped every value it printed. One line break ends
	// the element, so that the page's source keeps a line per chart.
	return template.HTML(append(bytes.TrimSpace(buf.Bytes()), '\n')), nil
}
