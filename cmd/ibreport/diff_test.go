package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const archive = "../../testdata/ibench/reference/res"

// copyArchive copies the archived mrg/rel folder into a new folder.
func copyArchive(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(archive, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// edit replaces old with new in one file of dir, exactly once.
func edit(t *testing.T, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, file)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), old) != 1 {
		t.Fatalf("%s: %q found %d times", p, old, strings.Count(string(b), old))
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiffExitCodes(t *testing.T) {
	same := copyArchive(t)
	// pg15.c2 in l.i0: ips 111111 -> 104444 is 6% lower.
	ips := copyArchive(t)
	edit(t, ips, "mrg.l.i0", "111111\t0\t16", "104444\t0\t16")
	// pg15.c1 in qr100.L1: cpupq 54 -> 70 is 30% higher, beyond the
	// one-run noise of CPU per operation (4% a run: +18% fails from).
	cpu := copyArchive(t)
	edit(t, cpu, "mrg.qr100.L1", "\t54\t0.7", "\t70\t0.7")
	// A rel set alone: only rel files, ips of pg15.c2 in qr100.L1 1.00 -> 0.90.
	relBase, relNew := t.TempDir(), t.TempDir()
	for _, d := range []string{relBase, relNew} {
		for _, f := range []string{"rel.l.i0", "rel.qr100.L1"} {
			b, _ := os.ReadFile(filepath.Join(archive, f))
			os.WriteFile(filepath.Join(d, f), b, 0o644)
		}
	}
	edit(t, relNew, "rel.qr100.L1", "1.00\t1.28", "0.90\t1.28")
	noStep := copyArchive(t)
	os.Remove(filepath.Join(noStep, "mrg.l.x"))
	os.Remove(filepath.Join(noStep, "rel.l.x"))
	garbage := copyArchive(t)
	os.WriteFile(filepath.Join(garbage, "mrg.qr500.L3"), []byte("this is not a table\n"), 0o644)
	missingNA := copyArchive(t)
	edit(t, missingNA, "mrg.l.i1", "\t8343\tpg15.c1", "\tNA\tpg15.c1")

	for _, tc := range []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{"equal sets", []string{"diff", archive, same}, 0, []string{"ibreport diff: PASS", "No notable changes."}, ""},
		{"ips 6% lower", []string{"diff", archive, ips}, 1, []string{"FAIL", "l.i0", "pg15.c2", "ips", "-6.00%"}, "fail-level"},
		{"ips 6% lower, flags", []string{"diff", "--base", archive, "--new", ips}, 1, []string{"pg15.c2"}, ""},
		{"ips 6% lower, fail level raised", []string{"diff", "--threshold", "ips=10%", archive, ips}, 0, []string{"WARN", "ibreport diff: WARN"}, ""},
		{"ips 6% lower, strict warn", []string{"diff", "--strict", "--threshold", "ips=10%", archive, ips}, 1, []string{"ibreport diff: FAIL"}, "--strict"},
		{"cpupq 30% higher fails", []string{"diff", archive, cpu}, 1, []string{"FAIL", "qr100.L1", "pg15.c1", "cpupq", "+29.63%"}, "fail-level"},
		{"cpupq 30% higher warns with its fail level raised", []string{"diff", "--threshold", "cpupq=40%", archive, cpu}, 0, []string{"WARN", "qr100.L1", "pg15.c1", "cpupq", "+29.63%"}, ""},
		{"cpupq 30% higher, strict", []string{"diff", "--strict", "--threshold", "cpupq=40%", archive, cpu}, 1, []string{"cpupq"}, "warnings"},
		{"cpupq warn level raised", []string{"diff", "--strict", "--threshold", "cpupq=40%", "--warn", "cpupq=35%", archive, cpu}, 0, nil, ""},
		{"NA in NEW fails", []string{"diff", archive, missingNA}, 1, []string{"not comparable", "value in BASE, NA in NEW", "ibreport diff: FAIL"}, "fail-level"},
		{"NA in NEW allowed warns", []string{"diff", "--allow-na", archive, missingNA}, 0, []string{"not comparable", "value in BASE, NA in NEW", "ibreport diff: WARN"}, ""},
		{"NA in NEW allowed, strict", []string{"diff", "--allow-na", "--strict", archive, missingNA}, 1, nil, ""},
		{"rel sets", []string{"diff", relBase, relNew}, 1, []string{"rel", "qr100.L1", "pg15.c2", "ips", "-10.00%"}, ""},
		{"markdown", []string{"diff", "--format", "md", archive, ips}, 1, []string{"| **FAIL** | mrg | l.i0 | pg15.c2 | ips |"}, ""},
		{"github", []string{"diff", "--format", "github", archive, ips}, 1, []string{"::error file=" + ips + "/mrg.l.i0,line=3,"}, ""},
		{"missing step", []string{"diff", archive, noStep}, 2, nil, "step l.x only in BASE"},
		{"missing step allowed", []string{"diff", "--allow-missing", archive, noStep}, 0, []string{"missing", "step l.x only in BASE"}, ""},
		{"missing step allowed, strict", []string{"diff", "--allow-missing", "--strict", archive, noStep}, 1, nil, ""},
		{"garbage", []string{"diff", archive, garbage}, 2, nil, "mrg.qr500.L3:1: no header line"},
		{"no such folder", []string{"diff", archive, filepath.Join(same, "nope")}, 2, nil, "no such file"},
		{"one side only", []string{"diff", archive}, 2, nil, "usage"},
		{"bad threshold", []string{"diff", "--threshold", "ipz=5%", archive, same}, 2, nil, "unknown metric"},
		{"bad format", []string{"diff", "--format", "xml", archive, same}, 2, nil, "--format"},
		{"bad alpha", []string{"diff", "--alpha", "2", archive, same}, 2, nil, "--alpha"},
		{"no mrg tables", []string{"diff", "--tables", "mrg", archive, relNew}, 2, nil, "has no mrg.<step> tables"},
		{"mrg against rel only", []string{"diff", archive, relNew}, 2, []string{"ibreport diff: ERROR", "Bad input (exit 2): mrg.<step> tables only in BASE", "-10.00%"}, "mrg.<step> tables only in BASE"},
		{"mrg against rel only, allowed", []string{"diff", "--allow-missing", archive, relNew}, 1, []string{"missing", "mrg.<step> tables only in BASE", "-10.00%"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.out {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout does not mention %q:\n%s", s, stdout)
				}
			}
			if tc.err != "" && !strings.Contains(stderr, tc.err) {
				t.Errorf("stderr %q does not mention %q", stderr, tc.err)
			}
		})
	}
}

// TestDiffReplicatedCLI gives three runs per side with comma lists: a 20%
// drop is reported as not significant and exits 0, because fewer than 4
// runs per side can never reach alpha 0.05.
func TestDiffReplicatedCLI(t *testing.T) {
	var base, newer []string
	for i, v := range []string{"86900", "86956", "87000"} {
		b, n := copyArchive(t), copyArchive(t)
		edit(t, b, "mrg.l.i0", "86956\t0", v+"\t0")
		edit(t, n, "mrg.l.i0", "86956\t0", []string{"69500", "69565", "69600"}[i]+"\t0")
		base, newer = append(base, b), append(newer, n)
	}
	// Too few runs for the U test, but every NEW run is 20% below every
	// BASE run: a consistent regression fails.
	code, stdout, stderr := runCmd(t, "diff", "--tables", "mrg", "--format", "json", strings.Join(base, ","), strings.Join(newer, ","))
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	var got struct {
		Replicated bool `json:"replicated"`
		Findings   []struct {
			Verdict string `json:"verdict"`
			Metric  string `json:"metric"`
		} `json:"findings"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Replicated || len(got.Findings) != 1 || got.Findings[0].Verdict != "fail" || !strings.Contains(strings.Join(got.Notes, "\n"), "judged by consistency alone") {
		t.Errorf("replicated 3+3: %+v", got)
	}
}

// TestDiffTrees compares raw trees with themselves: tables are built in
// memory and every cell is equal.
func TestDiffTrees(t *testing.T) {
	code, stdout, stderr := runCmd(t, "diff", example, example)
	if code != 0 || !strings.Contains(stdout, "ibreport diff: PASS") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestDiffExit2Reports checks that each exit-2 case of the gate writes its
// reason in the Markdown report and an ::error in the github format: a
// mistyped folder, a step NEW lacks (the rest still compared, its
// regression listed), a DBMS NEW lacks.
func TestDiffExit2Reports(t *testing.T) {
	noStep := copyArchive(t)
	os.Remove(filepath.Join(noStep, "mrg.qp1000.L6"))
	os.Remove(filepath.Join(noStep, "rel.qp1000.L6"))
	edit(t, noStep, "mrg.l.i0", "111111\t0\t16", "104444\t0\t16")
	noDBMS := copyArchive(t)
	for _, f := range []string{"mrg.l.i2", "rel.l.i2"} {
		b, err := os.ReadFile(filepath.Join(noDBMS, f))
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if !strings.HasSuffix(strings.TrimSpace(l), "pg15.c2") {
				keep = append(keep, l)
			}
		}
		os.WriteFile(filepath.Join(noDBMS, f), []byte(strings.Join(keep, "")), 0o644)
	}
	for _, tc := range []struct {
		name, new string
		md, gh    []string
	}{
		{"mistyped folder", noStep + "-typo", []string{"### ibreport diff: ERROR (nothing compared, exit 2)", "**Bad input:** ", "-typo"},
			[]string{"::error title=ibreport diff ERROR%3A bad input::", "-typo"}},
		{"step missing", noStep, []string{"### ibreport diff: ERROR (1 fail, 2 missing,", "- Bad input (exit 2): step qp1000.L6 only in BASE (mrg.qp1000.L6, rel.qp1000.L6)",
			"| **FAIL** | mrg | l.i0 | pg15.c2 | ips | 111111 | 104444 |"},
			[]string{"::error title=ibreport diff ERROR%3A bad input::step qp1000.L6 only in BASE", "::error file=", "mrg.l.i0 pg15.c2: ips 111111 -> 104444"}},
		{"DBMS missing", noDBMS, []string{"### ibreport diff: ERROR (2 missing,", "- Bad input (exit 2): DBMS pg15.c2 only in BASE (mrg.l.i2, rel.l.i2)"},
			[]string{"::error title=ibreport diff ERROR%3A bad input::DBMS pg15.c2 only in BASE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for format, want := range map[string][]string{"md": tc.md, "github": tc.gh} {
				code, stdout, stderr := runCmd(t, "diff", "--format", format, archive, tc.new)
				if code != 2 {
					t.Errorf("%s: exit %d, want 2\n%s", format, code, stderr)
				}
				for _, w := range want {
					if !strings.Contains(stdout, w) {
						t.Errorf("%s lacks %q:\n%s", format, w, stdout)
					}
				}
			}
		})
	}
}

// TestDiffOutputFile checks -o: the report is written to the file, nothing
// to stdout, also for exit 1 and 2; --format markdown is md; a file among
// the inputs is refused before anything is read, and left as it was.
func TestDiffOutputFile(t *testing.T) {
	ips := copyArchive(t)
	edit(t, ips, "mrg.l.i0", "111111\t0\t16", "104444\t0\t16")
	out := filepath.Join(t.TempDir(), "diff.md")
	for _, tc := range []struct {
		new  string
		code int
		head string
	}{
		{archive, 0, "### ibreport diff: PASS"},
		{ips, 1, "### ibreport diff: FAIL"},
		{ips + "-typo", 2, "### ibreport diff: ERROR"},
	} {
		code, stdout, stderr := runCmd(t, "diff", "--format", "markdown", "-o", out, archive, tc.new)
		b, err := os.ReadFile(out)
		if code != tc.code || stdout != "" || err != nil || !strings.HasPrefix(string(b), tc.head) {
			t.Errorf("%s: exit %d (want %d), stdout %q, file %q (want %q): %v %s", tc.new, code, tc.code, stdout, b, tc.head, err, stderr)
		}
		if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
			t.Errorf("%d files beside the report: a temporary file was left", len(entries)-1)
		}
	}
	inside := filepath.Join(ips, "mrg.l.i0")
	before, _ := os.ReadFile(inside)
	code, _, stderr := runCmd(t, "diff", "-o", inside, archive, ips)
	after, _ := os.ReadFile(inside)
	if code != 2 || !strings.Contains(stderr, "-o: ") || string(before) != string(after) {
		t.Errorf("-o inside NEW: exit %d, stderr %q; the table changed: %v", code, stderr, string(before) != string(after))
	}
	code, _, stderr = runCmd(t, "diff", "-o", out, "--history", archive, archive, archive, archive)
	if code != 2 || !strings.Contains(stderr, "takes no -o") {
		t.Errorf("--history -o: exit %d, stderr %q", code, stderr)
	}
}
