package fsout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// files lists the files under dir, slash-separated.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	return got
}

// A set the user added to is refused, naming what was added, and nothing
// of it is deleted.
func TestWriteFilesKeepsUnlisted(t *testing.T) {
	for _, c := range []struct {
		name  string
		add   func(dir string)
		named string
	}{
		{"a file", func(dir string) { os.WriteFile(filepath.Join(dir, "NOTES.txt"), []byte("mine"), 0o644) }, ": NOTES.txt;"},
		{"a folder", func(dir string) { os.MkdirAll(filepath.Join(dir, "plots", "x"), 0o755) }, ": plots/;"},
		{"a file in a folder of the set", func(dir string) { os.WriteFile(filepath.Join(dir, "sub", "mine"), nil, 0o644) }, ": sub/mine;"},
		{"a folder where the set has a file", func(dir string) {
			os.Remove(filepath.Join(dir, "a"))
			os.MkdirAll(filepath.Join(dir, "a"), 0o755)
		}, ": a/;"},
		{"seven files", func(dir string) {
			for _, n := range []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7"} {
				os.WriteFile(filepath.Join(dir, n), nil, 0o644)
			}
		}, ": n1, n2, n3, n4, n5 and 2 more;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := WriteFiles(dir, []File{{"a", []byte("1\n")}, {"sub/b", []byte("2\n")}}); err != nil {
				t.Fatal(err)
			}
			c.add(dir)
			before := files(t, dir)
			err := WriteFiles(dir, []File{{"c", nil}})
			if err == nil || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not listed in its "+Manifest+")"+c.named) {
				t.Errorf("got %v, want a refusal naming%s", err, c.named)
			}
			if after := files(t, dir); strings.Join(after, " ") != strings.Join(before, " ") {
				t.Errorf("the folder changed: %v, was %v", after, before)
			}
		})
	}
}

// A file the user adds while the run computes (after OpenDir) is not lost
// either: Write looks again just before the swap.
func TestWriteLooksAgain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteFiles(dir, []File{{"a", nil}}); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.WriteFile(filepath.Join(dir, "NOTES.txt"), []byte("mine"), 0o644)
	if err := d.Write(context.Background(), []File{{"b", nil}}); !errors.Is(err, ErrRefused) {
		t.Errorf("Write: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "NOTES.txt")); string(b) != "mine" {
		t.Error("the user's file is gone")
	}
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 2 { // out and the lock file
		t.Errorf("left beside the folder: %v", ents)
	}
}

// A second run writing the same folder is refused while the first holds
// it; the lock file goes with the first run's Close.
func TestOpenDirLock(t *testing.T) {
	if !canLock {
		t.Skip("no flock here")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	first, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenDir(dir)
	if want := "another ibreport is writing " + dir; err == nil || !errors.Is(err, ErrRefused) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("second OpenDir: %v, want %q", err, want)
	}
	if err := WriteFiles(dir, nil); !errors.Is(err, ErrRefused) {
		t.Errorf("WriteFiles while locked: %v", err)
	}
	if err := first.Write(context.Background(), []File{{"a", []byte("1")}}); err != nil {
		t.Fatal(err)
	}
	first.Close()
	first.Close()
	if ents, _ := os.ReadDir(parent); len(ents) != 1 || ents[0].Name() != "out" {
		t.Errorf("beside the set: %v, want out alone", ents)
	}
	// A lock file a killed run left (no one holds it) is taken and removed.
	os.WriteFile(filepath.Join(parent, ".out"+lockSuffix), nil, 0o600)
	if err := WriteFiles(dir, []File{{"b", nil}}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("beside the set: %v, want out alone", ents)
	}
}

// Only the temporary folders of the output written are removed as stale:
// those of an output whose name starts alike are another run's.
func TestRemoveStaleFolders(t *testing.T) {
	parent := t.TempDir()
	for _, n := range []string{".out.ibreport-123", ".out.ibreport-9.old", ".out.ibreport-x.ibreport-55", ".out.ibreport-7x", ".out2.ibreport-1"} {
		os.MkdirAll(filepath.Join(parent, n, "f"), 0o755)
	}
	if err := WriteFiles(filepath.Join(parent, "out"), nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := ".out.ibreport-7x .out.ibreport-x.ibreport-55 .out2.ibreport-1 out"; strings.Join(got, " ") != want {
		t.Errorf("left %v, want %s", got, want)
	}
}

// The temporary file of a killed WriteFile is removed by the next write of
// the same file; that of a live writer (it holds the lock) and those of
// other files are not.
func TestRemoveStaleTemps(t *testing.T) {
	if !canLock {
		t.Skip("no flock here")
	}
	dir := t.TempDir()
	for _, n := range []string{".report.html.tmp123", ".report.html.tmp456", ".report.html.tmp7.tmp8", ".report.html.tmpx", ".other.html.tmp1"} {
		os.WriteFile(filepath.Join(dir, n), []byte("partial"), 0o600)
	}
	live, err := os.Open(filepath.Join(dir, ".report.html.tmp456"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if ok, err := lockFile(live, false); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := WriteFile(filepath.Join(dir, "report.html"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	var got []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := ".other.html.tmp1 .report.html.tmp456 .report.html.tmp7.tmp8 .report.html.tmpx report.html"; strings.Join(got, " ") != want {
		t.Errorf("left %v, want %s", got, want)
	}
}

// "." is written beside itself, not inside.
func TestWriteFilesDot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	os.Mkdir(out, 0o755)
	t.Chdir(out)
	if err := WriteFiles(".", []File{{"a", []byte("1")}}); err != nil {
		t.Fatal(err)
	}
	if got := files(t, out); strings.Join(got, " ") != Manifest+" a" {
		t.Errorf("out holds %v", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("beside out: %v", ents)
	}
}
