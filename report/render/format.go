package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/textfmt"
	"github.com/ibreport/ibreport/report"
)

// Formats lists the output formats of Write.
var Formats = []string{"html", "md", "text", "json"}

// DrawsCharts reports whether a format of Write draws the report's charts
// or carries their data (html, json). Markdown and text say that the charts
// are in the HTML report; results loaded only for them can leave out the
// points of the line charts (report.LoadOptions.NoIntervalPoints).
func DrawsCharts(format string) bool {
	switch textfmt.FormatName(format) {
	case "md", "text":
		return false
	}
	return true
}

// Write renders the report in a format: html, md (GitHub-flavored
// Markdown; also spelled markdown), text (aligned tables; also txt) or json
// (the Report itself, schema SchemaVersion).
func Write(w io.Writer, r *report.Report, format string) error {
	if err := checkArgs(w, r); err != nil {
		return err
	}
	switch textfmt.FormatName(format) {
	case "html":
		return WriteHTML(w, r)
	case "md":
		return WriteMarkdown(w, r)
	case "text":
		return WriteText(w, r)
	case "json":
		return WriteJSON(w, r)
	}
	return inputerr.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// WriteJSON writes the report model as indented JSON.
func WriteJSON(w io.Writer, r *report.Report) error {
	if err := checkArgs(w, r); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	return nil
}

// checkArgs returns an error for a nil writer or report: a writer is
// called with what a failed Build returned as often as not.
func checkArgs(w io.Writer, r *report.Report) error {
	if w == nil || r == nil {
		return errors.New("render: nil writer or report")
	}
	return nil
}
