package stats

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// TestRealSeriesVersusOtava runs ChangePoints and the Otava harness on
// every test of the series in a report's JSON (IBREPORT_SERIES_JSON, from
// `ibreport build --series --format json`) and prints where they differ.
func TestRealSeriesVersusOtava(t *testing.T) {
	path := os.Getenv("IBREPORT_SERIES_JSON")
	if path == "" {
		t.Skip("IBREPORT_SERIES_JSON not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Series struct {
			Groups []struct {
				Labels []string
				Tests  []string
				Values [][]any
			}
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Series.Groups {
		for i, name := range g.Tests {
			var y []float64
			var at []int
			for j, v := range g.Values[i] {
				if f, ok := v.(float64); ok && f > 0 && !math.IsNaN(f) {
					y = append(y, f)
					at = append(at, j)
				}
			}
			var ours []string
			for _, c := range ChangePoints(y, ChangePointOptions{}) {
				s := g.Labels[at[c.Index]]
				if c.Single {
					s += " (one release)"
				}
				ours = append(ours, s+" "+fmtShift(c.Shift))
			}
			var theirs []string
			for _, k := range otavaChangePoints(y) {
				theirs = append(theirs, g.Labels[at[k]])
			}
			mark := ""
			if !slices.Equal(ours, theirs) {
				mark = " *"
			}
			t.Logf("%-28s ours %q otava %q%s", name, ours, theirs, mark)
		}
	}
}

func fmtShift(x float64) string {
	b, _ := json.Marshal(math.Round(1000*x) / 10)
	return string(b) + "%"
}
