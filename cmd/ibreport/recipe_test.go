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

// TestREADMERecipe runs the CI recipe of README.md, as written, on the
// sysbench test data: the folders against themselves exit 0 with PASS in
// the job summary; a read-only test planted 10% slower exits 1 with FAIL
// in the summary, in the PR comment (a stand-in gh records it) and in an
// ::error annotation.
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
	// gh stand-in: saves the comment body it was given.
	gh := "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"pr comment 7 --body-file\" ] || exit 3\ncp \"$5\" \"$GH_OUT\"\n"
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(gh), 0o755); err != nil {
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
	recipe := readmeRecipe(t)
	for _, tc := range []struct {
		name, new string
		want      int
		status    string
	}{
		{"same", raw, 0, "PASS"},
		{"read-only 10% slower", slow, 1, "FAIL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			summary, comment := filepath.Join(work, "summary.md"), filepath.Join(work, "comment.md")
			cmd := exec.Command("bash", "-euc", recipe)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"BASE="+raw, "NEW="+tc.new, "GITHUB_STEP_SUMMARY="+summary, "PR_NUMBER=7", "GH_OUT="+comment)
			out, err := cmd.Output()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.want {
				t.Errorf("exit %d, want %d\n%s", code, tc.want, out)
			}
			for _, f := range []string{summary, comment} {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(string(b), "### ibreport diff: "+tc.status) {
					t.Errorf("%s starts %q, want the %s headline", filepath.Base(f), strings.SplitN(string(b), "\n", 2)[0], tc.status)
				}
			}
			if tc.want == 1 && !strings.Contains(string(out), "::error file=") {
				t.Errorf("no error annotation:\n%s", out)
			}
			if !strings.Contains(string(out), "::notice title=ibreport diff "+tc.status) {
				t.Errorf("no verdict notice:\n%s", out)
			}
		})
	}
}
