package report_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestTargetVerdictAndSLA: the fixture's read+write steps average below
// 95% of the insert-rate target only because the average counts the
// partial first and last intervals. The default mode judges the full
// intervals (no ✗) and says so under the table; compat marks the average
// as the scripts did, without notes. Where client 1's SLA fails but the
// DBMS is not marked, a note says why both hold.
func TestTargetVerdictAndSLA(t *testing.T) {
	opt := metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}
	r := buildExample(t, opt, nil, report.BuildOptions{})
	marks := func(r *report.Report) (n int) {
		for _, row := range r.InsertRate.Rows {
			for _, c := range row.Cells {
				if c.Band == report.Missed {
					n++
				}
			}
		}
		return n
	}
	if n := marks(r); n != 0 {
		t.Errorf("default mode: %d cells marked ✗, want 0", n)
	}
	notes := strings.Join(r.InsertRate.Notes, "\n")
	for _, want := range []string{
		"because the average divides all rows by the step's whole time",
		"pg15.c1 qp100.L2 188/s, full intervals 200/s (target 200/s)",
		"pg15.c2 qp1000.L6 1875/s, full intervals 2003/s (target 2000/s)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "SLA") {
		t.Errorf("an SLA note where every SLA passes:\n%s", notes)
	}
	// With the SLA at 100% of the target, pg15.c2's client 1 falls short
	// in qr500.L3 (499.9/s for 500) while all clients together keep 95%.
	opt.Stall = metrics.StallOptions{SLAFraction: 1}
	r = buildExample(t, opt, nil, report.BuildOptions{})
	notes = strings.Join(r.InsertRate.Notes, "\n")
	if !strings.Contains(notes, "pg15.c2 qr500.L3: not marked ✗, the clients inserted 1000/s over their full intervals (100% of the target), but client 1 failed its SLA: its mean, 499.9/s, is below 100% of its target of 500/s.") {
		t.Errorf("no note on pg15.c2 qr500.L3's failed SLA:\n%s", notes)
	}
	c := buildExample(t, compatOpts, nil, report.BuildOptions{})
	if n := marks(c); n != 10 || len(c.InsertRate.Notes) != 0 {
		t.Errorf("compat: %d cells marked ✗ (want the scripts' 10), notes %q", n, c.InsertRate.Notes)
	}
}
