package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// nightlies makes one result set per build of the published PostgreSQL
// results, in the order given: a folder NN-<build> holding the build under
// one name, as nightly runs of one DBMS would be.
func nightlies(t *testing.T, builds ...string) []string {
	t.Helper()
	abs, err := filepath.Abs(pgSeries)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var dirs []string
	for i, b := range builds {
		d := filepath.Join(root, fmt.Sprintf("%02d-%s", i+1, b))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(abs, "x."+b+"_c32r128.pk1"), filepath.Join(d, "x.pg.nightly_c32r128.pk1")); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func seriesJSON(t *testing.T, out string) *report.Report {
	t.Helper()
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Series == nil {
		t.Fatal("no series part")
	}
	return &rep
}

func TestSeriesOfSets(t *testing.T) {
	dirs := nightlies(t, "pg1419_o2nofp.x10a", "pg1420_o2nofp.x10a", "pg1514_o2nofp.x10a", "pg1515_o2nofp.x10a",
		"pg1610_o2nofp.x10a", "pg1611_o2nofp.x10a", "pg176_o2nofp.x10a", "pg177_o2nofp.x10a", "pg180_o2nofp.x10b")
	code, out, stderr := runCmd(t, append([]string{"series", "--format", "json"}, dirs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	if len(rep.Series.Groups) != 1 {
		t.Fatalf("%d groups, want one", len(rep.Series.Groups))
	}
	g := rep.Series.Groups[0]
	if len(g.Members) != 9 || g.Members[6] != "07-pg176_o2nofp.x10a" || !strings.Contains(g.Title, "x.pg.nightly") {
		t.Errorf("members %q, title %q", g.Members, g.Title)
	}
	found := false
	for _, c := range g.Changes {
		if c.Test == "update-index range=100" && c.Index == 6 && c.Shift > 0.5 {
			found = true
		}
	}
	if !found {
		t.Errorf("no change point of update-index at 07-pg176 in %+v", g.Changes)
	}
}

// TestSeriesTooShort: the example holds two DBMS, too few for a series;
// the report and stderr say so and it has no change points.
func TestSeriesTooShort(t *testing.T) {
	code, out, stderr := runCmd(t, "series", "--format", "json", "../../testdata/example")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	g := rep.Series.Groups[0]
	if len(g.Changes) != 0 || g.ChangeTable != nil || len(g.Notes) == 0 || !strings.Contains(g.Notes[0], "needs at least 4 ") {
		t.Errorf("changes %v, notes %q: want none and a note", g.Changes, g.Notes)
	}
	if !strings.Contains(stderr, "note: Insert benchmark has 2 members: a series needs at least 4") {
		t.Errorf("stderr lacks the note:\n%s", stderr)
	}
}

func TestDiffHistory(t *testing.T) {
	// 17.6 … 18.1, then 16.11 as NEW: the writes fall back to 16's level.
	dirs := nightlies(t, "pg176_o2nofp.x10a", "pg177_o2nofp.x10a", "pg180_o2nofp.x10b", "pg181_o2nofp.x10b", "pg1611_o2nofp.x10a")
	code, out, stderr := runCmd(t, append([]string{"diff", "--history", "--format", "json"}, dirs...)...)
	if code != 1 || !strings.Contains(stderr, "regressions against its history") {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	h := rep.Series.Groups[0].History
	if h == nil {
		t.Fatal("no history table")
	}
	verdicts := map[string]string{}
	for _, r := range h.Rows {
		verdicts[r.Cells[0].Text] = r.Cells[len(r.Cells)-1].Text
	}
	if verdicts["update-index range=100"] != "regression" || verdicts["hot-points range=100"] != "regression" || verdicts["read-only range=100"] != "ok" {
		t.Errorf("verdicts %v", verdicts)
	}

	// Quiet: NEW is 18.1 itself against 17.6 … 18.0.
	code, _, stderr = runCmd(t, append([]string{"diff", "--history", "--format", "text"}, dirs[:4]...)...)
	if code != 0 {
		t.Errorf("18.1 against 17.6 … 18.0: exit %d: %s", code, stderr)
	}
	// Too short a history.
	if code, _, stderr = runCmd(t, append([]string{"diff", "--history"}, dirs[:3]...)...); code != 2 || !strings.Contains(stderr, "at least 4 folders") {
		t.Errorf("three folders: exit %d: %s", code, stderr)
	}
}

// TestSeriesIbench takes four copies of the example as nightly runs: two
// insert-benchmark series (one per DBMS) of ten steps, every value known,
// and, the runs being the same, no change point.
func TestSeriesIbench(t *testing.T) {
	dirs := exampleNights(t, 4)
	code, out, stderr := runCmd(t, append([]string{"series", "--format", "json"}, dirs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	if len(rep.Series.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(rep.Series.Groups))
	}
	for _, g := range rep.Series.Groups {
		if !strings.HasPrefix(g.Title, "Insert benchmark: pg15.c") || len(g.Tests) != 10 || len(g.Changes) != 0 || g.ChangeTable == nil {
			t.Errorf("%s: %d tests, changes %v", g.Title, len(g.Tests), g.Changes)
		}
		for i, vs := range g.Values {
			for j, v := range vs {
				if !(v > 0) || v != vs[0] {
					t.Errorf("%s %s member %d: %v", g.Title, g.Tests[i], j, v)
				}
			}
		}
	}
	// Flat history, NEW the same: nothing to flag.
	if code, _, stderr := runCmd(t, append([]string{"diff", "--history"}, dirs...)...); code != 0 || !strings.Contains(stderr, "0 regressions") {
		t.Errorf("diff --history of equal runs: exit %d: %s", code, stderr)
	}
}

// TestDiffHistoryMissing: NEW lacks a test its history has (both its sb.o
// and sb.met files): bad input, exit 2, and the test is "missing".
func TestDiffHistoryMissing(t *testing.T) {
	dirs := nightlies(t, "pg176_o2nofp.x10a", "pg177_o2nofp.x10a", "pg180_o2nofp.x10b", "pg181_o2nofp.x10b")
	src, err := filepath.Abs(filepath.Join(pgSeries, "x.pg181_o2nofp.x10b_c32r128.pk1"))
	if err != nil {
		t.Fatal(err)
	}
	newer := filepath.Join(t.TempDir(), "new", "x.pg.nightly_c32r128.pk1")
	if err := os.MkdirAll(newer, 0o755); err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(f.Name(), ".delete.") {
			continue
		}
		if err := os.Symlink(filepath.Join(src, f.Name()), filepath.Join(newer, f.Name())); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := runCmd(t, append(append([]string{"diff", "--history", "--format", "json"}, dirs...), filepath.Dir(newer))...)
	if code != 2 || !strings.Contains(stderr, "1 missing in NEW") {
		t.Fatalf("exit %d, want 2: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	for _, r := range rep.Series.Groups[0].History.Rows {
		if r.Cells[0].Text == "delete range=100" && r.Cells[len(r.Cells)-1].Text != "missing" {
			t.Errorf("delete: %+v", r.Cells)
		}
	}
}

// TestDiffHistoryVerdict: the JSON of --history carries the status and
// exit code; --format github writes an error per regression (at most 10),
// a notice with the verdict and no file; the verdict table's level starts
// at a change point of the change-point table or at the first member, and
// says the smallest drop it would have failed.
func TestDiffHistoryVerdict(t *testing.T) {
	dirs := nightlies(t, "pg176_o2nofp.x10a", "pg177_o2nofp.x10a", "pg180_o2nofp.x10b", "pg181_o2nofp.x10b", "pg1611_o2nofp.x10a")
	code, out, stderr := runCmd(t, append([]string{"diff", "--history", "--format", "json"}, dirs...)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	rep := seriesJSON(t, out)
	if h := rep.History; h == nil || h.Status != "FAIL" || h.ExitCode != 1 || h.Regressions == 0 {
		t.Errorf("history status %+v, want FAIL, exit code 1", h)
	}
	g := rep.Series.Groups[0]
	hdr := g.History.Header
	if !slices.Contains(hdr, "detectable") {
		t.Fatalf("header %v lacks detectable", hdr)
	}
	for _, r := range g.History.Rows {
		from := r.Cells[1].Text
		ok := from == g.Labels[0]
		for _, c := range g.Changes {
			ok = ok || c.Test == r.Cells[0].Text && g.Labels[c.Index] == from
		}
		if !ok {
			t.Errorf("%s: level from %s is neither the first member nor a change point of the change-point table", r.Cells[0].Text, from)
		}
		if d := r.Cells[slices.Index(hdr, "detectable")]; d.Value != nil && *d.Value > -1 {
			t.Errorf("%s: detectable %s, want at most -1%%", r.Cells[0].Text, d.Text)
		}
	}

	code, out, _ = runCmd(t, append([]string{"diff", "--history", "--format", "github"}, dirs...)...)
	errs, notices := 0, 0
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "::error "):
			errs++
			if strings.Contains(l, "file=") {
				t.Errorf("an annotation names a file: %s", l)
			}
		case strings.HasPrefix(l, "::notice "):
			notices++
			if !strings.Contains(l, "FAIL") {
				t.Errorf("notice %s", l)
			}
		}
	}
	if code != 1 || errs == 0 || errs > 10 || errs != min(rep.History.Regressions, 10) || notices != 1 {
		t.Errorf("github: exit %d, %d errors (%d regressions), %d notices:\n%s", code, errs, rep.History.Regressions, notices, out)
	}

	// --confirm: 16.11's falls are NEW's alone (18.1 before it was at its
	// level): unconfirmed, warnings, exit 0, until the next run agrees.
	code, out, stderr = runCmd(t, append([]string{"diff", "--history", "--confirm", "--format", "github"}, dirs...)...)
	if code != 0 || strings.Contains(out, "::error ") || !strings.Contains(out, "::warning title=ibreport diff --history unconfirmed regression%3A the next run decides") ||
		!strings.Contains(out, "unconfirmed)") || !strings.Contains(stderr, "unconfirmed") {
		t.Errorf("--confirm: exit %d, want 0 with warnings for the unconfirmed regressions:\n%s\n%s", code, out, stderr)
	}
	if code, _, stderr := runCmd(t, "diff", "--confirm", dirs[0], dirs[1]); code != 2 || !strings.Contains(stderr, "--confirm goes with --history") {
		t.Errorf("--confirm without --history: exit %d: %s", code, stderr)
	}
}

// exampleNights links n copies of testdata/example as folders night1 …
// nightN of a temporary folder: nightly runs that do not vary.
func exampleNights(t *testing.T, n int) []string {
	t.Helper()
	abs, err := filepath.Abs("../../testdata/example")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var dirs []string
	for i := range n {
		d := filepath.Join(root, fmt.Sprintf("night%d", i+1))
		if err := os.Symlink(abs, d); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// TestDiffHistoryAcknowledged: a file of acknowledged changes takes a
// known move of NEW out of the verdict, or starts a test's level anew at
// the result set it names; what it names must be in the history.
func TestDiffHistoryAcknowledged(t *testing.T) {
	dirs := nightlies(t, "pg176_o2nofp.x10a", "pg177_o2nofp.x10a", "pg180_o2nofp.x10b", "pg181_o2nofp.x10b", "pg1611_o2nofp.x10a")
	acks := func(text string) string {
		p := filepath.Join(t.TempDir(), "acks.txt")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := func(file string) (int, *report.Report, string) {
		t.Helper()
		code, out, stderr := runCmd(t, append([]string{"diff", "--history", "--format", "json", "--acknowledged", file}, dirs...)...)
		if code == 2 {
			return code, nil, stderr
		}
		return code, seriesJSON(t, out), stderr
	}
	verdict := func(rep *report.Report, test string) string {
		for _, r := range rep.Series.Groups[0].History.Rows {
			if r.Cells[0].Text == test {
				return r.Cells[len(r.Cells)-1].Text
			}
		}
		return ""
	}
	for _, c := range []struct {
		name, acks string
		code       int
		acked      int
		want       map[string]string // test → verdict prefix
	}{
		{"one test of NEW", "05-pg1611_o2nofp.x10a / update-index range=100: back to 16, known\n", 1, 1,
			map[string]string{"update-index range=100": "regression, acknowledged: back to 16, known (", "hot-points range=100": "regression"}},
		{"every test of NEW", "# NEW is another major version\n05-pg1611_o2nofp.x10a: 16.11, not a nightly\n", 0, 0,
			map[string]string{"update-index range=100": "regression, acknowledged: 16.11, not a nightly", "read-only range=100": "ok"}},
		{"a config change before NEW", "03-pg180_o2nofp.x10b: io_method config\n", 0, 34,
			map[string]string{"update-index range=100": "new level, acknowledged: io_method config"}},
	} {
		code, rep, stderr := run(acks(c.acks))
		if code != c.code || rep == nil {
			t.Errorf("%s: exit %d, want %d: %s", c.name, code, c.code, stderr)
			continue
		}
		if c.acked > 0 && rep.History.Acknowledged != c.acked {
			t.Errorf("%s: %d acknowledged, want %d", c.name, rep.History.Acknowledged, c.acked)
		}
		for test, want := range c.want {
			if got := verdict(rep, test); !strings.HasPrefix(got, want) {
				t.Errorf("%s: %s is %q, want %q…", c.name, test, got, want)
			}
		}
	}
	for _, c := range []struct{ acks, err string }{
		{"06-pg190: later\n", `acks.txt:1: "06-pg190" is none of the 5 result sets of the history`},
		{"05-pg1611_o2nofp.x10a / no-such-test: x\n", `acks.txt:1: "no-such-test" is no test of the history`},
		{"05-pg1611_o2nofp.x10a\n", "acks.txt:1:"},
	} {
		if code, _, stderr := run(acks(c.acks)); code != 2 || !strings.Contains(stderr, c.err) {
			t.Errorf("%q: exit %d, want 2 and %q: %s", c.acks, code, c.err, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "diff", "--acknowledged", acks("a: b\n"), dirs[0], dirs[1]); code != 2 || !strings.Contains(stderr, "--acknowledged goes with --history") {
		t.Errorf("without --history: exit %d: %s", code, stderr)
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		if code, _, stderr := run(fifo); code != 2 || !strings.Contains(stderr, "--acknowledged") {
			t.Errorf("a FIFO: exit %d: %s", code, stderr)
		}
	}
}
