package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// A history whose level is 0 has no relative change: the change cell is
// NA, never a NaN or Inf value that the JSON encoder refuses.
func TestHistoryTableZeroLevel(t *testing.T) {
	for _, tc := range []struct {
		name    string
		values  []Num
		verdict string
		change  string
	}{
		{"0 then 0", []Num{0, 0, 0, 0}, "ok", "NA"},
		{"0 then 5", []Num{0, 0, 0, 5}, "improvement", "NA"},
		{"flat", []Num{100, 100, 100, 100}, "ok", "+0.0%"},
	} {
		g := &SeriesGroup{ID: "series.1", Title: "t", Members: []string{"a", "b", "c", "d"}, Labels: []string{"1", "2", "3", "4"},
			Tests: []string{"x"}, Unit: "qps", Values: [][]Num{tc.values}}
		var v HistoryVerdict
		tab := historyTable(g, 1, &v, nil, false)
		b, err := json.Marshal(tab)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		cells := tab.Rows[0].Cells
		if got := cells[len(cells)-1].Text; got != tc.verdict || cells[len(cells)-3].Text != tc.change || v.Checked != 1 {
			t.Errorf("%s: verdict %q change %q checked %d, want %q %q 1\n%s", tc.name, got, cells[len(cells)-3].Text, v.Checked, tc.verdict, tc.change, b)
		}
		if strings.Contains(string(b), "NaN") {
			t.Errorf("%s: %s", tc.name, b)
		}
	}
}
