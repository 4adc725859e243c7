package parse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// TestSysbenchImplausibleInterval checks that an interval line with a value
// that is not a rate is reported with its line and left out, never read as 0.
func TestSysbenchImplausibleInterval(t *testing.T) {
	const good = "[ 5s ] thds: 1 tps: 437.98 qps: 8759.56 (r/w/o: 6131.69/1751.91/875.96) lat (ms,95%): 2.43 err/s: 0.00 reconn/s: 0.00"
	for _, c := range []struct {
		name, line, err string
	}{
		{"negative qps", strings.Replace(good, "qps: 8759.56", "qps: -8750", 1), "test:2: interval line: qps: -8750 is negative, not a rate; the line is left out"},
		{"huge qps", strings.Replace(good, "qps: 8759.56", "qps: 5e16", 1), "test:2: interval line: qps: 5e+16 is beyond 1e+15, not a rate; the line is left out"},
		{"negative tps", strings.Replace(good, "tps: 437.98", "tps: -1", 1), "test:2: interval line: tps: -1 is negative, not a rate; the line is left out"},
		{"NaN err/s", strings.Replace(good, "err/s: 0.00", "err/s: NaN", 1), `test:2: interval line: bad value after "err/s:"`},
		{"negative thds", strings.Replace(good, "thds: 1", "thds: -1", 1), "test:2: interval line: thds: -1 is negative, not a rate; the line is left out"},
		{"negative percentile", strings.Replace(good, "(ms,95%)", "(ms,-5%)", 1), `test:2: interval line: lat percentile "-5" is not a whole number from 1 to 100; the line is left out`},
		{"percentile above 100", strings.Replace(good, "(ms,95%)", "(ms,950%)", 1), `test:2: interval line: lat percentile "950" is not a whole number from 1 to 100; the line is left out`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := join(good, c.line, good)
			o, err := parse.ReadSysbench(strings.NewReader(in), testName)
			checkErrors(t, err, []string{c.err})
			if len(o.Intervals) != 2 || o.Intervals[0].Line != 1 || o.Intervals[1].Line != 3 {
				t.Fatalf("intervals %+v, want lines 1 and 3", o.Intervals)
			}
			for _, iv := range o.Intervals {
				if iv.QPS != 8759.56 {
					t.Errorf("line %d: qps %g", iv.Line, iv.QPS)
				}
			}
		})
	}
}

// TestSysbenchReportPercentileRange: the percentile of the final report's
// latency line is a whole number from 1 to 100, as sysbench's --percentile;
// another is reported and not taken.
func TestSysbenchReportPercentileRange(t *testing.T) {
	in := strings.Replace(sbReport, "95th percentile:", "-5th percentile:", 1)
	o, err := parse.ReadSysbench(strings.NewReader(in), testName)
	if o == nil || !strings.Contains(fmt.Sprint(err), `percentile "-5th" is not a whole number from 1 to 100`) {
		t.Fatalf("error %v", err)
	}
	if o.Report.Percentile == -5 {
		t.Error("the percentile -5 was taken")
	}
}
