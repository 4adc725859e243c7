package metrics

import (
	"slices"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/parse"
)

// StepResult is one step of one DBMS tree, summarized: everything the
// tables and the report show about it, as typed values. It holds no parsed
// records; the per-interval series are kept because the report draws them.
type StepResult struct {
	Tree string     // the tree (DBMS) name, e.g. "2m.pg15.c1"
	Step parse.Step // Kind is LoadWithDeletes when the clients deleted rows
	Dop  int        // the D of the dop<D> file names: clients of the step
	// Clients is the number of client logs read.
	Clients int
	// RowsPerCommit is --rows_per_commit of client 1, 0 when unknown.
	RowsPerCommit int

	// Seconds is the wall-clock duration of the step: line 1 of o.res, the
	// only file that records it, or an estimate (see Warnings).
	Seconds Value
	Rows    int64 // rows inserted or indexed by all clients
	Queries int64 // queries run by all clients
	Deletes bool  // the clients deleted rows as they inserted

	// InsertRate and QueryRate are the operation rates of the step, unrounded.
	InsertRate, QueryRate Value
	Metrics               Row

	Iostat IostatRates
	Vmstat VmstatRates
	// IostatAvg are the averages of every iostat column of the device.
	IostatAvg IostatAverages
	// Max are the up to three largest response times per kind, in seconds,
	// largest first, over all clients.
	Max map[parse.HistKind][]Value
	// Percentiles has, per client, the rates at the 50th, 75th, 90th, 95th
	// and 99th percentile of its descending per-interval rates.
	Percentiles [][]Percentile
	// Hist are the response-time histograms over all clients; delete
	// histograms only when the step deleted rows.
	Hist map[parse.HistKind]*Histogram
	// Rates are the ten-interval average rates per client: Rates[k][c] is
	// client c+1's row of inserts (k = parse.Insert), deletes or queries.
	Rates map[parse.HistKind][]RateWindows
	// Noise is the 95% interval of the mean per-interval rate of all
	// clients together (inserts for load steps, queries for read+write
	// steps), their rates summed interval by interval over the intervals
	// every client reported, the first and last (partial) left out
	// (MeanInterval): the noise of the throughput
	// the relative tables divide. Stalls are client 1's stalls
	// (FindStalls); SLA, for read+write steps, how its insert rate kept
	// the per-client target (CheckSLA), nil for other steps.
	Noise  Interval
	Stalls Stalls
	SLA    *SLA
	// FullInsertRate is the insert rate of the step's full intervals: per
	// client the mean of its per-interval insert rates with the partial
	// first and last left out, summed over the clients (InsertRate
	// divides all rows by the step's seconds, start and stop included).
	FullInsertRate Value
	// Series are client 1's per-interval statistics, for charts (the other
	// clients are summarized by Percentiles and Rates); nil without a
	// client log.
	Series *ClientSeries `json:"-"`

	ClientCPU Value // CPU seconds (user + system) of client 1, /usr/bin/time
	DBMSCPU   Value // CPU seconds of the DBMS processes during the step (ps)
	PsUser    string
	// Cores is the CPU count cpupq used, 0 when unknown; CoresSource says
	// where it came from ("option" or the iostat banner).
	Cores       int
	CoresSource string
	Device      string // the iostat device averaged

	// Warnings explains every NA value of Metrics (a NotAvailable warning
	// naming the metric, see ExplainNA) and everything suspicious met on
	// the way, each naming its file (and line where there is one).
	Warnings []Warning
}

// IostatRates are the iostat averages of the device over the step.
type IostatRates struct {
	Samples                                                  int
	ReadsPerSec, ReadMiBPerSec, WritesPerSec, WriteMiBPerSec Value
}

// VmstatRates are the vmstat averages over the step.
type VmstatRates struct {
	Samples    int
	CSPerSec   Value // context switches per second
	CPUPercent Value // us + sy, percent of all CPUs
}

// IostatAverages are the averages of every column of the iostat device rows
// (but the first sample, which holds averages since boot), as sum_iostat.sh
// printed them per step.
type IostatAverages struct {
	Header []string // column names cut to 7 characters; nil without iostat
	Values []Value  // one per column; nil when there are too few samples
}

// Percentile is the rate at one percentile of a client's intervals.
type Percentile struct {
	X int // 50, 75, 90, 95 or 99
	// Offset is the 1-based position in the descending list of per-interval
	// rates (round(X/100 × Lines)), Lines the length of that list.
	Offset, Lines         int
	Insert, Delete, Query Value
}

// Histogram is the response-time histogram of one kind over all clients of
// a step (the driver's o.rt files).
type Histogram struct {
	Kind parse.HistKind
	// Header are the bucket names and "max" as client 1 printed them
	// (256us 1ms … gt max); nil when it printed none.
	Header []string
	// Clients are the counts per bucket of each client's last histogram,
	// ClientMax its largest response time (seconds); clients without a
	// histogram of the kind are left out.
	Clients   [][]int64
	ClientMax []Value
	Sum       []int64 // per bucket, over all clients
	// Share is the percentage of all responses per bucket.
	Share []Value
	// Max is the largest response time of any client, in seconds.
	Max Value
}

// RateWindows are one client's average rates over ten consecutive tenths of
// a step (o.rate files).
type RateWindows struct {
	Client int
	Values [10]Value
}

// MaxSeriesPoints is the most points a Series keeps: a longer series is cut
// into MaxSeriesPoints/2 buckets of consecutive intervals, each keeping its
// lowest and highest point, so that spikes and dips stay visible.
const MaxSeriesPoints = 1200

// Series is a quantity over the intervals of a step: X is the time in
// seconds since the client started (t_sec), Y the value.
type Series struct {
	X, Y []float64
}

// Decimate returns the series of the points (x[i], y[i]) with at most n
// points: all of them when there are no more than n, else the lowest and
// highest point of each of n/2 buckets of consecutive points, in order.
func Decimate(x, y []float64, n int) Series {
	if len(y) <= n || n < 2 {
		return Series{X: append([]float64(nil), x...), Y: append([]float64(nil), y...)}
	}
	buckets := n / 2
	// The points are gathered in reused slices and copied out at their
	// number: a flat series has one point a bucket, half of n, and the
	// series are kept until the report is written.
	xs, ys := stats.Floats(0), stats.Floats(0)
	defer stats.PutFloats(xs)
	defer stats.PutFloats(ys)
	out := Series{X: (*xs)[:0], Y: (*ys)[:0]}
	defer func() { *xs, *ys = out.X[:0], out.Y[:0] }()
	for b := range buckets {
		lo, hi := b*len(y)/buckets, (b+1)*len(y)/buckets
		imin, imax := lo, lo
		for i := lo; i < hi; i++ {
			if y[i] < y[imin] {
				imin = i
			}
			if y[i] > y[imax] {
				imax = i
			}
		}
		first, second := min(imin, imax), max(imin, imax)
		out.X, out.Y = append(out.X, x[first]), append(out.Y, y[first])
		if second != first {
			out.X, out.Y = append(out.X, x[second]), append(out.Y, y[second])
		}
	}
	return Series{X: slices.Clone(out.X), Y: slices.Clone(out.Y)}
}

// ClientSeries are the per-interval statistics of a client, as the report
// draws them: each decimated to at most MaxSeriesPoints points
// (Options.SeriesPoints).
type ClientSeries struct {
	Client    int
	Intervals int // stats lines read
	// Inserts, Deletes and Queries are rates per second in each interval;
	// MaxInsert, MaxDelete and MaxQuery the largest response times in it,
	// in microseconds.
	Inserts, Deletes, Queries      Series
	MaxInsert, MaxDelete, MaxQuery Series
}

// NewClientSeries takes the series of a client log read whole, each
// decimated to at most points points (0, or a value below 2, means
// MaxSeriesPoints; Options.SeriesPoints).
func NewClientSeries(client int, c *parse.ClientLog, points int) *ClientSeries {
	if c == nil {
		return &ClientSeries{Client: client}
	}
	// The seven columns are taken in one pass over the intervals, into
	// slices of the scratch pool: the series keep decimated copies.
	n := len(c.Intervals)
	var cols [7]*[]float64
	for k := range cols {
		cols[k] = stats.Floats(n)
		defer stats.PutFloats(cols[k])
	}
	x, ys := *cols[0], [6][]float64{*cols[1], *cols[2], *cols[3], *cols[4], *cols[5], *cols[6]}
	for i := range c.Intervals {
		v := &c.Intervals[i].Values
		x[i] = v[parse.TSec]
		ys[0][i], ys[1][i], ys[2][i] = v[parse.IIps], v[parse.IDps], v[parse.IQps]
		ys[3][i], ys[4][i], ys[5][i] = v[parse.MaxI], v[parse.MaxD], v[parse.MaxQ]
	}
	return newClientSeries(client, n, x, ys, Options{SeriesPoints: points}.seriesPoints())
}

// newClientSeries decimates a client's per-interval lines to at most n
// points each: x the interval ends (s), ys the insert, delete and query
// rates, then the largest insert, delete and query response times.
func newClientSeries(client, intervals int, x []float64, ys [6][]float64, n int) *ClientSeries {
	return &ClientSeries{
		Client: client, Intervals: intervals,
		Inserts:   Decimate(x, ys[0], n),
		Deletes:   Decimate(x, ys[1], n),
		Queries:   Decimate(x, ys[2], n),
		MaxInsert: Decimate(x, ys[3], n),
		MaxDelete: Decimate(x, ys[4], n),
		MaxQuery:  Decimate(x, ys[5], n),
	}
}

// TreeResult is one DBMS tree, every step read and summarized.
type TreeResult struct {
	Tree  *parse.Tree
	Steps []*StepResult
}

// Name is the tree's name: its folder name ("2m.pg15.c1"), or, for a
// DBMS run at several client counts, that name with the count
// ("6m.pg15.c1.dop2").
func (t *TreeResult) Name() string {
	if t == nil || t.Tree == nil {
		return ""
	}
	return t.Tree.Name
}

// Dop is the client count the tree ran with: that of its first step that
// has one (the D of its dop<D> file names), 0 when none has.
func (t *TreeResult) Dop() int {
	if t == nil {
		return 0
	}
	for _, s := range t.Steps {
		if s.Dop > 0 {
			return s.Dop
		}
	}
	return 0
}

// Step returns the result of the step with the given name (directory or
// merge name), or nil.
func (t *TreeResult) Step(name string) *StepResult {
	if t == nil {
		return nil
	}
	for _, s := range t.Steps {
		if s.Step.Name == name || s.Step.MergeName == name {
			return s
		}
	}
	return nil
}

// Value is the step's value of metric m, r.Metrics[m]: NA, saying why, for
// a nil step (Step of a tree without it, or of a nil tree) or a metric
// out of range, so that res.Tree(name).Step(step).Value(m) never panics.
func (r *StepResult) Value(m Metric) Value {
	switch {
	case r == nil:
		return NA(NoUnit, "no such step")
	case m < 0 || int(m) >= len(r.Metrics):
		return NA(NoUnit, "no such metric")
	}
	return r.Metrics[m]
}

// RelativeTo is the step's row relative to base's, metric by metric
// (Row.Relative): every value NA when either step is nil.
func (r *StepResult) RelativeTo(base *StepResult) Row {
	if r == nil || base == nil {
		return NARow("no such step")
	}
	return r.Metrics.Relative(&base.Metrics)
}
