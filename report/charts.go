package report

import (
	"fmt"
	"math"
	"slices"

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

// intervalMetric is one per-interval chart of client 1's stats lines.
type intervalMetric struct {
	id, title, ylabel string
	series            func(*metrics.ClientSeries) metrics.Series
	scale             float64 // microseconds to milliseconds for the max columns
}

var intervalMetrics = []intervalMetric{
	{metrics.IPS.Name(), "Inserts per second", string(metrics.InsertsPerSec), func(s *metrics.ClientSeries) metrics.Series { return s.Inserts }, 1},
	{"imax", "Max insert response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxInsert }, 1e-3},
	{"dps", "Deletes per second", "deletes/s", func(s *metrics.ClientSeries) metrics.Series { return s.Deletes }, 1},
	{"dmax", "Max delete response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxDelete }, 1e-3},
	{metrics.QPS.Name(), "Queries per second", string(metrics.QueriesPerSec), func(s *metrics.ClientSeries) metrics.Series { return s.Queries }, 1},
	{"qmax", "Max query response time", "ms", func(s *metrics.ClientSeries) metrics.Series { return s.MaxQuery }, 1e-3},
}

// minIntervals is the fewest points an interval chart needs to show a
// trend; shorter series are said in a note instead.
const minIntervals = 10

// fewIntervals returns a note when the longest line of the charts has
// fewer than minIntervals points, "" otherwise.
func fewIntervals(charts []*Chart) string {
	most := 0
	for _, c := range charts {
		for _, s := range c.Series {
			most = max(most, len(s.Points))
		}
	}
	return fewNote(len(charts), most)
}

// fewNote is fewIntervals of n charts whose longest line has most points.
func fewNote(n, most int) string {
	if n == 0 || most >= minIntervals {
		return ""
	}
	return fmt.Sprintf("Per-interval charts are left out: the longest series has %s, fewer than %d.",
		metrics.Plural(most, "interval"), minIntervals)
}

// throughputChart is the step's average-throughput bar chart: IPS for load
// steps, QPS and IPS side by side for read+write steps, one bar per DBMS of
// the summary.
func (b *ibTables) throughputChart(st parse.Step) *Chart {
	c := &Chart{ID: st.MergeName + ".chart.throughput", Kind: "bar", Categories: b.shown, Panels: true}
	series := func(name, unit, col string) Series {
		s := Series{Name: name, Unit: unit}
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
	// Queries and inserts per second differ a hundredfold: each has a panel
	// and a scale of its own.
	switch {
	case st.Kind.ReadWrite():
		c.Title, c.YLabel = "Average throughput", "operations/s"
		c.Series = []Series{series("Average queries per second", "queries/s", metrics.QPS.Name()), series("Average inserts per second", "inserts/s", metrics.IPS.Name())}
	case st.Kind == parse.CreateIndex:
		c.Title, c.YLabel = "Average throughput", "rows/s"
		c.Series = []Series{series("Average indexed rows per second", "rows/s", metrics.IPS.Name())}
	default:
		c.Title, c.YLabel = "Average throughput", "inserts/s"
		c.Series = []Series{series("Average inserts per second", "inserts/s", metrics.IPS.Name())}
	}
	return c
}

// intervalCharts are the per-interval charts of a step, one line per DBMS,
// from client 1's log as the original per-second pages. A metric that is
// zero throughout for every DBMS (no deletes, no queries) is left out. When
// the longest line has fewer than minIntervals points there are no charts,
// and note says so (fewNote). With noPoints the lines have no points: the
// charts, their note and their marks are the same, for an output that draws
// none (LoadOptions.NoIntervalPoints). Whether a metric is zero throughout
// is read off its decimated series, which keeps each bucket's lowest and
// highest value, so 2 points a series tell it.
func (b *ibTables) intervalCharts(st parse.Step) (out []*Chart, note string) {
	if st.Kind == parse.CreateIndex {
		return nil, ""
	}
	// Client 1's log of each DBMS (nil: none), looked up once for all the
	// metrics. The note counts the intervals the logs have, not the points
	// the series keep: the same up to MaxSeriesPoints, and many either way
	// beyond.
	logs := make([]*metrics.ClientSeries, len(b.shown))
	most := 0
	for k, tag := range b.shown {
		if logs[k] = b.client1(st, tag); logs[k] != nil {
			most = max(most, logs[k].Intervals)
		}
	}
	for _, m := range intervalMetrics {
		c := &Chart{
			ID: st.MergeName + ".chart." + m.id, Kind: "line",
			Title: m.title + " per interval (client 1)", XLabel: "time (s)", YLabel: m.ylabel,
		}
		// A chart is drawn only when some DBMS has a value other than 0:
		// its points are made only then, in one block for all its lines
		// (a load step has no queries, and most steps no deletes).
		npts, nonzero := 0, false
		for _, cl := range logs {
			if cl != nil {
				ser := m.series(cl)
				npts += len(ser.Y)
				nonzero = nonzero || slices.ContainsFunc(ser.Y, func(y float64) bool { return y*m.scale != 0 })
			}
		}
		if !nonzero {
			continue
		}
		var block []Point
		if !b.noPoints {
			block = make([]Point, 0, npts)
		}
		for k, tag := range b.shown {
			s := Series{Name: tag}
			if cl := logs[k]; cl != nil && !b.noPoints {
				ser := m.series(cl)
				start := len(block)
				block = block[:start+len(ser.Y)]
				pts := block[start:len(block):len(block)]
				x := ser.X[:len(pts)]
				for i, y := range ser.Y {
					pts[i] = Point{X: Num(x[i]), Y: Num(y * m.scale)}
				}
				s.Points = pts
			}
			c.Series = append(c.Series, s)
		}
		out = append(out, c)
	}
	if note = fewNote(len(out), most); note != "" {
		return nil, note
	}
	return out, ""
}

func (b *ibench) client1(st parse.Step, tag string) *metrics.ClientSeries {
	if sr := rowOf(b.tree[tag], st); sr != nil {
		return sr.Series
	}
	return nil
}
