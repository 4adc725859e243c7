package render

import (
	"bytes"
	"io"
	"regexp"
	"slices"
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

// outline lays out the parts of the report in the order both formats print
// them: the summary, the introduction, the contents, the steps, the
// sysbench part, the legend and the notes.
func outline(r *report.Report) *doc {
	n := newHeadingNamer()
	d := &doc{Title: oneLine(r.Title)}
	if d.Title != "" {
		n.take(d.Title)
	}
	if s := oneLine(r.Setup); s != "" {
		d.Setup = "Setup: " + s + "."
	}
	for _, w := range r.Comparability {
		d.Warnings = append(d.Warnings, "Not comparable: "+oneLine(w))
	}
	if st := r.Story; st != nil {
		// A release archive leads with its story in release order.
		d.HeadLead = oneLine(st.Lead)
		d.Lead = append(d.Lead, st.Lines...)
	} else {
		d.HeadLead = report.HeadlineLead(r.Bullets)
		d.Lead = append(d.Lead, report.Headlines(r.Bullets)...)
	}
	if r.Series != nil {
		d.Lead = append(d.Lead, r.Series.Findings...)
	}
	// What to check comes after the findings it qualifies.
	for _, w := range r.Plausibility {
		d.Lead = append(d.Lead, "Check: "+oneLine(w))
	}
	var parts []*docPart
	var pending []*docTable
	add := func(heading string) *docPart {
		h, a := n.name(heading)
		p := &docPart{Heading: h, Anchor: a}
		parts = append(parts, p)
		return p
	}
	table := func(p *docPart, t *report.Table) {
		if t == nil {
			return
		}
		// The headings are named in order; the rest of each table is
		// filled in at the end, the tables on all cores.
		dt := &docTable{Table: t}
		if title := oneLine(t.Title); title != "" {
			dt.Heading, dt.Anchor = n.name(title)
		}
		pending = append(pending, dt)
		p.Items = append(p.Items, &docItem{Table: dt})
	}
	para := func(p *docPart, s string) {
		if s = withoutColours(oneLine(s)); s != "" {
			p.Items = append(p.Items, &docItem{Para: s})
		}
	}

	if sr := r.Series; sr != nil {
		p := add("Series: where each level shifted")
		para(p, sr.Caption)
		for _, note := range sr.Notes {
			para(p, note)
		}
		for _, g := range sr.Groups {
			for _, note := range g.Notes {
				para(p, note)
			}
			table(p, g.History)
			table(p, g.ChangeTable)
			table(p, g.Heat)
		}
	}
	if r.Summary != nil {
		p := add("Summary")
		table(p, r.Summary)
		table(p, r.Relative)
		table(p, r.InsertRate)
	}
	if sw := r.Sweep; sw != nil {
		// The answer first: how well each DBMS scales, then the rates.
		p := add("Scaling with the number of clients")
		if len(sw.Findings) > 0 {
			p.Items = append(p.Items, &docItem{Bullets: withoutColoursAll(sw.Findings)})
		}
		table(p, sw.Efficiency)
		para(p, sw.Caption)
		for _, s := range sw.Steps {
			table(p, s.Rates)
			table(p, s.Scaling)
		}
	}
	if len(r.Study) > 0 {
		p := add("Per-step tables as in the published studies")
		for _, s := range r.Study {
			table(p, s.Table)
			item := &docItem{}
			item.Bullets = append(item.Bullets, s.Legend...)
			p.Items = append(p.Items, item)
		}
	}
	if len(r.Names) > 0 {
		p := add("Short names")
		words := slices.ContainsFunc(r.Names, func(k report.NameKey) bool { return k.Words != "" })
		kt := &report.Table{Header: []string{"short", "DBMS"}}
		if words {
			// Release names: the version, and what the folder name holds.
			para(p, "The report names each build by its release:")
			kt.Header = []string{"short", "build", "folder"}
		} else {
			para(p, "The report names each DBMS without the parts all of them share:")
		}
		for _, k := range r.Names {
			cells := []report.Cell{{Text: k.Short}, {Text: k.Full}}
			if words {
				cells = []report.Cell{{Text: k.Short}, {Text: k.Words}, {Text: k.Full}}
			}
			kt.Rows = append(kt.Rows, report.Row{Kind: report.DataRow, Cells: cells})
		}
		dt := newDocTable(kt)
		dt.names = []bool{true, true, true}[:len(kt.Header)]
		p.Items = append(p.Items, &docItem{Table: dt})
	}
	if strings.TrimSpace(r.Intro) != "" {
		heading := "DBMS"
		switch {
		case r.IntroGiven:
			heading = "About these results"
		case r.Summary != nil:
			heading = "Steps and DBMS"
		}
		p := add(heading)
		p.Intro = strings.TrimSpace(r.Intro)
		for _, h := range markdownHeadings(p.Intro) {
			n.take(h)
		}
	}
	contents := add("Contents")
	contents.IsContents = true
	first := len(parts)

	// Markdown and text cannot fold: the findings in full, with their
	// spread and causes, come first after the contents.
	if full := report.BulletLines(r.Bullets); len(full) > 0 {
		p := add("Findings with spread and causes")
		p.Items = append(p.Items, &docItem{Bullets: full})
	}

	for _, s := range r.Sections {
		desc := oneLine(s.Step.Description)
		if desc == "" {
			desc = s.Step.Name
		}
		p := add("Step " + desc)
		p.Group, p.Short = "Steps", s.Step.Name
		for _, note := range s.Notes {
			para(p, note)
		}
		table(p, s.Metrics)
		table(p, s.Efficiency)
		table(p, s.Noise)
		for _, h := range s.Histograms {
			table(p, h)
		}
		table(p, s.Iostat)
		table(p, s.IostatAll)
	}
	if len(r.AllMetrics) > 0 {
		p := add("Metrics of all DBMS")
		for _, t := range r.AllMetrics {
			table(p, t)
		}
	}
	if len(r.ResponseTimes) > 0 {
		p := add("Response times")
		for _, s := range r.ResponseTimes {
			for _, note := range s.Notes {
				para(p, s.Step.Name+": "+note)
			}
			for _, t := range s.Tables {
				table(p, t)
			}
		}
	}
	if c := r.Counters; c != nil {
		counterParts(c, "perf stat counters", "perf stat counters per step", add, para, table)
	}
	if sb := r.Sysbench; sb != nil {
		// A thread sweep leads with how the DBMS scale.
		if len(sb.Sweep) > 0 {
			p := add("Sysbench scaling with the thread count")
			p.Group, p.Short = "Sysbench", "scaling"
			if len(sb.SweepFindings) > 0 {
				p.Items = append(p.Items, &docItem{Bullets: withoutColoursAll(sb.SweepFindings)})
			}
			table(p, sb.SweepSummary)
			for _, t := range sb.Sweep {
				table(p, t)
			}
		}
		for i, th := range sb.Threads {
			p := add("Sysbench, " + metrics.Plural(th.Threads, "thread"))
			p.Group, p.Short = "Sysbench", metrics.Plural(th.Threads, "thread")
			if i == 0 {
				for _, note := range sb.Notes {
					para(p, note)
				}
			}
			for _, note := range th.Notes {
				para(p, note)
			}
			table(p, th.Groups)
			table(p, th.Relative)
			for _, group := range [][]*report.Table{th.Absolute, {th.Noise}, th.Efficiency, th.PerQuery} {
				for _, t := range group {
					table(p, t)
				}
			}
		}
		if c := sb.Counters; c != nil {
			p, d := counterParts(c, "Sysbench perf stat counters", "Sysbench perf stat counters per test", add, para, table)
			p.Group, p.Short = "Sysbench", "perf stat"
			if d != nil {
				d.Group, d.Short = "Sysbench", "perf stat per test"
			}
		}
		if sb.Load != nil || len(sb.PrePost) > 0 || len(sb.Threads) == 0 {
			p := add("Sysbench load and before/after the writes")
			p.Group, p.Short = "Sysbench", "load and before/after"
			if len(sb.Threads) == 0 {
				for _, note := range sb.Notes {
					para(p, note)
				}
			}
			table(p, sb.Load)
			for _, t := range sb.PrePost {
				table(p, t)
			}
		}
	}

	legend := add("Legend")
	lt := &report.Table{Header: []string{"metric", "meaning"}}
	for _, l := range r.Legend {
		lt.Rows = append(lt.Rows, report.Row{Kind: report.DataRow, Cells: []report.Cell{{Text: l.Name}, {Text: l.Meaning}}})
	}
	bt := &report.Table{Header: []string{"band", "marker", "meaning"}}
	for _, b := range r.Bands {
		bt.Rows = append(bt.Rows, report.Row{Kind: report.DataRow, Cells: []report.Cell{{Text: string(b.Band)}, {Text: b.Marker}, {Text: withoutColours(b.Meaning)}}})
	}
	for _, t := range []*report.Table{lt, bt} {
		dt := newDocTable(t)
		for i := range dt.names {
			dt.names[i] = true // words, not numbers
		}
		legend.Items = append(legend.Items, &docItem{Table: dt})
	}
	if len(r.Notes) > 0 || r.ModeNote != "" {
		p := add("Notes")
		if r.ModeNote != "" {
			p.Items = append(p.Items, &docItem{Para: r.ModeNote})
		}
		item := &docItem{}
		for _, note := range r.Notes {
			item.Bullets = append(item.Bullets, withoutColours(oneLine(note.Text)))
		}
		p.Items = append(p.Items, item)
	}

	// The contents list the parts after it, a group of parts on one line.
	for _, p := range parts[first:] {
		link := docLink{Text: p.Heading, Anchor: p.Anchor}
		if p.Group == "" {
			contents.Contents = append(contents.Contents, docEntry{Links: []docLink{link}})
			continue
		}
		link.Text = p.Short
		if last := len(contents.Contents) - 1; last >= 0 && contents.Contents[last].Label == p.Group {
			contents.Contents[last].Links = append(contents.Contents[last].Links, link)
			continue
		}
		contents.Contents = append(contents.Contents, docEntry{Label: p.Group, Links: []docLink{link}})
	}
	if hasCharts(r) {
		para(contents, "The charts are only in the HTML report.")
	}
	metrics.Parallel(len(pending), func(i int) { fillDocTable(pending[i]) })
	d.Parts = parts
	return d
}

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
