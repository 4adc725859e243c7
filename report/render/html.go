package render

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/templates"
)

var (
	htmlOnce sync.Once
	htmlTmpl *template.Template
)

// Note: a template that does not parse is a bug of this package, so parsing
// panics, once, the first time a page is written.
func pageTemplate() *template.Template {
	htmlOnce.Do(func() {
		css, err := templates.FS.ReadFile("style.css")
		if err != nil {
			panic(err)
		}
		htmlTmpl = template.Must(template.New("report.html.tmpl").Funcs(template.FuncMap{
			"css":          func() template.CSS { return template.CSS(css) },
			"intro":        introHTML,
			"cell":         cellHTML,
			"chart":        func(*report.Chart) template.HTML { return "" }, // replaced per page
			"rowClass":     rowClass,
			"plural":       metrics.Plural,
			"threads":      report.ThreadCount,
			"hostsLead":    report.HostsLead,
			"shaded":       shaded,
			"breakable":    breakable,
			"bulletLines":  bulletLines,
			"bulletKey":    bulletKey,
			"headlines":    headlines,
			"headlineLead": headlineLead,
			"untold":       untold,
			"untoldLead":   untoldLead,
			"view":         view,
		}).ParseFS(templates.FS, "report.html.tmpl"))
	})
	return htmlTmpl
}

// WriteHTML writes the report as one self-contained HTML page: CSS inline,
// charts as inline SVG, no external resource.
func WriteHTML(w io.Writer, r *report.Report) error {
	if err := checkArgs(w, r); err != nil {
		return err
	}
	r = r.WithShortNames()
	svgs, err := renderCharts(r)
	if err != nil {
		return err
	}
	t, err := pageTemplate().Clone()
	if err != nil {
		return err
	}
	t.Funcs(template.FuncMap{"chart": func(c *report.Chart) template.HTML { return svgs[c] }})
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "page", r); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// introHTML renders the Markdown introduction. goldmark leaves raw HTML
// out by default, so the introduction cannot inject markup or scripts.
// Images are left out too, their alt text in their place: the page's
// content security policy loads nothing from outside the page, so an
// <img> (of http://, https:// or //host) would only be a request the
// browser blocks, with an error on its console. The report's notes say so.
func introHTML(md string) (template.HTML, error) {
	var buf bytes.Buffer
	src := []byte(md)
	g := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := g.Parser().Parse(text.NewReader(src))
	var images []*ast.Image
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			images = append(images, img)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	for _, img := range images {
		alt := inlineText(img, src)
		img.Parent().ReplaceChild(img.Parent(), img, ast.NewString([]byte(alt)))
	}
	if err := g.Renderer().Render(&buf, src, doc); err != nil {
		return "", fmt.Errorf("introduction: %w", err)
	}
	return template.HTML(buf.String()), nil
}

// cellHTML renders a data cell: its classes (band, shade), the band's
// meaning as title text and its marker as visible text.
func cellHTML(c report.Cell) template.HTML {
	var class []string
	if k := c.Band.Class(); k != "" {
		class = append(class, k)
	}
	if c.Shade > 0 {
		class = append(class, fmt.Sprintf("c%d", c.Shade))
	}
	if isWords(c) {
		class = append(class, "text") // aligned left, as words are
	}
	if c.ChangePoint {
		class = append(class, "cp")
	}
	var b strings.Builder
	b.WriteString("<td")
	if len(class) > 0 {
		b.WriteString(` class="` + strings.Join(class, " ") + `"`)
	}
	if m := c.Band.Meaning(); m != "" {
		b.WriteString(` title="` + template.HTMLEscapeString(m) + `"`)
	}
	b.WriteString(">")
	b.WriteString(template.HTMLEscapeString(c.Text))
	if m := c.Band.Marker(); m != "" {
		b.WriteString(` <span class="mk">` + m + `</span>`)
	}
	if c.WithinNoise {
		b.WriteString(` <span class="mk" title="within noise">~</span>`)
	}
	if c.ChangePoint {
		b.WriteString(` <span class="mk" title="the level shifted here (a change point)">◆</span>`)
	}
	b.WriteString("</td>")
	return template.HTML(b.String())
}

func rowClass(r report.Row) template.HTMLAttr {
	var class []string
	if r.GroupStart {
		class = append(class, "gs")
	}
	if r.Kind == report.TargetRow {
		class = append(class, "target")
	}
	if len(class) == 0 {
		return ""
	}
	return template.HTMLAttr(` class="` + strings.Join(class, " ") + `"`)
}

// shaded reports whether a table has shaded cells, which only HTML shows.
func shaded(t *report.Table) bool {
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Shade > 0 {
				return true
			}
		}
	}
	return false
}

// breakable escapes a column header and lets it break where headerRuns
// does, so that a table with a column per release fits a laptop's screen.
func breakable(s string) template.HTML {
	var b strings.Builder
	for i, run := range headerRuns(s) {
		if i > 0 {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(run))
	}
	return template.HTML(b.String())
}

// isWords reports whether a cell holds words rather than a number: no
// value, no NA, and a text that does not read as one ("pass", "5 batches
// of 6").
func isWords(c report.Cell) bool {
	if c.Value != nil || c.NA != "" || c.Text == "" {
		return false
	}
	switch c.Text {
	case "inf", "-inf", "NA", "nan", "-nan":
		return false
	}
	_, err := strconv.ParseFloat(c.Text, 64)
	return err != nil
}
