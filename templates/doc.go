// Package templates will hold the embedded HTML and Markdown templates and
// the CSS of the report. It imports nothing from this module, so that
// report can depend on it without cycles.
package templates
