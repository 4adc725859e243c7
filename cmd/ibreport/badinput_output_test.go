package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/fsout"
	"golang.org/x/sys/unix"
)

// Outputs that would destroy an input or a file of the user's, reached
// through symbolic links or not, and what killed or concurrent runs leave.
func init() {
	moreBadCases = append(moreBadCases,
		refused(badCase{name: "build -o the settings file of a linked RESULTS", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path("ibreport.settings"), []byte("cores = 2\n"), 0o644)
			os.MkdirAll(filepath.Join(w.dir, "in"), 0o755)
			symlink(t, "../res", filepath.Join(w.dir, "in", "exlink"))
			return []string{"build", "--quiet", filepath.Join(w.dir, "in", "exlink"), "-o", w.path("ibreport.settings")}
		}, code: 2, stderr: []string{"-o: $DIR/res/ibreport.settings is inside $DIR/in/exlink, the results being read ($DIR/in/exlink resolves to ", "/res); write the output elsewhere"}}),
		refused(badCase{name: "build -o a log of a tree RESULTS links to", setup: func(t *testing.T, w *work) []string {
			linkTree(t, w)
			return []string{"build", "--quiet", w.res, "-o", filepath.Join(w.dir, "trees", c1, "l.i0", "o.res.dop2")}
		}, code: 2, stderr: []string{"-o: $DIR/trees/" + c1 + "/l.i0/o.res.dop2 is inside $DIR/res, the results being read (through the link $DIR/res/" + c1 + ", which resolves to ", "/trees/" + c1 + "); write the output elsewhere"}}),
		refused(badCase{name: "build -o a log of RESULTS through a linked folder", setup: func(t *testing.T, w *work) []string {
			symlink(t, "res", filepath.Join(w.dir, "reslink"))
			return []string{"build", "--quiet", w.res, "-o", filepath.Join(w.dir, "reslink", c1, "l.i0", "o.res.dop2")}
		}, code: 2, stderr: []string{"-o: $DIR/reslink/" + c1 + "/l.i0/o.res.dop2 is inside $DIR/res, the results being read; write the output elsewhere"}}),
		refused(badCase{name: "build -o a file a link in a tree leads to", setup: func(t *testing.T, w *work) []string {
			log := w.path(c1, "l.i0", "o.res.dop2")
			os.Rename(log, filepath.Join(w.dir, "o.res.kept"))
			symlink(t, "../../../o.res.kept", log)
			return []string{"build", "--quiet", w.res, "-o", filepath.Join(w.dir, "o.res.kept")}
		}, code: 2, stderr: []string{"-o: $DIR/o.res.kept is an input of this run (through the link $DIR/res/" + c1 + "/l.i0/o.res.dop2, which resolves to ", "/o.res.kept); write the output elsewhere"}}),
		refused(badCase{name: "series -o a log of a tree a set links to", setup: func(t *testing.T, w *work) []string {
			linkTree(t, w)
			return []string{"series", "--quiet", w.res, w.res, w.res, w.res, "-o", filepath.Join(w.dir, "trees", c1, "l.i1", "o.res.dop2")}
		}, code: 2, stderr: []string{"-o: $DIR/trees/" + c1 + "/l.i1/o.res.dop2 is inside $DIR/res, the results being read (through the link $DIR/res/" + c1 + ", "}}),
		refused(badCase{name: "tables RESULTS -o RESULTS, an earlier set", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			if code, _, stderr := runCmd(t, "tables", "--quiet", "--cores", "2", w.res, "-o", arc); code != 0 {
				t.Fatalf("first run: exit %d: %s", code, stderr)
			}
			return []string{"tables", "--quiet", arc, "-o", arc}
		}, code: 2, stderr: []string{"-o: $DIR/arc is an input of this run; write the output elsewhere"}}),
		refused(badCase{name: "tables RESULTS -o RESULTS, through a link", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			if code, _, stderr := runCmd(t, "tables", "--quiet", "--cores", "2", w.res, "-o", arc); code != 0 {
				t.Fatalf("first run: exit %d: %s", code, stderr)
			}
			symlink(t, "arc", filepath.Join(w.dir, "arclink"))
			return []string{"tables", "--quiet", filepath.Join(w.dir, "arclink"), "-o", arc}
		}, code: 2, stderr: []string{"-o: $DIR/arc is an input of this run ($DIR/arclink resolves to ", "/arc); write the output elsewhere"}}),
		refused(badCase{name: "tables RESULTS -o RESULTS, archived tables", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			copyDir(t, "../../testdata/ibench/reference/res", arc)
			return []string{"tables", "--quiet", arc, "-o", arc}
		}, code: 2, stderr: []string{"-o: $DIR/arc holds files ibreport did not write (it has no .ibreport-files); give a new or empty folder"}}),
		refused(badCase{name: "tables -o a set holding the DBMS list", setup: func(t *testing.T, w *work) []string {
			if code, _, stderr := runCmd(t, w.tables()...); code != 0 {
				t.Fatalf("first run: exit %d: %s", code, stderr)
			}
			return append(w.tables(), "--dbms", filepath.Join(w.out, "mrg.l.i0"))
		}, code: 2, stderr: []string{"-o: $DIR/out holds $DIR/out/mrg.l.i0, an input of this run; write the output elsewhere"}}),
		refused(badCase{name: "tables -o a set the user added to", setup: func(t *testing.T, w *work) []string {
			if code, _, stderr := runCmd(t, w.tables()...); code != 0 {
				t.Fatalf("first run: exit %d: %s", code, stderr)
			}
			os.WriteFile(filepath.Join(w.out, "NOTES.txt"), []byte("mine"), 0o644)
			os.MkdirAll(filepath.Join(w.out, "plots"), 0o755)
			os.WriteFile(filepath.Join(w.out, "plots", "ips.png"), []byte("png"), 0o644)
			return w.tables()
		}, code: 2, stderr: []string{"-o: $DIR/out holds what ibreport did not write (not listed in its .ibreport-files): NOTES.txt, plots/; move it away or give another folder"}}),
		refused(badCase{name: "tables -o a folder another run is writing", setup: func(t *testing.T, w *work) []string {
			other, err := fsout.OpenDir(w.out)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(other.Close)
			return w.tables()
		}, code: 2, stderr: []string{"-o: another ibreport is writing $DIR/out (it holds $DIR/.out.ibreport.lock); wait until it is done or give another folder"}}),
		badCase{name: "build -o removes what a killed build left", setup: func(t *testing.T, w *work) []string {
			pages := filepath.Join(w.dir, "pages")
			os.MkdirAll(pages, 0o755)
			os.WriteFile(filepath.Join(pages, ".report.html.tmp123"), []byte("<html>half"), 0o600)
			// A live run's temporary: it holds the lock.
			live := filepath.Join(pages, ".report.html.tmp456")
			os.WriteFile(live, []byte("<html>being written"), 0o600)
			f, err := os.Open(live)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
				t.Fatal(err)
			}
			return []string{"build", "--quiet", "--format", "text", w.res, "-o", filepath.Join(pages, "report.html")}
		}, check: func(t *testing.T, w *work) {
			ents, _ := os.ReadDir(filepath.Join(w.dir, "pages"))
			var got []string
			for _, e := range ents {
				got = append(got, e.Name())
			}
			if strings.Join(got, " ") != ".report.html.tmp456 report.html" {
				t.Errorf("pages holds %v, want the live run's temporary and report.html", got)
			}
		}},
	)
}

// symlink makes a symbolic link, or skips the test where there are none.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// linkTree moves the tree c1 to trees/ and links it from the results.
func linkTree(t *testing.T, w *work) {
	t.Helper()
	os.MkdirAll(filepath.Join(w.dir, "trees"), 0o755)
	if err := os.Rename(w.path(c1), filepath.Join(w.dir, "trees", c1)); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../trees/"+c1, w.path(c1))
}

// refused makes c check that the refusal came before anything was
// computed (the error is all the run printed: no warning of the results)
// and that the case's folder is exactly as its setup left it: no input,
// no file of the user's, no earlier set was touched, nothing was added.
func refused(c badCase) badCase {
	var args []string
	var before map[string]string
	setup := c.setup
	c.setup = func(t *testing.T, w *work) []string {
		args = setup(t, w)
		before = snapshot(t, w.dir)
		return args
	}
	c.check = func(t *testing.T, w *work) {
		if after := snapshot(t, w.dir); !sameSnapshot(t, before, after) {
			t.Error("the refused run changed its folder")
		}
		code, _, stderr := runCmd(t, args...)
		if lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); code != 2 || len(lines) != 1 {
			t.Errorf("again: exit %d, want 2 and only the error:\n%s", code, stderr)
		}
	}
	return c
}

// snapshot is every file, link and folder under dir: its content, its
// target or "folder".
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.IsDir():
			out[rel] = "folder"
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "-> " + target
			return err
		default:
			b, err := os.ReadFile(p)
			out[rel] = string(b)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, before, after map[string]string) bool {
	t.Helper()
	same := true
	for name, was := range before {
		if now, ok := after[name]; !ok {
			t.Errorf("%s is gone", name)
			same = false
		} else if now != was {
			t.Errorf("%s changed", name)
			same = false
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s was added", name)
			same = false
		}
	}
	return same
}
