package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// TestNoiseSettingsFlag: series --noise-settings writes the run-to-run
// noise it learned per test into a baseline's settings, keeping its other
// lines; a one-run diff against that baseline judges those tests with it.
// Too few runs learn nothing: exit 2, and no file is written.
func TestNoiseSettingsFlag(t *testing.T) {
	dirs := nightlies(t, "pg1419_o2nofp.x10a", "pg1420_o2nofp.x10a", "pg1514_o2nofp.x10a", "pg1515_o2nofp.x10a",
		"pg1610_o2nofp.x10a", "pg1611_o2nofp.x10a", "pg176_o2nofp.x10a", "pg177_o2nofp.x10a")
	base := dirs[len(dirs)-1]
	file := filepath.Join(base, parse.SettingsFile)
	if err := os.WriteFile(file, []byte("cores = 32\nrun-noise = 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, append([]string{"series", "--format", "text", "--noise-settings", file}, dirs...)...)
	if code != 0 || !strings.Contains(stderr, "tests' run-to-run noise written to") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "Run-to-run noise per test, learned from the runs of its current level") {
		t.Errorf("the report has no note of the learned noise:\n%s", out)
	}
	set, err := parse.ReadSettings(os.DirFS(base), ".")
	if err != nil {
		t.Fatal(err)
	}
	if set["cores"] != "32" || set["run-noise"] == "0.5" || set["run-noise.point-query.range100.dop40.qps"] == "" {
		t.Errorf("settings %v", set)
	}
	// The baseline gates its own copy: every learned test's cells carry
	// their key.
	code, out, stderr = runCmd(t, "diff", "--format", "json", "--all", base, base)
	if code != 0 || !strings.Contains(out, `"run_noise_key": "run-noise.point-query.range100.dop40.qps"`) {
		t.Errorf("diff against the baseline: exit %d: %s", code, stderr)
	}
	_, out, _ = runCmd(t, "diff", base, base)
	if !strings.Contains(out, "cells with their test's own") {
		t.Errorf("diff's mode line does not say the tests' own noise was used:\n%s", out)
	}

	// diff --history learns from the runs before NEW.
	code, out, stderr = runCmd(t, append([]string{"diff", "--history", "--format", "json"}, dirs...)...)
	if code == 2 {
		t.Fatalf("diff --history: exit %d: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	most := 0
	for _, l := range rep.LearnedNoise {
		most = max(most, l.Runs)
	}
	if len(rep.LearnedNoise) == 0 || most != len(dirs)-1 || !strings.Contains(strings.Join(rep.Series.Groups[0].Notes, " "), "Run-to-run noise per test") {
		t.Errorf("diff --history learned %d tests, at most from %d runs (want %d), notes %q", len(rep.LearnedNoise), most, len(dirs)-1, rep.Series.Groups[0].Notes)
	}

	// Three runs learn nothing.
	other := filepath.Join(t.TempDir(), "noise.settings")
	code, _, stderr = runCmd(t, append([]string{"series", "--format", "text", "-o", filepath.Join(t.TempDir(), "r.txt"), "--noise-settings", other}, dirs[:4]...)...)
	if code != 2 || !strings.Contains(stderr, "learned no test's run-to-run noise") {
		t.Errorf("four runs: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a settings file was written from nothing learned")
	}
	// One folder is not a series of runs; a folder is not a file.
	if code, _, stderr = runCmd(t, "series", "--noise-settings", other, dirs[0]); code != 2 || !strings.Contains(stderr, "--noise-settings learns from a series") {
		t.Errorf("one folder: exit %d: %s", code, stderr)
	}
	if code, _, stderr = runCmd(t, append([]string{"series", "--noise-settings", base}, dirs...)...); code != 2 || !strings.Contains(stderr, "--noise-settings") {
		t.Errorf("a folder as the file: exit %d: %s", code, stderr)
	}
}

// TestNoiseSettingsIbenchKeys: five identical nights of the example name
// each insert-benchmark step as diff names its throughput cell (the merge
// name and ips, qps for read+write steps) and learn nothing from runs that
// do not vary; --noise-settings then exits 2.
func TestNoiseSettingsIbenchKeys(t *testing.T) {
	dirs := exampleNights(t, 5)
	code, out, stderr := runCmd(t, append([]string{"series", "--format", "json"}, dirs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	keys := map[string]string{}
	for _, l := range seriesJSON(t, out).LearnedNoise {
		keys[l.Test] = l.Key
		if l.Noise != 0 || l.Runs != 5 || l.Why != "5 identical runs" {
			t.Errorf("%s %s: %+v, want nothing learned from 5 identical runs", l.Series, l.Test, l)
		}
	}
	for test, key := range map[string]string{"l.i0": "l.i0.ips", "l.x": "l.x.ips", "qr100": "qr100.L1.qps", "qp1000": "qp1000.L6.qps"} {
		if keys[test] != key {
			t.Errorf("%s: key %q, want %q", test, keys[test], key)
		}
	}
	file := filepath.Join(t.TempDir(), "ibreport.settings")
	code, _, stderr = runCmd(t, append([]string{"series", "--format", "text", "--noise-settings", file}, dirs...)...)
	if code != 2 || !strings.Contains(stderr, "5 identical runs") {
		t.Errorf("--noise-settings of identical runs: exit %d: %s", code, stderr)
	}
}
