package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// formatReports are the reports the Markdown and text tests read: the
// example trees, the example with the DBMS list of the reference (groups,
// a DBMS the summary leaves out), the archived mrg files, the published
// sysbench archive (9 DBMS) and the raw sysbench runs.
func formatReports(t *testing.T) map[string]*report.Report {
	t.Helper()
	load := func(dir string, lopt report.LoadOptions, bopt report.BuildOptions) *report.Report {
		return loadBuild(t, dir, lopt, bopt)
	}
	return map[string]*report.Report{
		"example":      load(example, report.LoadOptions{Metrics: metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}}, report.BuildOptions{}),
		"example-list": buildExample(t, compatOpts, exampleList(t), report.BuildOptions{}),
		"archive":      load("../testdata/ibench/reference/res", report.LoadOptions{}, report.BuildOptions{Clients: 2}),
		"nov25":        load("../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{}),
		"sysbench":     buildSysbench(t, sysbenchRaw),
	}
}

// mdPage is a Markdown report as GitHub shows it: the texts of its
// headings in order, with their levels, and the targets of its links
// within the page.
type mdPage struct {
	headings []string
	levels   []int
	links    []string
	text     string
}

func readMarkdown(t *testing.T, md []byte) mdPage {
	t.Helper()
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var p mdPage
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
				p.headings = append(p.headings, textContent(n))
				p.levels = append(p.levels, int(n.Data[1]-'0'))
			}
			if n.Data == "a" {
				if href := attr(n, "href"); strings.HasPrefix(href, "#") {
					p.links = append(p.links, href[1:])
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	p.text = textContent(doc)
	return p
}

// textContent is the text of a node as the DOM's textContent: untrimmed.
func textContent(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// notSlug is what GitHub drops from a heading's text for its id.
var notSlug = regexp.MustCompile(`[^\p{L}\p{M}\p{N} _-]`)

// githubIDs are the ids GitHub gives headings of these texts, in order:
// lower case, all but letters, digits, spaces, hyphens and underscores
// dropped, spaces as hyphens, -1, -2 … after an id taken before.
func githubIDs(headings []string) []string {
	seen := map[string]int{}
	var out []string
	for _, h := range headings {
		base := strings.ReplaceAll(notSlug.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		id := base
		for {
			if _, taken := seen[id]; !taken {
				break
			}
			seen[base]++
			id = base + "-" + strconv.Itoa(seen[base])
		}
		seen[id] = 0
		out = append(out, id)
	}
	return out
}

// checkMarkdownPage checks what holds for every Markdown report: one
// title, no heading deeper than a table's, no heading text twice, every
// link within the page resolves on GitHub, and no word on colours or
// shading, which Markdown cannot show.
func checkMarkdownPage(t *testing.T, p mdPage) {
	t.Helper()
	if len(p.levels) == 0 || p.levels[0] != 1 {
		t.Fatalf("the page does not start with its title: levels %v", p.levels)
	}
	seen := map[string]bool{}
	for i, h := range p.headings {
		if i > 0 && (p.levels[i] < 2 || p.levels[i] > 3) {
			t.Errorf("heading %q has level %d", h, p.levels[i])
		}
		if seen[h] {
			t.Errorf("heading %q repeats", h)
		}
		seen[h] = true
	}
	ids := map[string]bool{}
	for _, id := range githubIDs(p.headings) {
		ids[id] = true
	}
	if len(p.links) == 0 {
		t.Error("no links within the page")
	}
	for _, l := range p.links {
		if !ids[l] {
			t.Errorf("link #%s resolves to no heading", l)
		}
	}
	if m := regexp.MustCompile(`(?i)\b(darker|shad(e|ed|ing)|colou?rs?|red|green|gr[ae]y|yellow|blue)\b`).FindString(p.text); m != "" {
		t.Errorf("the Markdown speaks of %q, which it cannot show", m)
	}
}

// modelTables lists every table of a report the Markdown and text show
// under a heading, in order.
func modelTables(r *report.Report) []*report.Table {
	var out []*report.Table
	add := func(ts ...*report.Table) {
		for _, t := range ts {
			if t != nil {
				out = append(out, t)
			}
		}
	}
	add(r.Summary, r.Relative, r.InsertRate)
	for _, s := range r.Sections {
		add(s.Metrics, s.Efficiency)
		add(s.Histograms...)
		add(s.Iostat, s.IostatAll)
	}
	add(r.AllMetrics...)
	for _, s := range r.ResponseTimes {
		add(s.Tables...)
	}
	if sb := r.Sysbench; sb != nil {
		for _, th := range sb.Threads {
			add(th.Groups, th.Relative)
			add(th.Absolute...)
			add(th.Efficiency...)
			add(th.PerQuery...)
		}
		add(sb.Load)
		add(sb.PrePost...)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}

// TestMarkdownReader checks the Markdown of reports of every kind: the
// summary first, unique headings whose links resolve on GitHub, every
// table of the model under its title, the notes of steps and thread
// counts, no heading of a part that is left out and nothing on colours.
func TestMarkdownReader(t *testing.T) {
	for name, r := range formatReports(t) {
		t.Run(name, func(t *testing.T) {
			md := renderAs(t, r, "md")
			p := readMarkdown(t, md)
			checkMarkdownPage(t, p)
			index := map[string]int{}
			for i, h := range p.headings {
				index[h] = i
			}
			ids := githubIDs(p.headings)
			linked := map[string]bool{}
			for _, l := range p.links {
				linked[l] = true
			}
			pos := -1
			// The Markdown names the DBMS by their short names.
			for _, tab := range modelTables(r.WithShortNames()) {
				i, ok := index[tab.Title]
				switch {
				case !ok:
					t.Errorf("no heading for the table %q", tab.Title)
				case p.levels[i] != 3:
					t.Errorf("table %q has a heading of level %d", tab.Title, p.levels[i])
				case i < pos:
					t.Errorf("table %q is out of order", tab.Title)
				default:
					pos = i
				}
			}
			for _, s := range r.Sections {
				h := "Step " + s.Step.Description
				if i, ok := index[h]; !ok || p.levels[i] != 2 || !linked[ids[i]] {
					t.Errorf("step %s: no linked heading %q", s.Step.Name, h)
				}
				for _, n := range s.Notes {
					if !strings.Contains(p.text, n) {
						t.Errorf("step %s: the note %q is missing", s.Step.Name, n)
					}
				}
			}
			if sb := r.Sysbench; sb != nil {
				for _, th := range sb.Threads {
					h := "Sysbench, " + plural(th.Threads)
					if i, ok := index[h]; !ok || p.levels[i] != 2 || !linked[ids[i]] {
						t.Errorf("no linked heading %q", h)
					}
					for _, n := range th.Notes {
						if !strings.Contains(p.text, n) {
							t.Errorf("%s: the note %q is missing", h, n)
						}
					}
				}
			}
			if r.Summary != nil {
				s, ok1 := index["Summary"]
				c, ok2 := index["Contents"]
				if !ok1 || !ok2 || s != 1 || c < s {
					t.Errorf("the summary is not first: headings %q", p.headings[:min(4, len(p.headings))])
				}
				// The summary follows the title, after the setup line and
				// the findings.
				head, _, _ := bytes.Cut(md, []byte("\n## Summary\n"))
				want := "# " + r.Title + "\n\n"
				if r.Setup != "" {
					want += "Setup: " + r.Setup + ".\n\n"
				}
				if !bytes.HasPrefix(head, []byte(want)) || (len(r.Bullets) > 0 || len(r.Comparability) > 0) != bytes.Contains(head, []byte("\n- ")) {
					t.Errorf("the summary or the findings do not follow the title:\n%s", md[:min(200, len(md))])
				}
			}
			for h, absent := range map[string]bool{"Metrics of all DBMS": r.AllMetrics == nil, "Response times": r.ResponseTimes == nil} {
				if _, ok := index[h]; ok == absent {
					t.Errorf("heading %q: shown %v, the model has the part %v", h, ok, !absent)
				}
			}
		})
	}
}

// TestMarkdownCollidingHeadings gives the report a title and an
// introduction whose headings are those of the report's parts: the parts'
// headings must still be unique and the contents must link to them.
func TestMarkdownCollidingHeadings(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	r.Title = "Summary #1"
	r.Intro = "## Legend\n\nSee [the notes](#notes).\n\n## Step l.i0: load without secondary indexes\n\nText."
	r.IntroGiven = true
	p := readMarkdown(t, renderAs(t, r, "md"))
	checkMarkdownPage(t, p)
	if p.headings[0] != "Summary #1" {
		t.Errorf("title %q", p.headings[0])
	}
	ids := githubIDs(p.headings)
	for i, h := range p.headings {
		if h == "Legend (2)" || h == "Step l.i0: load without secondary indexes (2)" {
			found := false
			for _, l := range p.links {
				found = found || l == ids[i]
			}
			if !found {
				t.Errorf("no link to %q (#%s)", h, ids[i])
			}
		}
	}
}

// textTable is one table of a text report as drawn: its header and the
// cells of its rows.
type textTable struct {
	header []string
	rows   [][]string
}

// splitCells splits a line "| a | b |" into its trimmed cells.
func splitCells(l string) []string {
	f := strings.Split(strings.Trim(l, "|"), " | ")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

// readTextTables reads the tables of a text report, the parts of a split
// table ("(part 1 of n)", "(continued, part i of n)") as one list.
func readTextTables(t *testing.T, txt string) [][]textTable {
	t.Helper()
	var out [][]textTable
	lines := strings.Split(txt, "\n")
	cont := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "(continued, part "):
			cont = true
		case strings.HasPrefix(l, "+-"):
			var tab textTable
			seps := 0
			for ; i < len(lines) && (strings.HasPrefix(lines[i], "+") || strings.HasPrefix(lines[i], "|")); i++ {
				switch {
				case strings.HasPrefix(lines[i], "+"):
					seps++
				case seps == 1:
					tab.header = splitCells(lines[i])
				default:
					tab.rows = append(tab.rows, splitCells(lines[i]))
				}
			}
			if cont && len(out) > 0 {
				out[len(out)-1] = append(out[len(out)-1], tab)
			} else {
				out = append(out, []textTable{tab})
			}
			cont = false
		}
	}
	return out
}

// TestTextReader checks the text of reports of every kind: no line wider
// than 160 columns, no Markdown, the parts and headings of the Markdown in
// the same order, and every part of a split table with the names of all
// its rows.
func TestTextReader(t *testing.T) {
	splits := map[string]int{}
	for name, r := range formatReports(t) {
		t.Run(name, func(t *testing.T) {
			txt := string(renderAs(t, r, "text"))
			lines := strings.Split(txt, "\n")
			for i, l := range lines {
				if n := utf8.RuneCountInString(l); n > 160 {
					t.Errorf("line %d has %d columns: %.80s…", i+1, n, l)
				}
				if strings.HasPrefix(l, "#") {
					t.Errorf("line %d is a Markdown heading: %s", i+1, l)
				}
			}
			for _, s := range []string{"**", `\_`, `\*`, "&lt;", "&amp;", "](", "darker"} {
				if strings.Contains(txt, s) {
					t.Errorf("the text holds %q", s)
				}
			}
			// The headings of the Markdown, underlined, in the same order.
			p := readMarkdown(t, renderAs(t, r, "md"))
			at := 0
			for i, h := range p.headings {
				under := map[int]string{1: "=", 2: "-", 3: "~"}[p.levels[i]]
				found := false
				for ; at+1 < len(lines); at++ {
					if lines[at] == h && lines[at+1] == strings.Repeat(under, utf8.RuneCountInString(h)) {
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("heading %q (level %d) is not in the text in the order of the Markdown", h, p.levels[i])
				}
			}
			for _, parts := range readTextTables(t, txt) {
				if len(parts) > 1 {
					splits[name]++
				}
				first := parts[0]
				for pi, part := range parts {
					if len(part.rows) != len(first.rows) || len(part.header) < 2 || part.header[0] != first.header[0] {
						t.Errorf("table %q part %d: %d rows, header %q; part 1: %d rows", first.header, pi+1, len(part.rows), part.header, len(first.rows))
						continue
					}
					for ri, row := range part.rows {
						if row[0] != first.rows[ri][0] {
							t.Errorf("table %q part %d row %d names %q, part 1 %q", first.header, pi+1, ri+1, row[0], first.rows[ri][0])
						}
					}
				}
			}
		})
	}
	// Wide tables of these reports come transposed (TestTextTransposed);
	// TestTextOneWideColumn checks the parts of a split table.
	t.Logf("split tables: %v", splits)
	// With short names, a row of the nine releases reads across all of
	// them: no table is split.
	if splits["nov25"] != 0 {
		t.Errorf("nov25: %d tables are split", splits["nov25"])
	}
}

// TestTextIntroPlain checks that an introduction written in Markdown comes
// out as plain text.
func TestTextIntroPlain(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	r.Intro = "# About\n\nRuns of **pg15** with `shared_buffers` and *two* clients, see [the post](https://example.org/p) or <https://example.org/q>.\\\nA second line with x\\_y &amp; 5 &lt; 6.\n\n" +
		"1. first\n2. second\n   - nested\n\n> quoted\n\n    " + strings.Repeat("c", 170) + "\n\n<div class=\"x\">\nhidden\n</div>\n\nInline <b>raw</b> HTML.\n\n| a | b |\n|---|--:|\n| x | 1 |\n"
	r.IntroGiven = true
	txt := string(renderAs(t, r, "text"))
	want := "About these results\n-------------------\n\nAbout\n\n" +
		"Runs of pg15 with shared_buffers and two clients, see the post (https://example.org/p) or\nhttps://example.org/q.\nA second line with x_y & 5 < 6.\n\n" +
		"1. first\n2. second\n   - nested\n\n  quoted\n\n    " + strings.Repeat("c", 156) + "\n    cccccccccccccc\n\nInline raw HTML.\n\n+---+---+\n| a | b |\n+---+---+\n| x | 1 |\n+---+---+\n"
	if !strings.Contains(txt, want) {
		i := strings.Index(txt, "About these results")
		t.Errorf("the introduction as text:\n%s\nwant:\n%s", txt[max(i, 0):max(i, 0)+min(600, len(txt)-max(i, 0))], want)
	}
	for _, l := range strings.Split(txt, "\n") {
		if n := utf8.RuneCountInString(l); n > 160 {
			t.Errorf("a line of %d columns: %.60s…", n, l)
		}
	}
	if strings.Contains(txt, "<b>") || strings.Contains(txt, "hidden") {
		t.Error("raw HTML reached the text")
	}
}

// TestTextOneWideColumn checks the one exception to the width: a table
// whose name column and one other are wider than 160 columns together is
// drawn a column a part, however wide.
func TestTextOneWideColumn(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	long := strings.Repeat("x", 170)
	r.Summary.Rows[0].Cells[0].Text = long
	txt := string(renderAs(t, r, "text"))
	parts := readTextTables(t, txt)[0]
	if len(parts) != len(r.Summary.Header)-1 {
		t.Fatalf("%d parts, want one per step", len(parts))
	}
	for _, p := range parts {
		if len(p.header) != 2 || p.rows[0][0] != long {
			t.Errorf("part %q", p.header)
		}
	}
}

// TestMarkdownTextOddReports renders reports a builder would not make: an
// empty one, and tables without a header or with rows of other lengths.
func TestMarkdownTextOddReports(t *testing.T) {
	odd := &report.Report{Title: "odd", Summary: &report.Table{Title: "no header", Rows: []report.Row{{Cells: []report.Cell{{Text: "a"}, {Text: "1"}}}}},
		Relative: &report.Table{Title: "ragged", Header: []string{"dbms", "x"}, Rows: []report.Row{{Cells: []report.Cell{{Text: "a"}, {Text: "1"}, {Text: "2"}}}, {}}},
		Sysbench: &report.SysbenchPart{Notes: []string{"no threads"}}}
	for _, r := range []*report.Report{{}, odd} {
		for _, f := range []string{"md", "text"} {
			out := renderAs(t, r, f)
			if f == "md" && r.Title != "" {
				checkMarkdownPage(t, readMarkdown(t, out))
			}
			if r.Sysbench != nil && !bytes.Contains(out, []byte("no threads")) {
				t.Errorf("%s: the sysbench note is missing", f)
			}
		}
	}
}
