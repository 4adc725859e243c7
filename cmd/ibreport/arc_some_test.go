package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jan2021 is a copy of a published insert-benchmark archive of merged
// tables, with the mrg.some and rel.some its author picked by hand (see
// testdata/arc/README.md).
const jan2021 = "../../testdata/arc/ibench.jan2021"

// TestJan2021NoSome rebuilds every rel.<step>, mrg.some and rel.some of the
// archive with no --some: the steps of mrg.some are those of the archived
// file, named on stderr.
func TestJan2021NoSome(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(jan2021, "*", "res.*"))
	if err != nil || len(dirs) != 19 {
		t.Fatalf("%d result folders (%v)", len(dirs), err)
	}
	total, same, named := 0, 0, 0
	for _, dir := range dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, e := range ents {
			if n := e.Name(); strings.HasPrefix(n, "rel.") || n == "mrg.some" {
				want = append(want, n)
			}
		}
		if len(want) == 0 {
			continue // res.badcnf: merged tables only
		}
		out := t.TempDir()
		code, _, stderr := runCmd(t, "tables", "--compat", dir, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "mrg.some")); err == nil {
			if !strings.Contains(stderr, "mrg.some: the steps l.i0 l.x l.i1 q100.2 q200.2 q800.2 q1000.2 of the archived") {
				t.Errorf("%s: stderr does not name the archived choice:\n%s", dir, stderr)
			}
			named++
		}
		for _, n := range want {
			total++
			w, _ := os.ReadFile(filepath.Join(dir, n))
			g, err := os.ReadFile(filepath.Join(out, n))
			if err == nil && bytes.Equal(g, w) {
				same++
			} else {
				t.Errorf("%s/%s differs (%v)", dir, n, err)
			}
		}
	}
	if total != 288 || same != total || named != 9 {
		t.Errorf("%d of %d files reproduced (want 288 of 288), %d choices named (want 9)", same, total, named)
	}
}

// TestSomeOverride: --some still chooses, over the archived file.
func TestSomeOverride(t *testing.T) {
	dir := filepath.Join(jan2021, "20m", "res.pg")
	out := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--some", "l.x", dir, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "archived mrg.some") {
		t.Errorf("the archived choice is named though --some was given:\n%s", stderr)
	}
	got, _ := os.ReadFile(filepath.Join(out, "mrg.some"))
	mx, _ := os.ReadFile(filepath.Join(dir, "mrg.l.x"))
	if want := "\nl.x\n" + string(mx); string(got) != want {
		t.Errorf("mrg.some with --some l.x:\n%s\nwant\n%s", got, want)
	}
}

// TestBuildSome: build shows the steps of the archived mrg.some by
// default, those of --some when given, and refuses a step the results do
// not have.
func TestBuildSome(t *testing.T) {
	dir := filepath.Join(jan2021, "20m", "res.pg")
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		steps []string // the step sections of the page, in order
		note  string   // on stderr
	}{
		{"archived", nil, 0, []string{"l.i0", "l.x", "l.i1", "q100.2", "q200.2", "q800.2", "q1000.2"}, "the 7 steps l.i0 l.x l.i1 q100.2 q200.2 q800.2 q1000.2 of the archived"},
		// The report keeps the steps' own order, whatever the list's.
		{"given", []string{"--some", "q100.1,l.x"}, 0, []string{"l.x", "q100.1"}, "the 2 steps l.x q100.1 of --some; the other 13 steps are left out"},
		{"unknown", []string{"--some", "l.x,q5000.1"}, 2, nil, "--some: no step q5000.1 in the results"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.html")
			args := append(append([]string{"build"}, tc.args...), dir, "-o", out)
			code, _, stderr := runCmd(t, args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.note) {
				t.Errorf("stderr lacks %q:\n%s", tc.note, stderr)
			}
			if tc.code != 0 {
				return
			}
			page, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(string(page), "\n") {
				if rest, ok := strings.CutPrefix(l, `<section class="step" id="`); ok {
					if name, ok := strings.CutSuffix(rest, `.graph">`); ok {
						got = append(got, name)
					}
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.steps, " ") {
				t.Errorf("steps %q, want %q", got, tc.steps)
			}
		})
	}
}
