package render

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/templates"
)

var (
	mdOnce sync.Once
	mdTmpl *template.Template
)

// Note: Markdown is text, so it uses text/template; every name from the
// input goes through mdtext, mdpara, mdheading or mdcell, which escape it.
func markdownTemplate() *template.Template {
	mdOnce.Do(func() {
		mdTmpl = template.Must(template.New("report.md.tmpl").Funcs(template.FuncMap{
			"mdtext":    textfmt.MarkdownEscape,
			"mdpara":    mdPara,
			"mdheading": mdHeading,
			"mdcell":    textfmt.MarkdownCell,
			"mdparts":   mdPartsOf,
		}).ParseFS(templates.FS, "report.md.tmpl"))
	})
	return mdTmpl
}

const (
	// mdWidth is the widest row of a Markdown table, in characters of its
	// source: at GitHub's 14px font a character and the " | " between
	// cells take about as much room as the page's cell padding, so 120
	// characters fill the about 1000 pixels of its column of text.
	mdWidth = 120
	// mdWrapWidth is the width a cell of several words counts for: GitHub
	// wraps such cells at their spaces when the table is wider than the page.
	mdWrapWidth = 30
)

// mdPart is a table or one part of a table, as Markdown: the line that
// numbers the part or says it is transposed, then the table's lines.
type mdPart struct {
	Label string
	Table string
}

// mdParts lays out a table to fit mdWidth (fitTable): as it is,
// transposed, or in numbered parts that repeat the columns naming the rows.
func mdParts(t *docTable) []mdPart {
	if len(t.names) == 0 {
		return nil
	}
	header, rows := gridOf(t, func(_ int, c string) string { return c })
	parts := fitTable(header, rows, t.names, t.keys, transposable(t.Table, rows), mdWidth, mdCellWidth)
	out := make([]mdPart, len(parts))
	for i, p := range parts {
		ls := []string{mdRow(p.Header)}
		sep := make([]string, len(p.Left))
		for j, l := range p.Left {
			sep[j] = "---:"
			if l {
				sep[j] = "---"
			}
		}
		ls = append(ls, "| "+strings.Join(sep, " | ")+" |")
		for _, r := range p.Rows {
			ls = append(ls, mdRow(r))
		}
		out[i] = mdPart{Label: p.Label, Table: strings.Join(ls, "\n")}
	}
	return out
}

// mdPartsOf is mdParts of a table, as WriteMarkdown made them.
func mdPartsOf(t *docTable) []mdPart {
	if t.mdDone {
		return t.md
	}
	return mdParts(t)
}

// mdRow is a row of a Markdown table, every cell escaped.
func mdRow(cells []string) string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = textfmt.MarkdownCell(c)
	}
	return "| " + strings.Join(out, " | ") + " |"
}

// mdCellWidth is the width a cell takes in a row of Markdown: its escaped
// text, at most mdWrapWidth for words in a column of names, which GitHub
// wraps.
func mdCellWidth(c string, left bool) int {
	w := utf8.RuneCountInString(textfmt.MarkdownCell(c))
	if left && strings.Contains(strings.TrimSpace(c), " ") {
		w = min(w, mdWrapWidth)
	}
	return w
}

// rowTexts is a row as plain texts with band markers; the first row of a
// later group is prefixed with "— " so groups survive without borders.
func rowTexts(r report.Row) []string {
	out := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = c.Marked()
	}
	if r.GroupStart && len(out) > 0 {
		out[0] = "— " + out[0]
	}
	return out
}

// mdPara escapes a paragraph or list item of one line: textfmt.MarkdownEscape, and a
// backslash before what would start a block (a heading, a list, a quote, a
// thematic break) at its beginning.
func mdPara(s string) string {
	s = textfmt.MarkdownEscape(oneLine(s))
	if s == "" {
		return s
	}
	if strings.ContainsRune("#>+-=", rune(s[0])) {
		return `\` + s
	}
	// "1. " and "1) " start ordered lists.
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}

// mdHeading escapes the text of a heading: textfmt.MarkdownEscape, on one line, and a
// backslash before every # so that none closes the heading.
func mdHeading(s string) string {
	return strings.ReplaceAll(textfmt.MarkdownEscape(oneLine(s)), "#", `\#`)
}

// oneLine joins the lines and runs of blanks of s into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// WriteMarkdown writes the report as GitHub-flavored Markdown: the summary
// first, then the introduction and contents whose links GitHub resolves,
// every table as its own block under a heading of its own, markers for the
// bands.
func WriteMarkdown(w io.Writer, r *report.Report) error {
	if err := checkArgs(w, r); err != nil {
		return err
	}
	r = r.WithShortNames()
	d := outline(r)
	// Laying the tables out is most of the page's cost: it is done on all
	// cores before the template, which takes the parts made.
	var tables []*docTable
	for _, p := range d.Parts {
		for _, it := range p.Items {
			if it.Table != nil {
				tables = append(tables, it.Table)
			}
		}
	}
	metrics.Parallel(len(tables), func(i int) {
		tables[i].md, tables[i].mdDone = mdParts(tables[i]), true
	})
	var buf bytes.Buffer
	if err := markdownTemplate().ExecuteTemplate(&buf, "page", d); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// doc is the outline the Markdown and text reports share: the same parts
// in the same order under the same headings, which are unique in the
// document.
type doc struct {
	Title string
	Setup string // the setup line, under the title
	// Warnings come next: the comparability warnings.
	Warnings []string
	// HeadLead introduces the Lead when it starts with the headlines.
	HeadLead string
	// Lead is the findings a reader sees first: the headlines (a short
	// sentence per DBMS), the series' findings, then what to check. The
	// full lines of the headlines, with spread and causes, are a part
	// after the contents.
	Lead  []string
	Parts []*docPart
}

// docPart is a part of the report under a heading of the second level.
type docPart struct {
	Heading string // unique in the document
	Anchor  string // the id GitHub gives the heading
	// Group and Short put the part on one line of the contents with the
	// others of its group ("Steps: l.i0, l.x …"); "" for a line of its own.
	Group, Short string
	Intro        string     // the introduction, in Markdown
	IsContents   bool       // the contents: Contents lists the parts after it
	Contents     []docEntry // one line each
	Items        []*docItem // paragraphs, lists and tables
}

// docEntry is one line of the contents: a link, or a group of links.
type docEntry struct {
	Label string // the group's name; "" for a single link
	Links []docLink
}

// docLink links to a heading.
type docLink struct{ Text, Anchor string }

// docItem is a paragraph, a list or a table; the text is plain.
type docItem struct {
	Para    string
	Bullets []string
	Table   *docTable
}

// docTable is a table of the report with its unique heading.
type docTable struct {
	*report.Table
	Heading string // "" for none
	Anchor  string
	Caption string   // without colours
	Notes   []string // without colours
	names   []bool   // columns that name something, aligned left
	keys    int      // leading columns that name a row, in every part of a split table
	md      []mdPart // mdParts, when mdDone
	mdDone  bool
}

func (t *docTable) left(i int) bool { return i < len(t.names) && t.names[i] }

// withoutColoursAll is withoutColours of each line, on one line.
func withoutColoursAll(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = withoutColours(oneLine(l))
	}
	return out
}

// hasCharts reports whether the HTML report draws charts, which the other
// formats leave out.
func hasCharts(r *report.Report) bool {
	for _, s := range r.Sections {
		if s.Throughput != nil || len(s.Intervals) > 0 {
			return true
		}
	}
	if sb := r.Sysbench; sb != nil {
		for _, th := range sb.Threads {
			if len(th.GroupCharts) > 0 || len(th.Intervals) > 0 {
				return true
			}
		}
	}
	return false
}

func newDocTable(t *report.Table) *docTable {
	dt := &docTable{Table: t}
	fillDocTable(dt)
	return dt
}

// fillDocTable sets what a docTable derives from its table: the caption
// and notes without colours and the columns that name something.
func fillDocTable(dt *docTable) {
	t := dt.Table
	dt.Caption = withoutColours(oneLine(t.Caption))
	for _, n := range t.Notes {
		dt.Notes = append(dt.Notes, withoutColours(oneLine(n)))
	}
	dt.names, dt.keys = nameColumns(t)
}

// nameColumns finds the columns of a table that name something rather
// than hold numbers: the first, and every column whose cells are all words.
// keys counts the leading ones (a test group and a statistic), at least
// one and less than all.
func nameColumns(t *report.Table) (names []bool, keys int) {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r.Cells))
	}
	names = make([]bool, n)
	for i := range names {
		some, all := false, true
		for _, r := range t.Rows {
			if i >= len(r.Cells) || r.Cells[i].Text == "" {
				continue
			}
			some = true
			all = all && isName(r.Cells[i])
		}
		names[i] = i == 0 || some && all
	}
	keys = 1
	for keys < n-1 && names[keys] {
		keys++
	}
	return names, keys
}

// isName reports whether a cell holds a word rather than a number.
func isName(c report.Cell) bool {
	if c.Value != nil || c.NA != "" || c.Unit != "" || c.Band == report.NotANumber {
		return false
	}
	s := strings.TrimSpace(c.Text)
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "na", "nan", "inf", "":
		return false
	}
	_, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return err != nil
}

// colourMarked finds a colour with its marker in parentheses, as the
// captions give them for the HTML report: "are red (▼)".
var colourMarked = regexp.MustCompile(`\b((?:[Ll]ight |[Dd]ark )?(?:[Rr]ed|[Gg]reen|[Gg]r[ae]y|[Yy]ellow|[Bb]lue|[Oo]range)) \(([^\p{L}\p{N}\s()]+)\)`)

// colourUnused finds "red is not used".
var colourUnused = regexp.MustCompile(`\b((?:[Ll]ight |[Dd]ark )?(?:[Rr]ed|[Gg]reen|[Gg]r[ae]y|[Yy]ellow|[Bb]lue|[Oo]range)) is not used\b`)

// colourParen reports whether s may hold a match of colourMarked: a " ("
// after the last letters of a colour's name. Without one, withoutColours
// changes nothing: colourUnused's "red is not used" is only rewritten
// with the marker that colourMarked found.
func colourParen(s string) bool {
	for i := strings.Index(s, " ("); i >= 0; {
		if i >= 2 {
			switch s[i-2 : i] {
			case "ed", "en", "ey", "ay", "ow", "ue", "ge":
				return true
			}
		}
		j := strings.Index(s[i+2:], " (")
		if j < 0 {
			return false
		}
		i += 2 + j
	}
	return false
}

// withoutColours says a text of the model in terms of the markers, which
// Markdown and text show, instead of the colours, which only HTML shows:
// "are red (▼)" becomes "are marked ▼", "Gray (○) marks" "○ marks" and "red
// is not used" "the ▼ marker is not used".
func withoutColours(s string) string {
	// Every text of the model passes here, most of them captions that
	// name no colour: a colour followed by " (" is looked for first,
	// without the regular expressions, which cost more than the rest of
	// the page.
	if !colourParen(s) {
		return s
	}
	// The captions that do name colours are the same for every table of a
	// kind: each is reworded once.
	colourCache.Lock()
	out, ok := colourCache.m[s]
	colourCache.Unlock()
	if !ok {
		out = rewordColours(s)
		colourCache.Lock()
		if len(colourCache.m) >= 4096 {
			clear(colourCache.m) // a bound, never met by one report
		}
		colourCache.m[s] = out
		colourCache.Unlock()
	}
	return out
}

// colourCache holds withoutColours' rewordings.
var colourCache = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// rewordColours is withoutColours of a text that may name colours.
func rewordColours(s string) string {
	marker := map[string]string{}
	for _, m := range colourMarked.FindAllStringSubmatch(s, -1) {
		marker[strings.ToLower(m[1])] = m[2]
	}
	if len(marker) == 0 {
		return s
	}
	s = colourMarked.ReplaceAllStringFunc(s, func(m string) string {
		sub := colourMarked.FindStringSubmatch(m)
		if unicode.IsUpper(rune(sub[1][0])) {
			return sub[2]
		}
		return "marked " + sub[2]
	})
	return colourUnused.ReplaceAllStringFunc(s, func(m string) string {
		sub := colourUnused.FindStringSubmatch(m)
		mk, ok := marker[strings.ToLower(sub[1])]
		switch {
		case !ok:
			return m
		case unicode.IsUpper(rune(sub[1][0])):
			return "The " + mk + " marker is not used"
		}
		return "the " + mk + " marker is not used"
	})
}

// headingNamer gives every heading of a document a text no other heading
// has and the id GitHub gives it.
type headingNamer struct {
	used  map[string]bool
	slugs slugger
}

func newHeadingNamer() *headingNamer {
	return &headingNamer{used: map[string]bool{}, slugs: slugger{}}
}

// name returns s, or s with " (2)", " (3)" … when a heading before has
// that text, and its anchor.
func (n *headingNamer) name(s string) (heading, anchor string) {
	s = oneLine(s)
	heading = s
	for i := 2; n.used[heading]; i++ {
		heading = s + " (" + strconv.Itoa(i) + ")"
	}
	return heading, n.take(heading)
}

// take records a heading whose text is given (the title, the headings of
// the introduction) and returns its anchor.
func (n *headingNamer) take(heading string) string {
	n.used[heading] = true
	return n.slugs.slug(heading)
}

// githubSlug is the id GitHub gives a heading of the text s: lower case,
// every character that is not a letter, digit, space, hyphen or underscore
// dropped, and every space a hyphen.
func githubSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// slugger gives the headings of a document their ids as GitHub does: the
// slug, and for a slug taken before the slug with -1, -2 ….
type slugger map[string]int

func (s slugger) slug(heading string) string {
	base := githubSlug(heading)
	id := base
	for {
		if _, taken := s[id]; !taken {
			break
		}
		s[base]++
		id = base + "-" + strconv.Itoa(s[base])
	}
	s[id] = 0
	return id
}

// newMarkdown is the parser of the introduction: GitHub-flavored Markdown.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM))
}

// markdownHeadings returns the texts of the headings of a Markdown
// document, as GitHub reads them for their ids.
func markdownHeadings(src string) []string {
	source := []byte(src)
	root := newMarkdown().Parser().Parse(text.NewReader(source))
	var out []string
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			out = append(out, oneLine(inlineText(h, source)))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return out
}
