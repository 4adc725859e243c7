package diff_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/diff"
	"github.com/ibreport/ibreport/report"
)

// write renders c in one format.
func write(t *testing.T, c *diff.Comparison, format string, all bool) string {
	t.Helper()
	var b bytes.Buffer
	if err := diff.Write(&b, c, diff.WriteOptions{Format: format, All: all}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// annotations returns the lines of a github report that start with
// ::error or ::warning.
func annotations(s, kind string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if strings.HasPrefix(l, "::"+kind+" ") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}

// plantDrop makes ips of pg15.c2 in l.i1 9.7% lower in a copy of the
// archive, with the per-insert costs that a slower server shows (cpupq,
// wkbpi and cspq each 1/0.903 higher), as one real regression looks.
func plantDrop(t *testing.T, dir string) string {
	newer := copyTables(t, dir)
	SetCell(t, newer, "mrg.l.i1", "pg15.c2", "ips", scale(0.903))
	SetCell(t, newer, "rel.l.i1", "pg15.c2", "ips", scale(0.903))
	for _, m := range []string{"cpupq", "wkbpi", "cspq"} {
		SetCell(t, newer, "mrg.l.i1", "pg15.c2", m, scale(1/0.903))
	}
	return newer
}

// TestOneAnnotationPerRow checks that one planted drop, which fails ips and
// two per-insert costs of the same step and DBMS (the third, cpupq, is
// within its noise), is one ::error
// naming the costs as its causes, and that the geomean tables list only
// the row that changed.
func TestOneAnnotationPerRow(t *testing.T) {
	newer := plantDrop(t, filepath.Join(t.TempDir(), "new"))
	c, _, err := diff.Run([]string{archive}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	// cpupq +11% is within CPU's own noise of one run (4%); it is still
	// named as a cause of the ips row.
	if n := c.Count(diff.VerdictFail); n != 3 {
		t.Fatalf("%d failing cells, want 3 (ips, wkbpi, cspq)", n)
	}
	gh := write(t, c, "github", false)
	errs := annotations(gh, "error")
	if len(errs) != 1 || len(annotations(gh, "warning")) != 0 {
		t.Fatalf("want one ::error and no ::warning, got:\n%s", gh)
	}
	for _, want := range []string{"title=ibreport diff FAIL%3A mrg.l.i1 pg15.c2::", "ips 42857 -> 38700 -9.70%25", "cpupq +12%25", "wkbpi +11%25", "cspq +11%25"} {
		if !strings.Contains(errs[0], want) {
			t.Errorf("annotation lacks %q:\n%s", want, errs[0])
		}
	}
	for _, format := range []string{"text", "md"} {
		out := write(t, c, format, false)
		_, geo, _ := strings.Cut(out, "Geometric mean")
		geo, _, _ = strings.Cut(geo, "<details>")
		if !strings.Contains(geo, "l.i1") || strings.Count(geo, "pg15.c") != 1 || strings.Contains(geo, "+0.00%") {
			t.Errorf("%s: the geomean table should list only l.i1 pg15.c2:\n%s", format, geo)
		}
		if !strings.Contains(geo, "19 of 20 rows (step and DBMS) are unchanged (1.0000) and not listed") {
			t.Errorf("%s: no line counts the unchanged geomeans:\n%s", format, geo)
		}
		all := write(t, c, format, true)
		_, geo, _ = strings.Cut(all, "Geometric mean")
		if strings.Count(geo, "+0.00%") != 19 {
			t.Errorf("%s --all: want the 19 unchanged geomean rows:\n%s", format, geo)
		}
	}
}

// TestOneNACount checks that the headline, the not-compared list and the
// line of what is not listed count the cells NA on a side the same way,
// and that a gated value NEW lost is a fail in its row and the headline.
func TestOneNACount(t *testing.T) {
	newer := copyTables(t, filepath.Join(t.TempDir(), "new"))
	SetCell(t, newer, "mrg.l.i1", "pg15.c1", "p99", set("NA"))
	SetCell(t, newer, "rel.l.i1", "pg15.c2", "p99", set("NA"))
	c, _, err := diff.Run([]string{archive}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Counts      map[string]int
		NotCompared []string `json:"not_compared"`
		Findings    []struct{ Verdict, Level, Note string }
	}
	if err := json.Unmarshal([]byte(write(t, c, "json", false)), &j); err != nil {
		t.Fatal(err)
	}
	na := j.Counts["not comparable"]
	if na != len(j.NotCompared) || na != 6 {
		t.Errorf("json: %d not comparable, %d not compared; want 6 both", na, len(j.NotCompared))
	}
	// The rel cell is folded into the mrg row of the same quantity.
	for _, f := range j.Findings {
		if f.Level == "fail" && f.Verdict != "fail" {
			t.Errorf("a gated value NEW lost: verdict %q level %q, want fail", f.Verdict, f.Level)
		}
	}
	if j.Counts["fail"] != 2 {
		t.Errorf("%d fail, want 2", j.Counts["fail"])
	}
	md := write(t, c, "md", false)
	head := regexp.MustCompile(`(\d+) not comparable`).FindStringSubmatch(md)
	sum := regexp.MustCompile(`<summary>(\d+) not comparable</summary>`).FindStringSubmatch(md)
	hidden := regexp.MustCompile(`(\d+) cells NA on both sides`).FindStringSubmatch(md)
	if head == nil || sum == nil || hidden == nil || head[1] != strconv.Itoa(na) || sum[1] != head[1] || hidden[1] != head[1] {
		t.Errorf("md counts NA cells as %v, %v and %v; want %d each:\n%s", head, sum, hidden, na, md)
	}
	if strings.Contains(md, "**not comparable**") || strings.Count(md, "| **FAIL** |") != 2 ||
		strings.Count(md, "a gated value NEW lost fails (--allow-na: warns)") != 2 {
		t.Errorf("md: want the two lost values as FAIL rows:\n%s", md)
	}
}

// TestFootnotesReferenced checks that every numbered footnote is
// referred to by a listed row, in text and md, single and replicated.
func TestFootnotesReferenced(t *testing.T) {
	tmp := t.TempDir()
	single, _, err := diff.Run([]string{archive}, []string{plantDrop(t, filepath.Join(tmp, "new"))}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	b1, b2 := copyTables(t, filepath.Join(tmp, "b1")), copyTables(t, filepath.Join(tmp, "b2"))
	n1, n2 := plantDrop(t, filepath.Join(tmp, "n1")), plantDrop(t, filepath.Join(tmp, "n2"))
	SetCell(t, n2, "mrg.l.i1", "pg15.c2", "ips", scale(0.99))
	replicated, _, err := diff.Run([]string{b1, b2}, []string{n1, n2}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err != nil {
		t.Fatal(err)
	}
	note := regexp.MustCompile(`(?m)^\[(\d+)\] `)
	for name, c := range map[string]*diff.Comparison{"single": single, "replicated": replicated} {
		for _, format := range []string{"text", "md"} {
			out := write(t, c, format, false)
			numbered := note.FindAllStringSubmatch(out, -1)
			if name == "replicated" && len(numbered) == 0 {
				t.Errorf("%s %s: no footnote; the test needs one", name, format)
			}
			for i, m := range numbered {
				if m[1] != strconv.Itoa(i+1) {
					t.Errorf("%s %s: footnote %s is number %d", name, format, m[1], i+1)
				}
				body, _, _ := strings.Cut(out, "Geometric mean")
				mark := " [" + m[1] + "]"
				if format == "md" {
					mark = ` \[` + m[1] + `\]`
				}
				if !strings.Contains(body, mark) {
					t.Errorf("%s %s: footnote [%s] is referred to by no row:\n%s", name, format, m[1], out)
				}
			}
		}
	}
}

// TestMissingStepComparesTheRest checks the exit-2 case of a step NEW
// lacks (a benchmark that crashed before it): the rest is compared, its
// regression listed and annotated, and every format says what is missing,
// the github one with an ::error.
func TestMissingStepComparesTheRest(t *testing.T) {
	tmp := t.TempDir()
	newer := plantDrop(t, filepath.Join(tmp, "new"))
	for _, f := range []string{"mrg.qp1000.L6", "rel.qp1000.L6"} {
		os.Remove(filepath.Join(newer, f))
	}
	SetCell(t, newer, "mrg.l.x", "pg15.c1", "tag", set("pg16.c1"))
	c, _, err := diff.Run([]string{archive}, []string{newer}, diff.Options{Compare: diff.DefaultCompareOptions()})
	if !errors.Is(err, report.ErrBadInput) || !strings.Contains(err.Error(), "step qp1000.L6 only in BASE") {
		t.Fatalf("error %v, want bad input naming the missing step", err)
	}
	if c == nil {
		t.Fatal("no comparison of the rest")
	}
	if got := diff.ExitCode(c, false); got != 2 {
		t.Errorf("exit code %d, want 2", got)
	}
	wantProblems := []string{"DBMS pg15.c1 only in BASE (mrg.l.x)", "DBMS pg16.c1 only in NEW (mrg.l.x)", "step qp1000.L6 only in BASE (mrg.qp1000.L6, rel.qp1000.L6)"}
	if strings.Join(c.Problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems %q, want %q", c.Problems, wantProblems)
	}
	md := write(t, c, "md", false)
	for _, want := range []string{"### ibreport diff: ERROR (3 fail, 4 missing,", "- Bad input (exit 2): step qp1000.L6 only in BASE", "| **FAIL** | mrg | l.i1 | pg15.c2 | ips |"} {
		if !strings.Contains(md, want) {
			t.Errorf("md lacks %q:\n%s", want, md)
		}
	}
	gh := write(t, c, "github", false)
	errs := annotations(gh, "error")
	if len(errs) != 4 || !strings.Contains(errs[2], "ibreport diff ERROR%3A bad input::step qp1000.L6 only in BASE") ||
		!strings.Contains(errs[3], "mrg.l.i1 pg15.c2: ips") || len(annotations(gh, "warning")) != 0 {
		t.Errorf("want three bad-input errors, then the row that fails, and no warning:\n%s", gh)
	}
	if !strings.Contains(gh, "::notice title=ibreport diff ERROR::") {
		t.Errorf("no ERROR notice:\n%s", gh)
	}
	var j struct {
		Status   string
		ExitCode int `json:"exit_code"`
		Problems []string
	}
	if err := json.Unmarshal([]byte(write(t, c, "json", false)), &j); err != nil {
		t.Fatal(err)
	}
	if j.Status != "ERROR" || j.ExitCode != 2 || len(j.Problems) != 3 {
		t.Errorf("json status %q exit %d problems %q", j.Status, j.ExitCode, j.Problems)
	}
}

// TestWriteError checks the report of a comparison that could not start
// (a mistyped path): every format says why, github with an ::error.
func TestWriteError(t *testing.T) {
	base, newer := []string{archive}, []string{"no/such/dir"}
	_, _, err := diff.Run(base, newer, diff.Options{Compare: diff.DefaultCompareOptions()})
	if err == nil {
		t.Fatal("a missing folder was accepted")
	}
	for format, want := range map[string][]string{
		"md":       {"### ibreport diff: ERROR (nothing compared, exit 2)\n", "**Bad input:** ", "no/such/dir"},
		"markdown": {"### ibreport diff: ERROR"},
		"github":   {"::error title=ibreport diff ERROR%3A bad input::", "no/such/dir"},
		"text":     {"ibreport diff: ERROR (nothing compared, exit 2)\n", "no/such/dir"},
		"json":     {`"status": "ERROR"`, `"exit_code": 2`, `"error": "`, "no/such/dir"},
	} {
		var b bytes.Buffer
		if err := diff.WriteError(&b, base, newer, err, diff.WriteOptions{Format: format}); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", format, w, b.String())
			}
		}
	}
	if err := diff.WriteError(&bytes.Buffer{}, base, newer, nil, diff.WriteOptions{}); err == nil {
		t.Error("WriteError wrote a nil error")
	}
	if err := diff.WriteError(&bytes.Buffer{}, base, newer, err, diff.WriteOptions{Format: "html"}); err == nil {
		t.Error("WriteError accepted format html")
	}
}

// TestNilComparison checks that a nil comparison (Run's when nothing was
// compared) is exit 2 and refused by Write, not a panic.
func TestNilComparison(t *testing.T) {
	if got := diff.ExitCode(nil, false); got != 2 {
		t.Errorf("ExitCode(nil) = %d, want 2", got)
	}
	if err := diff.Write(&bytes.Buffer{}, nil, diff.WriteOptions{}); err == nil {
		t.Error("Write(nil) wrote a report")
	}
}
