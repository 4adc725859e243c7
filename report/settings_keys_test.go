package report_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
)

// The settings file's unknown keys are warnings of Load, Tables and Build;
// a key set twice is bad input.
func TestSettingsKeysChecked(t *testing.T) {
	load := func(settings string) (*report.Results, []string, error) {
		m := copyTrees(t, []string{"2m.pg15.c1"}, []string{"2m.pg15.c1"})
		m[parse.SettingsFile] = &fstest.MapFile{Data: []byte(settings)}
		return report.LoadFS(m, "res", report.LoadOptions{})
	}
	res, warns, err := load("\ufeffcores = 2\nps_user = postgres\ndevice = vda\n")
	if err != nil {
		t.Fatal(err)
	}
	const want = "ibreport.settings:2: ps_user: unknown key; did you mean ps-user?"
	if len(warns) == 0 || warns[0] != want {
		t.Errorf("Load's first warning is not %q: %q", want, warns)
	}
	if res.Options.Cores != 2 || res.Options.Device != "vda" || res.Options.PsUser != "" {
		t.Errorf("options %+v: want cores 2 (after the byte order mark), device vda, no ps user", res.Options)
	}
	if _, tw, err := res.Tables(nil); err != nil || len(tw) == 0 || tw[0] != want {
		t.Errorf("Tables' first warning is not %q: %q, %v", want, tw, err)
	}
	if rep, err := report.Build(res, report.BuildOptions{}); err != nil || len(rep.Notes) == 0 || rep.Notes[0].Text != want {
		t.Errorf("the report's first note is not %q: %v", want, err)
	}
	_, _, err = load("cores = 2\ncores = 4\n")
	if want := "ibreport.settings:2: cores is set again; line 1 sets it already"; err == nil || err.Error() != want || !errors.Is(err, report.ErrBadInput) {
		t.Errorf("a duplicate key: %v, want %q (bad input)", err, want)
	}
}

// inspect reports the settings file's warnings first, too.
func TestInspectSettingsWarnings(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, parse.SettingsFile), []byte("cores = 2\ndevice = vda\nps-usr = postgres\n"), 0o644)
	in, err := report.Inspect(filepath.Join(dir, "2m.pg15.c1", "l.i1"), metrics.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "ibreport.settings:3: ps-usr: unknown key; did you mean ps-user?"
	if len(in.Warnings) == 0 || in.Warnings[0].Text != want {
		t.Errorf("the first warning is not %q: %q", want, in.Warnings)
	}
}

// The settings key run-noise sets the run-to-run term of the within-noise
// rule unless the option is given; a value that is no fraction is bad
// input, as is such an option.
func TestSettingsRunNoise(t *testing.T) {
	load := func(settings string, opt metrics.Options) (*report.Results, error) {
		m := copyTrees(t, []string{"2m.pg15.c1"}, []string{"2m.pg15.c1"})
		m[parse.SettingsFile] = &fstest.MapFile{Data: []byte(settings)}
		res, _, err := report.LoadFS(m, "res", report.LoadOptions{Metrics: opt})
		return res, err
	}
	for _, c := range []struct {
		name     string
		settings string
		opt      float64
		want     float64
		bad      bool
	}{
		{"none", "", 0, 0, false},
		{"key", "run-noise = 0.02\n", 0, 0.02, false},
		{"option wins", "run-noise = 0.02\n", 0.005, 0.005, false},
		{"percent", "run-noise = 2%\n", 0, 0, true},
		{"one", "run-noise = 1\n", 0, 0, true},
		{"NaN", "run-noise = NaN\n", 0, 0, true},
		{"bad option", "", -0.1, 0, true},
	} {
		res, err := load(c.settings, metrics.Options{RunNoise: c.opt})
		switch {
		case c.bad && (err == nil || !errors.Is(err, report.ErrBadInput)):
			t.Errorf("%s: %v, want bad input", c.name, err)
		case !c.bad && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.bad && res.Options.RunNoise != c.want:
			t.Errorf("%s: run noise %g, want %g", c.name, res.Options.RunNoise, c.want)
		}
	}
}
