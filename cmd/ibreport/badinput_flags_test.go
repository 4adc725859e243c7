package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Numeric flags that parse but mean nothing (NaN, ±Inf, 0 or negative
// where meaningless), thresholds no change can reach, tags that are not a
// plain file-name part, and a diff or history that compared nothing: each
// is refused with exit 2 before anything is computed or written.

// sameTree checks that every file of want is in got with the same bytes,
// but those named in skip.
func sameTree(t *testing.T, want, got string, skip ...string) {
	t.Helper()
	err := filepath.WalkDir(want, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(want, p)
		for _, s := range skip {
			if rel == s {
				return nil
			}
		}
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s changed (%v)", filepath.Join(got, rel), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// resUnchanged checks that the example trees were not changed and that
// nothing was written.
func resUnchanged(t *testing.T, w *work) {
	sameTree(t, example, w.res, "ibreport.settings")
	noOutput(t, w)
}

// settingsUnchanged checks the trees, the settings file and that nothing
// was written.
func settingsUnchanged(content string) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		resUnchanged(t, w)
		unchanged(filepath.Join("res", "ibreport.settings"), content)(t, w)
	}
}

// The archived tables of the reference run: BASE, and NEW whose ips of
// pg15.c2 in l.i0 is 20% lower (111111 -> 88888), a fail at any threshold
// up to 20%.
const (
	archivedIPS    = "111111\t0\t16"
	archivedIPS20  = "88888\t0\t16"
	archivedBase   = "base"
	archivedNew    = "new"
	archivedEdited = "mrg.l.i0"
)

// archivedPair makes BASE and NEW in the case's folder.
func archivedPair(t *testing.T, w *work) (base, newer string) {
	base, newer = filepath.Join(w.dir, archivedBase), filepath.Join(w.dir, archivedNew)
	copyDir(t, archive, base)
	copyDir(t, archive, newer)
	edit(t, newer, archivedEdited, archivedIPS, archivedIPS20)
	return base, newer
}

// pairUnchanged checks that BASE and NEW are as archivedPair made them.
func pairUnchanged(t *testing.T, w *work) {
	sameTree(t, archive, filepath.Join(w.dir, archivedBase))
	sameTree(t, archive, filepath.Join(w.dir, archivedNew), archivedEdited)
	b, err := os.ReadFile(filepath.Join(w.dir, archivedNew, archivedEdited))
	if err != nil || !strings.Contains(string(b), archivedIPS20) {
		t.Errorf("NEW %s changed (%v)", archivedEdited, err)
	}
}

// diffPair runs diff with flags on the archived pair.
func diffPair(flags ...string) func(t *testing.T, w *work) []string {
	return func(t *testing.T, w *work) []string {
		base, newer := archivedPair(t, w)
		return append(append([]string{"diff"}, flags...), base, newer)
	}
}

// naTable is mrg.l.i0 of the reference run with every value NA.
func naTable(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join(archive, "mrg.l.i0"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		c := strings.Split(lines[i], "\t")
		for j := range len(c) - 1 {
			c[j] = "NA"
		}
		lines[i] = strings.Join(c, "\t")
	}
	return strings.Join(lines, "\n") + "\n"
}

// naPair makes BASE with the mrg.l.i0 of the reference run and NEW with
// the same table, every value NA (or the other way round).
func naPair(t *testing.T, w *work, naBase bool) (base, newer string) {
	base, newer = filepath.Join(w.dir, archivedBase), filepath.Join(w.dir, archivedNew)
	orig, err := os.ReadFile(filepath.Join(archive, "mrg.l.i0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{base, newer} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		content := string(orig)
		if (d == base) == naBase {
			content = naTable(t)
		}
		editLine(t, filepath.Join(d, "mrg.l.i0"), 0, content)
	}
	return base, newer
}

// naPairUnchanged checks the tables naPair made.
func naPairUnchanged(naBase bool) func(t *testing.T, w *work) {
	return func(t *testing.T, w *work) {
		orig, _ := os.ReadFile(filepath.Join(archive, "mrg.l.i0"))
		for _, d := range []string{archivedBase, archivedNew} {
			want := string(orig)
			if (d == archivedBase) == naBase {
				want = naTable(t)
			}
			unchanged(filepath.Join(d, "mrg.l.i0"), want)(t, w)
		}
	}
}

// history makes the members of a history in the case's folder: each name
// is a link to the example trees, but "sb", a copy of the sysbench results.
func history(t *testing.T, w *work, names ...string) []string {
	var dirs []string
	for _, n := range names {
		d := filepath.Join(w.dir, n)
		if n == "sb" {
			copyDir(t, "../../testdata/sysbench/raw", d)
		} else if err := os.Symlink(w.res, d); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

func init() {
	const evilSettings = "sb-tag = ../../evil\n"
	const dotsSettings = "sb-tag = ..\n"
	moreBadCases = append(moreBadCases,
		// Stall and SLA thresholds: NaN fails every comparison and was
		// taken for the default.
		badCase{name: "flags: --sla NaN", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--sla", "NaN", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --sla NaN: want a fraction above 0, at most 1\n"}, check: resUnchanged},
		badCase{name: "flags: --sla -Inf", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--sla", "-Inf", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --sla -Inf: want a fraction above 0, at most 1\n"}, check: resUnchanged},
		badCase{name: "flags: --sla 0", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--sla", "0", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --sla 0: want a fraction above 0, at most 1\n"}, check: resUnchanged},
		badCase{name: "flags: --stall-rate NaN", setup: func(t *testing.T, w *work) []string {
			return w.tables("--stall-rate", "NaN")
		}, code: 2, stderr: []string{"ibreport: --stall-rate NaN: want a fraction between 0 and 1\n"}, check: resUnchanged},
		badCase{name: "flags: --stall-rate 1", setup: func(t *testing.T, w *work) []string {
			return w.tables("--stall-rate", "1")
		}, code: 2, stderr: []string{"ibreport: --stall-rate 1: want a fraction between 0 and 1\n"}, check: resUnchanged},
		badCase{name: "flags: --run-noise NaN", setup: func(t *testing.T, w *work) []string {
			return w.tables("--run-noise", "NaN")
		}, code: 2, stderr: []string{"ibreport: --run-noise NaN: want a fraction above 0, below 1 (0.01 for 1%)\n"}, check: resUnchanged},
		badCase{name: "flags: --run-noise 0", setup: func(t *testing.T, w *work) []string {
			return w.tables("--run-noise", "0")
		}, code: 2, stderr: []string{"ibreport: --run-noise 0: want a fraction above 0, below 1 (0.01 for 1%)\n"}, check: resUnchanged},
		badCase{name: "flags: diff --run-noise-df 2", setup: func(t *testing.T, w *work) []string {
			return []string{"diff", "--run-noise-df", "2", w.res, w.res}
		}, code: 2, stderr: []string{"ibreport: --run-noise-df 2: want 0 (normal) or degrees of freedom above 2, at most 1000 (3 for heavy tails)\n"}, check: resUnchanged},
		badCase{name: "flags: diff --run-noise-df NaN", setup: func(t *testing.T, w *work) []string {
			return []string{"diff", "--run-noise-df", "NaN", w.res, w.res}
		}, code: 2, stderr: []string{"ibreport: --run-noise-df NaN: want 0 (normal) or degrees of freedom above 2, at most 1000 (3 for heavy tails)\n"}, check: resUnchanged},
		badCase{name: "flags: --stall-rt NaN", setup: func(t *testing.T, w *work) []string {
			return w.tables("--stall-rt", "NaN")
		}, code: 2, stderr: []string{"ibreport: --stall-rt NaN: want a finite multiple above 1\n"}, check: resUnchanged},
		badCase{name: "flags: --stall-rt Inf", setup: func(t *testing.T, w *work) []string {
			return w.tables("--stall-rt", "Inf")
		}, code: 2, stderr: []string{"ibreport: --stall-rt +Inf: want a finite multiple above 1\n"}, check: resUnchanged},
		badCase{name: "flags: --stall-rt 1", setup: func(t *testing.T, w *work) []string {
			return w.tables("--stall-rt", "1")
		}, code: 2, stderr: []string{"ibreport: --stall-rt 1: want a finite multiple above 1\n"}, check: resUnchanged},
		badCase{name: "flags: series --stall-rate NaN", setup: func(t *testing.T, w *work) []string {
			return []string{"series", "--stall-rate", "NaN", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --stall-rate NaN: want a fraction between 0 and 1\n"}, check: resUnchanged},
		badCase{name: "flags: inspect --sla NaN", setup: func(t *testing.T, w *work) []string {
			return []string{"inspect", "--sla", "NaN", w.path(c1, "l.i1")}
		}, code: 2, stderr: []string{"ibreport: --sla NaN: want a fraction above 0, at most 1\n"}, check: resUnchanged},
		// Counts: 0 given is not "not given".
		badCase{name: "flags: --clients 0", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--clients", "0", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --clients 0: want a positive number of clients\n"}, check: resUnchanged},
		badCase{name: "flags: --clients -2", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--clients", "-2", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --clients -2: want a positive number of clients\n"}, check: resUnchanged},
		badCase{name: "flags: --cores 0", setup: func(t *testing.T, w *work) []string {
			return []string{"tables", "--quiet", "--cores", "0", w.res, "-o", w.out}
		}, code: 2, stderr: []string{"ibreport: --cores 0: want a positive number of CPUs\n"}, check: resUnchanged},
		badCase{name: "flags: inspect --cores -4", setup: func(t *testing.T, w *work) []string {
			return []string{"inspect", "--cores", "-4", w.path(c1, "l.i1")}
		}, code: 2, stderr: []string{"ibreport: --cores -4: want a positive number of CPUs\n"}, check: resUnchanged},
		badCase{name: "flags: --scan-gen 0", setup: func(t *testing.T, w *work) []string {
			return w.tables("--scan-gen", "0")
		}, code: 2, stderr: []string{"ibreport: --scan-gen: scan generation 0: want 1, 2 or 3\n"}, check: resUnchanged},
		// Tags name output files: refused when read, not when written.
		badCase{name: "flags: --sb-tag ../../evil", setup: func(t *testing.T, w *work) []string {
			return w.tables("--sb-tag", "../../evil")
		}, code: 2, stderr: []string{`ibreport: --sb-tag: tag "../../evil" has a path separator; want a plain part of a file name` + "\n"}, check: resUnchanged},
		badCase{name: "flags: --sb-tag with a newline", setup: func(t *testing.T, w *work) []string {
			return []string{"build", "--sb-tag", "a\nb", w.res, "-o", w.out}
		}, code: 2, stderr: []string{`ibreport: --sb-tag: tag "a\nb" has a control character; want a plain part of a file name` + "\n"}, check: resUnchanged},
		badCase{name: "flags: settings sb-tag = ../../evil", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path("ibreport.settings"), 0, evilSettings)
			return w.tables()
		}, code: 2, stderr: []string{`ibreport: ` + w0res + `/ibreport.settings: sb-tag = "../../evil": tag "../../evil" has a path separator; want a plain part of a file name` + "\n"},
			check: settingsUnchanged(evilSettings)},
		badCase{name: "flags: settings sb-tag = .. in build", setup: func(t *testing.T, w *work) []string {
			editLine(t, w.path("ibreport.settings"), 0, dotsSettings)
			return []string{"build", w.res, "-o", w.out}
		}, code: 2, stderr: []string{`ibreport: ` + w0res + `/ibreport.settings: sb-tag = "..": tag ".." has ".."; want a plain part of a file name` + "\n"},
			check: settingsUnchanged(dotsSettings)},
		// diff: levels and alpha.
		badCase{name: "flags: diff --threshold ips=NaN", setup: diffPair("--threshold", "ips=NaN"),
			code: 2, stderr: []string{`ibreport: --threshold: threshold "ips=NaN": "NaN" is not a positive percentage or off` + "\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --threshold ips=NaN in JSON", setup: diffPair("--format", "json", "--threshold", "ips=NaN"),
			code: 2, stderr: []string{`ibreport: --threshold: threshold "ips=NaN": "NaN" is not a positive percentage or off` + "\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --warn cpupq=Inf", setup: diffPair("--warn", "cpupq=Inf"),
			code: 2, stderr: []string{`ibreport: --warn: threshold "cpupq=Inf": "Inf" is not a positive percentage or off` + "\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --threshold rss=5000%", setup: diffPair("--threshold", "rss=5000%"),
			code: 2, stderr: []string{`ibreport: --threshold: threshold "rss=5000%": 5000% is beyond 1000% (a 11-fold change); use rss=off to disable the level` + "\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --threshold ips=200%", setup: diffPair("--threshold", "ips=200%"),
			code: 2, stderr: []string{`ibreport: --threshold: threshold "ips=200%": ips is higher-is-better and cannot fall by more than 100%, so the level would never be reached; use ips=off to disable it` + "\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --threshold ips=20% still fails", setup: diffPair("--threshold", "ips=20%"),
			code: 1, stderr: []string{"ibreport: NEW has fail-level regressions against BASE\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --alpha NaN", setup: diffPair("--alpha", "NaN"),
			code: 2, stderr: []string{"ibreport: --alpha NaN: must lie between 0 and 1\n"}, check: pairUnchanged},
		badCase{name: "flags: diff --cores 0", setup: func(t *testing.T, w *work) []string {
			return []string{"diff", "--cores", "0", w.res, w.res}
		}, code: 2, stderr: []string{"ibreport: --cores 0: want a positive number of CPUs\n"}, check: resUnchanged},
		// diff: nothing compared is not a pass.
		badCase{name: "flags: diff of NA only with --allow-na", setup: func(t *testing.T, w *work) []string {
			base, newer := naPair(t, w, false)
			return []string{"diff", "--allow-na", base, newer}
		}, code: 2, stderr: []string{"ibreport: BASE and NEW do not match: result sets do not match: nothing was compared: " +
			"40 cells in 2 rows (step and DBMS) of mrg tables in common, none with a value on both sides (2 NA on both sides, 38 NA in NEW only, 0 NA in BASE only)\n"},
			check: naPairUnchanged(false)},
		badCase{name: "flags: diff against a NA baseline", setup: func(t *testing.T, w *work) []string {
			base, newer := naPair(t, w, true)
			return []string{"diff", base, newer}
		}, code: 2, stderr: []string{"(2 NA on both sides, 0 NA in NEW only, 38 NA in BASE only)\n"},
			check: naPairUnchanged(true)},
		badCase{name: "flags: diff with no DBMS in common", setup: func(t *testing.T, w *work) []string {
			base, newer := archivedPair(t, w)
			files, _ := filepath.Glob(filepath.Join(newer, "*"))
			for _, p := range files {
				b, _ := os.ReadFile(p)
				editLine(t, p, 0, strings.ReplaceAll(string(b), "pg15.", "pg16."))
			}
			return []string{"diff", "--allow-missing", base, newer}
		}, code: 2, stderr: []string{"ibreport: BASE and NEW do not match: result sets do not match: nothing was compared: no step and DBMS in common " +
			"(BASE has steps l.i0 l.i1 l.i2 l.x qp100.L2 qp1000.L6 and 4 more, DBMS pg15.c1 pg15.c2; NEW has steps l.i0 l.i1 l.i2 l.x qp100.L2 qp1000.L6 and 4 more, DBMS pg16.c1 pg16.c2)\n"},
			check: func(t *testing.T, w *work) { sameTree(t, archive, filepath.Join(w.dir, archivedBase)) }},
		// diff --history: flags it ignores, and members of another kind.
		badCase{name: "flags: diff --history --threshold", setup: func(t *testing.T, w *work) []string {
			return append([]string{"diff", "--history", "--threshold", "ips=5%"}, history(t, w, "n1", "n2", "n3", "n4")...)
		}, code: 2, stderr: []string{"ibreport: --history judges NEW against the noise of its history and takes no --threshold\n"}, check: resUnchanged},
		badCase{name: "flags: diff --history --alpha NaN", setup: func(t *testing.T, w *work) []string {
			return append([]string{"diff", "--history", "--alpha", "NaN"}, history(t, w, "n1", "n2", "n3", "n4")...)
		}, code: 2, stderr: []string{"ibreport: --history judges NEW against the noise of its history and takes no --alpha\n"}, check: resUnchanged},
		badCase{name: "flags: diff --history with a sysbench member", setup: func(t *testing.T, w *work) []string {
			return append([]string{"diff", "--history"}, history(t, w, "n1", "n2", "sb", "n4")...)
		}, code: 2, stderr: []string{"ibreport: the history checked nothing: of 44 tests in 6 series, none has a value in NEW (n4) and in at least 3 of the 3 result sets before it; " +
			"tests with a value per set: n1 20, n2 20, sb 24, n4 20\n"}, check: resUnchanged},
		badCase{name: "flags: diff --history of a sysbench NEW", setup: func(t *testing.T, w *work) []string {
			return append([]string{"diff", "--history"}, history(t, w, "n1", "n2", "n3", "sb")...)
		}, code: 2, stderr: []string{"history: 0 checked, 0 regressions, 0 improvements, 20 missing in NEW\n", "ibreport: bad input: NEW lacks 20 values the history has\n"}, check: resUnchanged},
	)
}
