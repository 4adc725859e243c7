package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// actionStep is a step of the composite action in action.yml.
type actionStep struct {
	name, id, workDir, run, uses, cond string
	env                                map[string]string
}

// actionFile is what the tests read of action.yml: the inputs, runs.using
// and the steps. action.yml is written in one plain style (two-space
// indents, block scalars for run), which this reads without a YAML
// library.
type actionFile struct {
	inputs []string
	using  string
	steps  []actionStep
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	section := ""
	var st *actionStep
	inRun, inEnv := false, false
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for l := range strings.Lines(string(b)) {
		l = strings.TrimRight(l, "\n")
		if strings.TrimSpace(l) == "" {
			if inRun {
				st.run += "\n"
			}
			continue
		}
		n := indent(l)
		if n == 0 {
			section, _, _ = strings.Cut(l, ":")
			continue
		}
		if inRun && n >= 8 {
			st.run += l[8:] + "\n"
			continue
		}
		inRun = false
		key, val, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")), ":")
		val = strings.TrimSpace(val)
		switch {
		case section == "inputs" && n == 2:
			a.inputs = append(a.inputs, key)
		case section == "runs" && n == 2 && key == "using":
			a.using = val
		case section == "runs" && n == 4 && strings.HasPrefix(strings.TrimSpace(l), "- "):
			a.steps = append(a.steps, actionStep{env: map[string]string{}})
			st = &a.steps[len(a.steps)-1]
			inEnv = false
			fallthrough
		case section == "runs" && n == 6 && st != nil:
			inEnv = false
			switch key {
			case "name":
				st.name = val
			case "id":
				st.id = val
			case "working-directory":
				st.workDir = val
			case "uses":
				st.uses = val
			case "if":
				st.cond = val
			case "env":
				inEnv = true
			case "run":
				if val != "|" {
					t.Fatalf("action.yml: step %q: run is not a block scalar (run: |)", st.name)
				}
				inRun = true
			}
		case section == "runs" && n == 8 && inEnv:
			st.env[key] = val
		}
	}
	return a
}

// diffFlags are the flags of ibreport diff, from its help.
func diffFlags(t *testing.T) []string {
	t.Helper()
	_, stdout, stderr := runCmd(t, "help", "diff")
	return regexp.MustCompile(`(?m)^\s+(--?[a-z-]+)`).FindAllString(stdout+stderr, -1)
}

// TestActionFile checks action.yml: a composite action whose inputs are
// BASE, NEW, format, thresholds and more flags, each one used; a step
// that builds ./cmd/ibreport with go build; inputs passed to the scripts
// as environment variables only; and every diff flag its scripts give a
// flag diff has.
func TestActionFile(t *testing.T) {
	a := readAction(t)
	if a.using != "composite" {
		t.Errorf("runs.using %q, want composite", a.using)
	}
	for _, in := range []string{"base", "new", "format", "threshold", "warn", "comment"} {
		if !slices.Contains(a.inputs, in) {
			t.Errorf("no input %q (inputs %v)", in, a.inputs)
		}
	}
	// A comment needs pull-requests: write: off unless asked for.
	b, _ := os.ReadFile("../../action.yml")
	_, in, _ := strings.Cut(string(b), "\n  comment:\n")
	if block, _, _ := strings.Cut(in, "\n  "+"\n"); !strings.Contains(strings.SplitN(block, "\noutputs:", 2)[0], "    default: \"false\"") {
		t.Error("the comment input is not off by default")
	}
	// The build: keyed by a hash of the sources and the Go, kept in the
	// user's cache folder, restored by actions/cache, built with go build
	// in the action's checkout when absent; then the gate; then the
	// artifact, uploaded whatever the gate's status.
	var names []string
	for _, st := range a.steps {
		names = append(names, st.id+"|"+st.uses)
	}
	if want := []string{"key|", "|actions/cache@v4", "build|", "gate|", "|actions/upload-artifact@v4"}; !slices.Equal(names, want) {
		t.Fatalf("steps (id|uses) %v, want %v", names, want)
	}
	if b := a.steps[2]; !strings.Contains(b.run, "go build -trimpath -o ") || !strings.Contains(b.run, " ./cmd/ibreport") ||
		b.workDir != "${{ github.action_path }}" || a.steps[0].workDir != b.workDir {
		t.Errorf("the build step does not build ./cmd/ibreport in the action's checkout: %+v", b)
	}
	if c := a.steps[4].cond; !strings.Contains(c, "!cancelled()") || !strings.Contains(c, "inputs.html != ''") {
		t.Errorf("the artifact step's if: %q; want it also after a failing gate, and only with html", c)
	}
	used := map[string]bool{}
	ref := regexp.MustCompile(`\$\{\{\s*inputs\.([a-z-]+)\s*\}\}`)
	var flags []string
	have := diffFlags(t)
	for _, st := range a.steps {
		if ref.MatchString(st.run) {
			t.Errorf("step %q pastes an input into its script; pass it in env", st.name)
		}
		for _, v := range st.env {
			for _, m := range ref.FindAllStringSubmatch(v, -1) {
				used[m[1]] = true
			}
		}
		for _, line := range strings.Split(st.run, "\n") {
			if !strings.Contains(line, "diff ") && !strings.Contains(line, "flags+=") {
				continue
			}
			flags = append(flags, regexp.MustCompile(`(?:^|\s|\()(--?[a-z][a-z-]*)`).FindAllString(line, -1)...)
		}
	}
	for _, in := range a.inputs {
		if !used[in] {
			t.Errorf("input %q is used by no step", in)
		}
	}
	for _, f := range flags {
		f = strings.TrimLeft(f, " (")
		if f == "-f" || f == "-n" || f == "-z" {
			continue // test(1)
		}
		if !slices.ContainsFunc(have, func(h string) bool { return strings.TrimSpace(h) == f }) {
			t.Errorf("action.yml gives diff %s, which diff does not take (it takes %v)", f, have)
		}
	}
	if len(flags) < 4 {
		t.Errorf("found only the diff flags %v in action.yml", flags)
	}
}

// TestActionGate runs the steps of action.yml as a runner would, with
// the inputs in the environment: the same tables exit 0 with PASS in the
// job summary; a 10% drop exits 1 with FAIL in the summary, one ::error
// for the row and status 1 in the step's outputs; a mistyped NEW exits 2
// with the reason in the summary and an ::error; the thresholds and
// format inputs reach diff. With comment: true and a stand-in gh, the
// pull request has one comment of the gate, the marker and the Markdown
// report, edited in place on each run (cut to a comment's size, linking
// the run, when the report is longer); a gh that fails warns and leaves
// diff's status; without comment: true gh is not called.
func TestActionGate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	a := readAction(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	runner := t.TempDir()
	base := filepath.Join(root, "testdata/ibench/reference/res")
	slow := filepath.Join(t.TempDir(), "slow")
	if out, err := exec.Command("cp", "-r", base, slow).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	scaleCell(t, filepath.Join(slow, "mrg.l.i1"), "pg15.c2", "ips", 0.9)
	scaleCell(t, filepath.Join(slow, "rel.l.i1"), "pg15.c2", "ips", 0.9)
	// A stand-in gh keeps the pull request's comments in a folder.
	bin, comments := filepath.Join(runner, "bin"), filepath.Join(t.TempDir(), "comments")
	os.Mkdir(bin, 0o755)
	os.Mkdir(comments, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(ghStandIn), 0o755); err != nil {
		t.Fatal(err)
	}
	const other = "Looks good; the gate will tell.\n"
	if err := os.WriteFile(filepath.Join(comments, "1"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	bigBase, bigNew := rotatedBuilds(t, t.TempDir())
	stepOutputs := map[string]string{} // "key.outputs.dir": its value
	cache := t.TempDir()
	step := func(st actionStep, inputs map[string]string, work string) (int, string) {
		env := append(os.Environ(), "RUNNER_TEMP="+runner, "XDG_CACHE_HOME="+cache, "GITHUB_STEP_SUMMARY="+filepath.Join(work, "summary"),
			"GITHUB_OUTPUT="+filepath.Join(work, "output"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GH_DIR="+comments, "GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=o/r", "GITHUB_RUN_ID=12")
		if inputs["gh-dir"] != "" {
			env = append(env, "GH_DIR="+inputs["gh-dir"]) // the last one counts
		}
		for k, v := range st.env {
			v = strings.ReplaceAll(v, "${{ runner.temp }}", runner)
			v = strings.ReplaceAll(v, "${{ github.event.pull_request.number }}", "7")
			v = strings.ReplaceAll(v, "${{ github.token }}", "token")
			v = strings.ReplaceAll(v, "${{ github.repository }}", "o/r")
			v = strings.ReplaceAll(v, "${{ github.job }}", "gate")
			for k, x := range stepOutputs {
				v = strings.ReplaceAll(v, "${{ steps."+k+" }}", x)
			}
			for in, x := range inputs {
				v = strings.ReplaceAll(v, "${{ inputs."+in+" }}", x)
			}
			if strings.Contains(v, "${{") {
				t.Fatalf("step %q: env %s=%s has an expression the test does not fill", st.name, k, v)
			}
			env = append(env, k+"="+v)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", st.run)
		cmd.Dir = work
		if st.workDir == "${{ github.action_path }}" {
			cmd.Dir = root
		}
		cmd.Env = env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			return ee.ExitCode(), out.String()
		case err != nil:
			t.Fatal(err)
		}
		return 0, out.String()
	}
	// The build: the first one compiles, the next finds the binary by
	// the same key; a damaged binary in the cache is built again.
	build := func() (bin string, info os.FileInfo) {
		t.Helper()
		for _, i := range []int{0, 2} {
			work := t.TempDir()
			if code, out := step(a.steps[i], nil, work); code != 0 {
				t.Fatalf("step %q: exit %d\n%s", a.steps[i].name, code, out)
			}
			b, _ := os.ReadFile(filepath.Join(work, "output"))
			for l := range strings.Lines(string(b)) {
				k, v, _ := strings.Cut(strings.TrimSpace(l), "=")
				stepOutputs[a.steps[i].id+".outputs."+k] = v
			}
		}
		bin = stepOutputs["build.outputs.bin"]
		info, err := os.Stat(bin)
		if err != nil || !strings.HasPrefix(bin, filepath.Join(cache, "ibreport-action")+string(filepath.Separator)) ||
			!strings.HasPrefix(stepOutputs["key.outputs.key"], "ibreport-action-") {
			t.Fatalf("the build step's binary %q (%v), key %q: want it in the cache folder %s", bin, err, stepOutputs["key.outputs.key"], cache)
		}
		return bin, info
	}
	bin1, first := build()
	if bin2, again := build(); bin2 != bin1 || !again.ModTime().Equal(first.ModTime()) {
		t.Errorf("a second build step built again (%s, %v then %s, %v)", bin1, first.ModTime(), bin2, again.ModTime())
	}
	if err := os.WriteFile(bin1, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, rebuilt := build(); rebuilt.Size() < 1<<20 {
		t.Errorf("a damaged cached binary was kept (%d bytes)", rebuilt.Size())
	}
	gate := a.steps[3]
	inputs := func(kv ...string) map[string]string {
		m := map[string]string{"base": base, "new": base, "format": "md", "threshold": "", "warn": "", "args": "", "report": "", "comment": "false", "comment-key": "", "html": ""}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		inputs  map[string]string
		code    int
		summary []string
		log     []string
		errors  int
		comment string // the gate's PR comment starts with it after the marker; "" none
	}{
		{"same", inputs(), 0, []string{"### ibreport diff: PASS"}, []string{"::notice title=ibreport diff PASS"}, 0, ""},
		{"10% slower", inputs("new", slow), 1, []string{"### ibreport diff: FAIL", "| **FAIL** | mrg | l.i1 | pg15.c2 | ips |"},
			[]string{"::error file=", "title=ibreport diff FAIL%3A mrg.l.i1 pg15.c2::"}, 1, ""},
		{"10% slower, looser threshold, text", inputs("new", slow, "threshold", "ips=15%", "warn", "ips=8%", "format", "text", "args", "--strict --tables mrg"),
			1, []string{"```\nibreport diff: FAIL (1 warn,", "tables mrg;"}, []string{"::warning file="}, 0, ""},
		{"mistyped NEW", inputs("new", slow+"-typo"), 2, []string{"### ibreport diff: ERROR (nothing compared, exit 2)", "slow-typo"},
			[]string{"::error title=ibreport diff ERROR%3A bad input::"}, 1, ""},
		// comment: true keeps one PR comment, edited on each push.
		{"comment, 10% slower", inputs("new", slow, "comment", "true"), 1, []string{"### ibreport diff: FAIL"}, nil, 1, "### ibreport diff: FAIL"},
		{"comment, same", inputs("comment", "true"), 0, []string{"### ibreport diff: PASS"}, nil, 0, "### ibreport diff: PASS"},
		{"comment, text summary", inputs("new", slow, "comment", "true", "format", "text"), 1, []string{"```\nibreport diff: FAIL"}, nil, 1, "### ibreport diff: FAIL"},
		{"comment, mistyped NEW", inputs("new", slow+"-typo", "comment", "true"), 2, []string{"### ibreport diff: ERROR"}, nil, 1, "### ibreport diff: ERROR (nothing compared, exit 2)"},
		{"comment, a report over a comment", inputs("base", bigBase, "new", bigNew, "comment", "true"), 1, []string{"### ibreport diff: FAIL"},
			[]string{"::warning title=ibreport diff%3A 88 more rows"}, 10, "### ibreport diff: FAIL"},
		{"comment, gh fails", inputs("new", slow, "comment", "true", "gh-dir", filepath.Join(runner, "no-such-dir")), 1, []string{"### ibreport diff: FAIL"},
			[]string{"::warning title=ibreport diff::the pull-request comment was not written"}, 1, "### ibreport diff: FAIL (184 fail"}, // the last one written
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			code, out := step(gate, tc.inputs, work)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, out)
			}
			summary, _ := os.ReadFile(filepath.Join(work, "summary"))
			for _, w := range tc.summary {
				if !strings.Contains(string(summary), w) {
					t.Errorf("job summary lacks %q:\n%s", w, summary)
				}
			}
			for _, w := range tc.log {
				if !strings.Contains(out, w) {
					t.Errorf("log lacks %q:\n%s", w, out)
				}
			}
			if n := strings.Count(out, "::error "); n != tc.errors {
				t.Errorf("%d ::error annotations, want %d:\n%s", n, tc.errors, out)
			}
			// The other comment is never touched; the gate's is one,
			// edited in place.
			ents, _ := os.ReadDir(comments)
			if b, _ := os.ReadFile(filepath.Join(comments, "1")); string(b) != other {
				t.Errorf("the other comment was changed to %q", b)
			}
			c, err := os.ReadFile(filepath.Join(comments, "2"))
			switch {
			case tc.comment == "" && len(ents) != 1:
				t.Errorf("%d PR comments without comment: true", len(ents))
			case tc.comment != "" && (len(ents) != 2 || err != nil):
				t.Errorf("%d PR comments, want the other one and one of the gate", len(ents))
			case tc.comment != "" && !strings.HasPrefix(string(c), "<!-- ibreport-diff gate -->\n"+tc.comment):
				t.Errorf("the PR comment starts %.200q, want the marker and %q", c, tc.comment)
			case tc.comment != "" && (len(c) > 65536 || len(summary) > 65000 && !strings.Contains(string(c), "the full report: the job summary of https://github.com/o/r/actions/runs/12.")):
				t.Errorf("a PR comment of %d bytes for a summary of %d; it ends %q", len(c), len(summary), c[max(0, len(c)-300):])
			case tc.comment != "" && tc.inputs["format"] == "md" && len(summary) <= 65000 && tc.inputs["gh-dir"] == "" && string(c) != "<!-- ibreport-diff gate -->\n"+string(summary):
				t.Errorf("the PR comment is not the marker and the summary:\n%s", c)
			}
			output, _ := os.ReadFile(filepath.Join(work, "output"))
			if !strings.Contains(string(output), "status="+string(rune('0'+tc.code))+"\n") || !strings.Contains(string(output), "report="+runner) {
				t.Errorf("step outputs %q, want status=%d and the report's path", output, tc.code)
			}
		})
	}
	testActionOnFailureAndHTML(t, gate, step, inputs, slow, runner)
	// A second gate of the pull request (its own comment-key) keeps a
	// comment of its own; a key is cut to its safe characters, so it
	// cannot end the marker's HTML comment.
	t.Run("a second gate", func(t *testing.T) {
		gate2 := filepath.Join(comments, "2")
		first, err := os.ReadFile(gate2)
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range []map[string]string{
			inputs("new", slow, "comment", "true", "comment-key", "sysbench --><script>"),
			inputs("comment", "true", "comment-key", "sysbench --><script>"),
		} {
			want := []string{"### ibreport diff: FAIL", "### ibreport diff: PASS"}[i]
			step(gate, in, t.TempDir())
			ents, _ := os.ReadDir(comments)
			c, _ := os.ReadFile(filepath.Join(comments, "3"))
			if len(ents) != 3 || !strings.HasPrefix(string(c), "<!-- ibreport-diff sysbench--script -->\n"+want) {
				t.Errorf("push %d: %d comments, the second gate's starts %.80q, want the marker with its key and %q", i+1, len(ents), c, want)
			}
			if b, _ := os.ReadFile(gate2); !bytes.Equal(b, first) {
				t.Errorf("push %d: the first gate's comment changed", i+1)
			}
		}
	})
}

// TestActionGate (continued): comment: on-failure writes no comment for
// a passing gate, one for a failing gate, and edits it when the gate
// passes again; html uploads a report of each NEW folder, and one that
// cannot be built is a warning that leaves the status.
func testActionOnFailureAndHTML(t *testing.T, gate actionStep, step func(actionStep, map[string]string, string) (int, string),
	inputs func(kv ...string) map[string]string, slow, runner string) {
	t.Run("comment on-failure", func(t *testing.T) {
		dir := t.TempDir()
		count := func() ([]os.DirEntry, string) {
			ents, _ := os.ReadDir(dir)
			b, _ := os.ReadFile(filepath.Join(dir, "1"))
			return ents, string(b)
		}
		for i, tc := range []struct {
			new      string
			code     int
			comments int
			starts   string
		}{
			{"", 0, 0, ""}, // passes: nothing to say
			{slow, 1, 1, "<!-- ibreport-diff gate -->\n### ibreport diff: FAIL"},
			{slow, 1, 1, "<!-- ibreport-diff gate -->\n### ibreport diff: FAIL"},
			{"", 0, 1, "<!-- ibreport-diff gate -->\n### ibreport diff: PASS"}, // the old FAIL is edited
		} {
			in := inputs("comment", "on-failure", "gh-dir", dir)
			if tc.new != "" {
				in["new"] = tc.new
			}
			code, out := step(gate, in, t.TempDir())
			ents, c := count()
			if code != tc.code || len(ents) != tc.comments || !strings.HasPrefix(c, tc.starts) {
				t.Errorf("push %d: exit %d (want %d), %d comments (want %d), the comment starts %.80q (want %q)\n%s",
					i+1, code, tc.code, len(ents), tc.comments, c, tc.starts, out)
			}
		}
		if code, out := step(gate, inputs("comment", "sometimes", "gh-dir", dir), t.TempDir()); code != 0 ||
			!strings.Contains(out, "::warning title=ibreport diff::comment: sometimes is not true, false or on-failure") {
			t.Errorf("comment: sometimes: exit %d, log:\n%s", code, out)
		}
	})
	t.Run("html", func(t *testing.T) {
		work := t.TempDir()
		code, out := step(gate, inputs("new", slow+","+slow+"-typo", "html", "bench-report"), work)
		if code != 2 {
			t.Errorf("exit %d, want the gate's 2 for the mistyped folder\n%s", code, out)
		}
		pages := filepath.Join(runner, "ibreport-action", "html")
		page, err := os.ReadFile(filepath.Join(pages, "1-slow.html"))
		if err != nil || !bytes.Contains(page, []byte("<!DOCTYPE html>")) {
			t.Errorf("no HTML report of the first NEW folder (%v): %.200q", err, page)
		}
		if ents, _ := os.ReadDir(pages); len(ents) != 1 {
			t.Errorf("%d files in the artifact folder, want the one report", len(ents))
		}
		if !strings.Contains(out, "::warning title=ibreport build::no HTML report of NEW folder 2: ") {
			t.Errorf("no warning for the folder without a report:\n%s", out)
		}
		if o, _ := os.ReadFile(filepath.Join(work, "output")); !strings.Contains(string(o), "html="+pages+"\n") {
			t.Errorf("step outputs %q lack html=%s", o, pages)
		}
	})
}

// scaleCell multiplies the cell of a mrg or rel file in the row of dbms and
// the column metric by k, keeping its decimals.
func scaleCell(t *testing.T, file, dbms, metric string, k float64) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	col := slices.Index(strings.Split(lines[0], "\t"), metric)
	done := false
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		if i > 0 && col >= 0 && len(cells) > col && cells[len(cells)-1] == dbms {
			cells[col] = scaleText(t, cells[col], k)
			lines[i], done = strings.Join(cells, "\t"), true
		}
	}
	if !done {
		t.Fatalf("%s: no cell %s %s", file, dbms, metric)
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scaleText multiplies a printed number by k, keeping its decimals.
func scaleText(t *testing.T, s string, k float64) string {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	dec := 0
	if _, frac, ok := strings.Cut(s, "."); ok {
		dec = len(frac)
	}
	return strconv.FormatFloat(v*k, 'f', dec, 64)
}

// TestWorkflowPermissions checks that every workflow of the repository
// sets its token's permissions at the top, least privilege: read only.
// The one write a job may add is contents: write, in release.yml's
// release job, which creates the release of a pushed tag.
func TestWorkflowPermissions(t *testing.T) {
	files, err := filepath.Glob("../../.github/workflows/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if !strings.HasPrefix(string(b), "permissions:") && !strings.Contains(string(b), "\npermissions:") {
			t.Errorf("%s sets no permissions at the top: the token gets the repository's default", name)
			continue
		}
		// Each permissions: block, with the indent of its key and the
		// job it belongs to.
		section, job := "", ""
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			trim := strings.TrimSpace(l)
			n := len(l) - len(strings.TrimLeft(l, " "))
			switch {
			case n == 0 && trim != "" && !strings.HasPrefix(trim, "#"):
				section, job = strings.TrimSuffix(trim, ":"), ""
			case n == 2 && section == "jobs" && strings.HasSuffix(trim, ":"):
				job = strings.TrimSuffix(trim, ":")
			}
			key, val, _ := strings.Cut(trim, ":")
			if key != "permissions" {
				continue
			}
			if val = strings.TrimSpace(val); val == "read-all" || val == "{}" {
				continue
			}
			var block []string
			for _, p := range lines[i+1:] {
				if strings.TrimSpace(p) == "" {
					continue
				}
				if len(p)-len(strings.TrimLeft(p, " ")) <= n {
					break
				}
				block = append(block, strings.TrimSpace(p))
			}
			if val != "" {
				block = append(block, val)
			}
			if len(block) == 0 {
				t.Errorf("%s:%d: empty permissions block", name, i+1)
			}
			for _, p := range block {
				if !strings.Contains(p, "write") {
					continue
				}
				if n == 4 && name == "release.yml" && job == "release" && p == "contents: write" {
					continue
				}
				t.Errorf("%s:%d: permission %q (job %q); the workflows need only read, but for the release job's contents: write", name, i+1, p, job)
			}
		}
	}
}

// TestReleaseScript builds the release of the host's target: an archive
// of the binary (which runs), the license, README and changelog, owned by
// nobody and dated 1970, and the checksums of the archives; the same
// tag twice gives the same bytes. A version that is not vMAJOR.MINOR.PATCH
// exits 2.
func TestReleaseScript(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("no sha256sum")
	}
	target := runtime.GOOS + "/" + runtime.GOARCH
	run := func(dir, version string) (int, string) {
		cmd := exec.Command("bash", "../../scripts/release.sh", version, dir)
		cmd.Env = append(os.Environ(), "TARGETS="+target)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	if code, out := run(t.TempDir(), "1.0"); code != 2 || !strings.Contains(out, "version '1.0' is not vMAJOR.MINOR.PATCH") {
		t.Errorf("version 1.0: exit %d, %q", code, out)
	}
	dir := t.TempDir()
	if code, out := run(dir, "v0.9.1"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	name := "ibreport_0.9.1_" + strings.ReplaceAll(target, "/", "_")
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil || !regexp.MustCompile(`^[0-9a-f]{64}  `+name+`\.tar\.gz\n$`).Match(sums) {
		t.Fatalf("SHA256SUMS %q (%v)", sums, err)
	}
	check := exec.Command("sha256sum", "-c", "SHA256SUMS")
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, out)
	}
	list, err := exec.Command("tar", "-tvzf", filepath.Join(dir, name+".tar.gz")).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"/ibreport", "/LICENSE", "/README.md", "/CHANGELOG.md"} {
		if !strings.Contains(string(list), name+f+"\n") {
			t.Errorf("the archive lacks %s:\n%s", name+f, list)
		}
	}
	if !strings.Contains(string(list), " 0/0 ") || !strings.Contains(string(list), "1970-01-01") {
		t.Errorf("the archive names an owner or a date of the build machine:\n%s", list)
	}
	x := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", filepath.Join(dir, name+".tar.gz"), "-C", x).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	if out, err := exec.Command(filepath.Join(x, name, "ibreport"), "version").Output(); err != nil || !strings.HasPrefix(string(out), "ibreport ") {
		t.Errorf("the released binary: %v, %q", err, out)
	}
	again := t.TempDir()
	if code, out := run(again, "v0.9.1"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(again, "SHA256SUMS")); !bytes.Equal(b, sums) {
		t.Errorf("the same tag twice gave other archives:\n%s\n%s", sums, b)
	}
}

// rotatedBuilds are two folders of the ten PostgreSQL builds of the
// archive, NEW each build seven places on from BASE: a report of 582 rows,
// over 80 kB, longer than a PR comment may be.
func rotatedBuilds(t *testing.T, dir string) (base, newer string) {
	t.Helper()
	archive, err := filepath.Abs("../../testdata/arc/nov25.sb.pg/dop40")
	if err != nil {
		t.Fatal(err)
	}
	builds, _ := filepath.Glob(filepath.Join(archive, "x.*"))
	if len(builds) < 8 {
		t.Fatalf("%d builds in %s", len(builds), archive)
	}
	base, newer = filepath.Join(dir, "big-base"), filepath.Join(dir, "big-new")
	os.Mkdir(base, 0o755)
	os.Mkdir(newer, 0o755)
	for i, b := range builds {
		if os.Symlink(b, filepath.Join(base, filepath.Base(b))) != nil || os.Symlink(builds[(i+7)%len(builds)], filepath.Join(newer, filepath.Base(b))) != nil {
			t.Fatal("symlink")
		}
	}
	return base, newer
}
