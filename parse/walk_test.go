package parse_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// TestSymlinkedResults finds result trees and sysbench folders collected
// in a folder of symbolic links, which also holds links back to itself and
// to its parent (loops) and a dangling link.
func TestSymlinkedResults(t *testing.T) {
	root := t.TempDir()
	write := func(p, data string) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	write("runs/x.my8032.z1.pk1/sb.o.insert.range100.pk1.dop1", sbReport)
	write("runs/x.pg17.c1.pk1/sb.o.insert.range100.pk1.dop1", sbReport)
	write("runs/2m.pg15.c1/l.i0/o.res.dop1", "")
	write("runs/2m.pg15.c2/l.i0/o.res.dop1", "")
	write("results/notes", "")
	link("../runs/x.my8032.z1.pk1", "results/x.my8032.z1.pk1")
	link("../runs/x.pg17.c1.pk1", "results/x.pg17.c1.pk1")
	link("../runs/2m.pg15.c1", "results/2m.pg15.c1")
	link("../runs/2m.pg15.c2", "results/2m.pg15.c2")
	link(".", "results/loop")
	link("..", "results/up")
	link("../runs/nothing", "results/dangling")
	link("../../runs/x.pg17.c1.pk1/sb.o.insert.range100.pk1.dop1", "runs/x.my8032.z1.pk1/sb.o.insert.range100.pk1.dop2")
	fsys := os.DirFS(filepath.Join(root, "results"))
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		names = append(names, d.Dir)
	}
	if len(dirs) != 2 || dirs[0].Dir != "x.my8032.z1.pk1" || dirs[1].Dir != "x.pg17.c1.pk1" {
		t.Fatalf("sysbench folders %q", names)
	}
	if th := dirs[0].Threads["insert.range100.pk1"]; len(th) != 2 {
		t.Errorf("a linked sb.o file is not read: threads %v", th)
	}
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 || trees[0].Name != "2m.pg15.c1" || trees[1].Name != "2m.pg15.c2" || len(trees[0].Steps) != 1 {
		t.Fatalf("trees %+v", trees)
	}
}

// TestFolderSize adds up the files behind links as the readers find them:
// a linked folder counts; a link back to the folder itself (a loop) and a
// dangling link add nothing.
func TestFolderSize(t *testing.T) {
	root := t.TempDir()
	for p, data := range map[string]string{"runs/a/o.res.dop1": "12345", "results/notes": "123"} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"results/a": "../runs/a", "results/self": ".", "results/gone": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	got := parse.FolderSize(os.DirFS(filepath.Join(root, "results")), ".")
	if want := int64(3 + 5); got != want {
		t.Errorf("FolderSize = %d, want %d", got, want)
	}
}
