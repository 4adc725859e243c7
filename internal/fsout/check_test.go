package fsout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOutputFolder checks that an output file whose folder is
// missing, or is a file, is refused before anything is written, naming
// the path given, and that a write that fails anyway names it too, not
// the temporary file.
func TestCheckOutputFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{filepath.Join(dir, "x.html"), true},
		{filepath.Join(dir, "missing", "x.html"), false},
		{filepath.Join(file, "x.html"), false},
	} {
		err := CheckOutputFolder(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckOutputFolder(%s): %v, want ok %v", tc.name, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), tc.name) {
			t.Errorf("CheckOutputFolder(%s): %v does not name the file", tc.name, err)
		}
	}
	name := filepath.Join(dir, "missing", "x.html")
	err := WriteFile(name, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("WriteFile(%s): %v, want an error naming it", name, err)
	}
}
