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
