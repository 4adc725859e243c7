package report_test

import (
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestStepWarningsExplainNA checks, on the example in both modes, that
// every NA value of a step's metrics has one warning in that step's
// Warnings naming the DBMS, step and metric and saying why, and that every
// such warning names a metric that is NA: the reasons are in the model,
// not only in the text of Load's warnings.
func TestStepWarningsExplainNA(t *testing.T) {
	for _, compat := range []bool{false, true} {
		res, _, err := report.Load("../testdata/example", report.LoadOptions{Metrics: metrics.Options{Compat: compat}})
		if err != nil {
			t.Fatal(err)
		}
		na, steps := 0, 0
		for _, tr := range res.Trees {
			for _, sr := range tr.Steps {
				steps++
				explained := map[string]int{}
				for _, w := range sr.Warnings {
					if w.Kind != metrics.NotAvailable {
						continue
					}
					explained[w.Metric]++
					m, ok := metrics.MetricByName(w.Metric)
					switch {
					case !ok:
						t.Errorf("compat=%v %s %s: warning %q names no metric (%q)", compat, tr.Name(), sr.Step.MergeName, w.Text, w.Metric)
					case sr.Metrics[m].OK():
						t.Errorf("compat=%v %s %s: warning %q explains %s, which is %s", compat, tr.Name(), sr.Step.MergeName, w.Text, m, sr.Metrics[m].Format(2))
					case w.DBMS != tr.Name() || w.Step != sr.Step.MergeName || !strings.HasSuffix(w.Text, sr.Metrics[m].Why):
						t.Errorf("compat=%v: warning %+v: want DBMS %s, step %s and the reason %q", compat, w, tr.Name(), sr.Step.MergeName, sr.Metrics[m].Why)
					}
				}
				for i, v := range sr.Metrics {
					if v.OK() {
						continue
					}
					na++
					if n := explained[metrics.Metric(i).Name()]; n != 1 {
						t.Errorf("compat=%v %s %s: %s is NA (%s) and has %d warnings saying why, want 1", compat, tr.Name(), sr.Step.MergeName, metrics.Metric(i), v.Why, n)
					}
				}
			}
		}
		// The example's NA values: p50 and p99 of three short steps.
		if !compat && (steps != 20 || na != 6) {
			t.Errorf("%d NA values on %d steps, want 6 on 20", na, steps)
		}
		if steps == 0 {
			t.Errorf("compat=%v: no steps", compat)
		}
	}
}

// TestDeviceFromSettingsIsInformation checks that the block device taken
// from the settings file is named as information, saying where it came
// from, and is not among the warnings; given as an option it says so.
func TestDeviceFromSettingsIsInformation(t *testing.T) {
	for _, c := range []struct {
		device, want string
	}{
		{"", "block device: vda (ibreport.settings)"},
		{"vda", "block device: vda (--device)"},
	} {
		res, warns, err := report.Load("../testdata/example", report.LoadOptions{Metrics: metrics.Options{Device: c.device}})
		if err != nil {
			t.Fatal(err)
		}
		var info []string
		for _, n := range res.Notes() {
			if n.Info() {
				info = append(info, n.Text)
			}
		}
		if len(info) != 1 || info[0] != c.want {
			t.Errorf("--device %q: information %q, want [%q]", c.device, info, c.want)
		}
		for _, w := range append(warns, res.Warnings()...) {
			if strings.Contains(w, "block device") {
				t.Errorf("--device %q: the device is among the warnings: %q", c.device, w)
			}
		}
		rep, err := report.Build(res, report.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, n := range rep.Notes {
			found = found || n.Info() && n.Text == c.want
		}
		if !found {
			t.Errorf("--device %q: the report's notes lack the information %q", c.device, c.want)
		}
	}
}
