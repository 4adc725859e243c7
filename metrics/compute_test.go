package metrics_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// syntheticStep is a read+write step of one client with 20 one-second
// intervals whose numbers are easy to compute by hand.
func syntheticStep() fstest.MapFS {
	var ib strings.Builder
	ib.WriteString("python3 iibench.py --dbms=postgres --max_rows=1000 --rows_per_commit=10 --query_threads=1\n")
	ib.WriteString("i_sec\tt_sec\ti_ips\tt_ips\ti_dps\tt_dps\ti_qps\tt_qps\tmax_i\tmax_d\tmax_q\tt_ins\tt_del\tt_query\tretry_i\tretry_d\tretry_q\n")
	for i := 1; i <= 20; i++ {
		// i_qps is 100·i: 100, 200, …, 2000.
		fmt.Fprintf(&ib, "1.0\t%d.0\t50\t50\t0\t0\t%d\t%d\t%d\t0\t%d\t%d\t0\t%d\t0\t0\t0\n", i, 100*i, 100*i, 1000+i, 2000+i, 50*i, 1050*i)
	}
	ib.WriteString("Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max\n")
	ib.WriteString("Insert rt:       900       100         0         0         0         0         0         0         0         0    0.002500\n")
	ib.WriteString(" Query rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max\n")
	ib.WriteString(" Query rt:     20000      1000         0         0         0         0         0         0         0         0    0.004000\n")
	ib.WriteString("Done\n")
	vm := "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n" +
		" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n" +
		" 1  0      0 100 1 1    0    0  0  0  1 99999 90 9 1  0  0\n" // since boot: not a sample
	for i := 1; i <= 20; i++ {
		if i == 10 { // a repeated header is not a sample either
			vm += "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n" +
				" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"
		}
		vm += " 1  0      0 100 1 1    0    0  0  0  1 2000 30 10 60  0  0\n"
	}
	io := "Linux 6.1 (db) \t11/29/26 \t_x86_64_\t(4 CPU)\n\n"
	for i := 0; i < 20; i++ {
		io += "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util\n"
		io += "vda            100.00   1000.00     0.00   0.00    0.24    18.78   10.00    500.00     0.00   0.00    0.08    62.67    0.00      0.00     0.00   0.00    0.00     0.00    4.00    0.00    0.05   3.20\n"
		io += "vda1           900.00   9000.00     0.00   0.00    0.24    18.78   90.00    900.00     0.00   0.00    0.08    62.67    0.00      0.00     0.00   0.00    0.00     0.00    4.00    0.00    0.05   3.20\n\n"
	}
	return fstest.MapFS{
		"qr100.L1/o.ib.dop1.1":    {Data: []byte(ib.String())},
		"qr100.L1/o.vm.dop1":      {Data: []byte(vm)},
		"qr100.L1/o.io.dop1":      {Data: []byte(io)},
		"qr100.L1/o.res.dop1":     {Data: []byte("1 processes, 1000 rows-per-process, 20 seconds, 50.0 rows-per-second, 50.0 rows-per-second-per-user, 21000 queries, 1050.0 queries-per-second, no deletes\n")},
		"qr100.L1/o.dbsz.dop1":    {Data: []byte("1.25\n")},
		"qr100.L1/o.dbdirsz.dop1": {Data: []byte("2147483648\t/data\n")},
		"qr100.L1/o.ps.dop1": {Data: []byte("postgres 11 0.0 0.1 217120 1048576 ? Ss 21:30 0:01 postgres -D pgdata\n" +
			"postgres 12 0.0 0.1 217120 2097152 ? Ss 21:30 0:03 postgres: writer\n" +
			"root 13 0.0 0.1 917120 9097152 ? Ss 21:30 0:09 other\n")},
	}
}

func summarizeSynthetic(t *testing.T, fsys fstest.MapFS, opt metrics.Options) *metrics.StepResult {
	t.Helper()
	st, _ := parse.ParseStepName("qr100.L1")
	sd, err := parse.ReadStep(fsys, "qr100.L1", st)
	if err != nil {
		t.Fatal(err)
	}
	return metrics.Summarize(sd, "1m.test", opt)
}

// TestSummarizeValues checks every metric of a step against a hand
// computation, with its unit.
func TestSummarizeValues(t *testing.T) {
	r := summarizeSynthetic(t, syntheticStep(), metrics.Options{Cores: 4, Device: "vda", PsUser: "postgres"})
	qps := 21000.0 / 20 // t_query of the last line over the o.res seconds
	ips := 1000.0 / 20
	want := map[metrics.Metric]struct {
		v    float64
		unit metrics.Unit
	}{
		metrics.IPS:   {ips, "inserts/s"},
		metrics.QPS:   {qps, "queries/s"},
		metrics.RPS:   {100, "reads/s"},           // vda only, not vda1
		metrics.RMBPS: {1000.0 / 1024, "MiB/s"},   // rkB/s in MiB
		metrics.WPS:   {10, "writes/s"},           //
		metrics.WMBPS: {500.0 / 1024, "MiB/s"},    //
		metrics.RPQ:   {100 / qps, "reads/query"}, // per query in a read+write step
		metrics.RKBPQ: {1000 / qps, "KiB/query"},
		metrics.WPI:   {10 / ips, "writes/insert"},
		metrics.WKBPI: {500 / ips, "KiB/insert"},
		metrics.CSPS:  {2000, "cs/s"},           // not the since-boot row, not the repeated header
		metrics.CPUPS: {40, "%cpu"},             // us + sy
		metrics.CSPQ:  {2000 / qps, "cs/query"}, //
		metrics.CPUPQ: {40.0 / 100 * 4 * 1e6 / qps, "CPU µs/query"},
		metrics.DBGB1: {1.25, "GiB"},
		metrics.DBGB2: {2, "GiB"},
		metrics.RSS:   {2, "GiB"}, // 2097152 KiB, the largest postgres process
		metrics.MaxOp: {0.004, "s"},
		metrics.P50:   {1100, "queries/s"}, // the 9th of 1900, …, 200 (the partial first and last left out)
		metrics.P99:   {200, "queries/s"},  // the 18th (round(17.82))
	}
	for m, w := range want {
		v := r.Metrics[m]
		if !v.OK() || math.Abs(v.V-w.v) > 1e-9*math.Max(1, math.Abs(w.v)) || v.Unit != w.unit {
			t.Errorf("%s = %v %q (NA: %q), want %v %q", m, v.V, v.Unit, v.Why, w.v, w.unit)
		}
	}
	if len(want) != int(metrics.NumMetrics) {
		t.Errorf("%d metrics checked, want all %d", len(want), metrics.NumMetrics)
	}
	banner := summarizeSynthetic(t, syntheticStep(), metrics.Options{Device: "vda"})
	if banner.Cores != 4 || !strings.Contains(strings.Join(metrics.WarningTexts(banner.Warnings), "\n"), "using 4 from the iostat banner") {
		t.Errorf("without --cores: %d CPUs, warnings %q", banner.Cores, banner.Warnings)
	}
	if r.Cores != 4 || r.CoresSource != "option" || r.Iostat.Samples != 20 || r.Vmstat.Samples != 20 {
		t.Errorf("cores %d from %q, %d iostat and %d vmstat samples", r.Cores, r.CoresSource, r.Iostat.Samples, r.Vmstat.Samples)
	}
	h := r.Hist[parse.Query]
	if h == nil || h.Sum[0] != 20000 || math.Abs(h.Share[1].V-100.0/21) > 1e-9 || h.Max.V != 0.004 {
		t.Errorf("query histogram %+v", h)
	}
	if rw := r.Rates[parse.Query][0]; rw.Values[0].V != 150 || rw.Values[9].V != 1950 {
		t.Errorf("ten-interval query rates %v … %v, want 150 … 1950", rw.Values[0].V, rw.Values[9].V)
	}
	if sr := r.Series; sr == nil || sr.Intervals != 20 || len(sr.Queries.Y) != 20 || sr.MaxQuery.Y[19] != 2020 || sr.MaxQuery.X[19] != 20 {
		t.Errorf("series %+v", r.Series)
	}
	if r.RowsPerCommit != 10 || r.Deletes {
		t.Errorf("rows per commit %d, deletes %v", r.RowsPerCommit, r.Deletes)
	}
}

// TestSummarizeNA checks that what cannot be known is NA with a reason
// naming what is missing, never 0.
func TestSummarizeNA(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(fstest.MapFS)
		opt  metrics.Options
		want map[metrics.Metric]string // metric → a phrase of the reason
	}{
		{"no CPU count", func(m fstest.MapFS) {
			m["qr100.L1/o.io.dop1"].Data = []byte(strings.Replace(string(m["qr100.L1/o.io.dop1"].Data), "(4 CPU)", "", 1))
		}, metrics.Options{Device: "vda"}, map[metrics.Metric]string{
			metrics.CPUPQ: "CPU count unknown"}},
		{"no vmstat", func(m fstest.MapFS) { delete(m, "qr100.L1/o.vm.dop1") }, metrics.Options{Cores: 4}, map[metrics.Metric]string{
			metrics.CSPS: "no vmstat file", metrics.CPUPS: "no vmstat file", metrics.CSPQ: "no vmstat file", metrics.CPUPQ: "no vmstat file"}},
		{"no iostat rows of the device", func(fstest.MapFS) {}, metrics.Options{Cores: 4, Device: "sdz"}, map[metrics.Metric]string{
			metrics.RPS: "no iostat samples", metrics.RMBPS: "no iostat samples", metrics.WPS: "no iostat samples",
			metrics.WMBPS: "no iostat samples", metrics.RPQ: "no iostat samples", metrics.RKBPQ: "no iostat samples",
			metrics.WPI: "no iostat samples", metrics.WKBPI: "no iostat samples"}},
		{"no sizes", func(m fstest.MapFS) { delete(m, "qr100.L1/o.dbsz.dop1"); delete(m, "qr100.L1/o.dbdirsz.dop1") }, metrics.Options{Cores: 4}, map[metrics.Metric]string{
			metrics.DBGB1: "no o.dbsz file", metrics.DBGB2: "no o.dbdirsz file"}},
		{"no process of the user", func(fstest.MapFS) {}, metrics.Options{Cores: 4, PsUser: "mysql"}, map[metrics.Metric]string{
			metrics.RSS: "no ps sample"}},
		{"no client log", func(m fstest.MapFS) { delete(m, "qr100.L1/o.ib.dop1.1") }, metrics.Options{Cores: 4}, map[metrics.Metric]string{
			metrics.IPS: "no client logs", metrics.QPS: "no client logs", metrics.RPQ: "no client logs", metrics.P50: "no client log", metrics.MaxOp: "no query response-time histogram"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := syntheticStep()
			c.edit(m)
			r := summarizeSynthetic(t, m, c.opt)
			for metric, phrase := range c.want {
				v := r.Metrics[metric]
				if v.OK() || !math.IsNaN(v.V) || !strings.Contains(v.Why, phrase) {
					t.Errorf("%s = %v, NA reason %q; want NA saying %q", metric, v.V, v.Why, phrase)
				}
				if v.Format(metric.Digits()) != "NA" {
					t.Errorf("%s prints %q", metric, v.Format(metric.Digits()))
				}
			}
			for i, v := range r.Metrics {
				if _, na := c.want[metrics.Metric(i)]; !na && !v.OK() && c.name != "no client log" {
					t.Errorf("%s is NA too: %s", metrics.Metric(i), v.Why)
				}
			}
		})
	}
}
