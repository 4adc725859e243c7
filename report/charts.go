package report

import (
	"math"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func kindTitle(k parse.HistKind) string {
	switch k {
	case parse.Delete:
		return "Delete"
	case parse.Query:
		return "Query"
	}
	return "Insert"
}

// throughputChart is the step's average-throughput bar chart: IPS for load
// steps, QPS and IPS side by side for read+write steps, one bar per DBMS of
// the summary.
func (b *builder) throughputChart(st parse.Step) *Chart {
	c := &Chart{ID: st.MergeName + ".chart.throughput", Kind: "bar", Categories: b.shown}
	series := func(name, col string) Series {
		s := Series{Name: name}
		for _, tag := range b.shown {
			v := b.cell(st.MergeName, tag, col)
			f := v.V
			if !v.OK() {
				f = math.NaN()
			}
			s.Values = append(s.Values, Num(f))
		}
		return s
	}
	switch {
	case st.Kind.ReadWrite():
		c.Title, c.YLabel = "Queries and inserts per second", "operations/s"
		c.Series = []Series{series("QPS", "qps"), series("IPS", "ips")}
	case st.Kind == parse.CreateIndex:
		c.Title, c.YLabel = "Indexed rows per second", "rows/s"
		c.Series = []Series{series("indexed rows/s", "ips")}
	default:
		c.Title, c.YLabel = "Inserts per second", "inserts/s"
		c.Series = []Series{series("IPS", "ips")}
	}
	return c
}

// intervalMetric is one per-interval chart of client 1's stats lines.
type intervalMetric struct {
	id, title, ylabel string
	series            func(*metrics.ClientSeries) metrics.Series
	scale             float64 // microseconds to milliseconds for the max columns
}

var intervalMetrics = []intervalMetric{
	{"ips", "Inserts per second", "inserts/s", func(s *metrics.ClientSeries) metrics.Series { return s.Inserts }, 1},
	{"imax", "Max insert response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxInsert }, 1e-3},
	{"dps", "Deletes per second", "deletes/s", func(s *metrics.ClientSeries) metrics.Series { return s.Deletes }, 1},
	{"dmax", "Max delete response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxDelete }, 1e-3},
	{"qps", "Queries per second", "queries/s", func(s *metrics.ClientSeries) metrics.Series { return s.Queries }, 1},
	{"qmax", "Max query response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxQuery }, 1e-3},
}

// intervalCharts are the per-interval charts of a step, one line per DBMS,
// from client 1's log as the original per-second pages. A metric that is
// zero throughout for every DBMS (no deletes, no queries) is left out.
func (b *builder) intervalCharts(st parse.Step) []*Chart {
	if st.Kind == parse.CreateIndex {
		return nil
	}
	var out []*Chart
	for _, m := range intervalMetrics {
		c := &Chart{
			ID: st.MergeName + ".chart." + m.id, Kind: "line",
			Title: m.title + " per interval (client 1)", XLabel: "time (s)", YLabel: m.ylabel,
		}
		nonzero := false
		for _, tag := range b.shown {
			s := Series{Name: tag}
			if cl := b.client1(st, tag); cl != nil {
				ser := m.series(cl)
				s.Points = make([]Point, 0, len(ser.Y))
				for i, y := range ser.Y {
					y *= m.scale
					nonzero = nonzero || y != 0
					s.Points = append(s.Points, Point{X: Num(ser.X[i]), Y: Num(y)})
				}
			}
			c.Series = append(c.Series, s)
		}
		if nonzero {
			out = append(out, c)
		}
	}
	return out
}

func (b *builder) client1(st parse.Step, tag string) *metrics.ClientSeries {
	if sr := rowOf(b.tree[tag], st); sr != nil {
		return sr.Series
	}
	return nil
}
