package report_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// A report of results loaded without the points of the per-interval charts
// has the same charts (ids, lines, marks), the same notes, and the same
// Markdown and text as one with them; only the points are missing. The
// short case cuts one step's client logs to fewer than 10 intervals, where
// the charts give way to a note.
func TestNoIntervalPoints(t *testing.T) {
	const few = "Per-interval charts are left out: the longest series has 6 intervals, fewer than 10."
	for _, tc := range []struct {
		name   string
		compat bool
		short  string // a step whose client logs keep 6 stats lines
		note   string // a note of that step
	}{
		{name: "example"},
		{name: "compat", compat: true},
		{name: "short", short: "qr100.L1", note: few},
		{name: "short compat", compat: true, short: "qr100.L1", note: few},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := copyTrees(t, []string{c1, c2}, []string{c1, c2})
			if tc.short != "" {
				for _, tree := range []string{c1, c2} {
					for _, n := range []string{"1", "2"} {
						f := m[tree+"/"+tc.short+"/o.ib.dop2."+n]
						lines := strings.SplitAfter(string(f.Data), "\n")
						f.Data = []byte(strings.Join(lines[:10], "")) // 4 header lines, 6 stats lines
					}
				}
			}
			mopt := metrics.Options{Compat: tc.compat, Cores: 2, PsUser: "postgres", Device: "vda"}
			with := buildFrom(t, m, mopt, nil, report.BuildOptions{})
			res, _, err := report.LoadFS(m, "test", report.LoadOptions{Metrics: mopt, NoIntervalPoints: true})
			without := built(t, res, err, report.BuildOptions{})
			if res.Options.SeriesPoints != 2 {
				t.Errorf("series points %d, want 2", res.Options.SeriesPoints)
			}
			if len(with.Sections) != len(without.Sections) || len(with.Sections) == 0 {
				t.Fatalf("%d sections with the points, %d without", len(with.Sections), len(without.Sections))
			}
			charts, noted := 0, false
			for i, a := range with.Sections {
				b := without.Sections[i]
				if !slices.Equal(a.Notes, b.Notes) {
					t.Errorf("%s: notes %q with the points, %q without", a.Step.Name, a.Notes, b.Notes)
				}
				if tc.short != "" && a.Step.Name == tc.short && slices.Contains(a.Notes, tc.note) {
					noted = true
				}
				if len(a.Intervals) != len(b.Intervals) {
					t.Fatalf("%s: %d charts with the points, %d without", a.Step.Name, len(a.Intervals), len(b.Intervals))
				}
				for j, ca := range a.Intervals {
					cb := b.Intervals[j]
					charts++
					if ca.ID != cb.ID || !slices.Equal(ca.Marks, cb.Marks) || len(ca.Series) != len(cb.Series) {
						t.Fatalf("chart %s: id %s, %d marks, %d lines without the points; %s, %d, %d with",
							ca.ID, cb.ID, len(cb.Marks), len(cb.Series), ca.ID, len(ca.Marks), len(ca.Series))
					}
					for k, s := range cb.Series {
						if s.Name != ca.Series[k].Name || s.Points != nil || len(ca.Series[k].Points) == 0 {
							t.Errorf("chart %s line %s: %d points without, %d with", ca.ID, s.Name, len(s.Points), len(ca.Series[k].Points))
						}
					}
				}
			}
			if charts == 0 {
				t.Error("no per-interval charts to compare")
			}
			if tc.short != "" && !noted {
				t.Errorf("step %s has no note %q", tc.short, tc.note)
			}
			for _, format := range []string{"md", "text"} {
				var a, b bytes.Buffer
				if err := render.Write(&a, with, format); err != nil {
					t.Fatal(err)
				}
				if err := render.Write(&b, without, format); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Errorf("%s differs without the points", format)
				}
			}
		})
	}
}
