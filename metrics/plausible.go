package metrics

import (
	"fmt"
	"math"

	"github.com/ibreport/ibreport/parse"
)

// plausible makes a computed value NA when no measurement could have it:
// not finite (a ratio may be +Inf: x/0), negative, or beyond parse.Ceiling.
// The readers already refuse such inputs; this catches what arithmetic on
// plausible inputs could still make. It returns the warning to give, or "".
func plausible(v *Value, what string) string {
	if !v.OK() {
		return ""
	}
	x := v.V
	switch {
	case v.Unit == RatioUnit && math.IsInf(x, 1):
		return ""
	case parse.Plausible(parse.Count, x) != nil:
		*v = NAf(v.Unit, "%s = %g is not plausible", what, x)
		return fmt.Sprintf("%s is NA: %g is not plausible", what, x)
	}
	return ""
}

// checkPlausible applies plausible to the values of a step result.
func (r *StepResult) checkPlausible() {
	metric := ""
	check := func(v *Value, what string) {
		if w := plausible(v, what); w != "" {
			r.Warnings = append(r.Warnings, Warning{DBMS: r.Tree, Step: r.Step.MergeName, Metric: metric,
				Text: r.Tree + " " + r.Step.MergeName + ": " + w})
		}
	}
	for i := range r.Metrics {
		metric = Metric(i).Name()
		check(&r.Metrics[i], metric)
	}
	metric = ""
	check(&r.InsertRate, "the insert rate")
	check(&r.QueryRate, "the query rate")
	check(&r.Iostat.ReadsPerSec, "iostat r/s")
	check(&r.Iostat.ReadMiBPerSec, "iostat rMB/s")
	check(&r.Iostat.WritesPerSec, "iostat w/s")
	check(&r.Iostat.WriteMiBPerSec, "iostat wMB/s")
	check(&r.Vmstat.CSPerSec, "vmstat cs")
	check(&r.Vmstat.CPUPercent, "vmstat us+sy")
	for i := range r.IostatAvg.Values {
		col := fmt.Sprintf("column %d", i+1)
		if i < len(r.IostatAvg.Header) {
			col = r.IostatAvg.Header[i]
		}
		check(&r.IostatAvg.Values[i], "the iostat average of "+col)
	}
}
