package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// feb25 is a trimmed copy of a published study whose scan rates use the
// second generation and whose database is on a software RAID (see
// testdata/arc/README.md).
const feb25 = "../../testdata/arc/feb25.pg.flat"

// TestFeb25PerRunFiles rebuilds the per-run files run.sh and an.sh wrote
// (sb.r.*, sb.met.*, sb.prepare.met.*) from the raw logs with no flag but
// --cores: the scan generation and the md device are inferred, and named.
func TestFeb25PerRunFiles(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCmd(t, "tables", "--compat", "--cores", "48", "--quiet", feb25, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"scan rate: generation 2, which reproduces the archived rate of 3 of 3", "block device: md2, the md/dm volume"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	total, same := 0, 0
	err := filepath.WalkDir(feb25, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b := d.Name()
		if !strings.HasPrefix(b, "sb.r.") && !strings.HasPrefix(b, "sb.met.") && !strings.HasPrefix(b, "sb.prepare.met.") {
			return nil
		}
		rel, _ := filepath.Rel(feb25, p)
		total++
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err == nil && bytes.Equal(got, want) {
			same++
		} else {
			t.Errorf("%s differs: got\n%s\nwant\n%s", rel, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total != 39 || same != total {
		t.Errorf("%d of %d per-run files reproduced, want 39 of 39", same, total)
	}
}

// tarGz packs folder src as dst, a .tar.gz with src's name as its top
// folder, as `tar czf` does.
func tarGz(t *testing.T, src, dst string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	top := filepath.Base(src)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		h, err := tar.FileInfoHeader(fi, "")
		if err != nil {
			return err
		}
		h.Name = filepath.ToSlash(filepath.Join(top, rel))
		// Sub-second times, so that files ordered by time keep their order.
		h.Format = tar.FormatPAX
		if d.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(dst, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestTarGzFolders reads a folder of DBMS folders packed one .tar.gz each,
// as studies are published, in place: every output is the same bytes as
// for the unpacked folder.
func TestTarGzFolders(t *testing.T) {
	packed := t.TempDir()
	ents, err := os.ReadDir(published)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() {
			tarGz(t, filepath.Join(published, e.Name()), filepath.Join(packed, e.Name()+".tar.gz"))
			n++
		}
	}
	if n < 2 {
		t.Fatalf("%d folders packed", n)
	}
	outs := map[string]string{}
	for _, dir := range []string{published, packed} {
		out := t.TempDir()
		code, _, stderr := runCmd(t, "tables", "--compat", "--cores", "8", "--sb-tag", "all", "--dbms", publishedList(t), "--quiet", dir, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, stderr)
		}
		outs[dir] = out
	}
	compared := 0
	err = filepath.WalkDir(outs[published], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(outs[published], p)
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(outs[packed], rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from the unpacked folder's (%v)", rel, err)
		}
		compared++
		return nil
	})
	if err != nil || compared < 10 {
		t.Fatalf("%d files compared (%v)", compared, err)
	}
}

// TestSysbenchUnknownDBMS: a --dbms name that matches no sysbench folder is
// bad input, as for the insert benchmark.
func TestSysbenchUnknownDBMS(t *testing.T) {
	list := filepath.Join(t.TempDir(), "dbms")
	if err := os.WriteFile(list, []byte("x.pg110_o2nofp.x10a_c32r128.pk1\nx.pg999.nope.pk1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "tables", "--cores", "48", "--quiet", "--dbms", list, feb25, "-o", t.TempDir())
	if code != 2 || !strings.Contains(stderr, "x.pg999.nope.pk1: no sysbench folder of that name") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
