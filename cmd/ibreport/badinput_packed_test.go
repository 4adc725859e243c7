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
	"syscall"
	"testing"
	"time"
)

// Packed inputs (.gz files and .tar.gz folders) and perf stat samples: the
// same rules as plain files, and the same exit status.

// tarEntry is one header to write after a tree's files, in order.
type tarEntry struct {
	name, data string
	typ        byte // tar.TypeReg when 0
	link       string
}

// packTree packs folder src as dst (.tar.gz with src's name as its top
// folder) at a gzip level, leaving out the files of skip (relative to src),
// then the extra entries; src is removed.
func packTree(t *testing.T, src, dst string, level int, skip []string, extra ...tarEntry) {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, level)
	tw := tar.NewWriter(zw)
	top := filepath.Base(src)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		for _, s := range skip {
			if rel == s {
				return nil
			}
		}
		fi, _ := d.Info()
		h, _ := tar.FileInfoHeader(fi, "")
		h.Name = filepath.ToSlash(filepath.Join(top, rel))
		if d.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			_, err = tw.Write(b)
		}
		return err
	})
	for _, e := range extra {
		if err != nil {
			break
		}
		h := &tar.Header{Name: e.name, Typeflag: e.typ, Mode: 0o644, ModTime: time.Now(), Linkname: e.link, Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.data))
		}
		if err = tw.WriteHeader(h); err == nil {
			_, err = io.WriteString(tw, e.data)
		}
	}
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(dst, buf.Bytes(), 0o644)
	}
	if err == nil {
		err = os.RemoveAll(src)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// gzipFile replaces a file by its .gz, changed by damage.
func gzipFile(t *testing.T, p string, damage func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	os.Remove(p)
	if err := os.WriteFile(p+".gz", damage(buf.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// packedUnchanged checks that a packed input is the same bytes after the
// run as before (setup records them in was).
func packedUnchanged(name string, was *[]byte) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		b, err := os.ReadFile(w.path(name))
		if err != nil || !bytes.Equal(b, *was) {
			t.Errorf("%s changed (%v)", name, err)
		}
	}
}

// perfSample is a perf stat sample of np.sh; its counter lines are 5 to 7.
const perfSample = `# started on Mon Nov 30 21:30:00 2026

 Performance counter stats for process id '11024':

     1,234,567,890      cycles
     2,345,678,901      instructions              #    1.90  insn per cycle
%s

      10.001234567 seconds time elapsed
`

// withPerf writes perf samples 1 and 2 of step l.i1 of c1, sample 1 with
// the context-switches line cs, and the o.perf.last file (none when last
// is ""), and returns the arguments of a text build.
func withPerf(t *testing.T, w *work, cs, last string) []string {
	t.Helper()
	dir := w.path(c1, "l.i1")
	for n, line := range map[string]string{"1": cs, "2": "           131,300      context-switches"} {
		if err := os.WriteFile(filepath.Join(dir, "o.perf.hw.dop2."+n), []byte(strings.Replace(perfSample, "%s", line, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if last != "" {
		os.WriteFile(filepath.Join(dir, "o.perf.last.dop2"), []byte(last), 0o644)
	}
	return []string{"build", "--quiet", "--format", "text", "--cores", "2", "--device", "vda", w.res, "-o", filepath.Join(w.dir, "report.txt")}
}

func init() {
	// Each case keeps the bytes of its own input: the cases run in
	// parallel.
	keep := func(t *testing.T, p string, was *[]byte) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		*was = b
	}
	corruptGz := func(name string, damage func([]byte) []byte, say string) badCase {
		was := new([]byte)
		return badCase{name: "packed: " + name, setup: func(t *testing.T, w *work) []string {
			gzipFile(t, w.path(c1, "l.i1", "o.vm.dop2"), damage)
			keep(t, w.path(c1, "l.i1", "o.vm.dop2.gz"), was)
			return w.tables()
		}, code: 2, stderr: []string{c1 + "/l.i1/o.vm.dop2.gz: " + say},
			check: func(t *testing.T, w *work) {
				noOutput(t, w)
				packedUnchanged(filepath.Join(c1, "l.i1", "o.vm.dop2.gz"), was)(t, w)
			}}
	}
	moreBadCases = append(moreBadCases,
		// A damaged .gz is bad input as a damaged plain file is: exit 2.
		corruptGz("truncated .gz", func(b []byte) []byte { return b[:len(b)/2] }, "unexpected EOF"),
		corruptGz("bad CRC in a .gz", func(b []byte) []byte { b[len(b)-8] ^= 1; return b }, "gzip: invalid checksum"),
		corruptGz(".gz that is not gzip", func([]byte) []byte { return []byte("procs -----------memory----------\n") }, "gzip: invalid header"),
		corruptGz("empty .gz", func([]byte) []byte { return nil }, "empty file, not gzip"),
		corruptGz("trailing garbage after a .gz", func(b []byte) []byte { return append(b, "trailing garbage"...) }, "gzip: invalid header"))
	changed, deep := new([]byte), new([]byte)
	moreBadCases = append(moreBadCases, []badCase{
		{name: "packed: changed byte in a .tar.gz member", setup: func(t *testing.T, w *work) []string {
			// Stored, not compressed: only the trailer's CRC sees the change.
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.NoCompression, nil)
			b, _ := os.ReadFile(w.path(c1 + ".tar.gz"))
			i := bytes.Index(b, []byte("0.70812926348298788071"))
			b[i+2] = '9'
			os.WriteFile(w.path(c1+".tar.gz"), b, 0o644)
			*changed = b
			return w.tables()
		}, code: 2, stderr: []string{c1 + ".tar.gz: gzip: invalid checksum (damaged or truncated; gzip -t tells more)"},
			check: func(t *testing.T, w *work) { noOutput(t, w); packedUnchanged(c1+".tar.gz", changed)(t, w) }},
		{name: "packed: truncated .tar.gz", setup: func(t *testing.T, w *work) []string {
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, nil)
			b, _ := os.ReadFile(w.path(c1 + ".tar.gz"))
			os.WriteFile(w.path(c1+".tar.gz"), b[:len(b)-100], 0o644)
			return w.tables()
		}, code: 2, stderr: []string{c1 + ".tar.gz: unexpected EOF"}, check: noOutput},
		{name: "packed: member packed twice", setup: func(t *testing.T, w *work) []string {
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, nil,
				tarEntry{name: c1 + "/l.i1/o.dbsz.dop2", data: "ERROR: the second copy\n"})
			return w.tables()
		}, stderr: []string{c1 + ".tar.gz: member " + c1 + "/l.i1/o.dbsz.dop2 is packed 2 times (tar -r); the last copy is read, as tar extracts it",
			c1 + "/l.i1/o.dbsz.dop2:1: size \"ERROR:\" is not a number"},
			check: isNA("l.i1", "pg15.c1", "dbgb1")},
		{name: "packed: member path 400,000 folders deep", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(w.path("2m.pg15.c3"), 0o755)
			packTree(t, w.path("2m.pg15.c3"), w.path("2m.pg15.c3.tar.gz"), gzip.BestCompression, nil,
				tarEntry{name: strings.Repeat("a/", 400000) + "f", data: "x\n"})
			keep(t, w.path("2m.pg15.c3.tar.gz"), deep)
			if len(*deep) > 4000 {
				t.Fatalf("the archive is %d bytes", len(*deep))
			}
			return w.tables()
		}, stderr: []string{"2m.pg15.c3.tar.gz: a member name of 800001 bytes, longer than 4096; skipped", "2m.pg15.c3: no step folders"},
			check: packedUnchanged("2m.pg15.c3.tar.gz", deep)},
		{name: "packed: symbolic link member", setup: func(t *testing.T, w *work) []string {
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, []string{"l.i1/o.vm.dop2"},
				tarEntry{name: c1 + "/l.i1/o.vm.dop2", typ: tar.TypeSymlink, link: "/dev/zero"})
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: a symbolic link member (to /dev/zero) of " + c1 + ".tar.gz, not a regular file; skipped"},
			check: isNA("l.i1", "pg15.c1", "csps")},
		{name: "packed: FIFO member", setup: func(t *testing.T, w *work) []string {
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, []string{"l.i1/o.vm.dop2"},
				tarEntry{name: c1 + "/l.i1/o.vm.dop2", typ: tar.TypeFifo})
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: a FIFO member of " + c1 + ".tar.gz, not a regular file; skipped"},
			check: isNA("l.i1", "pg15.c1", "csps")},
		{name: "packed: device and hard link members", setup: func(t *testing.T, w *work) []string {
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, []string{"l.i1/o.vm.dop2", "l.i1/o.io.dop2"},
				tarEntry{name: c1 + "/l.i1/o.vm.dop2", typ: tar.TypeChar},
				tarEntry{name: c1 + "/l.i1/o.io.dop2", typ: tar.TypeLink, link: c1 + "/l.i2/o.io.dop2"})
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: a character device member of " + c1 + ".tar.gz, not a regular file; skipped",
			c1 + "/l.i1/o.io.dop2: a hard link member (to " + c1 + "/l.i2/o.io.dop2) of " + c1 + ".tar.gz, not a regular file; skipped"},
			check: isNA("l.i1", "pg15.c1", "csps", "rps")},
		{name: "packed: FIFO named <dbms>.tar.gz", setup: func(t *testing.T, w *work) []string {
			if err := syscall.Mkfifo(w.path("2m.pg15.c3.tar.gz"), 0o644); err != nil {
				t.Skip(err)
			}
			return w.tables()
		}, stderr: []string{"2m.pg15.c3.tar.gz: a FIFO, not a regular file; not read as the folder 2m.pg15.c3"}},
		{name: "packed: x.tgz beside x.tar.gz", setup: func(t *testing.T, w *work) []string {
			copyDir(t, w.path(c1), filepath.Join(w.dir, c1))
			packTree(t, w.path(c1), w.path(c1+".tar.gz"), gzip.DefaultCompression, nil)
			packTree(t, filepath.Join(w.dir, c1), w.path(c1+".tgz"), gzip.DefaultCompression, nil)
			return w.tables()
		}, stderr: []string{c1 + ".tgz: " + c1 + ".tar.gz packs " + c1 + " too and is read; this one is ignored"}},
		{name: "packed: .tar.gz holding only a .tar.gz", setup: func(t *testing.T, w *work) []string {
			inner := filepath.Join(w.dir, "inner", c2)
			os.MkdirAll(inner, 0o755)
			packTree(t, w.path(c2), filepath.Join(inner, c2+".tar.gz"), gzip.DefaultCompression, nil)
			packTree(t, inner, w.path(c2+".tar.gz"), gzip.DefaultCompression, nil)
			return w.tables()
		}, stderr: []string{c2 + ".tar.gz holds only archives (" + c2 + ".tar.gz): an archive in an archive is not unpacked, so it holds no results; unpack the outer one"}},
		{name: "non-UTF-8 folder names", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(w.path("bad\xff"), 0o755)
			os.MkdirAll(w.path(c1, "l.i1", "x\xfe"), 0o755)
			return w.tables()
		}, stderr: []string{`"bad\xff": the name is not UTF-8; skipped (rename it to read it)`,
			`"2m.pg15.c1/l.i1/x\xfe": the name is not UTF-8; skipped`}},
		// perf stat samples: every warning on stderr, at its file:line.
		{name: "perf count grouped with a space", setup: func(t *testing.T, w *work) []string {
			return withPerf(t, w, "           131 300      context-switches", "")
		}, stderr: []string{c1 + "/l.i1/o.perf.hw.dop2.1:7: count \"131 300\" is not a number (perf groups thousands with ',' only)"}},
		{name: "perf count grouped with a point", setup: func(t *testing.T, w *work) []string {
			return withPerf(t, w, "           131.300      context-switches", "")
		}, stderr: []string{c1 + "/l.i1/o.perf.hw.dop2.1:7: count \"131.300\" has a decimal point, but a count is whole"}},
		{name: "perf.last with two appended runs", setup: func(t *testing.T, w *work) []string {
			return withPerf(t, w, "           131,300      context-switches", "2\n3\n")
		}, stderr: []string{c1 + "/l.i1/o.perf.last.dop2:2: a second sample number after line 1 (runs appended to one file?); the last, 3, is used"}},
		{name: "perf.last of -1", setup: func(t *testing.T, w *work) []string {
			return withPerf(t, w, "           131,300      context-switches", "-1\n")
		}, stderr: []string{c1 + "/l.i1/o.perf.last.dop2:1: -1 is not a sample number (samples start at 1); no sample is used"}},
		{name: "perf sample and perf.last as FIFOs", setup: func(t *testing.T, w *work) []string {
			args := withPerf(t, w, "           131,300      context-switches", "")
			dir := w.path(c1, "l.i1")
			os.Remove(filepath.Join(dir, "o.perf.hw.dop2.2"))
			if syscall.Mkfifo(filepath.Join(dir, "o.perf.hw.dop2.2"), 0o644) != nil || syscall.Mkfifo(filepath.Join(dir, "o.perf.last.dop2"), 0o644) != nil {
				t.Skip("no FIFOs")
			}
			return args
		}, stderr: []string{c1 + "/l.i1/o.perf.hw.dop2.2: a FIFO, not a regular file; skipped", c1 + "/l.i1/o.perf.last.dop2: a FIFO, not a regular file; every sample is used"}},
		{name: "sysbench perf sample as a FIFO", setup: func(t *testing.T, w *work) []string {
			sb := filepath.Join(w.dir, "sb")
			if err := syscall.Mkfifo(filepath.Join(sb, "x.pg15.c1.pk1", "sb.perf.hw.point-query.range100.pk1.1"), 0o644); err != nil {
				t.Skip(err)
			}
			return sbBuildArgs(sb, filepath.Join(w.dir, "report.md"))
		}, stderr: []string{"x.pg15.c1.pk1/sb.perf.hw.point-query.range100.pk1.1: a FIFO, not a regular file; skipped"}},
		// diff of tables against a folder of another kind: nothing to
		// compare, and --allow-missing is not offered.
		{name: "diff of insert-benchmark tables against a sysbench folder", setup: func(t *testing.T, w *work) []string {
			if code, _, stderr := runCmd(t, w.tables()...); code != 0 {
				t.Fatalf("tables: exit %d: %s", code, stderr)
			}
			return []string{"diff", w.out, "../../testdata/sysbench/raw"}
		}, code: 2, stderr: []string{"BASE has mrg.<step> and rel.<step> tables and NEW ../../testdata/sysbench/raw has none, and no other kind of table (mrg, rel, sysbench) is on both sides: nothing to compare"},
			check: func(t *testing.T, w *work) {}},
	}...)
}
