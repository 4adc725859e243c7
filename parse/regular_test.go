package parse_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

// specialStep is a copy of a step folder of the example whose vmstat file is
// a FIFO and whose ps file is a link to /dev/zero: reading either would
// block or never end.
func specialStep(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(exampleDir, "2m.pg15.c1", "l.i1")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "o.vm.dop2"))
	if err := syscall.Mkfifo(filepath.Join(dir, "o.vm.dop2"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	os.Remove(filepath.Join(dir, "o.ps.dop2"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "o.ps.dop2")); err != nil {
		t.Skip("no symbolic link here:", err)
	}
	return dir
}

// The step readers skip, with a problem naming them, the files that are not
// regular files, and never open them (opening the FIFO would block the test).
func TestReadStepSkipsSpecialFiles(t *testing.T) {
	dir := specialStep(t)
	st, _ := parse.ParseStepName("l.i1")
	sd, err := parse.ReadStep(os.DirFS(dir), ".", st)
	if err != nil {
		t.Fatal(err)
	}
	if sd.Vmstat != nil || sd.Ps != nil || sd.Iostat == nil || len(sd.Clients) == 0 {
		t.Errorf("vmstat read: %t, ps read: %t, iostat read: %t, %d clients", sd.Vmstat != nil, sd.Ps != nil, sd.Iostat != nil, len(sd.Clients))
	}
	var msgs []string
	for _, p := range sd.Problems {
		msgs = append(msgs, p.Error())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{"o.vm.dop2: a FIFO, not a regular file; skipped", "o.ps.dop2: a device, not a regular file; skipped"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems do not say %q:\n%s", want, got)
		}
	}
}

func TestOpenRegular(t *testing.T) {
	dir := specialStep(t)
	fsys := os.DirFS(dir)
	for _, tc := range []struct {
		name, want string
	}{
		{"o.vm.dop2", "o.vm.dop2: a FIFO, not a regular file"},
		{"o.ps.dop2", "o.ps.dop2: a device, not a regular file"},
		{".", ".: a folder, not a regular file"},
	} {
		f, err := parse.OpenRegular(fsys, tc.name)
		if f != nil || !parse.IsNotRegular(err) || err.Error() != tc.want {
			t.Errorf("OpenRegular(%s) = %v, %v; want %q", tc.name, f, err, tc.want)
		}
	}
	f, err := parse.OpenRegular(fsys, "o.res.dop2")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := parse.OpenRegular(fsys, "nope"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

func TestReadUserFile(t *testing.T) {
	dir := specialStep(t)
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("a b\n"), 0o644)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 1025)), 0o644)
	uf := parse.UserFile{Flag: "--dbms", What: "a DBMS list", Limit: 1024}
	for _, tc := range []struct {
		name, want, data string
	}{
		{name: small, data: "a b\n"},
		{name: filepath.Join(dir, "o.vm.dop2"), want: "--dbms " + filepath.Join(dir, "o.vm.dop2") + ": a FIFO, not a regular file"},
		{name: "/dev/zero", want: "--dbms /dev/zero: a device, not a regular file"},
		{name: dir, want: "--dbms " + dir + ": a folder, not a regular file"},
		{name: big, want: "--dbms " + big + ": larger than 1 KiB; a DBMS list is a few lines"},
		{name: filepath.Join(dir, "nope"), want: "--dbms: stat " + filepath.Join(dir, "nope") + ": no such file or directory"},
	} {
		b, err := parse.ReadUserFile(tc.name, uf)
		switch {
		case tc.want == "" && (err != nil || string(b) != tc.data):
			t.Errorf("%s: %q, %v", tc.name, b, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A client log that is a FIFO gives no options and is not opened.
func TestReadClientOptionsFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "o.ib.dop1.1"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	opts, err := parse.ReadClientOptions(os.DirFS(dir), ".")
	if err != nil || len(opts) != 1 || len(opts[0]) != 0 {
		t.Errorf("ReadClientOptions = %v, %v", opts, err)
	}
}
