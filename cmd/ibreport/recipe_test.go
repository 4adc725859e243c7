package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeRecipe returns the shell block of README.md between the
// <!-- recipe --> markers.
func readmeRecipe(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- recipe -->\n```sh\n")
	block, _, ok2 := strings.Cut(rest, "```\n<!-- /recipe -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no <!-- recipe --> sh block")
	}
	return block
}

// ghStandIn is a stand-in gh that keeps the PR's comments as files of
// $GH_DIR named by their id, and answers the three calls of the recipe:
// the list of the comments' ids that start with the marker (what the
// recipe's --jq selects), the edit of one comment, and a new comment.
// Any other call fails.
const ghStandIn = `#!/bin/sh
case "$*" in
"api repos/{owner}/{repo}/issues/7/comments --paginate --jq "*)
	case "$5" in *'startswith("<!-- ibreport-diff'*' -->")'*'.id'*) ;; *) echo "gh stand-in: --jq $5" >&2; exit 3 ;; esac
	marker=${5#*startswith(\"}
	marker=${marker%%\")*}
	for f in $(ls "$GH_DIR" | sort -n); do
		[ "$(head -n 1 "$GH_DIR/$f")" = "$marker" ] && echo "$f"
	done
	exit 0 ;;
"api --method PATCH repos/{owner}/{repo}/issues/comments/"*" -F body=@"*)
	id=${4##*/}
	[ -f "$GH_DIR/$id" ] || { echo "gh stand-in: no comment $id" >&2; exit 4; }
	cp "${6#body=@}" "$GH_DIR/$id"
	echo '{"id":'"$id"'}' ;;
"pr comment 7 --body-file "*)
	n=$(($(ls "$GH_DIR" | wc -l) + 1))
	cp "$5" "$GH_DIR/$n" ;;
*)
	echo "gh stand-in: unexpected call: $*" >&2
	exit 3 ;;
esac
`

// TestREADMERecipe runs the CI recipe of README.md, as written, on the
// sysbench test data, as three pushes to one pull request that already
// has another comment: the folders against themselves exit 0 with PASS
// in the job summary and add the PR comment; a read-only test planted 10%
// slower exits 1 with FAIL in the summary, in an ::error annotation and
// in that same comment, edited in place; a mistyped NEW exits 2 and says
// why in the summary, the comment and an ::error; ten builds against
// other builds, a report over GitHub's 65,536 characters, are in full in
// the summary and cut in the comment, the most severe rows first, with a
// line linking the run's page. The other comment is never touched.
func TestREADMERecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	os.Mkdir(bin, 0o755)
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "ibreport"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(ghStandIn), 0o755); err != nil {
		t.Fatal(err)
	}
	comments := filepath.Join(tmp, "comments")
	os.Mkdir(comments, 0o755)
	const other = "Looks good; the gate will tell.\n"
	if err := os.WriteFile(filepath.Join(comments, "1"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	raw, err := filepath.Abs("../../testdata/sysbench/raw")
	if err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(tmp, "slow")
	if out, err := exec.Command("cp", "-r", raw, slow).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	o := filepath.Join(slow, "x.pg15.c2.pk1", "sb.o.read-only.range100.pk1.dop1")
	b, err := os.ReadFile(o)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\(([0-9.]+) per sec\.\)`)
	b = re.ReplaceAllFunc(b, func(m []byte) []byte {
		v, _ := strconv.ParseFloat(string(re.FindSubmatch(m)[1]), 64)
		return []byte("(" + strconv.FormatFloat(0.9*v, 'f', 2, 64) + " per sec.)")
	})
	if err := os.WriteFile(o, b, 0o644); err != nil {
		t.Fatal(err)
	}
	bigBase, bigNew := rotatedBuilds(t, tmp)
	recipe := readmeRecipe(t)
	for _, tc := range []struct {
		name, base, new string
		want            int
		status          string
		errors          int
	}{
		{"same", raw, raw, 0, "PASS", 0},
		{"read-only 10% slower", raw, slow, 1, "FAIL", 1},
		{"mistyped NEW", raw, slow + "-typo", 2, "ERROR", 1},
		{"a report longer than a comment", bigBase, bigNew, 1, "FAIL", 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			summary := filepath.Join(work, "summary.md")
			cmd := exec.Command("bash", "-euc", recipe)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"BASE="+tc.base, "NEW="+tc.new, "GITHUB_STEP_SUMMARY="+summary, "PR_NUMBER=7", "GH_DIR="+comments,
				"GITHUB_SERVER_URL=https://github.com", "GITHUB_REPOSITORY=o/r", "GITHUB_RUN_ID=12")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.want {
				t.Errorf("exit %d, want %d\n%s\n%s", code, tc.want, out, stderr.String())
			}
			if strings.Contains(stderr.String(), "gh stand-in") {
				t.Errorf("the recipe called gh in a way it does not answer:\n%s", stderr.String())
			}
			ents, _ := os.ReadDir(comments)
			if len(ents) != 2 {
				t.Fatalf("%d PR comments, want the other one and one of the gate", len(ents))
			}
			if b, _ := os.ReadFile(filepath.Join(comments, "1")); string(b) != other {
				t.Errorf("the other comment was changed to %q", b)
			}
			s, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			c, err := os.ReadFile(filepath.Join(comments, "2"))
			if err != nil {
				t.Fatal(err)
			}
			if len(s) <= 65000 && !strings.HasPrefix(string(c), "<!-- ibreport-diff -->\n"+string(s)) {
				t.Errorf("the comment is not the marker and the report:\n%s", c)
			}
			if len(s) > 65000 {
				// The summary has it all; the comment what fits, the
				// most severe rows first, and where the rest is.
				head, _, _ := strings.Cut(string(s), "\n| ")
				if len(c) > 65536 || len(c) < 60000 || !strings.HasPrefix(string(c), "<!-- ibreport-diff -->\n"+head) ||
					!strings.Contains(string(c), "are in the full report: the job summary of https://github.com/o/r/actions/runs/12.") {
					t.Errorf("a comment of %d bytes for a report of %d; it ends:\n%s", len(c), len(s), c[max(0, len(c)-600):])
				}
				if strings.Count(string(c), "\n| **FAIL** |") < 150 {
					t.Errorf("the comment lists only %d failed rows", strings.Count(string(c), "\n| **FAIL** |"))
				}
			}
			if !strings.HasPrefix(string(s), "### ibreport diff: "+tc.status) {
				t.Errorf("the summary starts %q, want the %s headline", strings.SplitN(string(s), "\n", 2)[0], tc.status)
			}
			if n := strings.Count(string(out), "::error "); n != tc.errors {
				t.Errorf("%d error annotations, want %d:\n%s", n, tc.errors, out)
			}
			if tc.want == 1 && !strings.Contains(string(out), "::error file=") {
				t.Errorf("the error annotation names no file:\n%s", out)
			}
			if tc.want != 2 && !strings.Contains(string(out), "::notice title=ibreport diff "+tc.status) {
				t.Errorf("no verdict notice:\n%s", out)
			}
		})
	}
}
