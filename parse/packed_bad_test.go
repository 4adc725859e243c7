package parse

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ibreport/ibreport/internal/inputerr"
)

// member is one header of a test archive, in order.
type member struct {
	name, data string
	typ        byte   // tar.TypeReg when 0
	link       string // of a link
}

// packTar writes a .tar.gz of the members, in order, at a gzip level.
func packTar(t testing.TB, level int, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	tw := tar.NewWriter(zw)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Typeflag: m.typ, Mode: 0o644, ModTime: time.Unix(1e9, 0), Linkname: m.link, Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(m.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		io.WriteString(tw, m.data)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// opensFS counts the opens of each file.
type opensFS struct {
	fstest.MapFS
	mu    sync.Mutex
	opens map[string]int
}

func (o *opensFS) Open(name string) (fs.File, error) {
	o.mu.Lock()
	o.opens[name]++
	o.mu.Unlock()
	return o.MapFS.Open(name)
}

// smallCache shrinks the cache bounds for a test.
func smallCache(t *testing.T, cache, member, recompress int64) {
	c, m, r := packedCache, packedMember, packedRecompress
	packedCache, packedMember, packedRecompress = cache, member, recompress
	t.Cleanup(func() { packedCache, packedMember, packedRecompress = c, m, r })
}

func lines(tag string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s line %d of a member\n", tag, i)
	}
	return b.String()
}

// TestPackedOnePass: an archive larger than the cache costs one pass for
// all the members kept (as they are or compressed again), however many
// are opened, also by concurrent readers; a member too large for either is
// streamed, a line at a time, by a pass of its own.
func TestPackedOnePass(t *testing.T) {
	smallCache(t, 512<<10, 32<<10, 128<<10)
	var ms []member
	want := map[string]string{}
	for i := range 40 {
		n := 600 // 20 KiB or so: 40 of them are over the cache
		if i%10 == 9 {
			n = 3000 // over packedMember: compressed again
		}
		m := member{name: fmt.Sprintf("x.a/m%02d", i), data: lines(fmt.Sprint(i), n)}
		ms = append(ms, m)
		want[strings.TrimPrefix(m.name, "x.a/")] = m.data
	}
	big := lines("big", 8000) // over packedRecompress: streamed
	ms = append(ms, member{name: "x.a/big", data: big})
	under := &opensFS{MapFS: fstest.MapFS{"x.a.tar.gz": {Data: packTar(t, gzip.DefaultCompression, ms...)}}, opens: map[string]int{}}
	p := Packed(under)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n, w := range want {
				b, err := fs.ReadFile(p, "x.a/"+n)
				if err != nil || string(b) != w {
					t.Errorf("%s: %d bytes, %v", n, len(b), err)
				}
			}
		}()
	}
	wg.Wait()
	if got := under.opens["x.a.tar.gz"]; got != 1 {
		t.Errorf("40 members opened 4 times each: %d passes over the archive, want 1", got)
	}
	f, err := p.Open("x.a/big")
	if err != nil {
		t.Fatal(err)
	}
	if mf, ok := f.(*memberFile); !ok || mf.closer == nil {
		t.Errorf("the member over every bound is %T, not streamed from the archive", f)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != big {
		t.Errorf("streamed member: %d bytes, %v", len(b), err)
	}
	if got := under.opens["x.a.tar.gz"]; got != 2 {
		t.Errorf("%d passes after streaming the large member, want 2", got)
	}
}

func TestPackedDuplicates(t *testing.T) {
	a := packTar(t, gzip.DefaultCompression,
		member{name: "x.a/f", data: "first\n"}, member{name: "x.a/g", data: "g\n"}, member{name: "x.a/f", data: "last\n"})
	for _, cache := range []int64{1 << 20, 4} { // kept, and streamed
		smallCache(t, cache, cache, cache)
		p := Packed(fstest.MapFS{"x.a.tar.gz": {Data: a}})
		b, err := fs.ReadFile(p, "x.a/f")
		if err != nil || string(b) != "last\n" {
			t.Errorf("cache %d: %q, %v; want the last copy", cache, b, err)
		}
		if w := PackedWarnings(p); len(w) != 1 || w[0] != "x.a.tar.gz: member x.a/f is packed 2 times (tar -r); the last copy is read, as tar extracts it" {
			t.Errorf("warnings %q", w)
		}
	}
}

// TestPackedDeepNames: a member name 400,000 folders deep (a 1 KB
// archive) or of 100 short folders is skipped at once with a warning.
func TestPackedDeepNames(t *testing.T) {
	for _, c := range []struct{ name, warn string }{
		{strings.Repeat("a/", 400000) + "f", "x.a.tar.gz: a member name of 800001 bytes, longer than 4096; skipped"},
		{"x.a/" + strings.Repeat("a/", 100) + "f", "is 101 folders deep, more than 64; skipped"},
	} {
		a := packTar(t, gzip.BestCompression, member{name: c.name, data: "x\n"}, member{name: "x.a/ok", data: "ok\n"})
		start := time.Now()
		p := Packed(fstest.MapFS{"x.a.tar.gz": {Data: a}})
		ents, err := fs.ReadDir(p, "x.a")
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%d-byte archive listed in %v", len(a), d)
		}
		if w := PackedWarnings(p); len(w) != 1 || !strings.Contains(w[0], c.warn) {
			t.Errorf("warnings %q, want %q", w, c.warn)
		}
		if len(ents) == 0 {
			t.Error("the other member is gone")
		}
	}
}

// TestPackedNotRegular: link, FIFO and device members say what they are.
func TestPackedNotRegular(t *testing.T) {
	a := packTar(t, gzip.DefaultCompression,
		member{name: "x.a/f", data: "f\n"},
		member{name: "x.a/sym", typ: tar.TypeSymlink, link: "/etc/passwd"},
		member{name: "x.a/hard", typ: tar.TypeLink, link: "x.a/f"},
		member{name: "x.a/fifo", typ: tar.TypeFifo},
		member{name: "x.a/zero", typ: tar.TypeChar})
	p := Packed(fstest.MapFS{"x.a.tar.gz": {Data: a}})
	for name, want := range map[string]string{
		"sym":  "x.a/sym: a symbolic link member (to /etc/passwd) of x.a.tar.gz, not a regular file",
		"hard": "x.a/hard: a hard link member (to x.a/f) of x.a.tar.gz, not a regular file",
		"fifo": "x.a/fifo: a FIFO member of x.a.tar.gz, not a regular file",
		"zero": "x.a/zero: a character device member of x.a.tar.gz, not a regular file",
	} {
		for _, open := range []func() error{
			func() error { _, err := p.Open("x.a/" + name); return err },
			func() error { _, err := OpenRegular(p, "x.a/"+name); return err },
		} {
			err := open()
			if !IsNotRegular(err) || !strings.HasPrefix(err.Error(), strings.Split(want, " of ")[0]) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v, want %s", name, err, want)
			}
		}
	}
	if _, err := p.Open("x.a/sym"); err == nil || err.Error() != "x.a/sym: a symbolic link member (to /etc/passwd) of x.a.tar.gz, not a regular file" {
		t.Errorf("sym: %v", err)
	}
}

// TestPackedDamaged: a changed byte (caught by the gzip trailer's CRC
// only: the member is stored), a truncated archive and trailing garbage
// are errors naming the archive, and bad input; so for a single .gz.
func TestPackedDamaged(t *testing.T) {
	good := packTar(t, gzip.NoCompression, member{name: "x.a/o.res", data: "qps 6936\n"})
	flip := bytes.Clone(good)
	flip[bytes.Index(flip, []byte("6936"))] = '9'
	single := gz(t, []byte("6936 qps\n"))
	sflip := bytes.Clone(single)
	sflip[len(sflip)-5] ^= 1 // the size
	for _, c := range []struct {
		name string
		data []byte
		open string
		want string
	}{
		{"x.a.tar.gz", flip, "x.a/o.res", "x.a.tar.gz: gzip: invalid checksum"},
		{"x.a.tar.gz", good[:len(good)-9], "x.a/o.res", "x.a.tar.gz: unexpected EOF"},
		{"x.a.tar.gz", append(bytes.Clone(good), "trailing garbage"...), "x.a/o.res", "x.a.tar.gz: gzip: invalid header"},
		{"x.a.tar.gz", []byte("not gzip at all"), "x.a/o.res", "x.a.tar.gz: gzip: invalid header"},
		{"o.res.gz", sflip, "o.res", "o.res.gz: gzip: invalid checksum"},
		{"o.res.gz", single[:len(single)-3], "o.res", "o.res.gz: unexpected EOF"},
		{"o.res.gz", append(bytes.Clone(single), "trailing garbage"...), "o.res", "o.res.gz: gzip: invalid header"},
		{"o.res.gz", []byte("plain text"), "o.res", "o.res.gz: gzip: invalid header"},
		{"o.res.gz", nil, "o.res", "o.res.gz: empty file, not gzip"},
	} {
		p := Packed(fstest.MapFS{c.name: {Data: c.data}})
		_, err := fs.ReadFile(p, c.open)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, inputerr.ErrBadInput) {
			t.Errorf("%s (%d bytes): %v, want bad input saying %q", c.name, len(c.data), err, c.want)
		}
	}
	if b, err := fs.ReadFile(Packed(fstest.MapFS{"x.a.tar.gz": {Data: good}}), "x.a/o.res"); err != nil || string(b) != "qps 6936\n" {
		t.Errorf("undamaged: %q, %v", b, err)
	}
}

// TestPackedBeside: names that cannot be read are left out with a warning:
// an archive that is a FIFO, x.tgz beside x.tar.gz, a folder beside its
// archive, an archive holding only an archive, a name that is not UTF-8.
func TestPackedBeside(t *testing.T) {
	inner := packTar(t, gzip.DefaultCompression, member{name: "x.b/f", data: "f\n"})
	m := fstest.MapFS{
		"x.f.tar.gz":  {Mode: fs.ModeNamedPipe},
		"x.a.tar.gz":  {Data: packTar(t, gzip.DefaultCompression, member{name: "x.a/f", data: "a\n"})},
		"x.a.tgz":     {Data: packTar(t, gzip.DefaultCompression, member{name: "x.a/f", data: "other\n"})},
		"x.b.tar.gz":  {Data: packTar(t, gzip.DefaultCompression, member{name: "x.b/x.b.tar.gz", data: string(inner)})},
		"x.c/f":       {Data: []byte("c\n")},
		"x.c.tar.gz":  {Data: packTar(t, gzip.DefaultCompression, member{name: "x.c/f", data: "packed\n"})},
		"bad\xff/f":   {Data: []byte("f\n")},
		"o.res":       {Data: []byte("plain\n")},
		"o.res.gz":    {Data: gz(t, []byte("packed\n"))},
		"dir/sub/o.x": {Data: []byte("x\n")},
	}
	p := Packed(m)
	if _, err := fs.ReadDir(p, "."); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadDir(p, "x.b"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(p, "x.f"); !IsNotRegular(err) {
		t.Errorf("x.f: %v, want not a regular file", err)
	}
	if b, _ := fs.ReadFile(p, "x.a/f"); string(b) != "a\n" {
		t.Errorf("x.a/f = %q, want the .tar.gz's", b)
	}
	got := strings.Join(PackedWarnings(p), "\n")
	for _, w := range []string{
		"x.f.tar.gz: a FIFO, not a regular file; not read as the folder x.f",
		"x.a.tgz: x.a.tar.gz packs x.a too and is read; this one is ignored",
		"x.c.tar.gz: x.c beside it is read; the archive is ignored",
		"o.res.gz: o.res beside it is read; the compressed copy is ignored",
		"x.b.tar.gz holds only archives (x.b.tar.gz): an archive in an archive is not unpacked",
		`"bad\xff": the name is not UTF-8; skipped`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("warnings lack %q:\n%s", w, got)
		}
	}
}
