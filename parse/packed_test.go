package parse

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
	"time"
)

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func tgz(t *testing.T, top string, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if top != "" {
		tw.WriteHeader(&tar.Header{Name: top + "/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: time.Unix(1e9, 0)})
		top += "/"
	}
	for n, c := range files {
		tw.WriteHeader(&tar.Header{Name: top + n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(c)), ModTime: time.Unix(1e9, 0)})
		tw.Write([]byte(c))
	}
	tw.Close()
	return gz(t, buf.Bytes())
}

// TestPacked checks the unpacked view with fstest.TestFS (every listed
// entry opens, reads and stats consistently) and the contents.
func TestPacked(t *testing.T) {
	m := fstest.MapFS{
		"plain":                   {Data: []byte("plain\n")},
		"res/sb.o.scan.dop1.gz":   {Data: gz(t, []byte("sysbench\n"))},
		"x.a.pk1.tar.gz":          {Data: tgz(t, "x.a.pk1", map[string]string{"sb.o.t.dop1": "a1\n", "sub/f": "a2\n"})},
		"x.b.pk1.tgz":             {Data: tgz(t, "", map[string]string{"sb.o.t.dop1": "b1\n", "g": "b2\n"})},
		"both":                    {Data: []byte("real\n")},
		"both.gz":                 {Data: gz(t, []byte("packed\n"))},
		"x.c.pk1/sb.o.t.dop1":     {Data: []byte("real c\n")},
		"x.c.pk1.tar.gz":          {Data: tgz(t, "x.c.pk1", map[string]string{"other": "packed c\n"})},
		"res/nested/keep.tar.gz0": {Data: []byte("not an archive\n")},
	}
	p := Packed(m)
	if err := fstest.TestFS(p, "plain", "res/sb.o.scan.dop1", "x.a.pk1/sb.o.t.dop1", "x.a.pk1/sub/f", "x.b.pk1/g", "both", "x.c.pk1/sb.o.t.dop1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, want string }{
		{"res/sb.o.scan.dop1", "sysbench\n"},
		{"x.a.pk1/sb.o.t.dop1", "a1\n"},
		{"x.a.pk1/sub/f", "a2\n"},
		{"x.b.pk1/sb.o.t.dop1", "b1\n"},
		{"both", "real\n"},                  // a real file wins
		{"x.c.pk1/sb.o.t.dop1", "real c\n"}, // a real folder wins
	} {
		b, err := fs.ReadFile(p, c.name)
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, b, err, c.want)
		}
	}
	if _, err := fs.Stat(p, "x.c.pk1/other"); err == nil {
		t.Error("a real folder's archive twin was read")
	}
	fi, err := fs.Stat(p, "x.a.pk1/sb.o.t.dop1")
	if err != nil || !fi.ModTime().Equal(time.Unix(1e9, 0)) {
		t.Errorf("member time %v, %v", fi, err)
	}
	if _, err := fs.ReadFile(p, "x.a.pk1/nope"); err == nil {
		t.Error("a missing member opened")
	}
}

// TestPackedBroken: a corrupt archive is an error naming it, not a panic.
func TestPackedBroken(t *testing.T) {
	p := Packed(fstest.MapFS{"x.a.pk1.tar.gz": {Data: []byte("not gzip")}, "f.gz": {Data: []byte("nor this")}})
	if _, err := fs.ReadDir(p, "x.a.pk1"); err == nil {
		t.Error("corrupt archive listed")
	}
	if _, err := fs.ReadFile(p, "f"); err == nil {
		t.Error("corrupt .gz read")
	}
}

func TestChooseDevice(t *testing.T) {
	for _, c := range []struct {
		name    string
		devices []string
		total   map[string]float64
		want    string
	}{
		{"mirror over two disks", []string{"md0", "md2", "md3", "nvme0n1", "nvme1n1"},
			map[string]float64{"md0": 98, "md2": 268590237, "md3": 14091, "nvme0n1": 268759865, "nvme1n1": 268642870}, "md2"},
		// mar25.pg.workmem.c48: a check of the mirror reads both members.
		{"mirror under a check", []string{"md2", "md3", "nvme0n1", "nvme1n1"},
			map[string]float64{"md2": 2216 + 73331900, "md3": 6944, "nvme0n1": 129500000 + 73345600, "nvme1n1": 129499000 + 73345600}, "md2"},
		{"boot mirror beside a busy disk", []string{"md0", "nvme0n1"}, map[string]float64{"md0": 9, "nvme0n1": 100}, "nvme0n1"},
		{"no volume", []string{"sda", "sdb"}, map[string]float64{"sda": 10, "sdb": 30}, "sdb"},
		{"idle volume beside a busy disk", []string{"md0", "sdb"}, map[string]float64{"md0": 10, "sdb": 1000}, "sdb"},
		{"striped volume", []string{"md0", "sda", "sdb"}, map[string]float64{"md0": 200, "sda": 100, "sdb": 100}, "md0"},
		{"device mapper", []string{"dm-0", "nvme0n1"}, map[string]float64{"dm-0": 90, "nvme0n1": 100}, "dm-0"},
		{"no I/O: first volume", []string{"loop0", "md1", "sda"}, map[string]float64{}, "md1"},
		{"no I/O, no volume: first device", []string{"loop0", "sda"}, map[string]float64{}, "loop0"},
		{"tie: first seen", []string{"sda", "sdb"}, map[string]float64{"sda": 5, "sdb": 5}, "sda"},
	} {
		if got := ChooseDevice(c.devices, c.total); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	for name, want := range map[string]bool{"md0": true, "md127": true, "dm-3": true, "md": false, "mdx": false, "dm-": false, "nvme0n1": false, "sda": false} {
		if IsVolumeDevice(name) != want {
			t.Errorf("IsVolumeDevice(%q) = %v", name, !want)
		}
	}
}

// countingFS counts the calls that reach the underlying FS.
type countingFS struct {
	fstest.MapFS
	calls    int
	listings int // ReadDir calls alone
}

func (c *countingFS) Open(name string) (fs.File, error) { c.calls++; return c.MapFS.Open(name) }
func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	c.calls++
	return c.MapFS.Stat(name)
}
func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.calls++
	c.listings++
	return c.MapFS.ReadDir(name)
}

// TestPackedAbsent checks that looking for files that are not there, as
// the readers do for every optional file of every test, reaches the
// underlying FS once per folder, and that what is there (plain, .gz or in
// an archive) is still found.
func TestPackedAbsent(t *testing.T) {
	under := &countingFS{MapFS: fstest.MapFS{
		"d/sb.o.a":         {Data: []byte("x")},
		"d/sb.o.b.gz":      {Data: gz(t, []byte("y"))},
		"d/x.c.pk1.tar.gz": {Data: tgz(t, "", map[string]string{"f": "z"})},
	}}
	p := Packed(under)
	for _, name := range []string{"d/sb.o.a", "d/sb.o.b", "d/x.c.pk1/f", "d/x.c.pk1"} {
		if _, err := fs.Stat(p, name); err != nil {
			t.Errorf("Stat(%s): %v", name, err)
		}
	}
	under.calls = 0
	for i := range 100 {
		name := fmt.Sprintf("d/sb.met.t%d.dop1", i)
		if _, err := fs.Stat(p, name); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Stat(%s) = %v, want not exist", name, err)
		}
		if _, err := p.Open(name); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Open(%s) = %v, want not exist", name, err)
		}
	}
	if under.calls > 0 {
		t.Errorf("200 looks for absent files made %d calls to the underlying FS, want 0 (the folder is listed once)", under.calls)
	}
}

// TestPackedListsOnce checks that a real folder is listed once however
// often it is read, that a caller changing the list it got changes no
// later one, and that the folders above a name are looked up once.
func TestPackedListsOnce(t *testing.T) {
	under := &countingFS{MapFS: fstest.MapFS{
		"a/b/x":     {Data: []byte("x")},
		"a/b/y.gz":  {Data: gz(t, []byte("y"))},
		"a/c.tgz":   {Data: tgz(t, "", map[string]string{"f": "z"})},
		"a/b/z/w":   {Data: []byte("w")},
		"a/b/z/v.t": {Data: []byte("v")},
	}}
	p := Packed(under)
	first, err := fs.ReadDir(p, "a/b")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range first {
		names = append(names, e.Name())
	}
	if want := []string{"x", "y", "z"}; !slices.Equal(names, want) {
		t.Fatalf("ReadDir(a/b) = %q, want %q", names, want)
	}
	first[0] = first[1] // the caller's own copy
	under.calls = 0
	for range 10 {
		again, err := fs.ReadDir(p, "a/b")
		if err != nil || len(again) != 3 || again[0].Name() != "x" {
			t.Fatalf("ReadDir(a/b) again = %v, %v", again, err)
		}
		if _, err := fs.ReadDir(p, "a/b/z"); err != nil {
			t.Fatal(err)
		}
	}
	// a/b/z is listed once; the folders above it are looked up once each.
	if under.calls > 4 {
		t.Errorf("20 listings made %d calls to the underlying FS, want at most 4", under.calls)
	}
	if ents, err := fs.ReadDir(p, "a/c"); err != nil || len(ents) != 1 || ents[0].Name() != "f" {
		t.Errorf("ReadDir(a/c) of the archive = %v, %v", ents, err)
	}
	// A look for a missing file lists its folder; a listing of that
	// folder after it uses the same one.
	fresh := &countingFS{MapFS: under.MapFS}
	q := Packed(fresh)
	if _, err := fs.Stat(q, "a/b/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat(a/b/missing) = %v, want not exist", err)
	}
	if ents, err := fs.ReadDir(q, "a/b"); err != nil || len(ents) != 3 {
		t.Fatalf("ReadDir(a/b) = %v, %v", ents, err)
	}
	if fresh.listings != 1 {
		t.Errorf("a look and a listing of a/b listed it %d times, want 1", fresh.listings)
	}
}
