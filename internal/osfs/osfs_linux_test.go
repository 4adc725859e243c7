package osfs

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestReadCachedOrNot checks that a file reads the same whether its pages
// are in the cache (readCached), dropped from it (readCached says EAGAIN
// and read(2) waits for the disk, after which the two alternate), or read
// with read(2) only (a file system without RWF_NOWAIT), in reads of
// several sizes, to the end and after it; and that a read from the cache
// copies at most 1 MiB (maxCached).
func TestReadCachedOrNot(t *testing.T) {
	dir := t.TempDir()
	want := make([]byte, 5<<19+123)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, want, 0o600); err != nil {
		t.Fatal(err)
	}
	drop := func(t *testing.T) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.Sync()
		unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
		// Where the cache cannot drop them (tmpfs), the pages stay and
		// the file is read from the cache throughout.
		b := make([]byte, 1)
		if _, e := readCached(int(f.Fd()), b); e != syscall.EAGAIN {
			t.Logf("the pages of %s stayed in the cache (%v)", name, e)
		}
	}
	for _, c := range []struct {
		name  string
		drop  bool
		wait  bool
		chunk int
	}{
		{"cached", false, false, 256 << 10},
		{"cached, small reads", false, false, 4093},
		{"dropped", true, false, 256 << 10},
		{"dropped, small reads", true, false, 4093},
		{"read(2) only", false, true, 256 << 10},
		{"read(2) only, dropped", true, true, 1 << 20},
		{"cached, reads larger than maxCached", false, false, 4 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.drop {
				drop(t)
			}
			f, _, err := Dir(dir).OpenRegular("f")
			if err != nil || f == nil {
				t.Fatal(f, err)
			}
			defer f.Close()
			f.(*file).wait = c.wait
			var got bytes.Buffer
			buf := make([]byte, c.chunk)
			for {
				n, err := f.Read(buf)
				got.Write(buf[:n])
				if n > 1<<20 && !c.wait && !c.drop {
					t.Fatalf("a read from the cache returned %d bytes, more than 1 MiB", n)
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if got.Len() > len(want) {
					t.Fatalf("read %d bytes of a file of %d", got.Len(), len(want))
				}
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("read %d bytes, not the file's %d", got.Len(), len(want))
			}
			if n, err := f.Read(buf); n != 0 || err != io.EOF {
				t.Errorf("after the end: %d, %v; want 0, EOF", n, err)
			}
		})
	}
}
