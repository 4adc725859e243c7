package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFolderCheckedFirst checks that build and series refuse an -o
// file whose folder is missing before reading anything (no warning of
// the example is printed), naming the path given, not a temporary file.
func TestOutputFolderCheckedFirst(t *testing.T) {
	out := filepath.Join(t.TempDir(), "no", "x.html")
	for _, args := range [][]string{
		{"build", "-o", out, example},
		{"series", "-o", out, example, example},
	} {
		code, _, stderr := runCmd(t, args...)
		if code != 3 || !strings.Contains(stderr, out) || strings.Contains(stderr, ".tmp") || strings.Contains(stderr, "warning:") {
			t.Errorf("%s: exit %d, stderr %q; want exit 3 naming %s before any warning", args[0], code, stderr, out)
		}
	}
}
