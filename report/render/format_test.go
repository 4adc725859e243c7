package render_test

import (
	"testing"

	"github.com/ibreport/ibreport/report/render"
)

// The formats that draw no charts are exactly Markdown and text, in each
// of their spellings; every other format, and a name Write does not know,
// keeps the charts' data.
func TestDrawsCharts(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   bool
	}{
		{"html", true}, {"json", true}, {"md", false}, {"markdown", false}, {"text", false}, {"txt", false}, {"pdf", true},
	} {
		if got := render.DrawsCharts(tc.format); got != tc.want {
			t.Errorf("DrawsCharts(%q) = %v, want %v", tc.format, got, tc.want)
		}
	}
	for _, f := range render.Formats {
		if render.DrawsCharts(f) != (f == "html" || f == "json") {
			t.Errorf("format %s: DrawsCharts %v", f, render.DrawsCharts(f))
		}
	}
}
