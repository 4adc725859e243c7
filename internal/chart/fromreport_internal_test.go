package chart

import "github.com/ibreport/ibreport/report"

// The tests draw the charts of real reports. report/render converts a
// report's charts for this package; a test here cannot import it (it
// imports this package), so the conversion is repeated, and the goldens of
// report/render check that both draw the same.

// fromReport converts a chart of the model.
func fromReport(c *report.Chart) *Chart {
	out := &Chart{
		ID: c.ID, Kind: c.Kind, Title: c.Title, XLabel: c.XLabel, YLabel: c.YLabel,
		Categories: c.Categories, Panels: c.Panels, Reference: c.Reference,
		Marks: c.Marks, MarkSeries: c.MarkSeries, XTicks: c.XTicks, XLabels: c.XLabels,
	}
	for _, s := range c.Series {
		cs := Series{Name: s.Name, Unit: s.Unit}
		for _, v := range s.Values {
			cs.Values = append(cs.Values, float64(v))
		}
		for _, p := range s.Points {
			cs.Points = append(cs.Points, Point{float64(p.X), float64(p.Y), float64(p.Err)})
		}
		out.Series = append(out.Series, cs)
	}
	for _, l := range c.Levels {
		out.Levels = append(out.Levels, Level{float64(l.X0), float64(l.X1), float64(l.Y)})
	}
	return out
}

// allCharts lists every chart of a report, converted.
func allCharts(r *report.Report) []*Chart {
	var rc []*report.Chart
	if r.Sweep != nil {
		if r.Sweep.Chart != nil {
			rc = append(rc, r.Sweep.Chart)
		}
		for _, s := range r.Sweep.Steps {
			rc = append(rc, s.Chart)
		}
	}
	for _, s := range r.Sections {
		if s.Throughput != nil {
			rc = append(rc, s.Throughput)
		}
		rc = append(rc, s.Intervals...)
	}
	if sr := r.Series; sr != nil {
		for _, g := range sr.Groups {
			rc = append(rc, g.Charts...)
		}
	}
	if sb := r.Sysbench; sb != nil {
		if sb.SweepChart != nil {
			rc = append(rc, sb.SweepChart)
		}
		for _, t := range sb.Threads {
			rc = append(rc, t.GroupCharts...)
			rc = append(rc, t.Intervals...)
		}
	}
	var out []*Chart
	for _, c := range rc {
		if c != nil {
			out = append(out, fromReport(c))
		}
	}
	return out
}
