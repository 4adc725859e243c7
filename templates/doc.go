// Package templates holds the embedded templates and the style sheet of the
// report: the HTML page (html/template), the Markdown report (text/template)
// and the CSS that the HTML page inlines. It is data only and imports nothing
// from this module, so that any package can depend on it without cycles.
//
// The HTML template is executed on a report.Report, the Markdown template on
// package render's outline of it (its parts with unique headings and their
// GitHub ids). Besides the standard functions they use those render
// supplies: cell (a table cell as HTML), chart (a chart as inline SVG),
// intro (the Markdown introduction as HTML), mdtext, mdpara, mdheading,
// mdcell and mdrow (Markdown escaping).
//
// # Stability
//
// FS and the names of its files are stable; the templates themselves change
// with the report's layout, and only package render is meant to execute
// them.
package templates
