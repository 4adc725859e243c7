//go:build unix

package osfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenRegularSameAsStat checks that OpenRegular opens exactly the
// regular files, with os.DirFS's FileInfo (the mode bits included), and
// says what anything else is, without opening a FIFO (which would block).
func TestOpenRegularSameAsStat(t *testing.T) {
	dir := tree(t)
	os.Chmod(filepath.Join(dir, "a", "y"), 0o4755|os.ModeSetuid)
	os.Chmod(filepath.Join(dir, "a", "b"), 0o755|os.ModeSticky)
	fifo := syscall.Mkfifo(filepath.Join(dir, "p"), 0o600) == nil
	os.Symlink("x", filepath.Join(dir, "l"))
	d := Dir(dir)
	for _, name := range []string{"x", "a/y", "a/b/z", "a", "a/b", "p", "l", ".", "missing", "../x", ""} {
		if name == "p" && !fifo {
			continue
		}
		f, fi, err := d.OpenRegular(name)
		want, werr := fs.Stat(os.DirFS(dir), name)
		switch {
		case !fs.ValidPath(name):
			if !errors.Is(err, fs.ErrInvalid) {
				t.Errorf("%q: %v, want an invalid name", name, err)
			}
			continue
		case werr != nil:
			_, derr := os.DirFS(dir).Open(name)
			if err == nil || err.Error() != derr.Error() {
				t.Errorf("%q: %v, os.DirFS: %v", name, err, derr)
			}
			continue
		case err != nil:
			t.Errorf("%q: %v", name, err)
			continue
		}
		if (f != nil) != want.Mode().IsRegular() {
			t.Errorf("%q: opened %v, a regular file %v", name, f != nil, want.Mode().IsRegular())
		}
		if fi.Name() != want.Name() || fi.Size() != want.Size() || fi.Mode() != want.Mode() || !fi.ModTime().Equal(want.ModTime()) || fi.IsDir() != want.IsDir() {
			t.Errorf("%q: %s %d %v %v, os.DirFS: %s %d %v %v", name, fi.Name(), fi.Size(), fi.Mode(), fi.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
		}
		if f != nil {
			b, err := io.ReadAll(f)
			w, _ := os.ReadFile(filepath.Join(dir, name))
			if string(b) != string(w) || err != nil {
				t.Errorf("%q: read %q %v, want %q", name, b, err, w)
			}
			f.Close()
		}
	}
	var zero FS
	if _, _, err := zero.OpenRegular("x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("zero FS: %v", err)
	}
}
