package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary run ibreport with its arguments instead
// of the tests, so that a case can be measured as
// a process of its own: its peak memory and its exit status.
const childEnv = "IBREPORT_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runChild runs ibreport in a child process with stdout to the file
// stdout; it returns the exit status, stderr and the peak resident memory
// in MiB.
func runChild(t *testing.T, stdout string, args ...string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := os.OpenFile(stdout, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	err = cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return cmd.ProcessState.ExitCode(), errb.String(), ru.Maxrss >> 10 // KiB on Linux
}

// bigMember writes the archive dst of folder src's files plus one member
// name of size bytes of log lines, without compressing them all: the
// member's body is one compressed chunk repeated as gzip members (gunzip
// and Go read the concatenation as one stream), so that a 1.5 GiB member
// is a few megabytes on disk and milliseconds to make.
func bigMember(t *testing.T, src, dst, name string, size int64) {
	t.Helper()
	var head bytes.Buffer
	tw := tar.NewWriter(&head)
	top := filepath.Base(src)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: top + "/" + filepath.ToSlash(rel), Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b)), ModTime: time.Unix(1.7e9, 0)}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tw.Flush()
	// The member's header, written by hand: the tar.Writer would want the
	// whole body through it.
	var hdr bytes.Buffer
	htw := tar.NewWriter(&hdr)
	htw.WriteHeader(&tar.Header{Name: top + "/" + name, Typeflag: tar.TypeReg, Mode: 0o644, Size: size, ModTime: time.Unix(1.7e9, 0)})
	htw.Flush()
	chunk := []byte(strings.Repeat("[ 10s ] thds: 1 tps: 6936.19 qps: 6936.19 lat (ms,95%): 0.17 err/s: 0.00\n", (4<<20)/74))
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(gz(append(head.Bytes(), hdr.Bytes()...)))
	zchunk := gz(chunk)
	left := size
	for left >= int64(len(chunk)) {
		f.Write(zchunk)
		left -= int64(len(chunk))
	}
	tail := append(bytes.Clone(chunk[:left]), make([]byte, (512-size%512)%512+1024)...) // padding, end marker
	if _, err := f.Write(gz(tail)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(src)
}

// TestBadInputsMemory runs the cases whose harm is memory or time as
// processes of their own and bounds their peak resident memory.
func TestBadInputsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gigabyte members")
	}
	const limitMiB = 400 // the example alone peaks near 60 MiB
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, w *work) []string
		code  int
		say   string
	}{
		{"1.5 GiB member in a .tar.gz", func(t *testing.T, w *work) []string {
			bigMember(t, w.path(c1), w.path(c1+".tar.gz"), "l.i1/sb.log", 3<<29)
			return w.tables()
		}, 0, ""},
		{"480 MiB member, archive read by concurrent readers", func(t *testing.T, w *work) []string {
			// The steps are read concurrently, each waiting for the one
			// pass over the archive.
			bigMember(t, w.path(c1), w.path(c1+".tar.gz"), "l.i0/o.big.dop2", 480<<20)
			return w.tables()
		}, 0, ""},
		{"perf .gz expanding to 1 GiB", func(t *testing.T, w *work) []string {
			args := withPerf(t, w, "           131,300      context-switches", "")
			p := w.path(c1, "l.i1", "o.perf.hw.dop2.1")
			os.Remove(p)
			// A .gz of one member: bigMember's chunks without the tar.
			dir := filepath.Join(w.dir, "perf")
			os.MkdirAll(dir, 0o755)
			bigMember(t, dir, p+".tar.gz", "x", 1<<30)
			// The archive's bytes are a valid .gz of a tar stream: as
			// o.perf.hw.dop2.1.gz it reads as a 1 GiB file.
			os.Rename(p+".tar.gz", p+".gz")
			return args
		}, 0, c1 + "/l.i1/o.perf.hw.dop2.1:51: more lines that are not perf stat output: not read further"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w := &work{dir: dir, res: filepath.Join(dir, "res"), out: filepath.Join(dir, "out")}
			copyDir(t, example, w.res)
			os.Remove(w.path("ibreport.settings"))
			args := c.setup(t, w)
			start := time.Now()
			code, stderr, rss := runChild(t, filepath.Join(dir, "stdout"), args...)
			t.Logf("%s: exit %d, peak RSS %d MiB, %v", c.name, code, rss, time.Since(start).Round(time.Millisecond))
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if rss > limitMiB {
				t.Errorf("peak RSS %d MiB, want at most %d", rss, limitMiB)
			}
			if c.say != "" && !strings.Contains(stderr, c.say) {
				t.Errorf("stderr does not say %q:\n%s", c.say, stderr)
			}
		})
	}
}

// TestBadInputsWriteError: diff whose output cannot be written (a full
// disk) exits 3, never 1, the status of a regression.
func TestBadInputsWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	if code, _, stderr := runCmd(t, "tables", "--quiet", "--cores", "2", "--device", "vda", example, "-o", filepath.Join(dir, "t")); code != 0 {
		t.Fatalf("tables: exit %d: %s", code, stderr)
	}
	code, stderr, _ := runChild(t, "/dev/full", "diff", filepath.Join(dir, "t"), filepath.Join(dir, "t"))
	if code != exitFailure || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("diff > /dev/full: exit %d, want %d: %s", code, exitFailure, stderr)
	}
}
