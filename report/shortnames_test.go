package report_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

func TestShortNames(t *testing.T) {
	for _, c := range []struct {
		name  string
		names []string
		want  []string // short names, in order; nil: none
	}{
		{"releases", []string{"x.my5651_rel_o2nofp.z12a_c8r32.pk1", "x.my8043_rel_o2nofp.z12a_c8r32.pk1", "x.my8406v2_rel_o2nofp.z12a_c8r32.pk1"},
			[]string{"5.6.51", "8.0.43", "8.4.6v2"}}, // by version
		{"not releases", []string{"x.run5651_rel_o2nofp.z12a_c8r32.pk1", "x.run8043_rel_o2nofp.z12a_c8r32.pk1"},
			[]string{"run5651", "run8043"}},
		{"two parts differ", []string{"x.pg177_o2nofp.x10a_c32r128.pk1", "x.pg180_o2nofp.x10b_c32r128.pk1"},
			[]string{"17.7 x10a", "18.0 x10b"}}, // version and config
		{"short already", []string{"pg15.c1", "pg15.c2"}, nil},
		{"one name", []string{"x.my5651_rel_o2nofp.z12a_c8r32.pk1"}, nil},
		{"parts differ in number", []string{"x.my5651_rel.z12a_c8r32.pk1", "x.my8043_rel_extra.z12a_c8r32.pk1"},
			[]string{"5.6.51", "8.0.43 extra"}},
		// Shared runs of parts go wherever they are, also when an odd
		// name has a part more.
		{"odd name", []string{"x.run100230_rel_withdbg.z12a_c32r128.pk1", "x.run120101_mdev16168_rel_withdbg.z12b_c32r128.pk1", "x.run120101_rel_withdbg.z12b_ahi1_c32r128.pk1"},
			[]string{"run100230.z12a", "run120101_mdev16168.z12b", "run120101.z12b_ahi1"}},
		// One short name would be empty: the full names stay.
		{"one is a part of the other", []string{"longname_prefix_a", "longname_prefix_a_b"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			key := report.ShortNames(c.names, nil)
			var got []string
			for _, k := range key {
				got = append(got, k.Short)
				if !slices.Contains(c.names, k.Full) {
					t.Errorf("key names %q, not a DBMS", k.Full)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("ShortNames(%q) = %q, want %q", c.names, got, c.want)
			}
		})
	}
}

// TestWithShortNames checks that the human formats' copy names no DBMS by
// its full name outside the key, and that the report itself (the JSON) is
// left with the full names.
func TestWithShortNames(t *testing.T) {
	r := formatReports(t)["nov25"]
	s := r.WithShortNames()
	if s == r || len(s.Names) != 9 || r.Names != nil {
		t.Fatalf("copy %p of %p, %d names in the key, %d in the report", s, r, len(s.Names), len(r.Names))
	}
	md := string(renderAs(t, r, "md"))
	for _, k := range s.Names {
		if n := strings.Count(md, k.Full); n != 0 {
			t.Errorf("the Markdown names %s %d times", k.Full, n)
		}
	}
	js := string(renderAs(t, r, "json"))
	if !strings.Contains(js, `"`+r.Sysbench.DBMS[0]+`"`) || strings.Contains(js, `"names"`) {
		t.Errorf("the JSON lost the full names")
	}
}
