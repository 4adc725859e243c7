package report

import (
	"reflect"
	"strings"
	"testing"
)

// TestDeepCopyRenames checks deepCopy on the kinds of values a model
// holds: every string renamed in the copy and kept in the original,
// numbers-only values equal (shared), nil stays nil.
func TestDeepCopyRenames(t *testing.T) {
	rename := func(s string) string { return strings.ReplaceAll(s, "long.name", "ln") }
	type mixed struct {
		Name  string
		Cells []Cell
		Chart *Chart
		Any   any
		Keys  map[string]string
		Arr   [2]string
		Nums  [][]float64
	}
	cases := []struct {
		name string
		in   mixed
		want mixed
	}{
		{"empty", mixed{}, mixed{}},
		{"all kinds",
			mixed{Name: "long.name a", Cells: []Cell{{Text: "x long.name"}}, Any: "long.name",
				Chart: &Chart{Title: "long.name", Series: []Series{{Name: "long.name", Points: []Point{{X: 1, Y: 2}}}}},
				Keys:  map[string]string{"long.name": "long.name!"}, Arr: [2]string{"long.name", "b"}, Nums: [][]float64{{1, 2}}},
			mixed{Name: "ln a", Cells: []Cell{{Text: "x ln"}}, Any: "ln",
				Chart: &Chart{Title: "ln", Series: []Series{{Name: "ln", Points: []Point{{X: 1, Y: 2}}}}},
				Keys:  map[string]string{"ln": "ln!"}, Arr: [2]string{"ln", "b"}, Nums: [][]float64{{1, 2}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := deepCopy(reflect.ValueOf(c.in), func(s string) string { return s }).Interface()
			got := deepCopy(reflect.ValueOf(c.in), rename).Interface().(mixed)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("copy %+v, want %+v", got, c.want)
			}
			if !reflect.DeepEqual(c.in, before) {
				t.Errorf("original changed: %+v, was %+v", c.in, before)
			}
		})
	}
}
