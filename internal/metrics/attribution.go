package metrics

import (
	"math"
	"sort"

	"github.com/ibreport/ibreport/internal/parse"
)

// SimilarBand is the relative change within which a throughput or an
// efficiency metric counts as unchanged: ±3%.
const SimilarBand = 0.03

// A Measure is one efficiency metric of two runs, for Attribute: Cost is
// true when more of it costs throughput (CPU per operation), false when it
// is itself a rate (the p99 per-interval rate: less of it is worse).
type Measure struct {
	Name, What  string
	Cost        bool
	Base, Other Value
}

// A Cause is an efficiency metric that moved with a throughput change:
// Change is other/base - 1.
type Cause struct {
	Name   string  `json:"metric"`
	What   string  `json:"what"`
	Change float64 `json:"change"`
}

// AttributionRule says what a metric of a row means for throughput.
type AttributionRule struct {
	Metric Metric
	What   string
	Cost   bool
}

// AttributionRules are the insert benchmark's efficiency metrics that can
// explain a throughput change, in the order the legend lists them: the CPU
// path, read I/O (cache misses), write amplification, contention, stalls
// and space.
var AttributionRules = []AttributionRule{
	{CPUPQ, "CPU per operation", true},
	{RPQ, "storage reads per operation (cache misses)", true},
	{RKBPQ, "KiB read per operation (cache misses)", true},
	{WKBPI, "KiB written per inserted row (write amplification)", true},
	{CSPQ, "context switches per operation (contention)", true},
	{MaxOp, "the largest response time (stalls)", true},
	{P99, "the rate 99% of client 1's intervals reached (stalls)", false},
	{DBGB1, "database size (space)", true},
}

// RowMeasures pairs the metrics of AttributionRules of two rows.
func RowMeasures(base, other Row) []Measure {
	out := make([]Measure, 0, len(AttributionRules))
	for _, r := range AttributionRules {
		out = append(out, Measure{Name: r.Metric.String(), What: r.What, Cost: r.Cost, Base: base[r.Metric], Other: other[r.Metric]})
	}
	return out
}

// Attribute explains a throughput change (ratio = other/base throughput)
// by the measures that moved with it beyond band: when throughput fell,
// costs that rose and rates that fell; when it rose, the reverse. They are
// ranked by the size of their change (on a log scale, so that halving and
// doubling weigh alike). None means the change is unexplained by these
// metrics; a ratio within the band needs no explanation and gets none.
func Attribute(ms []Measure, ratio, band float64) []Cause {
	if !(math.Abs(ratio-1) > band) || math.IsInf(ratio, 0) {
		return nil
	}
	fell := ratio < 1
	var out []Cause
	for _, m := range ms {
		if !m.Base.OK() || !m.Other.OK() || m.Base.V == 0 || math.IsNaN(m.Other.V) {
			continue
		}
		// A quotient no plausible pair of measures gives (a base of
		// 1e-300) explains nothing and would print hundreds of digits.
		q := m.Other.V / m.Base.V
		change := q - 1
		if parse.Plausible(parse.Ratio, q) != nil || math.Abs(change) <= band {
			continue
		}
		worse := change > 0 == m.Cost // more cost, or less rate
		if worse == fell {
			out = append(out, Cause{Name: m.Name, What: m.What, Change: change})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return math.Abs(math.Log1p(out[i].Change)) > math.Abs(math.Log1p(out[j].Change))
	})
	return out
}
