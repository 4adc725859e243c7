package diff

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Better is the direction in which a metric improves; the properties
// table of package metrics holds each metric's (metrics.Props.Better).
type Better = metrics.Direction

// The directions of metrics.
const (
	// Neutral metrics have no better direction: rates of resource use per
	// second grow with throughput as much as with waste. They are compared
	// for information only, unless a threshold is set, which then applies to
	// a change either way.
	Neutral        = metrics.NoDirection
	HigherIsBetter = metrics.HigherIsBetter
	LowerIsBetter  = metrics.LowerIsBetter
)

// A Rule says how one column of the 21-column row is compared. Warn and Fail
// are relative changes in the bad direction (0.05 = 5%); 0 disables the
// level. A change of at least the threshold is a finding at that level.
type Rule struct {
	Metric string
	Class  string // throughput, efficiency, latency, size or rate
	Better Better
	Warn   float64
	Fail   float64
	// Floor is the magnitude below which both values must lie for the
	// change to be ignored: tiny values flap by large percentages.
	Floor float64
	// Noise is the least run-to-run noise of one run (a relative
	// standard deviation) a one-run comparison judges the column with,
	// when the declared run noise is smaller (metrics.Gate.Noise: 4% for
	// CPU per operation); 0 for the declared. A test's own key in BASE's
	// settings wins.
	Noise float64
}

// Gated reports whether the rule can produce a warning or a failure.
func (r Rule) Gated() bool { return r.Warn > 0 || r.Fail > 0 }

// DefaultRules returns the comparison rules of every column of the insert
// benchmark, in column order, as the properties table of package metrics
// defines them (metrics.Props.Gate, Better and Floor). Throughput (ips,
// qps and the per-interval rate percentiles p50 and p99, which are rates,
// not latencies, in this benchmark) is higher-is-better; work per
// operation, response time and sizes are lower-is-better; rates of
// resource use per second are neutral. The floors are those the report's
// findings also use to decide whether a metric moved at all.
func DefaultRules() []Rule {
	var out []Rule
	for _, m := range metrics.Metrics() {
		out = append(out, ruleOf(m.Props()))
	}
	return out
}

// ruleOf is the default rule of a column.
func ruleOf(p metrics.Props) Rule {
	r := Rule{Metric: p.Name, Class: p.Gate.Class, Better: p.Better, Warn: p.Gate.Warn, Fail: p.Gate.Fail, Floor: p.Floor, Noise: p.Gate.Noise}
	if p.Gate.NoFloor {
		r.Floor = 0
	}
	return r
}

// CompareOptions control Compare. The zero value, like each zero field
// below, means the defaults of DefaultCompareOptions.
type CompareOptions struct {
	// Rules by column; a column without a rule is compared as Neutral.
	// nil means the default rules (DefaultCompareOptions), an empty
	// slice none.
	Rules []Rule
	// Alpha is the significance level of the U test on replicated runs,
	// after the Holm adjustment; 0 means 0.05.
	Alpha float64
	// Confidence is the level of the median intervals shown for replicated
	// runs; 0 means 0.95.
	Confidence float64
	// Tables lists the kinds compared ("mrg", "rel"); empty means every
	// kind that all BASE runs have, which NEW must have too.
	Tables []string
	// AllowMissing turns a table kind, step, DBMS or column found on one
	// side only from an error into a finding.
	AllowMissing bool
	// AllowNA turns a gated value that BASE has and NEW lacks (NA, empty,
	// not a number) from a failure into a warning.
	AllowNA bool
	// RunNoise is the run-to-run relative standard deviation of one run
	// (0.01 = 1%) that one-run comparisons are judged with; 0 means the
	// BASE folder's settings (key run-noise), else stats.DefaultRunNoise.
	RunNoise float64
	// RunNoiseDF is the shape of that noise: 0 normal, else the degrees of
	// freedom (above 2) of a Student t with its standard deviation, whose
	// tails are heavier (a run now and then far off: df 3 for the
	// heaviest). 0 means the BASE folder's settings (key run-noise-df,
	// which `ibreport series --noise-settings` learns), else the normal.
	RunNoiseDF float64
}

// DefaultCompareOptions returns the documented defaults: DefaultRules and
// the rules of the sysbench columns (those of the mrg column of the same
// quantity, in the same table), alpha 0.05, 95% intervals, all common table
// kinds, missing data an error.
func DefaultCompareOptions() CompareOptions {
	rules := DefaultRules()
	for _, p := range metrics.SysbenchColumns(true) {
		rules = append(rules, ruleOf(p))
	}
	return CompareOptions{Rules: rules, Alpha: 0.05, Confidence: 0.95}
}

// Rule returns the rule of a column.
func (o CompareOptions) Rule(metric string) Rule {
	for _, r := range o.Rules {
		if r.Metric == metric {
			return r
		}
	}
	return Rule{Metric: metric, Class: "other"} // no direction
}

// maxThresholdPct is the largest level SetThresholds takes, in percent: a
// level beyond a tenfold change is a typo or a way of saying off.
const maxThresholdPct = 1000.0

// SetThresholds sets the fail (warn = false) or warn levels of the columns in
// spec, a comma-separated list of metric=N% (the % is optional, N is a
// percentage) or metric=off. Unknown columns, and levels that are not a
// finite percentage above 0 and at most maxThresholdPct (at most 100 for a
// higher-is-better metric, which cannot fall further), are an error. A
// warn level above the fail level is lowered to it, so a fail always
// implies a warning.
func (o *CompareOptions) SetThresholds(spec string, warn bool) error {
	if strings.TrimSpace(spec) == "" {
		return nil
	}
	o.Rules = slices.Clone(o.Rules)
	for item := range strings.SplitSeq(spec, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" {
			return fmt.Errorf("threshold %q: want metric=N%% or metric=off", item)
		}
		i := slices.IndexFunc(o.Rules, func(r Rule) bool { return r.Metric == name })
		if i < 0 {
			return fmt.Errorf("threshold %q: unknown metric %q (want one of %s)", item, name, strings.Join(metrics.RowColumns[:len(metrics.RowColumns)-1], " "))
		}
		v := 0.0
		if val != "off" {
			pct, err := strconv.ParseFloat(strings.TrimSuffix(val, "%"), 64)
			// ParseFloat takes "NaN" and "Inf": a NaN level compares false
			// with every change and would pass any regression.
			switch {
			case err != nil || math.IsNaN(pct) || math.IsInf(pct, 0) || pct <= 0:
				return fmt.Errorf("threshold %q: %q is not a positive percentage or off", item, val)
			case pct > maxThresholdPct:
				return fmt.Errorf("threshold %q: %s%% is beyond %g%% (a %g-fold change); use %s=off to disable the level",
					item, strings.TrimSuffix(val, "%"), maxThresholdPct, 1+maxThresholdPct/100, name)
			case o.Rules[i].Better == HigherIsBetter && pct > 100:
				return fmt.Errorf("threshold %q: %s is higher-is-better and cannot fall by more than 100%%, so the level would never be reached; use %s=off to disable it",
					item, name, name)
			}
			v = pct / 100
		}
		if warn {
			o.Rules[i].Warn = v
		} else {
			o.Rules[i].Fail = v
		}
	}
	for i, r := range o.Rules {
		if r.Fail > 0 && r.Warn > r.Fail {
			o.Rules[i].Warn = r.Fail
		}
	}
	return nil
}

// check refuses rules whose levels or floor are not finite and not
// negative: a NaN level compares false with every change, so the cell it
// gates would pass whatever NEW measured.
func (o CompareOptions) check() error {
	if r := o.RunNoise; r != 0 && !(r > 0 && r < 1) {
		return fmt.Errorf("run noise %v: want a fraction above 0, below 1", r)
	}
	if !parse.ValidRunNoiseDF(o.RunNoiseDF) {
		return fmt.Errorf("run noise degrees of freedom %v: want 0 (normal) or above 2, at most 1000", o.RunNoiseDF)
	}
	for _, r := range o.Rules {
		for _, l := range []struct {
			name string
			v    float64
		}{{"warn", r.Warn}, {"fail", r.Fail}, {"floor", r.Floor}} {
			if math.IsNaN(l.v) || math.IsInf(l.v, 0) || l.v < 0 {
				return fmt.Errorf("rule of %s: %s level %v is not a finite number >= 0", r.Metric, l.name, l.v)
			}
		}
		if r.Noise != 0 && !(r.Noise > 0 && r.Noise < 1) {
			return fmt.Errorf("rule of %s: noise %v: want a fraction above 0, below 1", r.Metric, r.Noise)
		}
	}
	return nil
}
