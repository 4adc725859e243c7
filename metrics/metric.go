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

type metricInfo struct {
	name string
	// digits are the decimals a row prints (o.sum.t); mergeDigits those of
	// the mrg.<step> tables, which round rps to an integer. -1 prints the
	// shortest text that reads back as the number (the rates the client
	// printed).
	digits, mergeDigits int
	meaning             string
}

var metricInfos = [NumMetrics]metricInfo{
	IPS:   {"ips", 0, 0, "average inserted rows per second over the step (l.x: rows indexed per second)"},
	QPS:   {"qps", 0, 0, "average queries per second (0 for load steps)"},
	RPS:   {"rps", 1, 0, "storage read requests per second (iostat r/s)"},
	RMBPS: {"rmbps", 1, 1, "storage MiB read per second"},
	WPS:   {"wps", 1, 1, "storage write requests per second (iostat w/s)"},
	WMBPS: {"wmbps", 1, 1, "storage MiB written per second"},
	RPQ:   {"rpq", 3, 3, "storage reads per operation"},
	RKBPQ: {"rkbpq", 3, 3, "storage KiB read per operation"},
	WPI:   {"wpi", 3, 3, "storage writes per inserted row"},
	WKBPI: {"wkbpi", 3, 3, "storage KiB written per inserted row"},
	CSPS:  {"csps", 0, 0, "context switches per second (vmstat cs)"},
	CPUPS: {"cpups", 1, 1, "CPU utilization: average vmstat us + sy, percent of all CPUs"},
	CSPQ:  {"cspq", 3, 3, "context switches per operation"},
	CPUPQ: {"cpupq", 0, 0, "CPU microseconds per operation, all processes on the host"},
	DBGB1: {"dbgb1", 1, 1, "database size in GiB as reported by the DBMS or its data directory"},
	DBGB2: {"dbgb2", 1, 1, "size of the whole data directory in GiB"},
	RSS:   {"rss", 1, 1, "RSS in GiB of the DBMS process (largest sample)"},
	MaxOp: {"maxop", 3, 3, "maximum response time in seconds (insert statement for load steps, query for read+write steps)"},
	P50:   {"p50", -1, -1, "median of client 1's per-interval rates (inserts/s for load steps, queries/s for read+write steps)"},
	P99:   {"p99", -1, -1, "the per-interval rate of client 1 that 99% of its intervals reached"},
}

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
	return metricInfos[m].name
}

func (m Metric) String() string { return m.Name() }

// Digits is the number of decimals a metrics row prints for the metric.
func (m Metric) Digits() int { return metricInfos[m].digits }

// MergeDigits is the number of decimals of the mrg.<step> tables.
func (m Metric) MergeDigits() int { return metricInfos[m].mergeDigits }

// Meaning explains the metric in one phrase, for legends.
func (m Metric) Meaning() string { return metricInfos[m].meaning }

// MetricByName finds a metric by its column name.
func MetricByName(name string) (Metric, bool) {
	for i, mi := range metricInfos {
		if mi.name == name {
			return Metric(i), true
		}
	}
	return 0, false
}

// RowColumns are the column names of a metrics row: the twenty metrics and
// the DBMS tag, the header of o.sum.t, mrg.<step> and rel.<step>.
var RowColumns = func() []string {
	var out []string
	for _, mi := range metricInfos {
		out = append(out, mi.name)
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

// Unit is the unit of the metric in a step of the given kind.
func (m Metric) Unit(k parse.StepKind) Unit {
	op, rate := "insert", InsertsPerSec
	switch {
	case k.ReadWrite():
		op, rate = "query", QueriesPerSec
	case k == parse.CreateIndex:
		op, rate = "row", RowsPerSec
	}
	switch m {
	case IPS:
		if k == parse.CreateIndex {
			return RowsPerSec
		}
		return InsertsPerSec
	case QPS:
		return QueriesPerSec
	case RPS:
		return ReadsPerSec
	case WPS:
		return WritesPerSec
	case RMBPS, WMBPS:
		return MiBPerSec
	case RPQ:
		return PerOp("reads", op)
	case RKBPQ:
		return PerOp("KiB", op)
	case WPI:
		return PerOp("writes", "insert")
	case WKBPI:
		return PerOp("KiB", "insert")
	case CSPS:
		return CSPerSec
	case CPUPS:
		return CPUPercent
	case CSPQ:
		return PerOp("cs", op)
	case CPUPQ:
		return PerOp("CPU µs", op)
	case DBGB1, DBGB2, RSS:
		return GiB
	case MaxOp:
		return Seconds
	case P50, P99:
		return rate
	}
	return NoUnit
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
