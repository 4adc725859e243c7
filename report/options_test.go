package report_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// Stall thresholds that mean nothing are refused by Load and Inspect, not
// replaced by the defaults.
func TestLoadRefusesBadStallOptions(t *testing.T) {
	for _, tc := range []struct {
		stall metrics.StallOptions
		want  string
	}{
		{metrics.StallOptions{SLAFraction: math.NaN()}, "SLA fraction NaN: want a fraction above 0, at most 1"},
		{metrics.StallOptions{RTMultiple: math.Inf(1)}, "stall response-time multiple +Inf: want a finite multiple above 1"},
		{metrics.StallOptions{RateFraction: -1}, "stall rate fraction -1: want a fraction between 0 and 1"},
	} {
		mopt := metrics.Options{Stall: tc.stall}
		_, _, err := report.Load(example, report.LoadOptions{Metrics: mopt})
		if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load %+v: %v, want %q", tc.stall, err, tc.want)
		}
		_, err = report.Inspect(example+"/2m.pg15.c1/l.i1", mopt)
		if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Inspect %+v: %v, want %q", tc.stall, err, tc.want)
		}
	}
}

// A negative client count is refused by Build, not taken for targets.
func TestBuildRefusesNegativeClients(t *testing.T) {
	res, _, err := report.Load(example, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = report.Build(res, report.BuildOptions{Clients: -2})
	if want := "clients -2: want a positive number (0: the dop of the raw trees)"; !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), want) {
		t.Errorf("Build with -2 clients: %v, want %q", err, want)
	}
}

// A series points count that keeps less than a series' extremes is refused
// by Load; 0 takes the default and 2 is the least.
func TestLoadSeriesPoints(t *testing.T) {
	for _, tc := range []struct {
		points int
		want   string // "" when accepted
	}{
		{-1, "series points -1: want at least 2 (0: 1200)"},
		{1, "series points 1: want at least 2 (0: 1200)"},
		{0, ""},
		{2, ""},
		{5000, ""},
	} {
		res, _, err := report.Load(example, report.LoadOptions{Metrics: metrics.Options{SeriesPoints: tc.points}})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("points %d: %v", tc.points, err)
		case tc.want != "" && (!errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("points %d: %v, want %q", tc.points, err, tc.want)
		case tc.want == "":
			most := tc.points
			if most == 0 {
				most = metrics.MaxSeriesPoints
			}
			cut := 0 // series that kept fewer points than their intervals
			for _, tr := range res.Trees {
				for _, st := range tr.Steps {
					s := st.Series
					if s == nil {
						continue
					}
					if n := len(s.Inserts.Y); n > most || n > s.Intervals {
						t.Errorf("points %d: %s %s keeps %d of %d intervals", tc.points, tr.Name(), st.Step.Name, n, s.Intervals)
					} else if n < s.Intervals {
						cut++
					}
				}
			}
			if (cut > 0) != (tc.points == 2) {
				t.Errorf("points %d: %d series cut", tc.points, cut)
			}
		}
	}
}
