package metrics

import (
	"math"
	"sort"

	"github.com/ibreport/ibreport/parse"
)

// SimilarBand is the relative change within which a throughput or an
// efficiency metric counts as unchanged: ±3%.
const SimilarBand = 0.03

// A Measure is one efficiency metric of two runs, for Attribute: Cost is
// true when more of it costs throughput (CPU per operation), false when it
// is itself a rate (the p99 per-interval rate: less of it is worse). Floor
// is the magnitude both values must reach for the metric to be cited; 0
// takes Floor(Name), the properties table's.
type Measure struct {
	Name, What  string
	Cost        bool
	Base, Other Value
	Floor       float64
	// Parts are the measures one level below this one, whose changes
	// compose its change (cpu/o: instructions per operation ÷ IPC); a cited
	// cause carries those that explain it in Cause.Detail.
	Parts []Measure
}

// floor is the measure's floor: its own, else that of its name.
func (m Measure) floor() float64 {
	if m.Floor > 0 {
		return m.Floor
	}
	return Floor(m.Name)
}

// A Cause is an efficiency metric that moved with a throughput change:
// Change is other/base - 1; Share is how much of the throughput change it
// can account for (CauseShare).
type Cause struct {
	Name   string  `json:"metric"`
	What   string  `json:"what"`
	Change float64 `json:"change"`
	Share  float64 `json:"share"`
	// Detail explains the cause one level deeper: the parts of its
	// measure (instructions per operation, IPC) that moved with it.
	Detail []Cause `json:"detail,omitempty"`
}

// AttributionRule says what a metric of a row means for throughput: Cost
// is true when more of it costs throughput (its Props.Better is
// LowerIsBetter).
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
	attributionRule(CPUPQ, "CPU per operation"),
	attributionRule(RPQ, "storage reads per operation (cache misses)"),
	attributionRule(RKBPQ, "KiB read per operation (cache misses)"),
	attributionRule(WKBPI, "KiB written per inserted row (write amplification)"),
	attributionRule(CSPQ, "context switches per operation (contention)"),
	attributionRule(MaxOp, "the largest response time (stalls)"),
	attributionRule(P99, "the rate 99% of client 1's intervals reached (stalls)"),
	attributionRule(DBGB1, "database size (space)"),
}

func attributionRule(m Metric, what string) AttributionRule {
	return AttributionRule{Metric: m, What: what, Cost: m.Props().Better == LowerIsBetter}
}

// MeasureOf pairs two values of the named column for Attribute, with its
// cost direction from the properties table (PropsByName).
func MeasureOf(name, what string, base, other Value) Measure {
	p, _ := PropsByName(name)
	return Measure{Name: name, What: what, Cost: p.Better == LowerIsBetter, Base: base, Other: other}
}

// RowMeasures pairs the metrics of AttributionRules of two rows.
func RowMeasures(base, other Row) []Measure {
	out := make([]Measure, 0, len(AttributionRules))
	for _, r := range AttributionRules {
		out = append(out, Measure{Name: r.Metric.String(), What: r.What, Cost: r.Cost, Base: base[r.Metric], Other: other[r.Metric]})
	}
	return out
}

// MinCauseShare is the least share of a throughput change (CauseShare) a
// metric must account for to be cited: a cost 4% up does not explain a
// throughput halved.
const MinCauseShare = 0.1

// CauseShare is how much of a throughput change (ratio r = other/base) a
// metric whose value changed by the factor q can account for: |log q| /
// |log r|, capped at 1. Throughput is at most inversely proportional to a
// cost per operation (the work is done q times as often or for q times as
// long) and proportional to a rate, so a factor q explains at most a
// factor q of throughput; a metric that moved further accounts for all of
// it, no more.
func CauseShare(q, r float64) float64 {
	lr := math.Abs(math.Log(r))
	if lr == 0 || q <= 0 || r <= 0 || math.IsNaN(q) || math.IsInf(q, 0) {
		return 0
	}
	return math.Min(1, math.Abs(math.Log(q))/lr)
}

// Attribute explains a throughput change (ratio = other/base throughput)
// by the measures that moved with it beyond band and matter:
//
//   - direction: when throughput fell, costs that rose and rates that fell;
//     when it rose, the reverse;
//   - materiality: both values at or above the measure's floor (Floor), so
//     that no change is a percentage of a near-zero value (0.010 vs 0.000
//     reads per query, 0.011 KiB written per read-only query vs none), and
//     a CauseShare of at least MinCauseShare.
//
// They are ranked by CauseShare in steps of 10%, the largest first; among
// measures that account for as much, the one whose change is closest to
// the throughput's first (a metric that moved 30 times as far as
// throughput is less its whole story than one that moved as far). None
// means the change is unexplained by these metrics; a ratio within the
// band needs no explanation and gets none.
func Attribute(ms []Measure, ratio, band float64) []Cause {
	if !(math.Abs(ratio-1) > band) || math.IsInf(ratio, 0) || !(ratio > 0) {
		return nil
	}
	fell := ratio < 1
	lr := math.Abs(math.Log(ratio))
	var out []Cause
	for _, m := range ms {
		if !m.Base.OK() || !m.Other.OK() || !material(m.Base.V, m.floor()) || !material(m.Other.V, m.floor()) {
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
		if share := CauseShare(q, ratio); worse == fell && share >= MinCauseShare {
			out = append(out, Cause{Name: m.Name, What: m.What, Change: change, Share: share, Detail: Decompose(m.Parts, q, band)})
		}
	}
	excess := func(c Cause) float64 { return math.Abs(math.Abs(math.Log1p(c.Change)) - lr) }
	// Shares are compared in steps of 10%: per-operation metrics and
	// throughput are each measured to a few percent, so a cost that moved
	// as far as throughput (a share of 0.98) accounts for all of it as much
	// as one that moved twice as far, and comes first for being closer.
	step := func(c Cause) float64 { return math.Round(10 * c.Share) }
	sort.SliceStable(out, func(i, j int) bool {
		if step(out[i]) != step(out[j]) {
			return step(out[i]) > step(out[j])
		}
		return excess(out[i]) < excess(out[j])
	})
	return out
}

// material reports whether a value is large enough to be compared by
// ratio: finite, above 0 and at least floor.
func material(v, floor float64) bool {
	return v > 0 && v >= floor && !math.IsInf(v, 0)
}

// Decompose explains a cost's change by its parts, the level below it: the
// parts that moved beyond band in the direction that explains the cost's
// factor q (a cost part up or a rate part down when the cost rose), with
// both values at or above their floor and a CauseShare of q of at least
// MinCauseShare, largest share first. A CPU cost per operation is
// instructions per operation ÷ instructions per cycle (× the clock), so
// "cpu/o +54%" splits into "insn/o +48%" (more work per query) and "IPC
// -4%" (the same work done slower: cache and TLB misses, stalls). Nil when
// q is within band or no part explains it.
func Decompose(parts []Measure, q, band float64) []Cause {
	if len(parts) == 0 || !(math.Abs(q-1) > band) || math.IsInf(q, 0) || !(q > 0) {
		return nil
	}
	rose := q > 1
	var out []Cause
	for _, m := range parts {
		if !m.Base.OK() || !m.Other.OK() || !material(m.Base.V, m.floor()) || !material(m.Other.V, m.floor()) {
			continue
		}
		pq := m.Other.V / m.Base.V
		change := pq - 1
		if parse.Plausible(parse.Ratio, pq) != nil || math.Abs(change) <= band {
			continue
		}
		costlier := change > 0 == m.Cost
		if share := CauseShare(pq, q); costlier == rose && share >= MinCauseShare {
			out = append(out, Cause{Name: m.Name, What: m.What, Change: change, Share: share})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Share > out[j].Share })
	return out
}

// Floors of the perf stat parts: a thousand instructions or cycles per
// operation is less than any database operation costs, and IPC is printed
// to two decimals.
const (
	insnFloor = 1000
	ipcFloor  = 0.05
)

// CPUParts are the parts of a CPU cost per operation from perf stat
// counters of two runs: instructions per operation and IPC. Nil when
// either run has no counters.
func CPUParts(base, other *PerfOp) []Measure {
	if base == nil || other == nil {
		return nil
	}
	return []Measure{
		{Name: "insn/o", What: "instructions per operation", Cost: true, Base: base.InsnPerOp, Other: other.InsnPerOp, Floor: insnFloor},
		{Name: "IPC", What: "instructions per cycle", Cost: false, Base: base.IPC, Other: other.IPC, Floor: ipcFloor},
	}
}
