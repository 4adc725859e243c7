package templates

import (
	"strings"
	"testing"
)

func TestEmbedded(t *testing.T) {
	for name, want := range map[string]string{
		"report.html.tmpl": `{{define "page"`,
		"report.md.tmpl":   `{{define "page"`,
		"style.css":        "td.cmin",
	} {
		b, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q", name, want)
		}
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Errorf("%s refers to an outside resource", name)
		}
	}
}
