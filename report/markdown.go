package report

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"text/template"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/templates"
)

var (
	mdOnce sync.Once
	mdTmpl *template.Template
)

// Note: Markdown is text, so it uses text/template; every name from the
// input goes through mdtext or mdcell, which escape it.
func markdownTemplate() *template.Template {
	mdOnce.Do(func() {
		mdTmpl = template.Must(template.New("report.md.tmpl").Funcs(template.FuncMap{
			"mdtext": mdEscape,
			"plural": metrics.Plural,
			"mdcell": mdCell,
			"mdrow": func(cells []string) string {
				out := make([]string, len(cells))
				for i, c := range cells {
					out[i] = mdCell(c)
				}
				return "| " + strings.Join(out, " | ") + " |"
			},
			"mdsep": func(cells []string) string {
				out := make([]string, len(cells))
				out[0] = "---"
				for i := 1; i < len(cells); i++ {
					out[i] = "---:"
				}
				return "| " + strings.Join(out, " | ") + " |"
			},
			"cells": rowTexts,
		}).ParseFS(templates.FS, "report.md.tmpl"))
	})
	return mdTmpl
}

// rowTexts is a row as plain texts with band markers; the first row of a
// later group is prefixed with "— " so groups survive without borders.
func rowTexts(r Row) []string {
	out := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = c.Marked()
	}
	if r.GroupStart && len(out) > 0 {
		out[0] = "— " + out[0]
	}
	return out
}

// mdCell escapes a table cell: Markdown escapes, and no line breaks.
func mdCell(s string) string {
	if s == "" {
		return ""
	}
	return mdEscape(strings.ReplaceAll(s, "\n", " "))
}

// WriteMarkdown writes the report as GitHub-flavored Markdown: every table
// as its own block with the HTML's headers, markers for the bands.
func WriteMarkdown(w io.Writer, r *Report) error {
	var buf bytes.Buffer
	if err := markdownTemplate().ExecuteTemplate(&buf, "page", r); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
