package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// actionStep is a step of the composite action in action.yml.
type actionStep struct {
	name, id, workDir, run string
	env                    map[string]string
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
	if len(a.steps) != 2 || !strings.Contains(a.steps[0].run, "go build -o ") || !strings.Contains(a.steps[0].run, " ./cmd/ibreport") ||
		a.steps[0].workDir != "${{ github.action_path }}" {
		t.Fatalf("want a first step building ./cmd/ibreport in the action's checkout, then the gate; steps %+v", a.steps)
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
	step := func(st actionStep, inputs map[string]string, work string) (int, string) {
		env := append(os.Environ(), "RUNNER_TEMP="+runner, "GITHUB_STEP_SUMMARY="+filepath.Join(work, "summary"),
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
	if code, out := step(a.steps[0], nil, t.TempDir()); code != 0 {
		t.Fatalf("build step: exit %d\n%s", code, out)
	}
	inputs := func(kv ...string) map[string]string {
		m := map[string]string{"base": base, "new": base, "format": "md", "threshold": "", "warn": "", "args": "", "report": "", "comment": "false", "comment-key": ""}
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
			code, out := step(a.steps[1], tc.inputs, work)
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
			step(a.steps[1], in, t.TempDir())
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
// sets its token's permissions at the top, least privilege: the
// repository's own workflows test and read, so no permission is write.
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
		_, perms, ok := strings.Cut(string(b), "\npermissions:")
		if !ok {
			t.Errorf("%s sets no permissions: the token gets the repository's default", filepath.Base(f))
			continue
		}
		var block []string
		for l := range strings.Lines(perms) {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if !strings.HasPrefix(l, "  ") {
				break
			}
			block = append(block, strings.TrimSpace(l))
		}
		if strings.TrimSpace(strings.SplitN(perms, "\n", 2)[0]) == "read-all" || strings.TrimSpace(strings.SplitN(perms, "\n", 2)[0]) == "{}" {
			continue
		}
		for _, p := range block {
			if strings.HasSuffix(p, ": write") || strings.Contains(p, "write-all") {
				t.Errorf("%s: permission %q; the workflows need only read", filepath.Base(f), p)
			}
		}
		if len(block) == 0 {
			t.Errorf("%s: empty permissions block", filepath.Base(f))
		}
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
