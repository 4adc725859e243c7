package metrics

import (
	"math"
	"strings"
	"testing"
)

func TestStallOptionsCheck(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		opt StallOptions
		err string // "" when accepted
	}{
		{StallOptions{}, ""},
		{DefaultStallOptions, ""},
		{StallOptions{RateFraction: 0.3, RTMultiple: 1.5, SLAFraction: 1}, ""},
		{StallOptions{RateFraction: nan}, "stall rate fraction NaN: want a fraction between 0 and 1"},
		{StallOptions{RateFraction: 1}, "stall rate fraction 1:"},
		{StallOptions{RateFraction: -0.5}, "stall rate fraction -0.5:"},
		{StallOptions{RTMultiple: nan}, "stall response-time multiple NaN: want a finite multiple above 1"},
		{StallOptions{RTMultiple: inf}, "stall response-time multiple +Inf:"},
		{StallOptions{RTMultiple: 1}, "stall response-time multiple 1:"},
		{StallOptions{SLAFraction: nan}, "SLA fraction NaN: want a fraction above 0, at most 1"},
		{StallOptions{SLAFraction: -inf}, "SLA fraction -Inf:"},
		{StallOptions{SLAFraction: 1.5}, "SLA fraction 1.5:"},
	} {
		err := tc.opt.Check()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: %v, want %q", tc.opt, err, tc.err)
		}
	}
}
