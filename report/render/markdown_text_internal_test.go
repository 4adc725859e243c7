package render

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ibreport/ibreport/report"
)

func TestGitHubSlug(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Summary", "summary"},
		{"Step l.i0: load without secondary indexes", "step-li0-load-without-secondary-indexes"},
		{"Step qr100.L1: range queries with 100 insert/s per client", "step-qr100l1-range-queries-with-100-inserts-per-client"},
		{"Sysbench, 1 thread", "sysbench-1-thread"},
		{"Sysbench load and before/after the writes", "sysbench-load-and-beforeafter-the-writes"},
		{"HW use per operation: point-query.pre range=100, 1 thread", "hw-use-per-operation-point-querypre-range100-1-thread"},
		{"Before and after the writes: x.my5651_rel_o2nofp.z12a_c8r32.pk1, 1 thread", "before-and-after-the-writes-xmy5651_rel_o2nofpz12a_c8r32pk1-1-thread"},
		{"Latency percentile (ms), 2 threads", "latency-percentile-ms-2-threads"},
		{"µs/o ▼ Ünïcode", "µso--ünïcode"},
		{"l.i0: iostat averages, all columns", "li0-iostat-averages-all-columns"},
		{`<script>&"x`, "scriptx"},
		{"2M docs and 2 clients", "2m-docs-and-2-clients"},
	} {
		if got := githubSlug(c.in); got != c.want {
			t.Errorf("githubSlug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSluggerRepeats(t *testing.T) {
	s := slugger{}
	var got []string
	for _, h := range []string{"a", "A", "a-1", "a", "Notes", "notes!"} {
		got = append(got, s.slug(h))
	}
	want := []string{"a", "a-1", "a-1-1", "a-2", "notes", "notes-1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids %q, want %q", got, want)
	}
}

func TestHeadingNamer(t *testing.T) {
	n := newHeadingNamer()
	n.take("Summary")
	var got []string
	for _, h := range []string{"Summary", "Legend", "Summary", "Summary (2)"} {
		h, a := n.name(h)
		got = append(got, h+" #"+a)
	}
	want := []string{"Summary (2) #summary-2", "Legend #legend", "Summary (3) #summary-3", "Summary (2) (2) #summary-2-2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWithoutColours(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Per column, values in the bottom 25% of the range are red (▼), values in the top 25% green (▲). Red is not used when the minimum is at least 80% of the maximum. Gray (○) marks a DBMS that missed the step's insert-rate target: ignore that value.",
			"Per column, values in the bottom 25% of the range are marked ▼, values in the top 25% marked ▲. The ▼ marker is not used when the minimum is at least 80% of the maximum. ○ marks a DBMS that missed the step's insert-rate target: ignore that value."},
		{"the slowest 25% of its range are red (▼), the fastest 25% green (▲); green is not used when the minimum is at least 80% of the maximum.",
			"the slowest 25% of its range are marked ▼, the fastest 25% marked ▲; the ▲ marker is not used when the minimum is at least 80% of the maximum."},
		{"Below 0.95 yellow (▽), above 1.05 blue (△).", "Below 0.95 marked ▽, above 1.05 marked △."},
		{"light blue (△) better by more than 5%, blue (▲) by more than 20%; light orange (▽) worse", "marked △ better by more than 5%, marked ▲ by more than 20%; marked ▽ worse"},
		{"Light orange (▽) and orange (▽)", "▽ and marked ▽"},
		{"blue is not used", "blue is not used"},       // no marker to name
		{"x.blue (fast) build", "x.blue (fast) build"}, // a name, not a marker
		{"no colours here", "no colours here"},
	} {
		if got := withoutColours(c.in); got != c.want {
			t.Errorf("withoutColours(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for _, c := range []struct{ in, para, heading string }{
		{"# not a heading", `\# not a heading`, `\# not a heading`},
		{"- no item", `\- no item`, "- no item"},
		{"12. no item", `12\. no item`, "12. no item"},
		{"a_b <c> #d", `a\_b &lt;c&gt; #d`, `a\_b &lt;c&gt; \#d`},
		{"two\nlines", "two lines", "two lines"},
	} {
		if got := mdPara(c.in); got != c.para {
			t.Errorf("mdPara(%q) = %q, want %q", c.in, got, c.para)
		}
		if got := mdHeading(c.in); got != c.heading {
			t.Errorf("mdHeading(%q) = %q, want %q", c.in, got, c.heading)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("one two three four five", 10, "- ", "  ")
	want := []string{"- one two", "  three", "  four", "  five"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("wrap = %q, want %q", got, want)
	}
	long := strings.Repeat("x", 2*textWidth+5)
	for _, l := range wrap("a "+long+" b", 20, "", "") {
		if n := utf8.RuneCountInString(l); n > textWidth {
			t.Errorf("a line of %d runes", n)
		}
	}
	if got := wrap("", 10, "- ", "  "); !reflect.DeepEqual(got, []string{"- "}) {
		t.Errorf("wrap of nothing = %q", got)
	}
}

func TestSplitColumns(t *testing.T) {
	// Each column takes its width + 3, the table 1 more.
	for _, c := range []struct {
		widths []int
		keys   int
		limit  int
		want   [][]int
	}{
		{[]int{7, 5, 5}, 1, 160, [][]int{{0, 1, 2}}},
		{[]int{7, 5, 5, 5, 5}, 1, 1 + 10 + 8 + 8, [][]int{{0, 1, 2}, {0, 3, 4}}},
		// Balanced: two parts of two columns rather than three and one.
		{[]int{7, 5, 5, 5, 5}, 1, 1 + 10 + 8 + 8 + 8, [][]int{{0, 1, 2}, {0, 3, 4}}},
		{[]int{5, 6, 9, 9, 9}, 2, 1 + 8 + 9 + 12 + 12, [][]int{{0, 1, 2, 3}, {0, 1, 4}}},
		// A name and one column wider than the limit: a part each.
		{[]int{170, 5, 5}, 1, 160, [][]int{{0, 1}, {0, 2}}},
		{[]int{4}, 1, 160, [][]int{{0}}},
	} {
		if got := splitColumns(c.widths, c.keys, c.limit); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitColumns(%v, %d, %d) = %v, want %v", c.widths, c.keys, c.limit, got, c.want)
		}
	}
}

func TestNameColumns(t *testing.T) {
	v := 1.5
	tab := &report.Table{Header: []string{"group", "statistic", "a", "b"}, Rows: []report.Row{
		{Cells: []report.Cell{{Text: "Point"}, {Text: "Average"}, {Text: "1.50", Value: &v}, {Text: "NA", NA: "no run", Band: report.NotANumber}}},
		{Cells: []report.Cell{{Text: "Point"}, {Text: "Tests"}, {Text: "5"}, {Text: "1.00"}}},
	}}
	names, keys := nameColumns(tab)
	if !reflect.DeepEqual(names, []bool{true, true, false, false}) || keys != 2 {
		t.Errorf("names %v, keys %d", names, keys)
	}
	words := &report.Table{Header: []string{"metric", "meaning"}, Rows: []report.Row{{Cells: []report.Cell{{Text: "ips"}, {Text: "inserts per second"}}}}}
	if names, keys := nameColumns(words); !reflect.DeepEqual(names, []bool{true, true}) || keys != 1 {
		t.Errorf("legend: names %v, keys %d", names, keys)
	}
}

// TestColourParen checks the shortcut of withoutColours: where it finds no
// colour before " (", the regular expression finds no marker either.
func TestColourParen(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", false}, {"red (▼)", true}, {"Gray (○)", true}, {"grey (○)", true}, {"light green (▲)", true},
		{"yellow (▽)", true}, {"blue (△)", true}, {"orange (▽)", true}, {"QPS (ms)", false},
		{"red is not used", false}, {"red  (▼)", false}, {"(▼) red", false}, {"a (b) c (d) red (▼)", true},
	} {
		if got := colourParen(c.in); got != c.want {
			t.Errorf("colourParen(%q) = %v, want %v", c.in, got, c.want)
		}
		if !colourParen(c.in) && colourMarked.MatchString(c.in) {
			t.Errorf("%q: colourMarked matches, colourParen says no", c.in)
		}
	}
}

func FuzzColourParen(f *testing.F) {
	for _, s := range []string{"red (▼)", "Gray (○) marks", "x (y)", "orange (▽) and blue (▲)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !colourParen(s) && colourMarked.MatchString(s) {
			t.Errorf("%q: colourMarked matches, colourParen says no", s)
		}
	})
}
