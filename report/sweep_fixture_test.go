package report_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

const sweepDir = "../testdata/sweep/ibench"

// clientLog is what the test reads itself from a client's log: the rows
// inserted and queries done (the last stats line's t_ins and t_query) and
// the per-interval insert and query rates (i_ips, i_qps).
type clientLog struct {
	inserts, queries float64
	ips, qps         []float64
}

func readClientLog(t *testing.T, path string) clientLog {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var c clientLog
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		tok := strings.Split(sc.Text(), "\t")
		if len(tok) != 17 {
			continue
		}
		var v [17]float64
		ok := true
		for i, s := range tok {
			if v[i], err = strconv.ParseFloat(s, 64); err != nil {
				ok = false
				break
			}
		}
		if !ok {
			continue // the header
		}
		c.ips, c.qps = append(c.ips, v[2]), append(c.qps, v[6])
		c.inserts, c.queries = v[11], v[13]
	}
	return c
}

// p99 is the rate 99% of the intervals reached: the descending list's
// element round(0.99 × n), half to even.
func p99(rates []float64) float64 {
	l := slices.Clone(rates)
	slices.Sort(l)
	slices.Reverse(l)
	i := int(math.RoundToEven(0.99 * float64(len(l))))
	return l[min(max(i, 1), len(l))-1]
}

// stepSeconds is the step's duration: the seconds of o.res's first line.
func stepSeconds(t *testing.T, dir string, dop int) float64 {
	b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("o.res.dop%d", dop)))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
	secs, err := strconv.ParseFloat(f[4], 64)
	if err != nil || f[5] != "seconds," {
		t.Fatalf("%s: first line %q", dir, f)
	}
	return secs
}

// TestSweepFixtures builds the report of the real runs at 1, 2 and 4
// clients and checks, per step and client count, the sweep's average rate
// against the rows (queries) of the client logs over the step's seconds,
// and the study layout's ips.99 (qps.99) against client 1's intervals, all
// read here from the logs.
func TestSweepFixtures(t *testing.T) {
	res, _, err := report.Load(sweepDir, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(res, report.BuildOptions{Layout: report.LayoutStudy})
	if err != nil {
		t.Fatal(err)
	}
	sw := r.Sweep
	if sw == nil || !slices.Equal(sw.Clients, []int{1, 2, 4}) || len(sw.DBMS) != 1 {
		t.Fatalf("sweep %+v", sw)
	}
	// The study's read+write headings name no single client count: its
	// rows ran with 1, 2 and 4.
	for _, st := range r.Study {
		if strings.HasPrefix(st.Heading, "oltp") && !strings.HasPrefix(st.Heading, "oltp - per row as many readers and writers as its clients (1, 2, 4), each writer at ") {
			t.Errorf("study heading %q names one client count for rows of 1, 2 and 4", st.Heading)
		}
	}
	checked := 0
	for si, s := range sw.Steps {
		if s.Step.Name == "l.x" {
			continue // indexed rows/s: no stats lines
		}
		study := r.Study[si]
		for ci, dop := range sw.Clients {
			dir := filepath.Join(sweepDir, fmt.Sprintf("dop%d", dop), "6m.pg15.c1", s.Step.Name)
			var rows, queries float64
			var first clientLog
			for c := 1; c <= dop; c++ {
				cl := readClientLog(t, filepath.Join(dir, fmt.Sprintf("o.ib.dop%d.%d", dop, c)))
				rows, queries = rows+cl.inserts, queries+cl.queries
				if c == 1 {
					first = cl
				}
			}
			secs := stepSeconds(t, dir, dop)
			want, rates, col := rows/secs, first.ips, "ips.99"
			if s.Step.ReadWrite {
				want, rates, col = queries/secs, first.qps, "qps.99"
			}
			got := s.Rates.Rows[0].Cells[1+ci]
			if got.Value == nil || math.Abs(*got.Value-want) > 1e-9*want {
				t.Errorf("%s at %d clients: rate %q, want %v (from the logs: %v over %v s)", s.Step.Name, dop, got.Text, want, rows, secs)
			}
			i := slices.Index(study.Table.Header, col)
			row := study.Table.Rows[slices.IndexFunc(study.Table.Rows, func(r report.Row) bool {
				return r.Cells[0].Text == fmt.Sprintf("pg15.c1.dop%d", dop)
			})]
			// The first and last intervals are partial: left out.
			if len(rates) >= 12 {
				full := rates[1 : len(rates)-1]
				if w := strconv.FormatFloat(p99(full), 'f', 0, 64); row.Cells[i].Text != w && !(w == "0" && row.Cells[i].Text == "0") {
					t.Errorf("%s at %d clients: %s %q, want %s from client 1's %d full intervals", s.Step.Name, dop, col, row.Cells[i].Text, w, len(full))
				}
				checked++
			}
			checked++
		}
	}
	t.Logf("%d values checked", checked)
	if checked < 40 {
		t.Errorf("%d values checked", checked)
	}
}
