package parse_test

import (
	"io"
	"io/fs"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/ibreport/ibreport/internal/osfs"
	"github.com/ibreport/ibreport/parse"
)

// hidden hides an FS's methods but Open, Stat and ReadDir: OpenRegular
// then looks before it opens, as for any FS.
type hidden struct{ fs.FS }

func (h hidden) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(h.FS, name) }
func (h hidden) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(h.FS, name) }

// A packed folder of the system opens a file without a look before
// (parse.RegularFS): what it opens, reads and refuses, and its messages,
// are those of the look and the open, for a regular file, a FIFO (which
// must not block), a link to a device, a folder, a missing name and a
// name whose folder is missing; and the step readers skip the same files
// with the same problems.
func TestRegularFSSameAsLook(t *testing.T) {
	dir := specialStep(t)
	os.Mkdir(dir+"/sub", 0o755)
	fast := parse.Packed(osfs.Dir(dir))
	slow := parse.Packed(hidden{osfs.Dir(dir)})
	if _, ok := fast.(parse.RegularFS); !ok {
		t.Fatal("a packed folder of the system is no RegularFS")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"o.res.dop2", "o.vm.dop2", "o.ps.dop2", ".", "sub", "nope", "nope/x", "../x"} {
			f1, err1 := parse.OpenRegular(fast, name)
			f2, err2 := parse.OpenRegular(slow, name)
			if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() ||
				parse.IsNotRegular(err1) != parse.IsNotRegular(err2) {
				t.Errorf("OpenRegular(%q): %v, with a look before: %v", name, err1, err2)
				continue
			}
			if err1 != nil {
				continue
			}
			b1, e1 := io.ReadAll(f1)
			b2, e2 := io.ReadAll(f2)
			st1, _ := f1.Stat()
			st2, _ := f2.Stat()
			if string(b1) != string(b2) || e1 != nil || e2 != nil || len(b1) == 0 {
				t.Errorf("read %q: %d bytes, %v; with a look before: %d, %v", name, len(b1), e1, len(b2), e2)
			}
			if st1.Name() != st2.Name() || st1.Size() != st2.Size() || st1.Mode() != st2.Mode() || !st1.ModTime().Equal(st2.ModTime()) {
				t.Errorf("Stat(%q): %v %d %v %v; with a look before: %v %d %v %v", name,
					st1.Name(), st1.Size(), st1.Mode(), st1.ModTime(), st2.Name(), st2.Size(), st2.Mode(), st2.ModTime())
			}
			if err := f1.Close(); err != nil {
				t.Errorf("Close(%q): %v", name, err)
			}
			if _, err := f1.Read(make([]byte, 1)); err == nil {
				t.Errorf("read %q after Close: no error", name)
			}
			if err := f1.Close(); err == nil {
				t.Errorf("Close(%q) twice: no error", name)
			}
			f2.Close()
		}
		st, _ := parse.ParseStepName("l.i1")
		var problems [2][]string
		for i, fsys := range []fs.FS{fast, slow} {
			sd, err := parse.ReadStep(fsys, ".", st)
			if err != nil {
				t.Error(err)
				return
			}
			for _, p := range sd.Problems {
				problems[i] = append(problems[i], p.Error())
			}
		}
		if !slices.Equal(problems[0], problems[1]) || len(problems[0]) == 0 {
			t.Errorf("problems %q; with a look before %q", problems[0], problems[1])
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("opening the FIFO blocked")
	}
}

// A packed FS over no FS fails each call with an error instead of
// panicking, the way to a file without a look before included.
func TestPackedNil(t *testing.T) {
	p := parse.Packed(nil)
	if _, err := p.Open("x"); err == nil {
		t.Error("Open: no error")
	}
	if _, err := parse.OpenRegular(p, "x"); err == nil {
		t.Error("OpenRegular: no error")
	}
	if _, err := fs.Stat(p, "x"); err == nil {
		t.Error("Stat: no error")
	}
	if _, err := fs.ReadDir(p, "."); err == nil {
		t.Error("ReadDir: no error")
	}
}
