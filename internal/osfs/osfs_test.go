package osfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"x": "one\n", "a/y": "two\n", "a/b/z": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestFS runs the standard library's checks of a file system on Dir.
func TestFS(t *testing.T) {
	if err := fstest.TestFS(Dir(tree(t)), "x", "a/y", "a/b/z"); err != nil {
		t.Fatal(err)
	}
}

// TestSameAsDirFS checks that Open reads what os.DirFS reads and fails
// with the same messages.
func TestSameAsDirFS(t *testing.T) {
	dir := tree(t)
	ours, theirs := Dir(dir), os.DirFS(dir)
	for _, name := range []string{"x", "a/y", "a/b/z", "a", ".", "missing", "a/missing/x", "../x", "/x", "a//y", ""} {
		t.Run(name, func(t *testing.T) {
			f1, err1 := ours.Open(name)
			f2, err2 := theirs.Open(name)
			if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
				t.Fatalf("Open(%q): %v, os.DirFS: %v", name, err1, err2)
			}
			if err1 != nil {
				return
			}
			defer f1.Close()
			defer f2.Close()
			st1, _ := f1.Stat()
			st2, _ := f2.Stat()
			if st1.IsDir() != st2.IsDir() || st1.Size() != st2.Size() || st1.Name() != st2.Name() {
				t.Fatalf("Stat(%q): %v %d %q, os.DirFS: %v %d %q", name, st1.IsDir(), st1.Size(), st1.Name(), st2.IsDir(), st2.Size(), st2.Name())
			}
			if st1.IsDir() {
				return
			}
			b1, err1 := io.ReadAll(f1)
			b2, err2 := io.ReadAll(f2)
			if string(b1) != string(b2) || (err1 == nil) != (err2 == nil) {
				t.Fatalf("read %q: %q %v, os.DirFS: %q %v", name, b1, err1, b2, err2)
			}
		})
	}
}

// TestZero checks that the zero FS fails instead of panicking.
func TestZero(t *testing.T) {
	var d FS
	if _, err := d.Open("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Open: %v", err)
	}
	if _, err := d.Stat("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Stat: %v", err)
	}
	if _, err := d.ReadDir("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadDir: %v", err)
	}
	if _, err := d.ReadFile("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadFile: %v", err)
	}
	if _, err := d.ReadLink("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("ReadLink: %v", err)
	}
	if _, err := d.Lstat("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("Lstat: %v", err)
	}
}
