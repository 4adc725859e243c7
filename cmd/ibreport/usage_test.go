package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden help files in testdata/help")

// TestHelpGolden compares the help of every command, and the list of
// commands, with testdata/help/<command>.txt (-update rewrites them).
// The help is the same however it is asked for.
func TestHelpGolden(t *testing.T) {
	cases := map[string][][]string{"ibreport": {{"help"}, {"-h"}, {"--help"}}}
	for _, c := range commands {
		cases[c.name] = [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}}
	}
	if len(cases) < 8 {
		t.Fatalf("%d helps", len(cases))
	}
	for name, forms := range cases {
		golden := filepath.Join("testdata", "help", name+".txt")
		var first string
		for i, args := range forms {
			code, stdout, stderr := runCmd(t, args...)
			if code != 0 || stderr != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
			if i == 0 {
				first = stdout
			} else if stdout != first {
				t.Errorf("%v prints another help than %v", args, forms[0])
			}
		}
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(first), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./cmd/ibreport -run TestHelpGolden -update writes it)", err)
		}
		if first != string(want) {
			t.Errorf("help of %s differs from %s (-update rewrites it):\n%s", name, golden, first)
		}
	}
}

// TestHelpReadsAlike checks what every command's help must say: flags as
// --name with a placeholder that is no Go type name, under a group
// heading, and the settings file where the command reads its keys.
func TestHelpReadsAlike(t *testing.T) {
	goType := regexp.MustCompile(`^  --?[a-z-]+ (int|string|float|value|uint|duration)$`)
	singleDash := regexp.MustCompile(`^  -[a-z][a-z-]+`)
	for _, c := range commands {
		_, help, _ := runCmd(t, "help", c.name)
		lines := strings.Split(help, "\n")
		for _, l := range lines {
			if goType.MatchString(l) {
				t.Errorf("%s: a flag without a meaningful placeholder: %q", c.name, l)
			}
			if singleDash.MatchString(l) {
				t.Errorf("%s: a long flag written with one dash: %q", c.name, l)
			}
		}
		hasFlags := strings.Contains(help, "\n  --")
		if hasFlags && !strings.Contains(help, "\nCommon flags:\n") {
			t.Errorf("%s: flags without the common group:\n%s", c.name, help)
		}
		if hasFlags && strings.Contains(help, "\nFlags:\n") {
			t.Errorf("%s: an ungrouped flag list", c.name)
		}
		if reads := c.settings != ""; reads != strings.Contains(help, "ibreport.settings in ") {
			t.Errorf("%s: reads the settings file %v, but its help says %v", c.name, reads, !reads)
		}
	}
	// build's sysbench-only flags are apart from the insert benchmark's.
	_, help, _ := runCmd(t, "help", "build")
	sb, ib := strings.Index(help, "Sysbench flags:"), strings.Index(help, "Insert benchmark flags:")
	if sb < 0 || ib < 0 || strings.Index(help, "--sb-tag") < sb || strings.Index(help, "--stall-rate") > sb {
		t.Errorf("build's flags are not grouped:\n%s", help)
	}
}

// TestHelpHelpAndVersion: help and version have a help like any command,
// and the list of commands names them and diff --history.
func TestHelpHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"help", "help"}, {"help", "version"}, {"help", "-h"}, {"version", "-h"}} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Usage: ibreport "+strings.TrimPrefix(args[len(args)-1], "-h")) && args[1] != "-h" {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
	}
	_, list, _ := runCmd(t, "help")
	for _, want := range []string{"\n  ibreport help ", "\n  ibreport version\n", "\n  ibreport diff     --history ", "\n  help ", "\n  version "} {
		if !strings.Contains(list, want) {
			t.Errorf("the list of commands lacks %q:\n%s", want, list)
		}
	}
	code, stdout, _ := runCmd(t, "--version")
	_, stdout2, _ := runCmd(t, "version")
	if code != 0 || stdout != stdout2 || !strings.HasPrefix(stdout, "ibreport ") {
		t.Errorf("--version: exit %d, %q; version: %q", code, stdout, stdout2)
	}
	// Tests build without VCS stamping (GOFLAGS=-buildvcs=false, or no
	// VCS at all): the version says so rather than showing nothing.
	if !strings.Contains(stdout, "(revision unknown: built without VCS stamping)") && !regexp.MustCompile(`\([0-9a-f]{12}`).MatchString(stdout) {
		t.Errorf("--version names no revision and does not say why: %q", stdout)
	}
}

// TestUsageErrors: a wrong flag or command is printed once, with the way
// to the help and, for a typing mistake, the nearest name.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "--clent", "3", "x"}, "ibreport: unknown flag --clent; did you mean --clients?\nrun 'ibreport build -h' for its flags and examples\n"},
		{[]string{"diff", "--treshold", "ips=3%", "a", "b"}, "ibreport: unknown flag --treshold; did you mean --threshold?\nrun 'ibreport diff -h' for its flags and examples\n"},
		{[]string{"tables", "-frobnicate", "x"}, "ibreport: unknown flag --frobnicate\nrun 'ibreport tables -h' for its flags and examples\n"},
		{[]string{"build", "--cores", "many", "x"}, "ibreport: invalid value \"many\" for flag --cores: parse error\nrun 'ibreport build -h' for its flags and examples\n"},
		{[]string{"biuld", "x"}, "ibreport: unknown command \"biuld\"; did you mean build?\nrun 'ibreport help' for the list of commands\n"},
		{[]string{"inpsect", "x"}, "ibreport: unknown command \"inpsect\"; did you mean inspect?\nrun 'ibreport help' for the list of commands\n"},
		{[]string{"help", "seires"}, "ibreport: no command \"seires\"; did you mean series?\nrun 'ibreport help' for the list of commands\n"},
		{[]string{"frobnicate"}, "ibreport: unknown command \"frobnicate\"; want one of build, tables, diff, series, inspect, help, version\nrun 'ibreport help' for the list of commands\n"},
		{[]string{"build"}, "ibreport: want one RESULTS folder\nusage: ibreport build [flags] RESULTS [-o FILE]\nrun 'ibreport build -h' for its flags and examples\n"},
		{[]string{"version", "x"}, "ibreport: want no arguments\nusage: ibreport version\nrun 'ibreport version -h' for its flags and examples\n"},
	} {
		code, stdout, stderr := runCmd(t, c.args...)
		if code != 2 || stdout != "" || stderr != c.want {
			t.Errorf("%v: exit %d, stdout %q\nstderr %q\nwant   %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"build", "tables", "diff", "series", "inspect", "help", "version"}
	for _, c := range []struct{ in, want string }{
		{"biuld", "build"}, {"buidl", "build"}, {"tabels", "tables"}, {"dif", "diff"}, {"vresion", "version"},
		{"x", ""}, {"frobnicate", ""}, {"hel", "help"}, {"", ""},
	} {
		if got := nearest(c.in, names); got != c.want {
			t.Errorf("nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
