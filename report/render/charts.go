package render

import (
	"html/template"

	"github.com/ibreport/ibreport/internal/chart"
	"github.com/ibreport/ibreport/report"
)

// renderCharts draws every chart of a report, keyed by its chart in the
// model for the page template.
func renderCharts(r *report.Report) (map[*report.Chart]template.HTML, error) {
	charts := allCharts(r)
	in := make([]*chart.Chart, len(charts))
	for i, c := range charts {
		in[i] = chartInput(c)
	}
	svgs, err := chart.Render(in)
	if err != nil {
		return nil, err
	}
	m := make(map[*report.Chart]template.HTML, len(charts))
	for i, c := range charts {
		m[c] = svgs[i]
	}
	return m, nil
}

// chartInput converts a chart of the model into what package chart draws.
func chartInput(c *report.Chart) *chart.Chart {
	if c == nil {
		return nil
	}
	out := &chart.Chart{
		ID: c.ID, Kind: c.Kind, Title: c.Title, XLabel: c.XLabel, YLabel: c.YLabel,
		Categories: c.Categories, Panels: c.Panels, Reference: c.Reference, Band: c.Band,
		Marks: c.Marks, MarkSeries: c.MarkSeries, XTicks: c.XTicks, XLabels: c.XLabels,
	}
	for _, s := range c.Series {
		cs := chart.Series{Name: s.Name, Unit: s.Unit}
		if s.Values != nil {
			cs.Values = make([]float64, len(s.Values))
			for i, v := range s.Values {
				cs.Values[i] = float64(v)
			}
		}
		if s.Points != nil {
			cs.Points = make([]chart.Point, len(s.Points))
			for i, p := range s.Points {
				cs.Points[i] = chart.Point{X: float64(p.X), Y: float64(p.Y), Err: float64(p.Err)}
			}
		}
		out.Series = append(out.Series, cs)
	}
	for _, l := range c.Levels {
		out.Levels = append(out.Levels, chart.Level{X0: float64(l.X0), X1: float64(l.X1), Y: float64(l.Y)})
	}
	return out
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
