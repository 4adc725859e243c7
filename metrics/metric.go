package metrics

import (
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// A Metric is one of the twenty per-step metrics of the insert benchmark,
// the columns of the mrg.<step> and rel.<step> tables (ips … p99).
type Metric int

// The metrics, in table order. An operation is an inserted row for load
// steps, an indexed row for the create-index step (l.x) and a query for
// read+write steps; wpi and wkbpi are always per inserted row.
const (
	IPS   Metric = iota // average inserts per second (l.x: indexed rows per second)
	QPS                 // average queries per second; 0 for load steps
	RPS                 // storage reads per second (iostat r/s)
	RMBPS               // MiB read per second (iostat rkB/s ÷ 1024)
	WPS                 // storage writes per second (iostat w/s)
	WMBPS               // MiB written per second (iostat wkB/s ÷ 1024)
	RPQ                 // storage reads per operation
	RKBPQ               // KiB read per operation
	WPI                 // storage writes per inserted row
	WKBPI               // KiB written per inserted row
	CSPS                // context switches per second (vmstat cs)
	CPUPS               // CPU utilization: vmstat us + sy, percent of all CPUs
	CSPQ                // context switches per operation
	CPUPQ               // CPU microseconds per operation, all processes of the host
	DBGB1               // database size in GiB (o.dbsz)
	DBGB2               // data directory size in GiB (o.dbdirsz)
	RSS                 // largest RSS of a DBMS process in GiB
	MaxOp               // largest response time in seconds (inserts for load steps, queries for read+write steps)
	P50                 // median per-interval rate of client 1 (inserts/s for load steps, queries/s for read+write steps)
	P99                 // the per-interval rate of client 1 that 99% of its intervals reached
	NumMetrics
)

// Metrics lists every metric in table order.
func Metrics() []Metric {
	out := make([]Metric, NumMetrics)
	for i := range out {
		out[i] = Metric(i)
	}
	return out
}

// Name is the metric's column name, e.g. "cpupq".
func (m Metric) Name() string {
	if m < 0 || m >= NumMetrics {
		return "metric?"
	}
	return props[m].Name
}

func (m Metric) String() string { return m.Name() }

// Digits is the number of decimals a metrics row prints for the metric
// (Props.Digits).
func (m Metric) Digits() int { return m.Props().Digits }

// MergeDigits is the number of decimals of the mrg.<step> tables
// (Props.MergeDigits).
func (m Metric) MergeDigits() int { return m.Props().MergeDigits }

// Meaning explains the metric in one phrase, for legends (Props.Meaning).
func (m Metric) Meaning() string { return m.Props().Meaning }

// MetricByName finds an insert-benchmark metric by its column name;
// PropsByName also knows sysbench's columns and says which names exist.
func MetricByName(name string) (Metric, bool) {
	for _, p := range props[:NumMetrics] {
		if p.Name == name {
			return p.Metric, true
		}
	}
	return 0, false
}

// RowColumns are the column names of a metrics row: the twenty metrics and
// the DBMS tag, the header of o.sum.t, mrg.<step> and rel.<step>.
var RowColumns = func() []string {
	var out []string
	for _, p := range props[:NumMetrics] {
		out = append(out, p.Name)
	}
	return append(out, "tag")
}()

// MergeHeader is the header line of o.sum.t, mrg.<step> and rel.<step>.
var MergeHeader = strings.Join(RowColumns, "\t")

// A Row holds the twenty metrics of one DBMS in one step, indexed by
// Metric: row[metrics.CPUPQ] is the CPU per operation.
type Row [NumMetrics]Value

// NARow is a row whose every value is NA for the same reason.
func NARow(why string) Row {
	var r Row
	for i := range r {
		r[i] = NA(NoUnit, why)
	}
	return r
}

// Relative returns r relative to base, metric by metric (Ratio).
func (r *Row) Relative(base *Row) Row {
	if r == nil || base == nil {
		return NARow("no row to compare")
	}
	var out Row
	for i := range out {
		out[i] = Ratio(r[i], base[i])
	}
	return out
}

// MarshalJSON writes a row as an object keyed by metric name.
func (r Row) MarshalJSON() ([]byte, error) {
	var b []byte
	b = append(b, '{')
	for i, v := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, Metric(i).Name())
		b = append(b, ':')
		vb, err := v.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, vb...)
	}
	return append(b, '}'), nil
}

// Quantity is what the metric measures, for the plausibility rule of its
// values (parse.Plausible): the rates are per second, the per-operation
// costs counts, the sizes GiB, cpups a share of all CPUs and maxop the
// seconds of one response.
func (m Metric) Quantity() parse.Quantity {
	switch m {
	case IPS, QPS, RPS, RMBPS, WPS, WMBPS, CSPS, P50, P99:
		return parse.Rate
	case CPUPS:
		return parse.Percent
	case DBGB1, DBGB2, RSS:
		return parse.Size
	case MaxOp:
		return parse.Duration
	}
	return parse.Count
}
