package report

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func TestParseDBMSVersion(t *testing.T) {
	for _, tc := range []struct {
		name, want string // want "" when the name carries no version
	}{
		{"x.pg1023_o2nofp.x10a_c32r128.pk1", "pg10.23"},
		{"x.pg1110_o2nofp.x10a_c32r128.pk1", "pg11.10"},
		{"x.pg110_o2nofp.x10a_c32r128.pk1", "pg11.0"},
		{"x.pg176_o2nofp.x10a_c32r128.pk1", "pg17.6"},
		{"x.pg180_o2nofp.x10b_c32r128.pk1", "pg18.0"},
		{"x.pg9624_o2nofp.x10a_c32r128.pk1", "pg9.6.24"},
		{"x.pg18beta1_o2nofp.x10a_c8r32.pk1", "pg18beta1"},
		{"x.my5651_rel_o2nofp.z12a_c8r32.pk1", "my5.6.51"},
		{"x.my8406_rel_o2nofp.z12a_c8r32.pk1", "my8.4.6"},
		{"x.my9400_rel_o2nofp.z12a_c8r32.pk1", "my9.4.0"},
		{"x.my8406v2_rel_o2nofp.z12a_c8r32.pk1", "my8.4.6v2"},
		{"x.ma100230_rel_withdbg.z12a_c8r32.pk1", "ma10.2.30"},
		{"x.ma110806_rel_withdbg.z12b_c8r32.pk1", "ma11.8.6"},
		{"x.fbmy8032_rel_o2nofp_end_241023_ba9709c9_971.za4_c32r128.pk1", "fbmy8.0.32"},
		{"my8022", "my8.0.22"},
		{"fbmy80", "fbmy8.0"},
		{"x.pg_oriole_patches17_5_o2nofp.x10a_oriole_c32r128.pk1", ""}, // no digits after the engine
		{"run1023", ""},     // not an engine: a generic name is not a release
		{"pg15.c1", "pg15"}, // a leading 1 with nothing after the major
		{"pg", ""},
		{"x.", ""},
		{"", ""},
		{"pg12-3", ""}, // the suffix must start with a letter
		{"pg1234567890", ""},
	} {
		v, ok := parseDBMSVersion(tc.name)
		got := ""
		if ok {
			got = v.Engine + v.String()
		}
		if got != tc.want {
			t.Errorf("parseDBMSVersion(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func sbDirs(dirs ...string) []*parse.SysbenchDir {
	var out []*parse.SysbenchDir
	for _, n := range dirs {
		out = append(out, &parse.SysbenchDir{Dir: n, Name: n})
	}
	slices.SortStableFunc(out, func(a, b *parse.SysbenchDir) int {
		switch {
		case names.NaturalLess(a.Dir, b.Dir):
			return -1
		case names.NaturalLess(b.Dir, a.Dir):
			return 1
		}
		return 0
	})
	return out
}

func dirNames(dirs []*parse.SysbenchDir) []string {
	var out []string
	for _, d := range dirs {
		out = append(out, d.Name)
	}
	return out
}

func TestVersionOrder(t *testing.T) {
	for _, tc := range []struct {
		names, want []string
		ok          bool
	}{
		{ // natural order would make pg110 the base
			[]string{"x.pg110_a", "x.pg1023_a", "x.pg1110_a"},
			[]string{"x.pg1023_a", "x.pg110_a", "x.pg1110_a"}, true,
		},
		{
			[]string{"x.pg180_a", "x.pg176_a", "x.pg9624_a", "x.pg1222_a", "x.pg18beta1_a"},
			[]string{"x.pg9624_a", "x.pg1222_a", "x.pg176_a", "x.pg18beta1_a", "x.pg180_a"}, true,
		},
		{ // a suffix after the plain build; the same release by name
			[]string{"x.my8406v2_b", "x.my9400_a", "x.my8406_b", "x.my5651_a", "x.my8406_a"},
			[]string{"x.my5651_a", "x.my8406_a", "x.my8406_b", "x.my8406v2_b", "x.my9400_a"}, true,
		},
		{ // engines apart, in natural order of their prefix
			[]string{"x.pg182_a", "x.my8407_a", "x.ma110806_a", "x.my5744_a"},
			[]string{"x.ma110806_a", "x.my5744_a", "x.my8407_a", "x.pg182_a"}, true,
		},
		{ // one name without a version: natural order for all
			[]string{"x.pg172_a", "x.pg_oriole_a", "x.pg1023_a"},
			[]string{"x.pg172_a", "x.pg1023_a", "x.pg_oriole_a"}, false,
		},
	} {
		dirs := sbDirs(tc.names...)
		ok := versionOrder(dirs)
		if got := dirNames(dirs); ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("versionOrder(%v) = %v, %v; want %v, %v", tc.names, got, ok, tc.want, tc.ok)
		}
	}
}

// TestVersionOrderAuthor checks the rule against the author's own orders:
// the col-N lines of the archived qps summaries list builds oldest first.
func TestVersionOrderAuthor(t *testing.T) {
	files, err := filepath.Glob("../testdata/arc/*/*/qps.abs.*.tsv")
	if err != nil || len(files) < 8 {
		t.Fatalf("summaries: %v, %v", files, err)
	}
	col := regexp.MustCompile(`^col-[0-9]+ ?: *(\S+)`)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			if m := col.FindStringSubmatch(sc.Text()); m != nil {
				names = append(names, m[1])
			}
		}
		fh.Close()
		if len(names) < 2 {
			t.Fatalf("%s: %d builds", f, len(names))
		}
		dirs := sbDirs(names...)
		if !versionOrder(dirs) {
			t.Errorf("%s: names carry no versions: %v", f, names)
			continue
		}
		if got := dirNames(dirs); !slices.Equal(got, names) {
			t.Errorf("%s: version order\n%s\nauthor's\n%s", f, strings.Join(got, "\n"), strings.Join(names, "\n"))
		}
	}
}

// TestLoadVersionOrder loads a published archive without a DBMS list: the
// oldest release is the base, not pg110 which comes first in natural order;
// a list still decides.
func TestLoadVersionOrder(t *testing.T) {
	const dir = "../testdata/arc/feb25.pg.flat"
	for _, tc := range []struct {
		opt  LoadOptions
		want []string
	}{
		{LoadOptions{}, []string{"x.pg1023_o2nofp.x10a_c32r128.pk1", "x.pg110_o2nofp.x10a_c32r128.pk1", "x.pg1110_o2nofp.x10a_c32r128.pk1"}},
		{LoadOptions{Metrics: metrics.Options{Compat: true}}, []string{"x.pg1023_o2nofp.x10a_c32r128.pk1", "x.pg110_o2nofp.x10a_c32r128.pk1", "x.pg1110_o2nofp.x10a_c32r128.pk1"}},
		{LoadOptions{List: []Entry{{Name: "x.pg1110_o2nofp.x10a_c32r128.pk1"}, {Name: "x.pg110_o2nofp.x10a_c32r128.pk1"}}}, []string{"x.pg1110_o2nofp.x10a_c32r128.pk1", "x.pg110_o2nofp.x10a_c32r128.pk1"}},
	} {
		r, _, err := Load(dir, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range r.Sysbench.DBMS {
			got = append(got, d.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: DBMS %v, want %v", tc.opt, got, tc.want)
		}
	}
}
