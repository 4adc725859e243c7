// Package textfmt holds the text primitives that the report's builders, its
// Markdown and text renderers and the diff formats share: Markdown escaping
// of names (so no DBMS name turns into markup), the line of raw HTML in a
// Markdown introduction (which the HTML page leaves out, with a note), and
// the tablewriter set-up of aligned text tables.
package textfmt
