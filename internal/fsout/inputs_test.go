package fsout

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkedResults makes a results folder "in" whose trees are links to
// folders elsewhere, as collected runs often are:
//
//	example/ibreport.settings, example/t1/l.i0/o.res
//	trees/t2/l.i0/o.res
//	logs/o.ib
//	in/exlink -> ../example, in/t2 -> ../trees/t2, in/t2/l.i0/o.ib -> ../../../logs/o.ib
//	in/loop -> . (a loop, not followed twice), in/gone -> nowhere
func linkedResults(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range []string{"example/ibreport.settings", "example/t1/l.i0/o.res", "trees/t2/l.i0/o.res", "logs/o.ib", "elsewhere/old.html"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(p), 0o644)
	}
	os.MkdirAll(filepath.Join(root, "in"), 0o755)
	for link, target := range map[string]string{
		"in/exlink": "../example", "in/t2": "../trees/t2", "trees/t2/l.i0/o.ib": "../../../logs/o.ib",
		"in/loop": ".", "in/gone": "nowhere",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	return root
}

func TestCheckOutputFileResolved(t *testing.T) {
	root := linkedResults(t)
	t.Chdir(root)
	for _, c := range []struct {
		out, input string
		msg        string // "" for accepted
	}{
		{"example/ibreport.settings", "in/exlink", "example/ibreport.settings is inside in/exlink, the results being read (in/exlink resolves to " + root + "/example)"},
		{"example/t1/l.i0/o.res", "in", "example/t1/l.i0/o.res is inside in, the results being read (through the link in/exlink, which resolves to " + root + "/example)"},
		{"trees/t2/l.i0/o.res", "in", "is inside in, the results being read (through the link in/t2, which resolves to " + root + "/trees/t2)"},
		{"logs/o.ib", "in", "logs/o.ib is an input of this run (through the link in/t2/l.i0/o.ib, which resolves to " + root + "/logs/o.ib)"},
		{"in/../logs/o.ib", "in/t2", "is an input of this run"},
		{"elsewhere/old.html", "in", ""},
		{"elsewhere/new.html", "in", ""},
		{"example/new.html", "in", ""}, // a new file is never an input
	} {
		err := CheckOutputFile(c.out, c.input)
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s from %s: %v, want accepted", c.out, c.input, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg) || !errors.Is(err, ErrRefused)):
			t.Errorf("%s from %s: %v, want a refusal saying %q", c.out, c.input, err, c.msg)
		}
	}
}

func TestCheckOutputFile(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "results")
	os.MkdirAll(in, 0o755)
	inside := filepath.Join(in, "o.res")
	os.WriteFile(inside, []byte("x"), 0o644)
	list := filepath.Join(root, "dbms.txt")
	os.WriteFile(list, []byte("a"), 0o644)
	old := filepath.Join(root, "old.html")
	os.WriteFile(old, []byte("x"), 0o644)
	link := filepath.Join(root, "link.html")
	os.Symlink(old, link)
	listLink := filepath.Join(root, "list-link")
	os.Symlink("dbms.txt", listLink)
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{filepath.Join(root, "new.html"), true},
		{old, true},
		{inside, false},
		{list, false},
		{in, false},
		{link, false},
		{"/dev/null", false},
	} {
		for _, inputs := range [][]string{{in, list}, {in, listLink}} {
			err := CheckOutputFile(c.name, inputs...)
			if (err == nil) != c.ok {
				t.Errorf("CheckOutputFile(%s, %v): %v, want ok=%v", c.name, inputs, err, c.ok)
			}
		}
	}
}

func TestOpenDirAndInputs(t *testing.T) {
	root := linkedResults(t)
	t.Chdir(root)
	// An earlier set to be the results, or to hold them.
	if err := WriteFiles("set", []File{{"mrg.l.i0", []byte("x\n")}, {"sub/mrg.l.i1", []byte("y\n")}}); err != nil {
		t.Fatal(err)
	}
	os.Symlink("set", "set-link")
	if err := WriteFiles("example/tables", []File{{"mrg.l.i0", []byte("x\n")}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, input, msg string }{
		{"set", "set", "set is an input of this run"},
		{"set", "set-link", "set is an input of this run (set-link resolves to " + root + "/set)"},
		{"set", "set/sub", "set holds set/sub, an input of this run"},
		{"example/tables", "in", "example/tables is inside in, the results being read (through the link in/exlink, which resolves to " + root + "/example)"},
		{"example/t1", "in", "example/t1 holds files ibreport did not write"},
		{"set", "in", ""},
		{"new/out", "in", ""},
	} {
		d, err := OpenDir(c.out, c.input)
		if d != nil {
			d.Close()
		}
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%s from %s: %v, want accepted", c.out, c.input, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg) || !errors.Is(err, ErrRefused)):
			t.Errorf("%s from %s: %v, want a refusal saying %q", c.out, c.input, err, c.msg)
		}
	}
	if b, err := os.ReadFile("set/sub/mrg.l.i1"); err != nil || string(b) != "y\n" {
		t.Errorf("the set changed: %q, %v", b, err)
	}
	if _, err := os.Stat("new"); err == nil {
		t.Error("the folder made for an output never written is still there")
	}
}
