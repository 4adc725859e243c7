package parse_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

func ExampleReadClientLog() {
	log := `python3 iibench.py --dbms=postgres --max_rows=300 --rows_per_commit=100 --query_threads=0
i_sec	t_sec	i_ips	t_ips	i_dps	t_dps	i_qps	t_qps	max_i	max_d	max_q	t_ins	t_del	t_query	retry_i	retry_d	retry_q
1.0	1.0	200	200	0	0	0	0	5639	0	0	200	0	0	0	0	0
1.0	2.0	100	150	0	0	0	0	7100	0	0	300	0	0	0	0	0
Insert rt:     256us       1ms       4ms      16ms      64ms     256ms        1s        4s       16s        gt         max
Insert rt:         0         0         1         2         0         0         0         0         0         0    0.007100
Totals: 2.0 secs, 150.0 rows/sec, 300 rows, 0 0 0 insert-delete-query retry
Done
`
	c, err := parse.ReadClientLog(strings.NewReader(log), "l.i0/o.ib.dop1.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("columns:", len(c.Columns), "intervals:", len(c.Intervals), "done:", c.Done)
	fmt.Println("max_rows:", c.IntOption("max_rows", 0))
	last := c.Intervals[len(c.Intervals)-1]
	fmt.Printf("line %d: t_sec %.1f t_ins %.0f max_i %.0fus\n",
		last.Line, last.Get(parse.TSec), last.Get(parse.TIns), last.Get(parse.MaxI))
	h := c.Hist(parse.Insert)
	fmt.Println(h.Pos, h.Buckets[2], h.Counts[2], h.Max)

	// A log cut before the closing Done line still yields its intervals,
	// with a positioned error.
	cut := log[:strings.Index(log, "Insert rt:")]
	c, err = parse.ReadClientLog(strings.NewReader(cut), "l.i0/o.ib.dop1.2")
	fmt.Println(len(c.Intervals), err)
	// Output:
	// columns: 17 intervals: 2 done: true
	// max_rows: 300
	// line 4: t_sec 2.0 t_ins 300 max_i 7100us
	// l.i0/o.ib.dop1.1:6 4ms 1 0.0071
	// 2 l.i0/o.ib.dop1.2:4: log ends without the closing Done line (client crashed or was stopped)
}

func ExampleReadTree() {
	trees, err := parse.ReadTree(os.DirFS("../testdata/example"), ".")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range trees {
		var steps []string
		for _, s := range t.Steps {
			steps = append(steps, s.Name)
		}
		fmt.Println(t.Name, strings.Join(steps, " "))
	}
	// Output:
	// 2m.pg15.c1 l.i0 l.x l.i1 l.i2 qr100.L1 qp100.L2 qr500.L3 qp500.L4 qr1000.L5 qp1000.L6
	// 2m.pg15.c2 l.i0 l.x l.i1 l.i2 qr100.L1 qp100.L2 qr500.L3 qp500.L4 qr1000.L5 qp1000.L6
}

func ExampleReadSysbench() {
	out := `lua/sysbench --table-size=100000 --tables=1 --threads=1 --time=20 lua/oltp_point_select.lua run
2 CPUs
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)
[ 5s ] thds: 1 tps: 8757.20 qps: 8757.20 (r/w/o: 8757.20/0.00/0.00) lat (ms,95%): 0.15 err/s: 0.00 reconn/s: 0.00
SQL statistics:
    transactions:                        175231 (8760.15 per sec.)
    queries:                             175231 (8760.15 per sec.)
Latency (ms):
         avg:                                    0.11
         max:                                    3.41
         95th percentile:                        0.15
`
	o, err := parse.ReadSysbench(strings.NewReader(out), "x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1")
	fmt.Println(o.CPUs, "CPUs,", o.Options["table-size"], "rows,", len(o.Intervals), "interval,", err)
	r := o.Report
	fmt.Printf("qps %s (line %d), avg %s ms, p%d %s ms\n", r.QPS.Text, r.QPS.Line, r.LatAvg.Text, r.Percentile, r.LatPct.Text)

	// Output cut before the final report: the intervals remain, and the error
	// says where the file ends.
	o, err = parse.ReadSysbench(strings.NewReader(out[:strings.Index(out, "SQL")]), "sb.o.point-query.range100.pk1.dop2")
	fmt.Println(len(o.Intervals), err)
	// Output:
	// 2 CPUs, 100000 rows, 1 interval, <nil>
	// qps 8760.15 (line 7), avg 0.11 ms, p95 0.15 ms
	// 1 sb.o.point-query.range100.pk1.dop2:4: output ends without sysbench's final report (the run died or was stopped)
}
