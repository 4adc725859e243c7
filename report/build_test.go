package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/report/render"
)

// buildExample builds the report of the example trees.
func buildExample(t testing.TB, opt metrics.Options, list []report.Entry, bopt report.BuildOptions) *report.Report {
	t.Helper()
	return buildFrom(t, os.DirFS(example), opt, list, bopt)
}

// loadBuild loads a results folder and builds its report.
func loadBuild(t testing.TB, dir string, lopt report.LoadOptions, bopt report.BuildOptions) *report.Report {
	t.Helper()
	res, _, err := report.Load(dir, lopt)
	return built(t, res, err, bopt)
}

// buildFrom loads the results at the root of fsys and builds their report.
func buildFrom(t testing.TB, fsys fs.FS, opt metrics.Options, list []report.Entry, bopt report.BuildOptions) *report.Report {
	t.Helper()
	res, _, err := report.LoadFS(fsys, "test", report.LoadOptions{Metrics: opt, List: list})
	return built(t, res, err, bopt)
}

// built builds the report of loaded results, failing on an error of either.
func built(t testing.TB, res *report.Results, err error, bopt report.BuildOptions) *report.Report {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(res, bopt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// refCell is one cell of an original HTML table: its text and colour id.
type refCell struct{ text, class string }

// readRefTables reads the rows of the tables of an original HTML fragment
// (tput.tab, *.ht). Header rows are skipped.
func readRefTables(t *testing.T, name string) [][]refCell {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/ibench-html", name))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]refCell
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "tr" {
			var row []refCell
			header := false
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type != html.ElementNode {
					continue
				}
				header = header || c.Data == "th"
				rc := refCell{text: textOf(c)}
				for _, a := range c.Attr {
					if a.Key == "id" {
						rc.class = a.Val
					}
				}
				row = append(row, rc)
			}
			if !header {
				rows = append(rows, row)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return rows
}

// textOf is the trimmed text of a node.
func textOf(n *html.Node) string { return strings.TrimSpace(textContent(n)) }

// modelRows turns a table of the model into the original's cells: text and
// class, the histograms' shade as c<N> (the original wrote c0 too).
func modelRows(tab *report.Table, shaded bool) [][]refCell {
	var out [][]refCell
	for _, r := range tab.Rows {
		var row []refCell
		for i, c := range r.Cells {
			class := c.Band.Class()
			if i == 0 {
				class = "" // the original gave the DBMS cell no colour (c0 in histograms)
			} else if shaded && i < len(r.Cells)-1 && class == "" && c.Text != "" && c.Text != "nonzero" {
				class = fmt.Sprintf("c%d", c.Shade)
			}
			row = append(row, refCell{c.Text, class})
		}
		out = append(out, row)
	}
	return out
}

// originalRatioClasses maps the default mode's bands of a throughput
// ratio to the original's classes: better is chi (above 1.05), worse clo
// (below 0.95), whatever the step; a cell within noise has no band, and is
// given the original's class when that is one of the two.
func originalRatioClasses(tab *report.Table, got, want [][]refCell) {
	for i, r := range tab.Rows {
		for j, c := range r.Cells {
			if j == 0 || i >= len(got) || j >= len(got[i]) {
				continue
			}
			switch c.Band {
			case report.Better, report.MuchBetter:
				got[i][j].class = "chi"
			case report.Worse, report.MuchWorse:
				got[i][j].class = "clo"
			case report.NoBand:
				if c.WithinNoise && i < len(want) && j < len(want[i]) && (want[i][j].class == "chi" || want[i][j].class == "clo") {
					got[i][j].class = want[i][j].class
				}
			}
		}
	}
}

// sameCells reports whether two tables of cells are equal; with
// lastDigit, numbers may differ by one unit in the last printed digit (the
// default mode rounds once from unrounded values where the scripts rounded
// printed intermediates, e.g. 86956.52 prints 86957, not 86956).
func sameCells(got, want [][]refCell, lastDigit bool) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return false
		}
		for j, g := range got[i] {
			w := want[i][j]
			if g == w {
				continue
			}
			if !lastDigit || g.class != w.class || !withinLastDigit(g.text, w.text) {
				return false
			}
		}
	}
	return true
}

func withinLastDigit(a, b string) bool {
	x, e1 := strconv.ParseFloat(a, 64)
	y, e2 := strconv.ParseFloat(b, 64)
	dec := func(s string) int {
		if i := strings.IndexByte(s, '.'); i >= 0 {
			return len(s) - i - 1
		}
		return 0
	}
	if e1 != nil || e2 != nil || dec(a) != dec(b) {
		return false
	}
	return math.Abs(x-y) <= 1.000001*math.Pow10(-dec(a))
}

// TestColoursMatchOriginal checks that the summary, relative, insert-rate
// and histogram tables have the numbers and colours of the original HTML
// report of the same runs: exactly in compat mode, and in the default mode
// up to one unit of the last digit where it rounds the unrounded value.
// The default mode judges the insert-rate target from the clients' full
// intervals, which in these runs met it: the summary and insert-rate
// tables keep the original's numbers, not its ✗ and ○ (each of those
// cells has a note instead).
func TestColoursMatchOriginal(t *testing.T) {
	for _, compat := range []bool{true, false} {
		opt := compatOpts
		opt.Compat = compat
		r := buildExample(t, opt, exampleList(t), report.BuildOptions{})
		check := func(ref string, tab *report.Table, shaded bool) {
			t.Helper()
			want := readRefTables(t, ref)
			if shaded {
				for _, row := range want {
					row[0].class = ""
				}
			}
			got := modelRows(tab, shaded)
			if !compat && ref == "tputr.tab" {
				originalRatioClasses(tab, got, want)
			}
			if ref == "iput.tab" { // the target row's cells: cgray in both
				got[len(got)-1][0].class = ""
			}
			if !compat && (ref == "tput.tab" || ref == "iput.tab") {
				for _, rows := range [][][]refCell{got, want} {
					for _, row := range rows {
						for j := range row {
							row[j].class = ""
						}
					}
				}
				for _, row := range tab.Rows {
					for _, c := range row.Cells {
						if c.Band == report.Missed || c.Band == report.Ignored {
							t.Errorf("%s: %s marks %q although the clients met the target over their full intervals", ref, c.Band, c.Text)
						}
					}
				}
			}
			if !sameCells(got, want, !compat) {
				t.Errorf("compat=%v %s:\n got %v\nwant %v", compat, ref, got, want)
			}
		}
		check("tput.tab", r.Summary, false)
		check("tputr.tab", r.Relative, false)
		check("iput.tab", r.InsertRate, false)
		n := 0
		for _, s := range r.Sections {
			for _, h := range s.Histograms {
				kind := strings.TrimPrefix(h.ID, s.Step.Name+".hist.")
				check(fmt.Sprintf("mrg.%s.rt.%s.ht", s.Step.Name, kind), h, true)
				n++
			}
		}
		if n != 23 {
			t.Errorf("compat=%v: %d histogram tables, want the original's 23", compat, n)
		}
	}
}

// checkHTML parses a page and checks its structure: every row has the
// header's cell count, ids are unique, every #anchor resolves, and nothing
// is loaded from outside the page.
func checkHTML(t *testing.T, page []byte) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	var links []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "link", "iframe", "object", "embed", "img", "image", "use":
				t.Errorf("element <%s> in the page", n.Data)
			case "table":
				checkTableShape(t, n)
			}
			for _, a := range n.Attr {
				switch {
				case a.Key == "id":
					ids[a.Val]++
				case a.Key == "href" && n.Data == "a":
					if !strings.HasPrefix(a.Val, "#") {
						t.Errorf("link to %q leaves the page", a.Val)
					}
					links = append(links, strings.TrimPrefix(a.Val, "#"))
				case a.Key == "src" || a.Key == "href" || a.Key == "xlink:href" || strings.HasPrefix(a.Key, "on"):
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				case a.Key == "style" && strings.Contains(a.Val, "url("):
					t.Errorf("<%s style=%q> loads a resource", n.Data, a.Val)
				}
			}
		}
		if n.Type == html.TextNode && n.Parent != nil && n.Parent.Data == "style" && strings.Contains(n.Data, "url(") {
			t.Error("the style sheet loads a resource")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q is used %d times", id, n)
		}
	}
	for _, l := range links {
		if ids[l] == 0 {
			t.Errorf("link #%s has no target", l)
		}
	}
	if len(links) == 0 {
		t.Error("no links: the contents are missing")
	}
}

func checkTableShape(t *testing.T, table *html.Node) {
	t.Helper()
	want := -1
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "tr" {
			cells := 0
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
					cells++
				}
			}
			if want < 0 {
				want = cells
			} else if cells != want {
				t.Errorf("table %s: a row has %d cells, the header %d", attr(table, "id"), cells, want)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(table)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func renderAs(t testing.TB, r *report.Report, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Write(&buf, r, format); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBuildGolden compares every format with the golden files, for the raw
// example trees and for an archived mrg folder.
func TestBuildGolden(t *testing.T) {
	defOpts := compatOpts
	defOpts.Compat = false
	raw := buildExample(t, defOpts, nil, report.BuildOptions{})
	res, _, err := report.Load("../testdata/ibench/reference/res", report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	archived, err := report.Build(res, report.BuildOptions{Clients: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		r    *report.Report
	}{{"example", raw}, {"archive", archived}} {
		for _, f := range []struct{ format, ext string }{{"html", "html"}, {"md", "md"}, {"text", "txt"}, {"json", "json"}} {
			t.Run(c.name+"."+f.format, func(t *testing.T) {
				got := renderAs(t, c.r, f.format)
				golden(t, filepath.Join("testdata/build", c.name+"."+f.ext), got)
				if f.format == "html" {
					checkHTML(t, got)
				}
			})
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update)", err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(path+".got", got, 0o644)
		t.Errorf("%s differs from the golden file; got is in %s.got", path, path)
	}
}

// TestBuildDeterministic checks that the same input gives the same bytes.
func TestBuildDeterministic(t *testing.T) {
	a := renderAs(t, buildExample(t, compatOpts, nil, report.BuildOptions{}), "html")
	b := renderAs(t, buildExample(t, compatOpts, nil, report.BuildOptions{}), "html")
	if !bytes.Equal(a, b) {
		t.Error("two builds of the same input differ")
	}
}

// mdTransposed reports whether the Markdown holds the table transposed:
// a row per column of it, with the column's cells.
func mdTransposed(md string, tab *report.Table) bool {
	for j := 1; j < len(tab.Header); j++ {
		cells := []string{tab.Header[j]}
		for _, row := range tab.Rows {
			cells = append(cells, cellsMarked(row)[j])
		}
		if !strings.Contains(md, "| "+strings.Join(cells, " | ")+" |") {
			return false
		}
	}
	return true
}

// TestFormatsSameNumbers checks that Markdown, text and JSON carry every
// number of the summary tables.
func TestFormatsSameNumbers(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	md, txt := string(renderAs(t, r, "md")), string(renderAs(t, r, "text"))
	var back report.Report
	if err := json.Unmarshal(renderAs(t, r, "json"), &back); err != nil {
		t.Fatal(err)
	}
	for _, tab := range []*report.Table{r.Summary, r.Relative, r.InsertRate, r.Sections[0].Metrics} {
		for _, row := range tab.Rows {
			mdRow := "| " + strings.Join(cellsMarked(row), " | ") + " |"
			if !strings.Contains(md, mdRow) && !mdTransposed(md, tab) {
				t.Errorf("markdown lacks the row %q", mdRow)
			}
			for _, c := range row.Cells {
				if !strings.Contains(txt, c.Marked()) {
					t.Errorf("text lacks %q", c.Marked())
				}
			}
		}
	}
	if !reflect.DeepEqual(back.Summary, r.Summary) || !reflect.DeepEqual(back.InsertRate, r.InsertRate) {
		t.Error("the JSON summary does not read back equal")
	}
	if back.Schema != report.SchemaVersion {
		t.Errorf("schema %q", back.Schema)
	}
}

func cellsMarked(r report.Row) []string {
	var out []string
	for _, c := range r.Cells {
		out = append(out, c.Marked())
	}
	return out
}

// copyTrees returns a MapFS holding the example trees under new names:
// names[i] gets a copy of the tree src[i].
func copyTrees(t testing.TB, names, src []string) fstest.MapFS {
	t.Helper()
	files := map[string][]byte{}
	root := os.DirFS(example)
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(root, p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{}
	for i, n := range names {
		for p, b := range files {
			if rest, ok := strings.CutPrefix(p, src[i]+"/"); ok {
				m[n+"/"+rest] = &fstest.MapFile{Data: b}
			}
		}
	}
	return m
}

func buildFS(t testing.TB, m fstest.MapFS, list []report.Entry, bopt report.BuildOptions) *report.Report {
	t.Helper()
	return buildFrom(t, m, metrics.Options{Cores: 2, PsUser: "postgres", Device: "vda"}, list, bopt)
}

const c1, c2 = "2m.pg15.c1", "2m.pg15.c2"

func TestBuildOneDBMS(t *testing.T) {
	r := buildFS(t, copyTrees(t, []string{c1}, []string{c1}), nil, report.BuildOptions{})
	if len(r.Summary.Rows) != 1 || len(r.Relative.Rows) != 1 {
		t.Fatalf("rows: %d summary, %d relative", len(r.Summary.Rows), len(r.Relative.Rows))
	}
	for _, c := range r.Summary.Rows[0].Cells[1:] {
		// One value is its column's whole range: top, unless ignored.
		if c.Band != report.Top && c.Band != report.Ignored {
			t.Errorf("cell %q band %q", c.Text, c.Band)
		}
	}
	for _, c := range r.Relative.Rows[0].Cells[1:] {
		if c.Text != "1.00" {
			t.Errorf("base cell %q", c.Text)
		}
	}
	checkHTML(t, renderAs(t, r, "html"))
}

func TestBuildTwentyDBMSInFourGroups(t *testing.T) {
	var names, src []string
	var list []report.Entry
	for g := 0; g < 4; g++ {
		if g > 0 {
			list = append(list, report.Entry{Break: true})
		}
		for i := 0; i < 5; i++ {
			n := fmt.Sprintf("2m.db%d.g%d", i, g)
			names = append(names, n)
			src = append(src, []string{c1, c2}[i%2])
			list = append(list, report.Entry{Name: n})
		}
	}
	r := buildFS(t, copyTrees(t, names, src), list, report.BuildOptions{})
	if len(r.Summary.Rows) != 20 || len(r.Relative.Rows) != 20 {
		t.Fatalf("rows: %d summary, %d relative", len(r.Summary.Rows), len(r.Relative.Rows))
	}
	starts := 0
	for i, row := range r.Relative.Rows {
		if row.GroupStart {
			starts++
		}
		base := i%5 == 0
		if (row.Cells[0].Band == report.Base) != base {
			t.Errorf("row %d (%s): base band %q", i, row.Cells[0].Text, row.Cells[0].Band)
		}
		if base && row.Cells[1].Text != "1.00" {
			t.Errorf("base row %d: %q", i, row.Cells[1].Text)
		}
		if i%5 == 1 && row.Cells[1].Text != "1.28" { // c2 over c1 on l.i0
			t.Errorf("row %d l.i0: %q, want 1.28", i, row.Cells[1].Text)
		}
	}
	if starts != 3 {
		t.Errorf("%d group starts, want 3", starts)
	}
	// The relative efficiency of a step: every DBMS but the four bases.
	eff := r.Sections[0].Efficiency
	effStarts := 0
	for _, row := range eff.Rows {
		if row.GroupStart {
			effStarts++
		}
	}
	if len(eff.Rows) != 16 || effStarts != 3 || eff.Rows[0].Cells[1].Text != "1.28" {
		t.Errorf("efficiency: %d rows, %d group starts, first %q", len(eff.Rows), effStarts, eff.Rows[0].Cells[1].Text)
	}
	// The metrics of all DBMS show the groups, which the step tables do not.
	if r.AllMetrics == nil {
		t.Error("no metrics of all DBMS")
	}
	page := renderAs(t, r, "html")
	checkHTML(t, page)
	if n := bytes.Count(page, []byte(`<tr class="gs">`)); n < 3 {
		t.Errorf("%d group-start rows in the page", n)
	}
}

func TestBuildMissingSteps(t *testing.T) {
	m := copyTrees(t, []string{c1, c2}, []string{c1, c2})
	for p := range m {
		if strings.HasPrefix(p, c2+"/qp500.L4/") || strings.HasPrefix(p, c2+"/l.i2/") {
			delete(m, p)
		}
	}
	r := buildFS(t, m, nil, report.BuildOptions{})
	col := map[string]int{}
	for i, h := range r.Summary.Header {
		col[h] = i
	}
	for _, step := range []string{"l.i2", "qp500"} {
		c := r.Summary.Rows[1].Cells[col[step]]
		if c.Text != "NA" || c.Band != report.NotANumber {
			t.Errorf("%s: missing step shows %q band %q", step, c.Text, c.Band)
		}
		if c := r.Relative.Rows[1].Cells[col[step]]; c.Text != "NA" {
			t.Errorf("%s: relative %q", step, c.Text)
		}
		// The other DBMS is the column's only value.
		if c := r.Summary.Rows[0].Cells[col[step]]; c.Band != report.Top && c.Band != report.Ignored {
			t.Errorf("%s: the remaining value's band is %q", step, c.Band)
		}
	}
	found := false
	for _, n := range r.Summary.Notes {
		found = found || strings.Contains(n, "pg15.c2 l.i2: NA")
	}
	if !found {
		t.Errorf("no note says why l.i2 is NA: %q", r.Summary.Notes)
	}
	checkHTML(t, renderAs(t, r, "html"))
}

func TestBuildMissedEveryTarget(t *testing.T) {
	// With three clients the targets are 300, 1500 and 3000 inserts/s, which
	// no DBMS of the example reached.
	r := buildFS(t, copyTrees(t, []string{c1, c2}, []string{c1, c2}), nil, report.BuildOptions{Clients: 3})
	for _, row := range r.InsertRate.Rows[:2] {
		for _, c := range row.Cells[1:] {
			if c.Band != report.Missed {
				t.Errorf("%s: insert rate %q band %q, want missed", row.Cells[0].Text, c.Text, c.Band)
			}
		}
	}
	if tr := r.InsertRate.Rows[2]; tr.Kind != report.TargetRow || tr.Cells[1].Text != "300" {
		t.Errorf("target row %+v", tr)
	}
	for _, row := range r.Summary.Rows {
		for i, c := range row.Cells[1:] {
			if r.Steps[i].ReadWrite && c.Band != report.Ignored {
				t.Errorf("%s %s: band %q, want ignored", row.Cells[0].Text, r.Steps[i].Name, c.Band)
			}
		}
	}
}

func TestBuildEscapesNames(t *testing.T) {
	evil := `2m.<script>alert(1)&"x` // no slash: it is a directory name
	r := buildFS(t, copyTrees(t, []string{c1, evil}, []string{c1, c2}), nil, report.BuildOptions{})
	page := renderAs(t, r, "html")
	if bytes.Contains(page, []byte("<script")) {
		t.Error("a DBMS name became markup in the HTML")
	}
	if !bytes.Contains(page, []byte("&lt;script&gt;alert(1)&amp;&#34;x")) {
		t.Error("the escaped name is not in the HTML")
	}
	checkHTML(t, page)
	md := renderAs(t, r, "md")
	if bytes.Contains(md, []byte("<script")) {
		t.Error("a DBMS name became markup in the Markdown")
	}
	if !bytes.Contains(renderAs(t, r, "text"), []byte(`<script>alert(1)&"x`)) {
		t.Error("text output should show the name as it is")
	}
}

// TestMarkdownTables renders the Markdown report with a GFM parser and
// checks that every table of the model came out as a table of the right
// shape.
func TestMarkdownTables(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	var page bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(renderAs(t, r, "md"), &page); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&page)
	if err != nil {
		t.Fatal(err)
	}
	tables := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" {
			tables++
			checkTableShape(t, n)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	want := 5 + len(r.AllMetrics) // summary tables, legend, bands
	for _, s := range r.Sections {
		want += len(s.Histograms) + 1
		for _, t := range []*report.Table{s.Efficiency, s.Noise, s.Iostat, s.IostatAll} {
			if t != nil {
				want++
			}
		}
	}
	for _, s := range r.ResponseTimes {
		want += len(s.Tables)
	}
	if tables != want {
		t.Errorf("%d tables in the Markdown, want %d", tables, want)
	}
}

// TestEfficiencyMatchesRel checks each step's relative efficiency table:
// in compat mode against the rel.<step> file the original scripts wrote for
// the same runs (the report prints their "1" for 0/0 as "1.00", as its
// relative throughput table does); in the default mode against the ratio of
// the unrounded values of the step's metrics table.
func TestEfficiencyMatchesRel(t *testing.T) {
	for _, compat := range []bool{true, false} {
		opt := compatOpts
		opt.Compat = compat
		r := buildExample(t, opt, exampleList(t), report.BuildOptions{})
		n := 0
		for _, s := range r.Sections {
			tab := s.Efficiency
			if tab == nil {
				t.Fatalf("%s: no efficiency table", s.Step.Name)
			}
			b, err := os.ReadFile("../testdata/ibench/reference/res/rel." + s.Step.Name)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			hdr, vals := strings.Fields(lines[0]), strings.Fields(lines[len(lines)-1])
			rel := map[string]string{}
			for i, h := range hdr {
				rel[h] = vals[i]
			}
			if len(tab.Rows) != 1 || tab.Rows[0].Cells[0].Text != rel["tag"] {
				t.Fatalf("compat=%v %s: rows %v, want one of %s", compat, s.Step.Name, tab.Rows, rel["tag"])
			}
			metric := map[string][2]*float64{} // column -> base, other
			for i, col := range s.Metrics.Header[1:] {
				metric[col] = [2]*float64{s.Metrics.Rows[0].Cells[i+1].Value, s.Metrics.Rows[1].Cells[i+1].Value}
			}
			for i, col := range tab.Header[1:] {
				c := tab.Rows[0].Cells[i+1]
				if compat {
					want := rel[col]
					if want == "1" {
						want = "1.00"
					}
					if c.Text != want {
						t.Errorf("compat %s %s = %q, rel.%s has %q", s.Step.Name, col, c.Text, s.Step.Name, rel[col])
					}
					n++
					continue
				}
				m := metric[col]
				if m[0] == nil || m[1] == nil || *m[0] == 0 || c.Value == nil {
					continue // NA, or 0/0 and x/0, which the golden files show
				}
				if want := *m[1] / *m[0]; math.Abs(*c.Value-want) > 1e-9*math.Abs(want) {
					t.Errorf("%s %s = %v, want %v / %v", s.Step.Name, col, *c.Value, *m[1], *m[0])
				}
				n++
			}
		}
		if n < 90 {
			t.Errorf("compat=%v: %d cells compared", compat, n)
		}
	}
}

// TestReportSaysWhatItLeavesOut checks the notes of what the default mode
// and the HTML page change: the corrected numbers, raw HTML in the
// introduction; and that sections which would repeat the step tables are
// left out.
func TestReportSaysWhatItLeavesOut(t *testing.T) {
	def := compatOpts
	def.Compat = false
	intro := "Server: 8 cores.\n\n<b>bold</b> text\n"
	r := buildExample(t, def, nil, report.BuildOptions{Intro: intro})
	if !strings.Contains(r.ModeNote, "--compat reproduces") {
		t.Errorf("mode note %q: want the default mode's corrections", r.ModeNote)
	}
	found := false
	for _, n := range r.Notes {
		found = found || strings.Contains(n.Text, "raw HTML (its line 3)")
	}
	if !found || !r.IntroGiven {
		t.Errorf("no note of the intro's raw HTML at line 3 (given %v): %q", r.IntroGiven, r.Notes)
	}
	if r.AllMetrics != nil || r.ResponseTimes != nil {
		t.Error("all-metrics and response-time sections repeat the step tables of the example")
	}
	c := buildExample(t, compatOpts, nil, report.BuildOptions{})
	if c.ModeNote != "" {
		t.Errorf("compat report says %q", c.ModeNote)
	}
	for _, n := range r.Notes {
		if strings.Contains(n.Text, "--compat reproduces") {
			t.Error("the mode is among the warnings")
		}
	}
	page := string(renderAs(t, r, "html"))
	for _, want := range []string{`id="about" class="about" open`, "<summary>About these results</summary>", "Numbers are corrected"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<b>bold</b>") {
		t.Error("raw HTML of the intro reached the page")
	}
	// The summary comes before the steps' description.
	if s, a := strings.Index(page, `id="summary"`), strings.Index(page, `id="about"`); s < 0 || a < s {
		t.Errorf("summary at %d, about at %d", s, a)
	}
}

// TestIostatCurated checks the short iostat table of a step: the columns
// compared first, and the whole table beside it.
func TestIostatCurated(t *testing.T) {
	r := buildExample(t, compatOpts, nil, report.BuildOptions{})
	s := r.Sections[0]
	if s.Iostat == nil || s.IostatAll == nil {
		t.Fatal("no curated or full iostat table")
	}
	want := []string{"dbms", "r/s", "rkB/s", "r_await", "w/s", "wkB/s", "w_await", "aqu-sz", "%util"}
	if !slices.Equal(s.Iostat.Header, want) {
		t.Errorf("curated header %q, want %q", s.Iostat.Header, want)
	}
	if len(s.IostatAll.Header) <= len(want) || len(s.Iostat.Rows) != len(s.IostatAll.Rows) {
		t.Errorf("full table: %d columns, %d rows", len(s.IostatAll.Header), len(s.IostatAll.Rows))
	}
}
