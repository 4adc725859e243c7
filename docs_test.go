package ibreport_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// readmeMaxLines keeps the README a page a newcomer reads whole; the
// reference lives in docs/.
const readmeMaxLines = 300

// docFiles returns README.md and every Markdown file of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("docs/ holds %d Markdown files", len(files))
	}
	return append([]string{"README.md"}, files...)
}

func TestREADMELength(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move reference to docs/", n, readmeMaxLines)
	}
}

// prose returns the lines of a Markdown text outside fenced code blocks,
// with inline code spans blanked: links and headings are read only there,
// as GitHub does.
func prose(text string) []string {
	var out []string
	fence := false
	code := regexp.MustCompile("`[^`]*`")
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		out = append(out, code.ReplaceAllStringFunc(l, func(s string) string {
			if strings.HasPrefix(strings.TrimSpace(l), "#") {
				return s // a heading's code is part of its anchor
			}
			return strings.Repeat(" ", len(s))
		}))
	}
	return out
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// other than - and _ dropped, spaces made hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown file, with GitHub's
// -1, -2 suffixes for repeated headings.
func anchors(text string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(text) {
		t := strings.TrimLeft(l, "#")
		if len(t) == len(l) || !strings.HasPrefix(t, " ") {
			continue
		}
		s := slug(strings.TrimSpace(t))
		if n := seen[s]; n > 0 {
			set[s+"-"+string(rune('0'+n))] = true
		} else {
			set[s] = true
		}
		seen[s]++
	}
	return set
}

func TestSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Common flags", "common-flags"},
		{"History: diff --history", "history-diff---history"},
		{"Noise, stalls and SLA", "noise-stalls-and-sla"},
		{"ibreport build: the report", "ibreport-build-the-report"},
		{"CI recipe", "ci-recipe"},
	} {
		if got := slug(c.in); got != c.want {
			t.Errorf("slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDocLinks checks that every relative link of README.md and docs/
// leads to a file of the repository and, with #anchor, to a heading of it.
func TestDocLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range prose(string(b)) {
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, frag, _ := strings.Cut(target, "#")
				file := f
				if path != "" {
					file = filepath.Join(filepath.Dir(f), path)
					if _, err := os.Stat(file); err != nil {
						t.Errorf("%s:%d: link %s: no such file", f, i+1, target)
						continue
					}
				}
				if frag == "" {
					continue
				}
				tb, err := os.ReadFile(file)
				if err != nil {
					t.Errorf("%s:%d: link %s: %v", f, i+1, target, err)
					continue
				}
				if !anchors(string(tb))[frag] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", f, i+1, target, file, frag)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked", checked)
	}
}

// TestGlossaryCoversHeaders builds the Markdown reports of the example,
// the sysbench fixture, the nine-release archive and the PostgreSQL
// release series, and checks that every column header they print, once
// DBMS, member, test and step names and numbers are taken out, is a term
// of docs/glossary.md (written `term` there).
func TestGlossaryCoversHeaders(t *testing.T) {
	gb, err := os.ReadFile("docs/glossary.md")
	if err != nil {
		t.Fatal(err)
	}
	glossary := string(gb)
	const pg = "testdata/arc/nov25.sb.pg/dop40"
	cases := []struct {
		dir  string
		lopt report.LoadOptions
		bopt report.BuildOptions
	}{
		{"testdata/example", report.LoadOptions{Metrics: metrics.Options{Cores: 2}}, report.BuildOptions{}},
		{"testdata/sysbench/raw", report.LoadOptions{}, report.BuildOptions{}},
		{"testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{}},
		{pg, report.LoadOptions{DBMSList: pg + ".series"}, report.BuildOptions{Series: true}},
	}
	step := regexp.MustCompile(`^(l\.i\d+|l\.x|q[rp]?\d+(\.L\d+|\.\d+)?)$`)
	number := regexp.MustCompile(`^[\d.,]+$`)
	bucket := regexp.MustCompile(`^\d+(us|ms|s)$`) // a histogram bucket: 256us
	missing := map[string]string{}
	headers := 0
	for _, c := range cases {
		res, _, err := report.Load(c.dir, c.lopt)
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.Build(res, c.bopt)
		if err != nil {
			t.Fatal(err)
		}
		var md bytes.Buffer
		if err := render.Write(&md, r, "md"); err != nil {
			t.Fatal(err)
		}
		names := reportNames(r)
		lines := strings.Split(md.String(), "\n")
		// Names are also what the rows of a dbms or test column hold.
		for i := 0; i+1 < len(lines); i++ {
			if !isHeader(lines, i) {
				continue
			}
			first := cells(lines[i])[0]
			if first != "dbms" && first != "DBMS" && first != "test" && first != "short" {
				continue
			}
			for j := i + 2; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
				names[cells(lines[j])[0]] = true
			}
		}
		for i := 0; i+1 < len(lines); i++ {
			if !isHeader(lines, i) {
				continue
			}
			for _, h := range cells(lines[i]) {
				headers++
				var rest []string
				for _, w := range strings.Fields(h) {
					switch {
					case number.MatchString(w), names[w], step.MatchString(w):
					case bucket.MatchString(w):
						rest = append(rest, "<N>"+strings.TrimLeft(w, "0123456789"))
					default:
						rest = append(rest, w)
					}
				}
				term := strings.Join(rest, " ")
				if term == "" || names[h] {
					continue
				}
				if !strings.Contains(glossary, "`"+term+"`") {
					missing[term] = c.dir + ": " + h
				}
			}
		}
	}
	if headers < 100 {
		t.Errorf("only %d header cells read", headers)
	}
	keys := make([]string, 0, len(missing))
	for k := range missing {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Errorf("column header %q (%s) is not defined in docs/glossary.md", k, missing[k])
	}
}

// reportNames returns the DBMS and series member names of a report, full
// and short.
func reportNames(r *report.Report) map[string]bool {
	set := map[string]bool{}
	for _, n := range r.DBMS {
		set[n] = true
	}
	if r.Sysbench != nil {
		for _, n := range r.Sysbench.DBMS {
			set[n] = true
		}
	}
	for _, k := range r.WithShortNames().Names {
		set[k.Short], set[k.Full] = true, true
		// A release's short name is its version and config: "17.7 x10a".
		for _, w := range strings.Fields(k.Short) {
			set[w] = true
		}
	}
	return set
}

// isHeader says whether line i opens a Markdown table.
func isHeader(lines []string, i int) bool {
	return strings.HasPrefix(lines[i], "| ") &&
		(strings.HasPrefix(lines[i+1], "| ---") || strings.HasPrefix(lines[i+1], "| :--"))
}

// cells splits a Markdown table row, undoing the escapes of its text.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var out []string
	for _, c := range strings.Split(line, " | ") {
		c = strings.TrimSpace(c)
		c = regexp.MustCompile(`\\(.)`).ReplaceAllString(c, "$1")
		out = append(out, c)
	}
	return out
}

// TestREADMEDiffVerdict checks that the diff verdict README.md quotes is
// the start of the test golden it names, so that it stays what diff
// prints.
func TestREADMEDiffVerdict(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	const golden = "diff/testdata/golden/single.txt"
	_, rest, ok := strings.Cut(string(b), "`"+golden+"`):\n\n```\n")
	block, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || strings.Count(block, "\n") < 5 {
		t.Fatalf("README.md quotes no diff verdict from %s", golden)
	}
	g, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(g), block) {
		t.Errorf("README.md's diff verdict is not the start of %s:\n%s", golden, block)
	}
}

// TestYAMLExamplesGuarded checks every GitHub Actions job of the docs'
// YAML examples: a concurrency group (one gate per branch on the one
// benchmark host), the fork guard (a fork's code must not run on a
// self-hosted runner), permissions of its own, and the action at a tag
// or a commit, not at a branch that moves.
func TestYAMLExamplesGuarded(t *testing.T) {
	jobs := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, block := range strings.Split(string(b), "```yaml\n")[1:] {
			block, _, _ = strings.Cut(block, "```")
			if !strings.Contains(block, "\njobs:") && !strings.HasPrefix(block, "jobs:") {
				if strings.Contains(block, "runs-on:") {
					t.Errorf("%s, YAML example %d: a job without the jobs: around it", f, i+1)
				}
				continue
			}
			jobs++
			for _, want := range []string{"concurrency:", "cancel-in-progress:", "if: github.event.pull_request.head.repo.full_name == github.repository", "permissions:"} {
				if !strings.Contains(block, want) {
					t.Errorf("%s, YAML example %d: no %q", f, i+1, want)
				}
			}
			for _, m := range regexp.MustCompile(`uses: ibreport/ibreport@(\S+)`).FindAllStringSubmatch(block, -1) {
				if !regexp.MustCompile(`^(v\d+\.\d+\.\d+|[0-9a-f]{40})$`).MatchString(m[1]) {
					t.Errorf("%s, YAML example %d: the action at @%s; pin a tag or a commit", f, i+1, m[1])
				}
			}
		}
	}
	if jobs < 2 {
		t.Errorf("found %d YAML job examples", jobs)
	}
}
