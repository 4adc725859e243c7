package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Layouts of the per-step tables.
const (
	// LayoutStudy adds the per-step tables of the 2017–2019 published
	// studies (ips.av, ips.75 … Mcpu/i, size, rss, cpu per DBMS), with
	// their legends, computed from the same raw data.
	LayoutStudy = "study"
)

// StudyStep is one step in the layout of the published studies.
type StudyStep struct {
	Step StepInfo `json:"step"`
	// Heading is the study's line over the table: "load", or "oltp - 16
	// readers, 16 writers each at 1000 inserts/s".
	Heading string   `json:"heading"`
	Table   *Table   `json:"table"`
	Legend  []string `json:"legend"`
}

// studyColumn is a column of the study layout: how its value follows from
// a step's result, and its decimals.
type studyColumn struct {
	name   string
	digits int
	value  func(sr *metrics.StepResult) metrics.Value
}

func metric(m metrics.Metric) func(*metrics.StepResult) metrics.Value {
	return func(sr *metrics.StepResult) metrics.Value { return sr.Metrics[m] }
}

// clientRate is client 1's per-interval rate at percentile rank i of
// metrics' percentile list (50, 75, 90, 95, 99): a rate per client, as the
// studies printed it.
func clientRate(i int, query bool) func(*metrics.StepResult) metrics.Value {
	return func(sr *metrics.StepResult) metrics.Value {
		if len(sr.Percentiles) == 0 || len(sr.Percentiles[0]) <= i {
			return metrics.NA(metrics.NoUnit, "no client log")
		}
		if query {
			return sr.Percentiles[0][i].Query
		}
		return sr.Percentiles[0][i].Insert
	}
}

// decimalMB is a MiB/s metric in the studies' MB/s: iostat's kB/s divided
// by 1000. The study tables show it so: their wmb/s × 1000 / ips.av is
// their wkb/i (e.g. 94.9 × 1000 / 39124 = 2.43).
func decimalMB(m metrics.Metric) func(*metrics.StepResult) metrics.Value {
	return func(sr *metrics.StepResult) metrics.Value {
		v := sr.Metrics[m]
		if !v.OK() {
			return v
		}
		return metrics.Known(v.V*1024/1000, metrics.Unit("MB/s"))
	}
}

// per divides a metric by the step's insert or query rate, times scale:
// r/i is reads per second over inserts per second.
func per(m metrics.Metric, scale float64, query bool, unit metrics.Unit) func(*metrics.StepResult) metrics.Value {
	return func(sr *metrics.StepResult) metrics.Value {
		rate := sr.Metrics[metrics.IPS]
		if query {
			rate = sr.Metrics[metrics.QPS]
		}
		v := sr.Metrics[m]
		switch {
		case !v.OK():
			return metrics.NA(unit, v.Why)
		case !rate.OK():
			return metrics.NA(unit, rate.Why)
		case rate.V == 0:
			return metrics.NA(unit, "the rate is 0")
		}
		return metrics.Known(v.V*scale/rate.V, unit)
	}
}

// The columns of the studies. Mcpu/i is vmstat us+sy (percent of all CPUs)
// × 10^6 over the rate, as the studies computed it: unlike cpupq it is not
// multiplied by the CPU count, so it compares runs on one host only.
var (
	// The columns per insert, and those that end every table.
	studyPerInsert = []studyColumn{
		{"r/i", 2, per(metrics.RPS, 1, false, metrics.Unit("reads/insert"))},
		{"rkb/i", 2, per(metrics.RMBPS, 1024, false, metrics.Unit("KiB/insert"))},
		{"wkb/i", 2, per(metrics.WMBPS, 1024, false, metrics.Unit("KiB/insert"))},
		{"Mcpu/i", 0, per(metrics.CPUPS, 1e6, false, metrics.NoUnit)},
	}
	studyHost = []studyColumn{
		{"size", duDigits, metric(metrics.DBGB2)},
		{metrics.RSS.Name(), metrics.RSS.Digits(), metric(metrics.RSS)},
		{"r/s", 0, metric(metrics.RPS)},
		{"rmb/s", 1, decimalMB(metrics.RMBPS)},
		{"wmb/s", 1, decimalMB(metrics.WMBPS)},
		{"cpu", 1, metric(metrics.CPUPS)},
	}
	studyLoad = slices.Concat([]studyColumn{
		{"ips.av", 0, metric(metrics.IPS)},
		{"ips.75", 0, clientRate(1, false)},
		{"ips.95", 0, clientRate(3, false)},
		{"ips.99", 0, clientRate(4, false)},
	}, studyPerInsert, studyHost)
	studyReadWrite = slices.Concat([]studyColumn{
		{"ips.av", 0, metric(metrics.IPS)},
		{"ips.99", 0, clientRate(4, false)},
		{"qps.av", 0, metric(metrics.QPS)},
		{"qps.99", 0, clientRate(4, true)},
	}, studyPerInsert, []studyColumn{
		{"r/q", 2, per(metrics.RPS, 1, true, metrics.Unit("reads/query"))},
		{"rkb/q", 2, per(metrics.RMBPS, 1024, true, metrics.Unit("KiB/query"))},
		{"Mcpu/q", 0, per(metrics.CPUPS, 1e6, true, metrics.NoUnit)},
	}, studyHost)
)

// The legends the studies printed under each table, in their words' sense.
var (
	studyLoadLegend = []string{
		"ips.av, ips.75, ips.95, ips.99: insert rates: the average, and the per-interval rate of client 1 at the 75th, 95th and 99th percentile (a rate per client; p99 is the rate 99% of its intervals reached)",
		"r/i, rkb/i, wkb/i: from iostat: reads, KB read and KB written per insert",
		"Mcpu/i: CPU per insert: vmstat us+sy × 10^6 / inserts per second",
		"size: database directory size in GB at the end of the step, rounded up as du -h prints it (one decimal below 10)",
		"rss: the largest RSS of the DBMS in GB",
		"r/s, rmb/s, wmb/s: iostat reads/s, MB read/s and MB written/s (MB: iostat's kB / 1000)",
		"cpu: vmstat us+sy",
	}
	studyReadWriteLegend = []string{
		"ips.av, ips.99: inserts/s: the average, and the per-interval rate of client 1 that 99% of its intervals reached (a rate per client, so about the average divided by the clients)",
		"qps.av, qps.99: queries/s, the same way",
		"r/i, rkb/i, wkb/i: from iostat, per insert: reads, KB read and KB written; this includes the I/O of the queries",
		"Mcpu/i: CPU per insert (vmstat us+sy × 10^6 / inserts per second); this includes the CPU of the queries",
		"r/q, rkb/q, Mcpu/q: the same per query; this includes the I/O and CPU of the inserts",
		"size: database directory size in GB at the end of the step, rounded up as du -h prints it (one decimal below 10)",
		"rss: the largest RSS of the DBMS in GB",
		"r/s, rmb/s, wmb/s: iostat reads/s, MB read/s and MB written/s (MB: iostat's kB / 1000)",
		"cpu: vmstat us+sy",
	}
)

// study builds the per-step tables of the studies' layout from the raw
// trees: a row per shown DBMS.
func (b *ibTables) study() {
	if b.res.Archived() {
		b.note("the study layout needs the raw logs; this report was built from archived mrg files")
		return
	}
	for i, st := range b.steps {
		cols, legend := studyLoad, studyLoadLegend
		heading := "load"
		switch {
		case st.Kind.ReadWrite():
			cols, legend = studyReadWrite, studyReadWriteLegend
			heading = fmt.Sprintf("oltp - %s, %s each at %d inserts/s", metrics.Plural(b.nClients, "reader"), metrics.Plural(b.nClients, "writer"), st.Rate)
			if counts := b.clientCounts(); len(counts) > 1 {
				// A client sweep: the rows ran with different counts, so
				// the heading cannot name one.
				ns := make([]string, len(counts))
				for i, n := range counts {
					ns[i] = strconv.Itoa(n)
				}
				heading = fmt.Sprintf("oltp - per row as many readers and writers as its clients (%s), each writer at %d inserts/s", strings.Join(ns, ", "), st.Rate)
			}
		case st.Kind == parse.CreateIndex:
			heading = "create index"
		case st.Seq > 0:
			heading = "load " + st.Name
		}
		t := &Table{ID: "study." + st.MergeName, Title: st.MergeName + ": " + heading, Header: []string{"engine"}}
		for _, c := range cols {
			t.Header = append(t.Header, c.name)
		}
		for _, tag := range b.shown {
			row := Row{Kind: DataRow, Cells: []Cell{nameCell(tag)}}
			sr := rowOf(b.tree[tag], st)
			for _, c := range cols {
				v := metrics.NAf(metrics.NoUnit, "%s has no step %s", tag, st.MergeName)
				if sr != nil {
					v = c.value(sr)
				}
				row.Cells = append(row.Cells, valueCellText(v, studyText(v, c.digits)))
			}
			t.Rows = append(t.Rows, row)
		}
		b.rep.Study = append(b.rep.Study, &StudyStep{Step: b.rep.Steps[i], Heading: heading, Table: t, Legend: legend})
	}
}

// duDigits marks the size column, printed as `du -h` printed the data
// directory's size in the studies: rounded up, one decimal below 10.
const duDigits = -2

// studyText prints a value as the studies did: with the column's decimals,
// and a zero as "0".
func studyText(v metrics.Value, digits int) string {
	if digits == duDigits && v.OK() {
		if v.V < 10 {
			v.V, digits = math.Ceil(v.V*10)/10, 1
		} else {
			v.V, digits = math.Ceil(v.V), 0
		}
	}
	s := metrics.FormatFloat(v.V, digits, v.OK())
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
		return "0"
	}
	return s
}

// studyTSV prints a step in the studies' text form: the heading line, the
// column names with the engine last, a row per DBMS and the legend.
func studyTSV(s *StudyStep) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n\n", s.Heading)
	b.WriteString(strings.Join(append(append([]string{}, s.Table.Header[1:]...), "engine"), "\t") + "\n")
	for _, r := range s.Table.Rows {
		for _, c := range r.Cells[1:] {
			b.WriteString(c.Text + "\t")
		}
		b.WriteString(r.Cells[0].Text + "\n")
	}
	b.WriteString("\nlegend:\n")
	for _, l := range s.Legend {
		b.WriteString("* " + l + "\n")
	}
	return b.String()
}

// StudyFiles are the study.<step> files: each step in the studies' text
// layout, as `ibreport tables --layout study` writes them.
func (r *Results) StudyFiles() ([]File, error) {
	if r == nil {
		return nil, errNilResults
	}
	if r.Archived() || len(r.Trees) == 0 {
		return nil, inputerr.Errorf("%s: the study layout needs raw result trees", names.Quoted(r.Dir))
	}
	rep, err := Build(r, BuildOptions{Layout: LayoutStudy})
	if err != nil {
		return nil, err
	}
	var out []File
	for _, s := range rep.Study {
		out = append(out, File{Name: "study." + s.Step.Name, Data: []byte(studyTSV(s))})
	}
	return out, nil
}
