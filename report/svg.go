package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"runtime"
	"strconv"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/ibreport/ibreport/metrics"
)

// chartSVG draws a chart as an SVG element for inlining in HTML. The SVG
// comes from gonum/plot, which escapes every text it writes (titles, DBMS
// names), so it is safe to mark it as HTML.
func chartSVG(c *Chart) (template.HTML, error) {
	var p *plot.Plot
	var err error
	w, h := 6*vg.Inch, 2.8*vg.Inch
	if !hasData(c) {
		return "", nil // nothing to draw; the tables say NA
	}
	switch c.Kind {
	case "bar":
		p, err = barPlot(c)
		if n := len(c.Categories); n > 6 {
			w = vg.Length(math.Min(12, 4+0.4*float64(n))) * vg.Inch
		}
	case "line":
		p, err = linePlot(c)
	default:
		err = fmt.Errorf("unknown chart kind %q", c.Kind)
	}
	if err != nil {
		return "", fmt.Errorf("chart %s: %w", c.ID, err)
	}
	canvas := vgsvg.New(w, h)
	p.Draw(draw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", err
	}
	// Drop the XML declaration and the generator comment: inline SVG in
	// HTML starts at <svg>.
	b := buf.Bytes()
	if i := bytes.Index(b, []byte("<svg")); i >= 0 {
		b = b[i:]
	}
	return template.HTML(b), nil
}

func barPlot(c *Chart) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.Y.Label.Text = c.YLabel
	p.Y.Min = 0
	n := len(c.Series)
	width := vg.Points(math.Max(6, math.Min(40, 300/float64(max(1, len(c.Categories)*n)))))
	for i, s := range c.Series {
		vals := make(plotter.Values, len(s.Values))
		for j, v := range s.Values {
			if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
				vals[j] = f // a missing value draws no bar; the tables say NA
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(i)
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(s.Name, bars)
	}
	p.Legend.Top = true
	headroom(p, c)
	p.NominalX(c.Categories...)
	if len(c.Categories) > 3 {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	return p, nil
}

func linePlot(c *Chart) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Y.Min = 0
	for i, s := range c.Series {
		xy := make(plotter.XYs, 0, len(s.Points))
		for _, pt := range s.Points {
			x, y := float64(pt.X), float64(pt.Y)
			if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
				continue
			}
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
		if len(xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(decimate(xy))
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7) // colours repeat after seven series
		p.Add(l)
		p.Legend.Add(s.Name, l)
	}
	p.Legend.Top = true
	headroom(p, c)
	return p, nil
}

// plainTicks labels ticks with the shortest decimal ("50000", not
// "50000.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			// Round away the binary noise of the tick arithmetic first
			// (0.6000000000000001).
			v, _ := strconv.ParseFloat(strconv.FormatFloat(ticks[i].Value, 'g', 10, 64), 64)
			ticks[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ticks
}

// headroom raises the y axis by a quarter above the largest value, so the
// legend in the top corner does not hide data.
func headroom(p *plot.Plot, c *Chart) {
	maxy := 0.0
	for _, s := range c.Series {
		for _, v := range s.Values {
			if f := float64(v); f > maxy && !math.IsInf(f, 0) {
				maxy = f
			}
		}
		for _, pt := range s.Points {
			if f := float64(pt.Y); f > maxy && !math.IsInf(f, 0) {
				maxy = f
			}
		}
	}
	if maxy > 0 {
		p.Y.Max = maxy * 1.25
	}
	p.Y.Tick.Marker = plainTicks{}
}

// renderCharts draws every chart of the report, in parallel: drawing is the
// slowest part of writing the page.
func renderCharts(r *Report) (map[*Chart]template.HTML, error) {
	var charts []*Chart
	for _, s := range r.Sections {
		if s.Throughput != nil {
			charts = append(charts, s.Throughput)
		}
		charts = append(charts, s.Intervals...)
	}
	if sb := r.Sysbench; sb != nil {
		for _, t := range sb.Threads {
			charts = append(charts, t.GroupCharts...)
			charts = append(charts, t.Intervals...)
		}
	}
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
	m := map[*Chart]template.HTML{}
	for i, c := range charts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		m[c] = out[i]
	}
	return m, nil
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

// hasData reports whether a chart has a finite value to draw.
func hasData(c *Chart) bool {
	for _, s := range c.Series {
		for _, v := range s.Values {
			if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return true
			}
		}
		for _, p := range s.Points {
			if f := float64(p.Y); !math.IsNaN(f) && !math.IsInf(f, 0) {
				return true
			}
		}
	}
	return false
}
