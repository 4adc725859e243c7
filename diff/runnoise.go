package diff

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/parse"
)

// Run-to-run noise per test.
//
// A history of nightly runs measures each test's own run-to-run noise
// (`ibreport series --noise-settings`, report.LearnedNoise): a scan
// varies by 4% where a point query varies by 0.5%. A baseline folder
// carries it in its settings, one key per test named as diff names the
// cell, "run-noise.<step>.<metric>":
//
//	run-noise.l.i0.ips = 0.008
//	run-noise.qr100.L1.qps = 0.021
//	run-noise.point-query.range100.dop1.qps = 0.005
//
// A one-run cell is judged with its test's figure when BASE's settings
// hold it, else with the report's run noise (--run-noise, else the key
// run-noise, else stats.DefaultRunNoise). Its Finding says so
// (RunNoiseKey) and the reports add a footnote.

// TestNoisePrefix starts the settings keys of the run-to-run noise of one
// test: "run-noise." then the step and the metric, "run-noise.l.i0.ips".
const TestNoisePrefix = parse.RunNoisePrefix

// TestNoiseKey is the key of a cell's test in ResultSet.TestNoise: its
// step and metric, "l.i0.ips" or "point-query.range100.dop1.qps".
func TestNoiseKey(step, metric string) string { return step + "." + metric }

// readTestNoise reads the per-test run-noise keys of the settings of the
// folder dir (nil when it has none) and its key run-noise-df (0 when
// absent). A value that is not a fraction above 0 and below 1, or not a
// shape, is bad input naming the file and key.
func readTestNoise(dir string) (map[string]float64, float64, error) {
	set, err := parse.ReadSettings(os.DirFS(dir), ".")
	if err != nil {
		return nil, 0, inputerr.Wrap(err)
	}
	file := filepath.Join(dir, parse.SettingsFile)
	out, err := parse.RunNoiseKeys(set, file)
	if err != nil {
		return nil, 0, inputerr.Wrap(err)
	}
	df, err := parse.RunNoiseDFOf(set, file)
	if err != nil {
		return nil, 0, inputerr.Wrap(err)
	}
	return out, df, nil
}

// cellRunNoise is the run-to-run noise of one run that the cell f is
// judged with: its test's own from BASE's settings, else the report's.
// It sets f.RunNoise and, for a test's own, f.RunNoiseKey.
func (cm *comparer) cellRunNoise(f *Finding) float64 {
	f.RunNoise, f.RunNoiseKey = cm.runNoise, ""
	if r, ok := cm.testNoise[TestNoiseKey(f.Step, f.Metric)]; ok && r > 0 && r < 1 {
		f.RunNoise, f.RunNoiseKey = r, TestNoisePrefix+TestNoiseKey(f.Step, f.Metric)
		f.Notes = append(f.Notes, cm.c.note(fmt.Sprintf("judged with its test's own run-to-run noise, "+
			"from BASE's settings (key run-noise.<step>.<metric>), not the report's %s per run", pctText(cm.runNoise))))
	} else if f.Rule.Noise > f.RunNoise {
		f.RunNoise = f.Rule.Noise
		f.Notes = append(f.Notes, cm.c.note(fmt.Sprintf("%s is judged with its own run-to-run noise, %s per run, not throughput's %s: "+
			"it moves that much between two runs of the same build (a test's key run-noise.<step>.%s in BASE's settings wins)",
			f.Metric, pctText(f.Rule.Noise), pctText(cm.runNoise), f.Metric)))
	}
	return f.RunNoise
}

// perTestNoiseText says in the mode line how many cells were judged with
// their test's own run-to-run noise: "; 34 cells with their test's own
// (BASE's settings)", or "".
func perTestNoiseText(c *Comparison) string {
	n := 0
	var lo, hi float64
	for _, f := range c.Findings {
		if f.RunNoiseKey == "" {
			continue
		}
		if n == 0 || f.RunNoise < lo {
			lo = f.RunNoise
		}
		hi = max(hi, f.RunNoise)
		n++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d cells with their test's own, %s–%s (BASE's settings)", n, pctText(lo), pctText(hi))
}
