package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode"
)

// mkfifo makes a FIFO at p, or skips the case where there is none. No case
// writes to its FIFO: a run that opened one would block, and the case
// would not finish.
func mkfifo(t *testing.T, p string) {
	t.Helper()
	os.Remove(p)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
}

// linkToZero replaces p with a symbolic link to /dev/zero, a file that
// never ends.
func linkToZero(t *testing.T, p string) {
	t.Helper()
	os.Remove(p)
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip("no symbolic link here:", err)
	}
}

// caseFile writes a file of the case's folder and returns its path.
func caseFile(t *testing.T, w *work, name, text string) string {
	t.Helper()
	p := filepath.Join(w.dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Inputs that would hang or never end, settings that would be silently
// ignored, and names that would carry control characters to stderr.
func init() {
	const settings = "ibreport.settings"
	moreBadCases = append(moreBadCases,
		// Only regular files are read: a FIFO or a link to a device in a
		// results folder is skipped with a warning, never opened.
		badCase{name: "FIFO in a step folder", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, w.path(c1, "l.i1", "o.vm.dop2"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.vm.dop2: a FIFO, not a regular file; skipped", "csps is NA: no vmstat file"},
			check: isNA("l.i1", "pg15.c1", "csps", "cpupq")},
		badCase{name: "FIFO as a client log", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, w.path(c1, "l.i1", "o.ib.dop2.1"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ib.dop2.1: a FIFO, not a regular file; skipped"}},
		badCase{name: "FIFOs beside the trees", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, w.path("stray"))
			mkfifo(t, w.path("2m.pg16.c1"))
			mkfifo(t, w.path(c1, "notes"))
			return w.tables()
		}},
		badCase{name: "step file linked to /dev/zero", setup: func(t *testing.T, w *work) []string {
			linkToZero(t, w.path(c1, "l.i1", "o.ps.dop2"))
			return w.tables()
		}, stderr: []string{c1 + "/l.i1/o.ps.dop2: a device, not a regular file; skipped"},
			check: isNA("l.i1", "pg15.c1", "rss")},
		badCase{name: "archived mrg table that is a FIFO", setup: func(t *testing.T, w *work) []string {
			if code, _, stderr := runCmd(t, w.tables()...); code != 0 {
				t.Fatalf("tables: exit %d: %s", code, stderr)
			}
			arc := filepath.Join(w.dir, "arc")
			os.MkdirAll(arc, 0o755)
			for _, st := range []string{"l.i0", "l.i1"} {
				b, _ := os.ReadFile(w.mrg(st))
				os.WriteFile(filepath.Join(arc, "mrg."+st), b, 0o644)
			}
			mkfifo(t, filepath.Join(arc, "mrg.l.x"))
			return []string{"tables", "--quiet", arc, "-o", filepath.Join(w.dir, "out2")}
		}, stderr: []string{"mrg.l.x: a FIFO, not a regular file; skipped"}},
		badCase{name: "archive of FIFOs only", setup: func(t *testing.T, w *work) []string {
			arc := filepath.Join(w.dir, "arc")
			os.MkdirAll(arc, 0o755)
			mkfifo(t, filepath.Join(arc, "mrg.l.i0"))
			return []string{"tables", "--quiet", arc, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: " + w0dir + "/arc: no mrg.<step> file is a regular file (mrg.l.i0: a FIFO, not a regular file)"}, check: noOutput},
		// The settings file is refused rather than skipped: what it sets
		// changes numbers.
		badCase{name: "settings file that is a FIFO", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, w.path(settings))
			return w.tables()
		}, code: 2, stderr: []string{"ibreport.settings: a FIFO, not a regular file"}, check: noOutput},
		badCase{name: "settings file linked to /dev/zero", setup: func(t *testing.T, w *work) []string {
			linkToZero(t, w.path(settings))
			return w.tables()
		}, code: 2, stderr: []string{"ibreport.settings: a device, not a regular file"}, check: noOutput},
		// Files the user names: refused when they are not small regular files.
		badCase{name: "--dbms /dev/zero", setup: func(t *testing.T, w *work) []string {
			return append(w.tables(), "--dbms", "/dev/zero")
		}, code: 2, stderr: []string{"--dbms /dev/zero: a device, not a regular file"}, check: noOutput},
		badCase{name: "--dbms a FIFO", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, filepath.Join(w.dir, "dbms"))
			return append(w.tables(), "--dbms", filepath.Join(w.dir, "dbms"))
		}, code: 2, stderr: []string{"--dbms " + w0dir + "/dbms: a FIFO, not a regular file"}, check: noOutput},
		badCase{name: "--dbms a folder", setup: func(t *testing.T, w *work) []string {
			return append(w.tables(), "--dbms", w.res)
		}, code: 2, stderr: []string{"--dbms " + w0res + ": a folder, not a regular file"}, check: noOutput},
		badCase{name: "--dbms of 2 MiB", setup: func(t *testing.T, w *work) []string {
			p := caseFile(t, w, "dbms", strings.Repeat("2m.pg15.c1\n", 200_000))
			return append(w.tables(), "--dbms", p)
		}, code: 2, stderr: []string{"--dbms " + w0dir + "/dbms: larger than 1 MiB; a DBMS list is a few lines"}, check: noOutput},
		badCase{name: "--dbms of 5000 names", setup: func(t *testing.T, w *work) []string {
			p := caseFile(t, w, "dbms", strings.Repeat("2m.pg15.c1 2m.pg15.c2\n-\n", 2500))
			return append(w.tables(), "--dbms", p)
		}, code: 2, stderr: []string{"dbms:1001: more than 1000 DBMS names; each is a row of every table and chart of the report"}, check: noOutput},
		badCase{name: "--intro /dev/zero", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--quiet", "--intro", "/dev/zero", w.res, "-o", filepath.Join(w.dir, "r.html")}
		}, code: 2, stderr: []string{"--intro /dev/zero: a device, not a regular file"}},
		badCase{name: "--intro of 2 MiB", setup: func(t *testing.T, w *work) []string {
			p := caseFile(t, w, "intro.md", strings.Repeat("Some words.\n", 200_000))
			return []string{"build", "--quiet", "--intro", p, w.res, "-o", filepath.Join(w.dir, "r.html")}
		}, code: 2, stderr: []string{"--intro " + w0dir + "/intro.md: larger than 1 MiB; an introduction is a few lines"}},
		badCase{name: "sysbench --sb-groups /dev/zero", setup: func(t *testing.T, w *work) []string {
			return []string{"tables", "--quiet", "--sb-groups", "/dev/zero", filepath.Join(w.dir, "sb"), "-o", w.out}
		}, code: 2, stderr: []string{"--sb-groups /dev/zero: a device, not a regular file"}, check: noOutput},
		badCase{name: "sysbench --sb-extra a FIFO", setup: func(t *testing.T, w *work) []string {
			mkfifo(t, filepath.Join(w.dir, "extra.csv"))
			return []string{"tables", "--quiet", "--sb-extra", filepath.Join(w.dir, "extra.csv"), filepath.Join(w.dir, "sb"), "-o", w.out}
		}, code: 2, stderr: []string{"--sb-extra " + w0dir + "/extra.csv: a FIFO, not a regular file"}, check: noOutput},
		// Settings keys are checked.
		badCase{name: "settings with a misspelt key", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path(settings), []byte("cores = 2\nps_user = postgres\n"), 0o644)
			return w.tables()
		}, stderr: []string{"warning: ibreport.settings:2: ps_user: unknown key; did you mean ps-user?"}},
		badCase{name: "settings with an unknown key", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path(settings), []byte("cores = 2\nbuffer-pool = 4G\n"), 0o644)
			return w.tables()
		}, stderr: []string{"warning: ibreport.settings:2: buffer-pool: unknown key; the keys are cores, ps-user, device, scan-gen, sb-engine, sb-tag, collate, run-noise"}},
		badCase{name: "settings with a duplicate key", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path(settings), []byte("device = vda\ncores = 2\ndevice = sdb\n"), 0o644)
			return []string{"tables", "--quiet", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: ibreport.settings:3: device is set again; line 1 sets it already"}, check: noOutput},
		badCase{name: "settings starting with a byte order mark", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path(settings), []byte("\ufeffdevice = sdz\n"), 0o644)
			return []string{"tables", "--quiet", w.res, "-o", w.out}
		}, stderr: []string{c1 + "/l.i1/o.io.dop2: no iostat rows for device \"sdz\""}},
		// Names from the input reach stderr escaped.
		badCase{name: "DBMS list with a workflow command and a terminal escape", setup: func(t *testing.T, w *work) []string {
			p := caseFile(t, w, "dbms", "2m.pg15.c1\n::error::x\x1b[31m\n")
			return append(w.tables(), "--dbms", p)
		}, code: 2, stderr: []string{`dbms:2: the name "::error::x\x1b[31m" has a control character`}, check: noOutput},
		badCase{name: "DBMS folder name with a terminal escape", setup: func(t *testing.T, w *work) []string {
			os.Rename(w.path(c2), w.path("2m.pg15\x1b[31mc2"))
			return w.tables()
		}, code: 2, stderr: []string{`"2m.pg15\x1b[31mc2": the name "2m.pg15\x1b[31mc2" has a control character; rename the folder`}, check: noOutput},
		badCase{name: "settings key with a terminal escape", setup: func(t *testing.T, w *work) []string {
			os.WriteFile(w.path(settings), []byte("cores = 2\nx\x1b[2J = 1\n"), 0o644)
			return w.tables()
		}, stderr: []string{`ibreport.settings:2: "x\x1b[2J": unknown key`}},
	)
}

// Nothing from the input reaches stderr as a control character: not a
// newline starting a line of its own (a GitHub workflow command such as
// ::error), not a terminal escape.
func TestStderrHasNoControlCharacters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir, res string) []string
	}{
		{"DBMS list", func(t *testing.T, dir, res string) []string {
			p := filepath.Join(dir, "dbms")
			os.WriteFile(p, []byte("2m.pg15.c1\n::error::x\x1b[31m\n"), 0o644)
			return []string{"tables", "--quiet", "--dbms", p, res, "-o", filepath.Join(dir, "out")}
		}},
		{"DBMS folder", func(t *testing.T, dir, res string) []string {
			os.Rename(filepath.Join(res, c2), filepath.Join(res, "2m.pg15\n::error::x\x1b[31mc2"))
			return []string{"tables", "--quiet", res, "-o", filepath.Join(dir, "out")}
		}},
		{"settings key", func(t *testing.T, dir, res string) []string {
			os.WriteFile(filepath.Join(res, "ibreport.settings"), []byte("cores = 2\nx\x1b[31m\r = 1\n"), 0o644)
			return []string{"tables", "--quiet", res, "-o", filepath.Join(dir, "out")}
		}},
		{"results folder", func(t *testing.T, dir, res string) []string {
			return []string{"tables", "--quiet", filepath.Join(dir, "no\n::error::x\x1b[31m"), "-o", filepath.Join(dir, "out")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			res := filepath.Join(dir, "res")
			copyDir(t, example, res)
			_, _, stderr := runCmd(t, tc.setup(t, dir, res)...)
			for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				if !strings.HasPrefix(line, "ibreport: ") && !strings.HasPrefix(line, "warning: ") && !strings.HasPrefix(line, "note: ") {
					t.Errorf("a line of stderr that ibreport did not start: %q", line)
				}
				if i := strings.IndexFunc(line, unicode.IsControl); i >= 0 {
					t.Errorf("a control character in %q", line)
				}
			}
		})
	}
}
