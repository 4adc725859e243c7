package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// copyDir copies a folder.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// editLine changes a file: replace the n-th line (1-based) with text, or the
// whole file when n is 0.
func editLine(t *testing.T, p string, n int, text string) {
	t.Helper()
	if n == 0 {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[n-1] = text
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cell returns a cell of a DBMS's row in a TAB-separated table with a
// header: the column col of the row whose last cell is tag.
func cell(t *testing.T, file, tag, col string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	hdr := strings.Split(lines[0], "\t")
	for _, l := range lines[1:] {
		c := strings.Split(l, "\t")
		if c[len(c)-1] != tag {
			continue
		}
		for i, h := range hdr {
			if h == col && i < len(c) {
				return c[i]
			}
		}
	}
	t.Fatalf("%s: no %s cell for %s", file, col, tag)
	return ""
}

// badCase is one bad input: set it up in a fresh folder, run a command,
// check the exit status, what stderr says and what is left on disk.
type badCase struct {
	name   string
	setup  func(t *testing.T, w *work) []string // the command line
	code   int
	stderr []string // substrings, in any order
	check  func(t *testing.T, w *work)
}

// work is the folder of one case: a copy of the example trees in res, the
// sysbench fixtures in sb, and room for outputs.
type work struct {
	dir, res, out string
}

func (w *work) path(p ...string) string { return filepath.Join(append([]string{w.res}, p...)...) }

// tablesArgs runs tables on the results in the default mode.
func (w *work) tables(extra ...string) []string {
	return append([]string{"tables", "--quiet", "--cores", "2", "--device", "vda", w.res, "-o", w.out}, extra...)
}

func (w *work) mrg(step string) string { return filepath.Join(w.out, "mrg."+step) }

const (
	c1 = "2m.pg15.c1"
	c2 = "2m.pg15.c2"
)

// isNA checks that cells of a DBMS's row in mrg.<step> are NA.
func isNA(step, tag string, cols ...string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		for _, col := range cols {
			if got := cell(t, w.mrg(step), tag, col); got != "NA" {
				t.Errorf("mrg.%s %s %s = %q, want NA", step, tag, col, got)
			}
		}
	}
}

// notNegative checks that cells of a DBMS's row in mrg.<step> are
// plausible: not negative, not absurdly long.
func notNegative(step, tag string, cols ...string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		for _, col := range cols {
			if got := cell(t, w.mrg(step), tag, col); strings.HasPrefix(got, "-") || len(got) > 12 {
				t.Errorf("mrg.%s %s %s = %q: implausible", step, tag, col, got)
			}
		}
	}
}

// noOutput checks that the case wrote no output.
func noOutput(t *testing.T, w *work) {
	if _, err := os.Stat(w.out); err == nil {
		t.Errorf("%s was written", w.out)
	}
}

// unchanged checks that a file of the case's folder still holds want.
func unchanged(name, want string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		b, err := os.ReadFile(filepath.Join(w.dir, name))
		if err != nil || string(b) != want {
			t.Errorf("%s changed: %q, %v", name, b, err)
		}
	}
}

// moreBadCases are bad inputs that other files add (in init) to those of
// TestBadInputs, one file a concern.
var moreBadCases []badCase

func TestBadInputs(t *testing.T) {
	cases := []badCase{
		// Implausible numbers: the line is reported with file:line and not used.
		{name: "negative i_ips", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i0", "o.ib.dop2.1"), 5, "1.0\t3.0\t-15000\t92605\t0\t0\t0\t0\t7015\t0\t0\t277900\t0\t0\t0\t0\t0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i0/o.ib.dop2.1:5: stats column i_ips: -15000 is negative, not a rate"},
			check: notNegative("l.i0", "pg15.c1", "p50", "p99")},
		{name: "1e300 i_ips", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i0", "o.ib.dop2.1"), 5, "1.0\t3.0\t1e300\t92605\t0\t0\t0\t0\t7015\t0\t0\t277900\t0\t0\t0\t0\t0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i0/o.ib.dop2.1:5: stats column i_ips: 1e+300 is beyond 1e+15, not a rate"},
			check: notNegative("l.i0", "pg15.c1", "p50", "p99")},
		{name: "negative max response time", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i0", "o.ib.dop2.1"), 5, "1.0\t3.0\t97458\t92605\t0\t0\t0\t0\t-7015\t0\t0\t277900\t0\t0\t0\t0\t0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i0/o.ib.dop2.1:5: stats column max_i: -7015 is negative, not a latency"}},
		{name: "negative vmstat cs", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 4, " 4  0      0 22479188  45732 2024008    0    0  3814  4690  528 -101290  6  6 87  1  0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2:4: column cs: -101290 is negative, not a count"},
			check: notNegative("l.i1", "pg15.c1", "csps", "cspq")},
		{name: "vmstat us above 100", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 4, " 4  0      0 22479188  45732 2024008    0    0  3814  4690  528 1287  150  6 87  1  0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2:4: column us: 150 is more than 100, not a percentage"}},
		{name: "negative iostat rkB/s", setup: func(t *testing.T, w *work) []string {
			p := w.path(c1, "l.i1", "o.io.dop2")
			b, _ := os.ReadFile(p)
			s := regexp.MustCompile(`(?m)^(vda\s+\S+\s+)\S+`).ReplaceAllString(string(b), "${1}-400.00")
			editLine(t, p, 0, s)
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.io.dop2:8: device vda column rkB/s: -400 is negative, not a rate"},
			check: isNA("l.i1", "pg15.c1", "rps", "rmbps", "rkbpq")},
		{name: "histogram max 1e300", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i0", "o.ib.dop2.1"), 16, "Insert rt:         0      5990      3992        18         0         0         0         0         0         0    1e300")
			return w.tables()
		}, stderr: []string{c1 + "/l.i0/o.ib.dop2.1:16: Insert rt: max \"1e300\" is not a number of seconds"},
			check: notNegative("l.i0", "pg15.c1", "maxop")},
		{name: "negative RSS", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.ps.dop2"), 1, "postgres 11024  0.1  0.1 217120 -29332 ?        Ss   21:30   0:00 postgres -D pgdata.c1")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ps.dop2:1: ps line: VSZ or RSS: -29332 is negative, not a size"}},
		{name: "huge o.dbsz", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.dbsz.dop2"), 0, "1e300\n")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.dbsz.dop2:1: size: 1e+300 is beyond 1e+15, not a size"},
			check: isNA("l.i1", "pg15.c1", "dbgb1")},
		// NA, not 0, where a value cannot be known.
		{name: "unparseable o.dbsz", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.dbsz.dop2"), 0, "ERROR: relation does not exist\n")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.dbsz.dop2:1: size \"ERROR:\" is not a number", "dbgb1 is NA: " + c1 + "/l.i1/o.dbsz.dop2 holds no size"},
			check: isNA("l.i1", "pg15.c1", "dbgb1")},
		{name: "every file of a step empty", setup: func(t *testing.T, w *work) []string {
			ents, _ := os.ReadDir(w.path(c1, "l.i1"))
			for _, e := range ents {
				editLine(t, w.path(c1, "l.i1", e.Name()), 0, "")
			}
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ib.dop2.1: empty file", "o.res.dop2 has no readable summary line"},
			check: isNA("l.i1", "pg15.c1", "ips", "dbgb1", "dbgb2", "rss", "csps")},
		{name: "elapsed of 99999999:42 and no o.res", setup: func(t *testing.T, w *work) []string {
			os.Remove(w.path(c1, "l.i1", "o.res.dop2"))
			editLine(t, w.path(c1, "l.i1", "o.ctime.dop2.1"), 1, "10.00user 1.00system 99999999:42elapsed 0%CPU (0avgtext+0avgdata 0maxresident)k")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ctime.dop2.1:1: GNU time line: 6e+09 s is longer than 100 days, not a duration",
			c1 + "/l.i1: o.res is missing; the step duration (43 s) is estimated"},
			check: func(t *testing.T, w *work) {
				if got := cell(t, w.mrg("l.i1"), "pg15.c1", "ips"); got == "0" || got == "NA" {
					t.Errorf("ips = %s, want the rate over the clients' 43 s", got)
				}
			}},
		{name: "o.res says 0 seconds", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "qr100.L1", "o.res.dop2"), 1, "2 processes, 3000 rows-per-process, 0 seconds, 193.5 rows-per-second, 96.7 rows-per-second-per-user, 1060976 queries, 34225.0 queries-per-second, yes deletes")
			return w.tables()
		}, stderr: []string{c1 + "/qr100.L1/o.res.dop2: the step took less than a second"}},
		{name: "o.res says -5 seconds", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "qr100.L1", "o.res.dop2"), 1, "2 processes, 3000 rows-per-process, -5 seconds, 193.5 rows-per-second, 96.7 rows-per-second-per-user, 1060976 queries, 34225.0 queries-per-second, yes deletes")
			return w.tables()
		}, stderr: []string{c1 + "/qr100.L1/o.res.dop2:1: -5 is negative, not a duration", "o.res.dop2 has no readable summary line; the step duration (32 s) is estimated"}},
		{name: "client log with one interval", setup: func(t *testing.T, w *work) []string {
			p := w.path(c1, "l.i1", "o.ib.dop2.1")
			b, _ := os.ReadFile(p)
			var keep []string
			stats := 0
			for _, l := range strings.Split(string(b), "\n") {
				if f := strings.Fields(l); len(f) == 17 && l[0] >= '0' && l[0] <= '9' {
					if stats++; stats > 1 {
						continue
					}
				}
				keep = append(keep, l)
			}
			editLine(t, p, 0, strings.Join(keep, "\n"))
			return w.tables()
		}, stderr: []string{"p50 is NA: " + c1 + "/l.i1/o.ib.dop2.1 has 1 interval, 0 of them full (the first and last are partial), fewer than 10"},
			check: isNA("l.i1", "pg15.c1", "p50", "p99")},
		{name: "empty vmstat file", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 0, "")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: empty file", "csps is NA: no vmstat samples"},
			check: isNA("l.i1", "pg15.c1", "csps", "cpups", "cspq", "cpupq")},
		{name: "vmstat file missing", setup: func(t *testing.T, w *work) []string {
			os.Remove(w.path(c1, "l.i1", "o.vm.dop2"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: missing", "csps is NA: no vmstat file"},
			check: isNA("l.i1", "pg15.c1", "csps", "cpupq")},
		{name: "iostat file missing", setup: func(t *testing.T, w *work) []string {
			os.Remove(w.path(c1, "l.i1", "o.io.dop2"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.io.dop2: missing", "rps is NA: no iostat file"},
			check: isNA("l.i1", "pg15.c1", "rps", "wkbpi")},
		{name: "no rows of the device", setup: func(t *testing.T, w *work) []string {
			return append(w.tables(), "--device", "sdz")
		}, stderr: []string{c1 + "/l.i1/o.io.dop2: no iostat rows for device \"sdz\"", "rps is NA: no iostat samples for the device"},
			check: isNA("l.i1", "pg15.c1", "rps", "wkbpi")},
		{name: "no ps sample of the user", setup: func(t *testing.T, w *work) []string {
			return append(w.tables(), "--ps-user", "mysql")
		}, stderr: []string{c1 + "/l.i1/o.ps.dop2: no process of user \"mysql\"", "rss is NA: no ps sample of the DBMS user"},
			check: isNA("l.i1", "pg15.c1", "rss")},
		{name: "no CPU count anywhere", setup: func(t *testing.T, w *work) []string {
			for _, tree := range []string{c1, c2} {
				filepath.WalkDir(w.path(tree), func(p string, d fs.DirEntry, err error) error {
					if err == nil && strings.HasPrefix(d.Name(), "o.io.") {
						b, _ := os.ReadFile(p)
						editLine(t, p, 0, strings.Replace(string(b), "(2 CPU)", "", 1))
					}
					return nil
				})
			}
			return []string{"tables", "--quiet", "--device", "vda", w.res, "-o", w.out}
		}, stderr: []string{c1 + "/l.i1: CPU count unknown (use --cores); cpupq is NA"},
			check: isNA("l.i1", "pg15.c1", "cpupq")},
		{name: "truncated client log", setup: func(t *testing.T, w *work) []string {
			p := w.path(c1, "l.i1", "o.ib.dop2.1")
			b, _ := os.ReadFile(p)
			editLine(t, p, 0, string(b[:len(b)/2]))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ib.dop2.1:", "log ends without the closing Done line (client crashed or was stopped)"}},
		{name: "binary junk in a client log", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.ib.dop2.1"), 6, "\x00\x01\x02\xff garbage")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ib.dop2.1:6: binary data"}},
		{name: "NaN token in vmstat", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path(c1, "l.i1", "o.vm.dop2"), 5, " 4  0      0 22479188  45732 2024008    0    0  3814  4690  528 NaN  6  6 87  1  0")
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2:5: column cs: \"NaN\" is not a number"}},
		{name: "unknown iostat header", setup: func(t *testing.T, w *work) []string {
			p := w.path(c1, "l.i1", "o.io.dop2")
			b, _ := os.ReadFile(p)
			editLine(t, p, 0, strings.ReplaceAll(string(b), "rkB/s", "rKiB/s"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.io.dop2:7: unknown iostat column layout: Device r/s rKiB/s", "rps is NA: " + c1 + "/l.i1/o.io.dop2 has no r/s, w/s, rkB/s and wkB/s columns"},
			check: isNA("l.i1", "pg15.c1", "rps")},
		{name: "missing step in one tree", setup: func(t *testing.T, w *work) []string {
			os.RemoveAll(w.path(c2, "qp500.L4"))
			return w.tables()
		}, stderr: []string{c2 + ": step qp500.L4 is missing", c2 + " qp500.L4: all is NA: step qp500.L4 is missing"},
			check: isNA("qp500.L4", "pg15.c2", "ips", "qps", "p99")},
		{name: "DBMS folder without step folders", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(w.path("2m.pg16.c1"), 0o755)
			return w.tables()
		}, stderr: []string{"2m.pg16.c1: no step folders (l.i0, l.x, qr100.L1, …); every step is NA", "2m.pg16.c1: step l.i0 is missing"},
			check: isNA("l.i0", "pg16.c1", "ips", "qps", "cpupq")},
		// Names that would break a table row or a CI annotation.
		{name: "DBMS folder name with a newline", setup: func(t *testing.T, w *work) []string {
			os.Rename(w.path(c2), w.path("2m.pg15\n::error c2"))
			return w.tables()
		}, code: 2, stderr: []string{`the name "2m.pg15\n::error c2" has a control character; rename the folder`}, check: noOutput},
		{name: "DBMS list with an escape character", setup: func(t *testing.T, w *work) []string {
			list := filepath.Join(w.dir, "dbms")
			os.WriteFile(list, []byte("2m.pg15.c1 2m.pg15\x1bc2\n"), 0o644)
			return append(w.tables(), "--dbms", list)
		}, code: 2, stderr: []string{"dbms:1: the name \"2m.pg15\\x1bc2\" has a control character"}, check: noOutput},
		// Outputs that would destroy something.
		{name: "build -o a device", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--quiet", w.res, "-o", os.DevNull}
		}, code: 2, stderr: []string{"-o: /dev/null is not a regular file"}},
		{name: "build -o a symbolic link", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(filepath.Join(w.dir, "target"), []byte("keep"), 0o644)
			os.Symlink("target", filepath.Join(w.dir, "link.html"))
			return []string{"build", "--quiet", w.res, "-o", filepath.Join(w.dir, "link.html")}
		}, code: 2, stderr: []string{"link.html is a symbolic link"}, check: unchanged("target", "keep")},
		{name: "build -o a FIFO", setup: func(t *testing.T, w *work) []string {
			if err := syscall.Mkfifo(filepath.Join(w.dir, "fifo"), 0o644); err != nil {
				t.Skip("no FIFO here:", err)
			}
			return []string{"build", "--quiet", w.res, "-o", filepath.Join(w.dir, "fifo")}
		}, code: 2, stderr: []string{"fifo is not a regular file"}},
		{name: "build -o a folder", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--quiet", w.res, "-o", w.dir}
		}, code: 2, stderr: []string{"is not a regular file"}},
		{name: "build -o one of its input logs", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--quiet", w.res, "-o", w.path(c1, "l.i0", "o.res.dop2")}
		}, code: 2, stderr: []string{"o.res.dop2 is inside " + w0res + ", the results being read"}},
		{name: "build -o the settings file", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path("ibreport.settings"), []byte("cores = 2\n"), 0o644)
			return []string{"build", "--quiet", w.res, "-o", w.path("ibreport.settings")}
		}, code: 2, stderr: []string{"ibreport.settings is inside"}, check: func(t *testing.T, w *work) {
			if b, _ := os.ReadFile(w.path("ibreport.settings")); string(b) != "cores = 2\n" {
				t.Errorf("the settings file changed: %q", b)
			}
		}},
		{name: "build -o the DBMS list", setup: func(t *testing.T, w *work) []string {
			list := filepath.Join(w.dir, "dbms")
			os.WriteFile(list, []byte("2m.pg15.c1 2m.pg15.c2\n"), 0o644)
			return []string{"build", "--quiet", "--dbms", list, w.res, "-o", list}
		}, code: 2, stderr: []string{"dbms is an input of this run"}, check: unchanged("dbms", "2m.pg15.c1 2m.pg15.c2\n")},
		{name: "tables -o a folder of the user's", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(w.out, 0o755)
			os.WriteFile(filepath.Join(w.out, "notes.txt"), []byte("mine"), 0o644)
			return w.tables()
		}, code: 2, stderr: []string{"-o: $DIR/out holds files ibreport did not write (it has no .ibreport-files); give a new or empty folder"},
			check: func(t *testing.T, w *work) {
				if b, _ := os.ReadFile(filepath.Join(w.out, "notes.txt")); string(b) != "mine" {
					t.Error("the user's file changed")
				}
			}},
		{name: "tables -o a symbolic link", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(filepath.Join(w.dir, "real"), 0o755)
			os.Symlink("real", w.out)
			return w.tables()
		}, code: 2, stderr: []string{"-o: $DIR/out is a symbolic link; give the folder itself"}},
		{name: "tables over an earlier set removes its stale files", setup: func(t *testing.T, w *work) []string {
			if code, _, stderr := runCmd(t, w.tables()...); code != 0 {
				t.Log(stderr)
				t.Fatalf("first run: exit %d", code)
			}
			os.WriteFile(filepath.Join(w.out, "mrg.q999.1"), []byte("stale"), 0o644)
			m, _ := os.ReadFile(filepath.Join(w.out, ".ibreport-files"))
			os.WriteFile(filepath.Join(w.out, ".ibreport-files"), append(m, "mrg.q999.1\n"...), 0o644)
			return w.tables()
		}, check: func(t *testing.T, w *work) {
			if _, err := os.Stat(filepath.Join(w.out, "mrg.q999.1")); err == nil {
				t.Error("a file of the earlier set is still there")
			}
			if _, err := os.Stat(filepath.Join(w.out, "mrg.l.i0")); err != nil {
				t.Error(err)
			}
		}},
		{name: "tables removes what a killed run left", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(filepath.Join(w.dir, ".out.ibreport-123", "x"), 0o755)
			return w.tables()
		}, check: func(t *testing.T, w *work) {
			if _, err := os.Stat(filepath.Join(w.dir, ".out.ibreport-123")); err == nil {
				t.Error("the folder a killed run left is still there")
			}
		}},
		// Results folders that are not.
		{name: "missing results folder", setup: func(t *testing.T, w *work) []string {
			return []string{"tables", filepath.Join(w.dir, "nope"), "-o", w.out}
		}, code: 2, stderr: []string{"stat " + filepath.Join(w0dir, "nope") + ": no such file or directory"}, check: noOutput},
		{name: "results path is a file", setup: func(t *testing.T, w *work) []string {
			return []string{"build", w.path(c1, "l.i0", "o.res.dop2")}
		}, code: 2, stderr: []string{"o.res.dop2 is not a folder of results"}},
		{name: "empty results folder", setup: func(t *testing.T, w *work) []string {
			os.MkdirAll(filepath.Join(w.dir, "empty"), 0o755)
			return []string{"tables", filepath.Join(w.dir, "empty"), "-o", w.out}
		}, code: 2, stderr: []string{"no DBMS result trees, no sysbench results and no mrg.<step> files"}, check: noOutput},
		{name: "a listed DBMS without a tree", setup: func(t *testing.T, w *work) []string {
			list := filepath.Join(w.dir, "dbms")
			os.WriteFile(list, []byte("2m.pg15.c1 2m.pg15.c9\n"), 0o644)
			return append(w.tables(), "--dbms", list)
		}, code: 2, stderr: []string{`DBMS "2m.pg15.c9" is listed but no result tree has that name`}, check: noOutput},
		// sysbench.
		{name: "sysbench negative QPS", setup: func(t *testing.T, w *work) []string {
			p := filepath.Join(w.dir, "sb", "x.pg15.c2.pk1", "sb.o.point-query.range100.pk1.dop1")
			b, _ := os.ReadFile(p)
			editLine(t, p, 0, strings.Replace(string(b), "(8760.12 per sec.)\n    queries:", "(8760.12 per sec.)\n    queries:", 1))
			s, _ := os.ReadFile(p)
			editLine(t, p, 0, regexp.MustCompile(`(?m)^(\s+queries:\s+)(\d+) \(([0-9.]+) per sec.\)`).ReplaceAllString(string(s), "${1}${2} (-${3} per sec.)"))
			return []string{"tables", "--quiet", "--cores", "2", "--device", "vda", filepath.Join(w.dir, "sb"), "-o", w.out}
		}, stderr: []string{"x.pg15.c2.pk1/sb.o.point-query.range100.pk1.dop1:", "queries: rate: ", "is negative, not a rate"},
			check: func(t *testing.T, w *work) {
				b, _ := os.ReadFile(filepath.Join(w.out, "qps.rel.sb.tsv"))
				if strings.Contains(string(b), "-0.") || strings.Contains(string(b), "\t-") {
					t.Errorf("a negative relative QPS:\n%s", b)
				}
			}},
		{name: "sysbench negative latency", setup: func(t *testing.T, w *work) []string {
			p := filepath.Join(w.dir, "sb", "x.pg15.c1.pk1", "sb.o.point-query.range100.pk1.dop1")
			b, _ := os.ReadFile(p)
			editLine(t, p, 0, strings.Replace(string(b), "avg:                                    0.11", "avg:                                    -0.11", 1))
			return []string{"tables", "--quiet", "--cores", "2", "--device", "vda", filepath.Join(w.dir, "sb"), "-o", w.out}
		}, stderr: []string{"x.pg15.c1.pk1/sb.o.point-query.range100.pk1.dop1:", "avg: -0.11 is negative, not a latency"}},
		{name: "sysbench huge iostat value", setup: func(t *testing.T, w *work) []string {
			p := filepath.Join(w.dir, "sb", "x.pg15.c1.pk1", "sb.io.point-query.range100.pk1.dop1")
			b, _ := os.ReadFile(p)
			s := regexp.MustCompile(`(?m)^(vda\s+)\S+`).ReplaceAllString(string(b), "${1}1e300")
			editLine(t, p, 0, s)
			return []string{"tables", "--quiet", "--cores", "2", "--device", "vda", filepath.Join(w.dir, "sb"), "-o", w.out}
		}, stderr: []string{"x.pg15.c1.pk1/sb.io.point-query.range100.pk1.dop1:", "device vda column r/s: 1e+300 is beyond 1e+15, not a rate"}},
		// The command line.
		{name: "help", setup: func(*testing.T, *work) []string { return []string{"-h"} }},
		{name: "help build", setup: func(*testing.T, *work) []string { return []string{"help", "build"} }},
		{name: "build -h", setup: func(*testing.T, *work) []string { return []string{"build", "-h"} }},
		{name: "version", setup: func(*testing.T, *work) []string { return []string{"--version"} }},
		{name: "help of an unknown command", setup: func(*testing.T, *work) []string { return []string{"help", "frob"} },
			code: 2, stderr: []string{`no command "frob"; want one of build, tables, diff, series, inspect`}},
		{name: "inspect of a missing folder", setup: func(t *testing.T, w *work) []string {
			return []string{"inspect", w.path(c1, "l.i9")}
		}, code: 2, stderr: []string{"l.i9: not a step folder"}},
	}
	if len(cases) < 45 {
		t.Fatalf("%d cases", len(cases))
	}
	cases = append(cases, moreBadCases...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			w := &work{dir: dir, res: filepath.Join(dir, "res"), out: filepath.Join(dir, "out")}
			copyDir(t, example, w.res)
			os.Remove(w.path("ibreport.settings"))
			if strings.HasPrefix(tc.name, "sysbench") {
				copyDir(t, "../../testdata/sysbench/raw", filepath.Join(dir, "sb"))
			}
			args := tc.setup(t, w)
			code, stdout, stderr := runCmd(t, args...)
			stderr = strings.ReplaceAll(stderr, dir, "$DIR")
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, stderr)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr)
				}
			}
			if tc.code == 0 && len(tc.stderr) == 0 && strings.Contains(tc.name, "help") || tc.name == "version" {
				if stdout == "" || (strings.Contains(tc.name, "help") && !strings.Contains(stdout, "ibreport")) {
					t.Errorf("nothing useful on stdout: %q", stdout)
				}
				if strings.Contains(tc.name, "build") && !strings.Contains(stdout, "Examples:") {
					t.Errorf("no examples:\n%s", stdout)
				}
			}
			if tc.check != nil {
				tc.check(t, w)
			}
			// Nothing temporary is ever left beside an output.
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.Contains(e.Name(), ".tmp") || strings.Contains(e.Name(), ".ibreport-") && tc.name != "tables removes what a killed run left" {
					t.Errorf("%s left behind", e.Name())
				}
			}
		})
	}
}

// w0res and w0dir stand for a case's folders in the expected messages.
const (
	w0res = "$DIR/res"
	w0dir = "$DIR"
)

// The help of every command is printed on stdout with exit 0.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{"help", c.name}, {c.name, "-h"}, {c.name, "--help"}} {
			code, stdout, stderr := runCmd(t, args...)
			if code != 0 || !strings.HasPrefix(stdout, "Usage: ibreport "+c.name) || !strings.Contains(stdout, "Examples:\n  ibreport "+c.name) || stderr != "" {
				t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
			}
		}
	}
	code, stdout, _ := runCmd(t, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "ibreport ") {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
}
