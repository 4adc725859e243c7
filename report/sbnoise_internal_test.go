package report

import (
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// TestSysbenchNoise checks the interval of a run's QPS from its interval
// lines: the last, partial, line is left out, scans' event rate stands in
// for a QPS of 0, and too few lines give NA with the reason.
func TestSysbenchNoise(t *testing.T) {
	run := func(n int, qps, eps float64) *metrics.SysbenchResult {
		r := &metrics.SysbenchResult{}
		for i := range n {
			q := qps + float64(i%3) - 1 // 999, 1000, 1001, …
			r.Intervals = append(r.Intervals, parse.SysbenchInterval{Sec: float64(5 * (i + 1)), QPS: q, EPS: eps})
		}
		r.Intervals[n-1].QPS = 1 // a partial last interval
		return r
	}
	iv := sbNoise(run(30, 1000, 0))
	if !iv.OK() || iv.N != 29 || iv.Mean < 999 || iv.Mean > 1001 || iv.HalfWidth() > 0.001 {
		t.Errorf("30 lines: %+v", iv)
	}
	scan := run(30, 0, 50)
	for i := range scan.Intervals {
		scan.Intervals[i].QPS = 0
	}
	if iv := sbNoise(scan); !iv.OK() || iv.Mean != 50 {
		t.Errorf("a scan: %+v", iv)
	}
	if iv := sbNoise(run(10, 1000, 0)); iv.OK() {
		t.Errorf("10 lines (9 whole): %+v", iv)
	}
	if iv := sbNoise(nil); iv.OK() || iv.Why != "no run" {
		t.Errorf("no run: %+v", iv)
	}
}
