package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildCommand(t *testing.T) {
	dir := t.TempDir()
	intro := filepath.Join(dir, "intro.md")
	os.WriteFile(intro, []byte("# Setup\n\nServer: *2 cores*.\n\n<script>alert(1)</script>\n"), 0o644)
	out := filepath.Join(dir, "report.html")

	code, stdout, stderr := runCmd(t, "build", example, "--intro", intro, "--title", "Fixture runs", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Error("-o also wrote to stdout")
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>Fixture runs</title>", "<em>2 cores</em>", `id="throughput"`, "<svg"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "<script") {
		t.Error("raw HTML of the introduction reached the page")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("files left in the output folder: %v", ents)
	}

	code, stdout, _ = runCmd(t, "build", "--format", "json", example)
	var rep struct {
		Schema string
		DBMS   []string
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || rep.Schema == "" || len(rep.DBMS) != 2 {
		t.Errorf("json: exit %d, %+v", code, rep)
	}
	code, stdout, _ = runCmd(t, "build", "--format", "md", example)
	if code != 0 || !strings.Contains(stdout, "| dbms | l.i0 | l.x |") {
		t.Errorf("md: exit %d", code)
	}
}

func TestBuildExitCodes(t *testing.T) {
	empty := t.TempDir()
	junk := t.TempDir()
	os.WriteFile(filepath.Join(junk, "mrg.l.i0"), []byte("\x00\x01\x02binary\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "r.html")
	for _, c := range []struct {
		name string
		args []string
		want int
	}{
		{"ok", []string{"build", example, "--format", "text"}, 0},
		{"no results", []string{"build"}, 2},
		{"bad format", []string{"build", example, "--format", "pdf"}, 2},
		{"empty folder", []string{"build", empty}, 2},
		{"not a folder", []string{"build", filepath.Join(empty, "nope")}, 2},
		{"missing intro", []string{"build", example, "--intro", filepath.Join(empty, "x.md")}, 2},
		{"negative clients", []string{"build", example, "--clients", "-1"}, 2},
		{"unwritable output", []string{"build", example, "-o", missing}, 3},
		{"junk archive", []string{"build", junk, "--clients", "2"}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, c.args...)
			if code != c.want {
				t.Errorf("exit %d, want %d; stderr: %s", code, c.want, stderr)
			}
			if c.want != 0 && !strings.Contains(stderr, "ibreport:") {
				t.Errorf("no error message: %q", stderr)
			}
		})
	}
}
