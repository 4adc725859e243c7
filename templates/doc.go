// Package templates holds the embedded templates and the style sheet of the
// report: the HTML page (html/template), the Markdown report (text/template)
// and the CSS that the HTML page inlines. It is data only and imports nothing
// from this module, so that report can depend on it without cycles.
//
// The templates are executed on a report.Report. Besides the standard
// functions they use those report supplies: cell (a table cell as HTML),
// chart (a chart as inline SVG), intro (the Markdown introduction as HTML),
// mdcell and mdrow (Markdown escaping).
package templates
