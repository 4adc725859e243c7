package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ibreport/ibreport/internal/fsout"
)

// stretchTree copies the example trees n times into dst, each stats line of
// the client logs and each iostat interval repeated k times, so that a run
// takes long enough to be killed at several points.
func stretchTree(t *testing.T, dst string, n, k int) {
	t.Helper()
	for i := range n {
		src := filepath.Join(example, []string{"2m.pg15.c1", "2m.pg15.c2"}[i%2])
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			out := filepath.Join(dst, fmt.Sprintf("2m.db%02d", i), rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if base := filepath.Base(p); strings.HasPrefix(base, "o.io.") {
				lines := bytes.SplitAfterN(data, []byte("\n"), 3)
				data = append(append(lines[0], lines[1]...), bytes.Repeat(lines[2], k)...)
			}
			return os.WriteFile(out, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// setOf reads a tables folder: its manifest and every file's content.
// complete is false when the manifest is missing or names a file that is
// not there, or the folder holds a file the manifest does not name.
func setOf(t *testing.T, dir string) (files map[string]string, complete bool) {
	t.Helper()
	m, err := os.ReadFile(filepath.Join(dir, fsout.Manifest))
	if err != nil {
		return nil, false
	}
	files = map[string]string{}
	for _, name := range strings.Fields(string(m)) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return nil, false
		}
		files[name] = string(b)
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return files, n == len(files)+1
}

// TestTablesKilled kills `ibreport tables` (SIGKILL) at many points of a run
// that replaces an earlier set: the output folder must always hold a
// complete set, the old one or the new one, never a mix or a part.
func TestTablesKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs it many times")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "ibreport")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := filepath.Join(tmp, "results")
	stretchTree(t, results, 4, 40)
	out := filepath.Join(tmp, "out")
	tables := func(extra ...string) *exec.Cmd {
		return exec.Command(bin, append([]string{"tables", "--quiet", "--cores", "2", "--device", "vda", results, "-o", out}, extra...)...)
	}
	// The old set and the new set differ in their files (--some).
	if b, err := tables("--some", "l.i0").CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, b)
	}
	oldSet, ok := setOf(t, out)
	if !ok {
		t.Fatal("the first run left an incomplete set")
	}
	start := time.Now()
	if b, err := tables().CombinedOutput(); err != nil {
		t.Fatalf("second run: %v\n%s", err, b)
	}
	full := time.Since(start)
	newSet, ok := setOf(t, out)
	if !ok || fmt.Sprint(oldSet) == fmt.Sprint(newSet) {
		t.Fatal("the old and new sets do not differ")
	}
	seen := map[string]int{}
	for i := range 16 {
		// Back to the old set, then a run killed after a growing delay.
		if b, err := tables("--some", "l.i0").CombinedOutput(); err != nil {
			t.Fatalf("reset: %v\n%s", err, b)
		}
		cmd := tables()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(full * time.Duration(i) / 14)
		cmd.Process.Kill()
		cmd.Wait()
		got, ok := setOf(t, out)
		switch {
		case !ok:
			t.Fatalf("killed after %v: the output folder is not a complete set", full*time.Duration(i)/14)
		case fmt.Sprint(got) == fmt.Sprint(oldSet):
			seen["old"]++
		case fmt.Sprint(got) == fmt.Sprint(newSet):
			seen["new"]++
		default:
			names := make([]string, 0, len(got))
			for n := range got {
				names = append(names, n)
			}
			sort.Strings(names)
			t.Fatalf("killed after %v: a set that is neither the old nor the new one: %v", full*time.Duration(i)/14, names)
		}
	}
	if seen["old"] == 0 || seen["new"] == 0 {
		t.Logf("every kill found the same set: %v", seen)
	}
	// SIGINT and SIGTERM stop the run cleanly: exit 130, nothing
	// temporary left, the folder a complete set.
	// A SIGKILLed run may have left a hidden folder; a stopped run that
	// had not started writing leaves it (the next run that writes removes
	// it), so only what a stopped run adds counts.
	leftovers := func() map[string]bool {
		out := map[string]bool{}
		ents, _ := os.ReadDir(tmp)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".out.") {
				out[e.Name()] = true
			}
		}
		return out
	}
	stopped := 0 // runs that exited 130, or 0 having finished
	for i, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM, os.Interrupt, syscall.SIGTERM} {
		before := leftovers()
		cmd := tables()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(full * time.Duration(i+1) / 5)
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		switch {
		case err == nil || code == exitInterrupted:
			stopped++
		case ws.Signaled() && ws.Signal() == sig:
			// On a loaded machine the signal can come before the
			// process has set up its handler; it then dies of it
			// before it has written anything, which the checks below
			// still hold it to.
		default:
			t.Errorf("%v after %v: exit %d, want %d (or 0 when it had finished)", sig, full*time.Duration(i+1)/5, code, exitInterrupted)
		}
		if _, ok := setOf(t, out); !ok {
			t.Fatalf("%v: the output folder is not a complete set", sig)
		}
		for name := range leftovers() {
			if !before[name] {
				t.Errorf("%v: %s left beside the output folder", sig, name)
			}
		}
	}
	if stopped == 0 {
		t.Error("no run was stopped by its signal handler")
	}
	// A later run removes what the killed ones left beside the folder.
	if b, err := tables().CombinedOutput(); err != nil {
		t.Fatalf("last run: %v\n%s", err, b)
	}
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".out.") {
			t.Errorf("%s left beside the output folder", e.Name())
		}
	}
}
