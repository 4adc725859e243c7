package report_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// TestIntroImagesLeftOut: an image in --intro, remote (http, https,
// protocol-relative) or not, is left out of the HTML page, its alt text
// in its place, and a note names its line; the page's content security
// policy would block it.
func TestIntroImagesLeftOut(t *testing.T) {
	def := compatOpts
	def.Compat = false
	for _, c := range []struct {
		name, intro string
		line        int
	}{
		{"http", "Server: 8 cores.\n\n![the rack](http://example.com/rack.png)\n", 3},
		{"https", "Server.\n\nSee ![the rack](https://example.com/rack.png \"rack\") here.\n", 3},
		{"protocol-relative", "![the rack](//example.com/rack.png)\n", 1},
		{"in a list", "Servers:\n\n- one\n- ![the rack](https://example.com/a.png)\n", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := buildExample(t, def, nil, report.BuildOptions{Intro: c.intro})
			var note string
			for _, n := range r.Notes {
				if strings.Contains(n.Text, "image") {
					note = n.Text
				}
			}
			if want := fmt.Sprintf("an image (its line %d)", c.line); !strings.Contains(note, want) {
				t.Errorf("notes %q: want one with %q", r.Notes, want)
			}
			page := string(renderAs(t, r, "html"))
			if strings.Contains(page, "<img") || strings.Contains(page, "example.com") {
				t.Error("the image reached the page")
			}
			if !strings.Contains(page, "the rack") {
				t.Error("the image's alt text is not in its place")
			}
		})
	}
	// An introduction without images has no such note.
	r := buildExample(t, def, nil, report.BuildOptions{Intro: "Server: [a link](https://example.com/).\n"})
	for _, n := range r.Notes {
		if strings.Contains(n.Text, "image") {
			t.Errorf("note %q without an image", n)
		}
	}
}
