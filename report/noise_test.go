package report_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestNoiseOnFixtures checks the fixtures' report: every step but l.x has
// its noise table with an interval per DBMS, read+write steps an SLA
// verdict, the relative table marks the differences within noise (qr1000
// and qp1000: 1.10 and 0.97), and stricter thresholds find stalls that the
// interval charts mark.
func TestNoiseOnFixtures(t *testing.T) {
	opt := metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}
	r := buildExample(t, opt, nil, report.BuildOptions{})
	for _, s := range r.Sections {
		if s.Step.Name == "l.x" {
			if s.Noise != nil {
				t.Error("l.x has a noise table")
			}
			continue
		}
		if s.Noise == nil || len(s.Noise.Rows) != 2 {
			t.Fatalf("%s: noise table %v", s.Step.Name, s.Noise)
		}
		for _, row := range s.Noise.Rows {
			// pg15.c2's l.i0 has 8 intervals: NA, and why.
			if !strings.HasPrefix(row.Cells[2].Text, "±") && !strings.Contains(row.Cells[2].NA, "fewer than 10") {
				t.Errorf("%s %s: interval %q", s.Step.Name, row.Cells[0].Text, row.Cells[2].Text)
			}
			if s.Step.ReadWrite {
				if v := row.Cells[len(row.Cells)-1].Text; v != "pass" && v != "fail" {
					t.Errorf("%s %s: SLA %q", s.Step.Name, row.Cells[0].Text, v)
				}
			}
		}
	}
	// The fixtures' steps have 10–60 intervals whose rates drift: in every
	// step at least one of the two DBMS has a low-confidence interval (an
	// effective sample size below 10), the method column says why, and no
	// difference is claimed within noise.
	for _, s := range r.Sections {
		if s.Noise == nil {
			continue
		}
		for _, row := range s.Noise.Rows {
			if m := row.Cells[3]; m.NA == "" && !strings.HasPrefix(m.Text, "low confidence: ESS ") && !strings.HasPrefix(m.Text, "AR(1) φ ") {
				t.Errorf("%s %s: method %q, want low confidence with the reason", s.Step.Name, row.Cells[0].Text, m.Text)
			}
		}
	}
	for _, c := range r.Relative.Rows[1].Cells[1:] {
		if c.WithinNoise {
			t.Errorf("%s is within noise from low-confidence intervals", c.Text)
		}
	}
	// In compat mode there is no noise: the original knew none.
	c := buildExample(t, compatOpts, nil, report.BuildOptions{})
	for _, cell := range c.Relative.Rows[1].Cells {
		if cell.WithinNoise {
			t.Fatal("compat mode marks noise")
		}
	}
	// Stricter thresholds find stalls, and the charts mark them.
	opt.Stall = metrics.StallOptions{RateFraction: 0.9}
	r = buildExample(t, opt, nil, report.BuildOptions{})
	marks := 0
	for _, s := range r.Sections {
		for _, ch := range s.Intervals {
			marks += len(ch.Marks)
		}
	}
	if marks == 0 {
		t.Error("no stall marked on the charts")
	}
	// Each mark is drawn in the colour of its DBMS's line: the first
	// DBMS's is the palette's first.
	if !strings.Contains(string(renderAs(t, r, "html")), `stroke="#4e79a7" stroke-width="0.8" stroke-dasharray="2,2"`) {
		t.Error("the stall marks are not drawn in their DBMS's colour")
	}
}
