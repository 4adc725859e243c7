package templates

import "embed"

// FS holds the report templates and the style sheet:
//
//	report.html.tmpl   the HTML page (html/template)
//	report.md.tmpl     the Markdown report (text/template)
//	style.css          inlined into the HTML page
//
//go:embed *.tmpl *.css
var FS embed.FS
