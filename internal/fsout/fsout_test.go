package fsout

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"mrg.l.i0": true, "x.pg15.c1.pk1/sb.met.scan": true,
		"": false, ".": false, "..": false, "a/../b": false, "/abs": false, "a//b": false, `a\b`: false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestWriteFilesReplacesOnlyItsOwnSet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := WriteFiles(dir, []File{{"a", []byte("1\n")}, {"sub/b", []byte("2\n")}}); err != nil {
		t.Fatal(err)
	}
	if err := WriteFiles(dir, []File{{"c", []byte("3\n")}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := []string{Manifest, "c"}; !slices.Equal(got, want) {
		t.Errorf("second set left %v, want %v", got, want)
	}
	ents, _ := os.ReadDir(filepath.Dir(dir))
	if len(ents) != 1 {
		t.Errorf("hidden folders left beside the set: %v", ents)
	}

	user := t.TempDir()
	os.WriteFile(filepath.Join(user, "notes.txt"), []byte("mine"), 0o644)
	err := WriteFiles(user, []File{{"a", nil}})
	if err == nil || !strings.Contains(err.Error(), Manifest) {
		t.Errorf("a folder of the user's was not refused: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(user, "notes.txt")); string(b) != "mine" {
		t.Error("the user's file was touched")
	}
	if err := WriteFiles(filepath.Join(t.TempDir(), "x"), []File{{"../escape", nil}}); err == nil {
		t.Error("a name leaving the folder was accepted")
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.html")
	if err := WriteFile(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if string(b) != "two" || len(ents) != 1 {
		t.Errorf("got %q and %d files, want \"two\" alone", b, len(ents))
	}
}

func TestSet(t *testing.T) {
	s := NewSet()
	s.Line("rel.l.i0", "a", "b")
	s.Touch("empty")
	s.Line("mrg.l.i0", "x")
	s.Line("rel.l.i0", "c")
	var got []string
	for _, f := range s.Files() {
		got = append(got, f.Name+"="+string(f.Data))
	}
	want := []string{"empty=", "mrg.l.i0=x\n", "rel.l.i0=a\nb\nc\n"}
	if !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}
