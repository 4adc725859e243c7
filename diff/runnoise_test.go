package diff_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
)

// fallenCell copies the reference tables to BASE and NEW, NEW with -8% on
// one cell (l.i0 pg15.c1 ips): beyond the 5% fail level and the noise of
// 1% per run, within that of 5% per run.
func fallenCell(t *testing.T) (base, newer string) {
	t.Helper()
	base = copyTables(t, filepath.Join(t.TempDir(), "base"))
	newer = copyTables(t, filepath.Join(t.TempDir(), "new"))
	SetCell(t, newer, "mrg.l.i0", "pg15.c1", "ips", func(old string) string {
		v, _ := strconv.ParseFloat(old, 64)
		return strconv.FormatFloat(v*0.92, 'f', 0, 64)
	})
	return base, newer
}

// A BASE whose settings hold a test's own run-to-run noise
// (run-noise.<step>.<metric>) judges that test's cells with it, and the
// others with the report's; the reports and JSON say which.
func TestTestNoiseSettings(t *testing.T) {
	base, newer := fallenCell(t)
	run := func() *diff.Comparison {
		t.Helper()
		c, _, err := diff.Run([]string{base}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cell := func(c *diff.Comparison, step, dbms, metric string) diff.Finding {
		t.Helper()
		for _, f := range c.Findings {
			if f.Table == "mrg" && f.Step == step && f.DBMS == dbms && f.Metric == metric {
				return f
			}
		}
		t.Fatalf("no finding %s %s %s", step, dbms, metric)
		return diff.Finding{}
	}
	if c := run(); diff.ExitCode(c, false) != 1 || cell(c, "l.i0", "pg15.c1", "ips").RunNoiseKey != "" {
		t.Fatalf("without per-test noise: exit %d, want 1", diff.ExitCode(c, false))
	}
	settings := "# learned\nrun-noise = 0.012\nrun-noise.l.i0.ips = 0.05\nrun-noise.qr100.L1.qps = 0.004\n"
	if err := os.WriteFile(filepath.Join(base, "ibreport.settings"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	c := run()
	for _, tc := range []struct {
		step, dbms, metric string
		noise              float64
		key                string
	}{
		{"l.i0", "pg15.c1", "ips", 0.05, "run-noise.l.i0.ips"},
		{"l.i0", "pg15.c2", "ips", 0.05, "run-noise.l.i0.ips"},
		{"qr100.L1", "pg15.c2", "qps", 0.004, "run-noise.qr100.L1.qps"},
		{"qr100.L1", "pg15.c2", "ips", 0.012, ""}, // another metric: the report's
		{"l.i1", "pg15.c1", "ips", 0.012, ""},
	} {
		f := cell(c, tc.step, tc.dbms, tc.metric)
		if f.RunNoise != tc.noise || f.RunNoiseKey != tc.key {
			t.Errorf("%s %s %s: run noise %v from %q, want %v from %q", tc.step, tc.dbms, tc.metric, f.RunNoise, f.RunNoiseKey, tc.noise, tc.key)
		}
	}
	if f := cell(c, "l.i0", "pg15.c1", "ips"); diff.ExitCode(c, false) != 0 || f.Verdict != diff.VerdictNotSignificant {
		t.Errorf("with the test's 5%%: exit %d, verdict %s; want 0 and ~", diff.ExitCode(c, false), f.Verdict)
	}
	var text, js bytes.Buffer
	if err := diff.Write(&text, c, diff.WriteOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"run-to-run 1.2% per run; 4 cells with their test's own, 0.4%–5.0% (BASE's settings)",
		"judged with its test's own run-to-run noise, from BASE's settings (key run-noise.<step>.<metric>), not the report's 1.2% per run"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if err := diff.Write(&js, c, diff.WriteOptions{Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		RunNoise float64 `json:"run_noise"`
		Findings []struct {
			Step, DBMS, Metric string
			RunNoise           *float64 `json:"run_noise"`
			RunNoiseKey        string   `json:"run_noise_key"`
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range doc.Findings {
		if f.Step == "l.i0" && f.DBMS == "pg15.c1" && f.Metric == "ips" {
			found = f.RunNoise != nil && *f.RunNoise == 0.05 && f.RunNoiseKey == "run-noise.l.i0.ips"
		} else if f.RunNoiseKey != "" && !strings.HasSuffix(f.RunNoiseKey, f.Step+"."+f.Metric) {
			t.Errorf("%+v: key of another cell", f)
		}
	}
	if !found || doc.RunNoise != 0.012 {
		t.Errorf("JSON: run_noise %v, l.i0 pg15.c1 ips with its key %v", doc.RunNoise, found)
	}
	for _, bad := range []string{"run-noise.l.i0.ips = 2", "run-noise.l.i0.ips = 1%", "run-noise. = 0.01", "run-noise.l.i0.ips = NaN"} {
		if err := os.WriteFile(filepath.Join(base, "ibreport.settings"), []byte(bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := diff.Run([]string{base}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
		if err == nil || !strings.Contains(err.Error(), "ibreport.settings") || !strings.Contains(err.Error(), "run-noise.") {
			t.Errorf("%s: %v, want an error naming the file and key", bad, err)
		}
	}
}

// The shape of the run-to-run noise (key run-noise-df of BASE's settings,
// or CompareOptions.RunNoiseDF) widens the thresholds to a t's: a cell at
// -8% that fails at 1% normal noise is within the tails of a t of 3, and
// the reports say which shape they assumed. A bad value is bad input
// naming the file.
func TestRunNoiseShape(t *testing.T) {
	base, newer := fallenCell(t)
	run := func(df float64) (*diff.Comparison, error) {
		opt := diff.Options{Compare: diff.DefaultCompareOptions()}
		opt.Compare.RunNoiseDF = df
		c, _, err := diff.Run([]string{base}, []string{newer}, opt)
		return c, err
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(base, "ibreport.settings"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		settings string
		df       float64 // the option
		exit     int
		shape    float64
		note     string
	}{
		{"", 0, 1, 0, "(run-to-run 1.0% per run)"},
		{"", 3, 0, 3, "a Student t of 3 degrees of freedom (--run-noise-df)"},
		{"run-noise-df = 3\n", 0, 0, 3, "a Student t of 3 degrees of freedom (BASE's settings, key run-noise-df)"},
		{"run-noise-df = 3\n", 20, 1, 20, "run-to-run 1.0% per run, heavy-tailed: a t of 20 degrees of freedom"},
	} {
		write(tc.settings)
		c, err := run(tc.df)
		if err != nil {
			t.Fatal(err)
		}
		var text, js bytes.Buffer
		if err := diff.Write(&text, c, diff.WriteOptions{Format: "text"}); err != nil {
			t.Fatal(err)
		}
		if err := diff.Write(&js, c, diff.WriteOptions{Format: "json"}); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			DF float64 `json:"run_noise_df"`
		}
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if got := diff.ExitCode(c, false); got != tc.exit || c.RunNoiseDF != tc.shape || doc.DF != tc.shape || !strings.Contains(text.String(), tc.note) {
			t.Errorf("settings %q, option %v: exit %d, shape %v (JSON %v), want %d, %v and a note %q:\n%s", tc.settings, tc.df, got, c.RunNoiseDF, doc.DF, tc.exit, tc.shape, tc.note, text.String())
		}
	}
	for _, bad := range []string{"run-noise-df = 2\n", "run-noise-df = x\n", "run-noise-df = -1\n", "run-noise-df = NaN\n"} {
		write(bad)
		if _, err := run(0); err == nil || !strings.Contains(err.Error(), "ibreport.settings: run-noise-df") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	write("")
	if _, err := run(1.5); err == nil {
		t.Error("RunNoiseDF 1.5 was taken")
	}
}
