package ibreport_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// snippet is one Go code block of the documentation and, when the block
// after it is an "output" block, what it prints.
type snippet struct {
	file, code, output string
	line               int
	hasOutput          bool
}

// goSnippets returns the Go code blocks of README.md and docs/*.md. A
// block fenced as ```go followed by one fenced as ```output holds a
// program whose output is checked.
func goSnippets(t *testing.T) []snippet {
	t.Helper()
	var out []snippet
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		type block struct {
			info, text string
			line       int
		}
		var blocks []block
		for i := 0; i < len(lines); i++ {
			l := strings.TrimSpace(lines[i])
			if !strings.HasPrefix(l, "```") {
				continue
			}
			bl := block{info: strings.TrimPrefix(l, "```"), line: i + 1}
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				body = append(body, lines[i])
			}
			bl.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, bl)
		}
		for i, bl := range blocks {
			if bl.info != "go" {
				continue
			}
			s := snippet{file: f, code: bl.text, line: bl.line}
			if i+1 < len(blocks) && blocks[i+1].info == "output" {
				s.output, s.hasOutput = blocks[i+1].text, true
			}
			out = append(out, s)
		}
	}
	return out
}

// snippetImports are the packages a snippet may use without importing
// them: a snippet is the body of main.
var snippetImports = map[string]string{
	"report":  module + "/report",
	"render":  module + "/report/render",
	"metrics": module + "/metrics",
	"parse":   module + "/parse",
	"diff":    module + "/diff",
	"errors":  "errors",
	"fmt":     "fmt",
	"log":     "log",
	"os":      "os",
	"strings": "strings",
}

// program makes a snippet a main package: the snippet itself when it is
// one, else the body of main with the packages it names imported.
func program(code string) string {
	if strings.HasPrefix(strings.TrimSpace(code), "package ") {
		return code
	}
	noComments := regexp.MustCompile(`//.*`).ReplaceAllString(code, "")
	var imps []string
	for name, path := range snippetImports {
		if regexp.MustCompile(`\b` + name + `\.`).MatchString(noComments) {
			imps = append(imps, fmt.Sprintf("\t%q\n", path))
		}
	}
	sort.Strings(imps)
	return "package main\n\nimport (\n" + strings.Join(imps, "") + ")\n\nfunc main() {\n" + code + "}\n"
}

// TestDocSnippets builds and vets every Go snippet of the documentation as
// a program of a module that requires this one, and runs, from the root of
// the repository, those followed by their output.
func TestDocSnippets(t *testing.T) {
	snips := goSnippets(t)
	if len(snips) < 2 {
		t.Fatalf("%d Go snippets in README.md and docs/", len(snips))
	}
	dir := userModule(t)
	names := make([]string, len(snips))
	for i, s := range snips {
		names[i] = fmt.Sprintf("s%02d", i)
		d := filepath.Join(dir, names[i])
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(program(s.code)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	where := func(out string) string { // a compiler message as file:line of the Markdown
		for i, s := range snips {
			out = strings.ReplaceAll(out, names[i]+"/main.go", fmt.Sprintf("%s (snippet at line %d)", s.file, s.line))
		}
		return out
	}
	if out, err := goIn(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet of the snippets: %v\n%s", err, where(out))
	}
	bin := filepath.Join(dir, "bin")
	if out, err := goIn(t, dir, "build", "-o", bin+string(filepath.Separator), "./..."); err != nil {
		t.Fatalf("go build of the snippets: %v\n%s", err, where(out))
	}
	ran := 0
	for i, s := range snips {
		if !s.hasOutput {
			continue
		}
		ran++
		cmd := exec.Command(filepath.Join(bin, names[i]))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: snippet at line %d: %v\n%s", s.file, s.line, err, stderr.String())
			continue
		}
		if got := stdout.String(); got != s.output {
			t.Errorf("%s: snippet at line %d prints\n%s\nwant\n%s", s.file, s.line, got, s.output)
		}
	}
	if ran == 0 {
		t.Error("no snippet of the documentation has its output to check")
	}
}
