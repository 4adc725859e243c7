// Package render lays a report.Report out in the formats people read:
// HTML (html/template with the templates of package templates, charts
// drawn as inline SVG, one self-contained page), GitHub-flavored Markdown
// (text/template), aligned text (tablewriter) and JSON (the model itself,
// schema report.SchemaVersion).
//
// Renderers compute nothing: every number, band and note is in the model,
// so the four formats never disagree. They only word it: the findings
// (Report.Bullets) as one line per DBMS and as headlines. Every name that comes from the input
// is escaped for its format (html/template contexts, Markdown escapes).
//
// # Stability
//
// Write and Formats are stable: formats may be added, not removed. The
// bytes of a page may change between versions (layout, wording); the JSON
// follows the schema rules of package report.
package render
