package ibreport_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// userModule makes, in a temporary directory, a module that requires this
// one through a replace directive, as a program outside the repository
// would, and returns its directory. Tests build generated programs in it:
// they see only what a user of the module sees.
func userModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a program in a module of its own")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go [0-9.]+$`).Find(gomod)
	if goLine == nil {
		t.Fatal("go.mod has no go line")
	}
	dir := t.TempDir()
	mod := "module usercheck\n\n" + string(goLine) + "\n\nrequire " + module + " v0.0.0\n\nreplace " + module + " => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// goIn runs the go command in dir and returns its combined output. The
// module's requirements of the user module are filled from the module
// graph of this one (-mod=mod), so its go.mod needs no list of them.
func goIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}
