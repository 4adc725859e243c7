package report_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/metrics"
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
	var within []string
	for i, c := range r.Relative.Rows[1].Cells[1:] {
		if c.WithinNoise {
			within = append(within, r.Steps[i].Column+"="+c.Text)
		}
	}
	if strings.Join(within, " ") != "qr1000=1.10 qp1000=0.97" {
		t.Errorf("within noise: %q", within)
	}
	// Within noise is neither better nor worse: no band, only the ~.
	if md := string(renderAs(t, r, "md")); !strings.Contains(md, "| 1.10 \\~ |") {
		t.Error("the Markdown does not mark 1.10 within noise, without a band")
	}
	if b := r.Relative.Rows[1].Cells[1+slices.IndexFunc(r.Steps, func(s report.StepInfo) bool { return s.Column == "qr1000" })].Band; b != report.NoBand {
		t.Errorf("1.10 within noise has the band %q", b)
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
	if !strings.Contains(string(renderAs(t, r, "html")), "stroke:#D02020") {
		t.Error("the stall marks are not drawn")
	}
}
