package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
)

// seedStep is a step result holding the inputs behind a row of the
// published write-prepared study (myrocks.8may18.none.wcmt, 1 client),
// derived from the row itself where the study prints them: iostat kB/s
// from wmb/s (kB / 1000), client 1's percentiles as printed.
func seedStep(ips, qps, cpu, wmbDecimal, size, rss float64, p75, p95, p99, q99 float64) *metrics.StepResult {
	sr := &metrics.StepResult{}
	for i := range sr.Metrics {
		sr.Metrics[i] = metrics.Known(0, metrics.NoUnit)
	}
	sr.Metrics[metrics.IPS] = metrics.Known(ips, metrics.InsertsPerSec)
	sr.Metrics[metrics.QPS] = metrics.Known(qps, metrics.QueriesPerSec)
	sr.Metrics[metrics.CPUPS] = metrics.Known(cpu, metrics.NoUnit)
	sr.Metrics[metrics.WMBPS] = metrics.Known(wmbDecimal*1000/1024, metrics.NoUnit)
	sr.Metrics[metrics.DBGB2] = metrics.Known(size, metrics.NoUnit)
	sr.Metrics[metrics.RSS] = metrics.Known(rss, metrics.NoUnit)
	var ps []metrics.Percentile
	for _, x := range []struct {
		rank    int
		ins, qu float64
	}{{50, 0, 0}, {75, p75, 0}, {90, 0, 0}, {95, p95, 0}, {99, p99, q99}} {
		ps = append(ps, metrics.Percentile{X: x.rank, Insert: metrics.Known(x.ins, metrics.InsertsPerSec), Query: metrics.Known(x.qu, metrics.QueriesPerSec)})
	}
	sr.Percentiles = [][]metrics.Percentile{ps}
	return sr
}

func studyRow(cols []studyColumn, sr *metrics.StepResult) string {
	var out []string
	for _, c := range cols {
		out = append(out, studyText(c.value(sr), c.digits))
	}
	return strings.Join(out, " ")
}

// TestStudySeedRows feeds the layout the inputs behind rows of the
// write-prepared study and checks that it prints the study's numbers:
// wkb/i from wmb/s, Mcpu/i and Mcpu/q from cpu and the rates.
func TestStudySeedRows(t *testing.T) {
	// --- load, 1 client: 39124 38237 36001 33970 0 0 2.43 141 12 0.6 0 0 94.9 5.5
	load := seedStep(39124, 0, 5.5, 94.9, 12, 0.6, 38237, 36001, 33970, 0)
	if got, want := studyRow(studyLoad, load), "39124 38237 36001 33970 0 0 2.43 141 12 0.6 0 0 94.9 5.5"; got != want {
		t.Errorf("load row\n got %s\nwant %s", got, want)
	}
	// --- load, 16 clients: 133618 8291 8057 7846 0 0 3.07 139 61 1.7 0 0 409.8 18.6
	// (ips.75 … are per client: about 1/16 of ips.av)
	load16 := seedStep(133618, 0, 18.6, 409.8, 61, 1.7, 8291, 8057, 7846, 0)
	if got, want := studyRow(studyLoad, load16), "133618 8291 8057 7846 0 0 3.07 139 61 1.7 0 0 409.8 18.6"; got != want {
		t.Errorf("16-client load row\n got %s\nwant %s", got, want)
	}
	// --- oltp, 16 clients at 1000 inserts/s:
	// 15845 996 56292 3299 0 0 4.76 1987 0 0 559 68 150.6 0 0 75.5 31.5
	// The study's cpu prints one decimal; 31.48 gives its Mcpu/i and Mcpu/q.
	oltp := seedStep(15845, 56292, 31.48, 75.5, 68, 150.6, 0, 0, 996, 3299)
	got := studyRow(studyReadWrite, oltp)
	want := "15845 996 56292 3299 0 0 4.76 1987 0 0 559 68 150.6 0 0 75.5 31.5"
	if got != want {
		t.Errorf("oltp row\n got %s\nwant %s", got, want)
	}
}

// TestStudyLayout builds the study layout of the example and checks every
// cell of every step against a computation from the step's typed result,
// written out here column by column.
func TestStudyLayout(t *testing.T) {
	res, _, err := Load("../testdata/example", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(res, BuildOptions{Layout: "paper"}); err == nil {
		t.Error("an unknown layout was taken")
	}
	r, err := Build(res, BuildOptions{Layout: LayoutStudy})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Study) != 10 {
		t.Fatalf("%d study steps", len(r.Study))
	}
	f := func(x float64, d int) string { return studyText(metrics.Known(x, metrics.NoUnit), d) }
	checked := 0
	for _, s := range r.Study {
		for _, row := range s.Table.Rows {
			sr := res.Tree("2m." + row.Cells[0].Text).Step(s.Step.Name)
			m := func(x metrics.Metric) float64 { return sr.Metrics[x].V }
			ips, qps, cpu := m(metrics.IPS), m(metrics.QPS), m(metrics.CPUPS)
			want := map[string]string{
				"ips.av": f(ips, 0), "qps.av": f(qps, 0),
				"r/i": f(m(metrics.RPS)/ips, 2), "rkb/i": f(m(metrics.RMBPS)*1024/ips, 2), "wkb/i": f(m(metrics.WMBPS)*1024/ips, 2),
				"Mcpu/i": f(cpu*1e6/ips, 0), "r/q": f(m(metrics.RPS)/qps, 2), "rkb/q": f(m(metrics.RMBPS)*1024/qps, 2), "Mcpu/q": f(cpu*1e6/qps, 0),
				"size": duSize(m(metrics.DBGB2)), "rss": f(m(metrics.RSS), 1), "r/s": f(m(metrics.RPS), 0),
				"rmb/s": f(m(metrics.RMBPS)*1.024, 1), "wmb/s": f(m(metrics.WMBPS)*1.024, 1), "cpu": f(cpu, 1),
			}
			pct := sr.Percentiles[0]
			for name, i := range map[string]int{"ips.75": 1, "ips.95": 3, "ips.99": 4} {
				want[name] = studyText(pct[i].Insert, 0)
			}
			want["qps.99"] = studyText(pct[4].Query, 0)
			for i, col := range s.Table.Header[1:] {
				w, ok := want[col]
				if !ok {
					t.Fatalf("column %s has no hand computation", col)
				}
				if got := row.Cells[i+1].Text; got != w {
					t.Errorf("%s %s %s = %q, want %q", s.Step.Name, row.Cells[0].Text, col, got, w)
				}
				checked++
			}
		}
	}
	if checked < 300 {
		t.Errorf("%d cells checked", checked)
	}
	if h := r.Study[4].Heading; h != "oltp - 2 readers, 2 writers each at 100 inserts/s" {
		t.Errorf("heading %q", h)
	}
}

// TestStudyFiles checks the text form of the study layout: the heading, the
// column names with the engine last, a row per DBMS, the legend.
func TestStudyFiles(t *testing.T) {
	res, _, err := Load("../testdata/example", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files, err := res.StudyFiles()
	if err != nil || len(files) != 10 {
		t.Fatalf("%d files, %v", len(files), err)
	}
	lines := strings.Split(string(files[0].Data), "\n")
	if files[0].Name != "study.l.i0" || lines[0] != "--- load" || !strings.HasPrefix(lines[2], "ips.av\tips.75\t") ||
		!strings.HasSuffix(lines[2], "\tcpu\tengine") || !strings.HasSuffix(lines[3], "\tpg15.c1") || lines[6] != "legend:" {
		t.Errorf("%s:\n%s", files[0].Name, files[0].Data)
	}
}

// duSize is a size in GB as du -h printed it: rounded up, one decimal
// below 10.
func duSize(gb float64) string {
	if gb < 10 {
		return strconv.FormatFloat(math.Ceil(gb*10)/10, 'f', 1, 64)
	}
	return strconv.FormatFloat(math.Ceil(gb), 'f', 0, 64)
}
