package report

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReleaseNameLists reads every name list of the author's qps tables
// (the col-N lines of bench/arc qps.abs.*.tsv) and the result folders:
// each name is a release, and the parse of each is in its .want file
// (go test -run ReleaseNameLists -update rewrites them). A list of one
// engine is a release set in the author's order, the version order.
func TestReleaseNameLists(t *testing.T) {
	files, err := filepath.Glob("testdata/releases/*.names")
	if err != nil || len(files) < 20 {
		t.Fatalf("name lists: %v, %d files", err, len(files))
	}
	upd := flag.Lookup("update")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		var out strings.Builder
		for _, l := range strings.Split(string(data), "\n") {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			if _, n, ok := strings.Cut(l, " : "); ok {
				l = n
			}
			names = append(names, l)
			r, ok := parseRelease(l)
			if !ok {
				t.Errorf("%s: %s: not read as a release", f, l)
				continue
			}
			out.WriteString(strings.Join([]string{l, r.DBMS(), r.Version.String(), r.Config, strings.Join(r.Flavour, "+"), r.Host}, "\t") + "\n")
		}
		want := strings.TrimSuffix(f, ".names") + ".want"
		if upd != nil && upd.Value.String() == "true" {
			if err := os.WriteFile(want, []byte(out.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		w, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		if string(w) != out.String() {
			t.Errorf("%s: parse differs from %s:\n%s", f, want, out.String())
		}
		set := releasesOf(names)
		mixed := strings.Contains(f, "ma_my_pg") || strings.Contains(f, "folders")
		if (set == nil) != mixed {
			t.Errorf("%s: release set %v, want one unless the list mixes engines", f, set != nil)
			continue
		}
		if set == nil {
			continue
		}
		for i := 1; i < len(set.Rels); i++ {
			if set.Rels[i].Version.Compare(set.Rels[i-1].Version) < 0 {
				t.Errorf("%s: %s before %s: the author's order is not the version order", f, set.Rels[i-1].Name, set.Rels[i].Name)
			}
		}
	}
}

func TestParseRelease(t *testing.T) {
	for _, tc := range []struct {
		name, Version, Config, Flavour, Host, label string
	}{
		{"x.ma100230_rel_withdbg.z12a_c32r128.pk1", "10.2.30", "z12a", "rel withdbg", "c32r128", "10.2.30 z12a"},
		{"x.ma110803_rel_withdbg.z12b_c32r128.pk1", "11.8.3", "z12b", "rel withdbg", "c32r128", "11.8.3 z12b"},
		{"x.ma120101_mdev16168_rel_withdbg.z12b_c32r128.pk1", "12.1.1", "z12b", "mdev16168 rel withdbg", "c32r128", "12.1.1 z12b mdev16168"},
		{"x.ma120101_rel_withdbg.z12b_ahi1_c32r128.pk1", "12.1.1", "z12b", "rel withdbg ahi1", "c32r128", "12.1.1 z12b ahi1"},
		{"x.my8032_rel_o2nofp.z12a_c8r32.pk1", "8.0.32", "z12a", "rel o2nofp", "c8r32", "8.0.32 z12a"},
		{"x.my5651_rel_o2nofp.z12a_c8r32.pk1", "5.6.51", "z12a", "rel o2nofp", "c8r32", "5.6.51 z12a"},
		{"x.my8406v2_rel_o2nofp.z12a_c8r32.pk1", "8.4.6v2", "z12a", "rel o2nofp", "c8r32", "8.4.6v2 z12a"},
		{"x.pg176_o2nofp.x10a_c32r128.pk1", "17.6", "x10a", "o2nofp", "c32r128", "17.6 x10a"},
		{"pg131_lto.cx5", "13.1", "cx5", "lto", "", "13.1 cx5"},
		{"pg131_pgo.cx5", "13.1", "cx5", "pgo", "", "13.1 cx5"},
	} {
		r, ok := parseRelease(tc.name)
		if !ok {
			t.Errorf("%s: not a release", tc.name)
			continue
		}
		if r.Version.String() != tc.Version || r.Config != tc.Config || strings.Join(r.Flavour, " ") != tc.Flavour || r.Host != tc.Host {
			t.Errorf("%s: %s %s %v %s, want %s %s %s %s", tc.name, r.Version, r.Config, r.Flavour, r.Host, tc.Version, tc.Config, tc.Flavour, tc.Host)
		}
		// Labelled in a set with another config and no shared flavour.
		s := &releaseSet{Configs: []string{tc.Config, "other"}, CommonFlavour: []string{"rel", "withdbg", "o2nofp", "lto", "pgo"}}
		if got := s.Label(r); got != tc.label {
			t.Errorf("%s: label %q, want %q", tc.name, got, tc.label)
		}
	}
	for _, n := range []string{"run110_x", "x.base", "", "pg", "my_8"} {
		if _, ok := parseRelease(n); ok {
			t.Errorf("%q read as a release", n)
		}
	}
	if s := releasesOf([]string{"x.my8032_rel.z12a", "x.pg176_o2nofp.x10a"}); s != nil {
		t.Errorf("two engines read as one release set")
	}
	s := releasesOf([]string{"x.pg176_o2nofp.x10a_c32r128.pk1", "x.pg177_o2nofp.x10a_c32r128.pk1", "x.pg180_o2nofp.x10b_c32r128.pk1"})
	if s == nil || s.Main != "x10a" || len(s.Configs) != 2 || strings.Join(s.CommonFlavour, " ") != "o2nofp" {
		t.Errorf("releasesOf(pg): %+v", s)
	}
}

// TestConfigGroups: a release archive of several configs is grouped by
// config, each group's base its first release; a config of one build joins
// the config that ran its release, else the main config; one config, no
// releases or no config of two builds leave the set whole.
func TestConfigGroups(t *testing.T) {
	ma := func(v, cfg string) string { return "x.ma" + v + "_rel_withdbg." + cfg + "_c32r128.pk1" }
	pg := func(v, cfg string) string { return "x.pg" + v + "_o2nofp." + cfg + "_c32r128.pk1" }
	for _, tc := range []struct {
		name  string
		names []string
		want  [][]string
	}{
		{"two configs", []string{ma("100230", "z12a"), ma("100244", "z12a"), ma("100244", "z12b"), ma("100339", "z12a"), ma("100339", "z12b"), ma("120101", "z12b_ahi1")},
			[][]string{{ma("100230", "z12a"), ma("100244", "z12a"), ma("100339", "z12a")}, {ma("100244", "z12b"), ma("100339", "z12b"), ma("120101", "z12b_ahi1")}}},
		{"one-build configs join the config of their release", []string{pg("176", "x10a"), pg("177", "x10a"), pg("180", "x10b"), pg("180", "x10c"), pg("181", "x10b")},
			[][]string{{pg("176", "x10a"), pg("177", "x10a")}, {pg("180", "x10b"), pg("181", "x10b"), pg("180", "x10c")}}},
		{"one config", []string{pg("176", "x10a"), pg("177", "x10a")}, nil},
		{"no config of two builds", []string{pg("176", "x10a"), pg("177", "x10b")}, nil},
		{"a lone config without its release goes to the main one", []string{pg("176", "x10a"), pg("177", "x10a"), pg("180", "x10b"), pg("181", "x10b"), pg("182", "x10c")},
			[][]string{{pg("176", "x10a"), pg("177", "x10a"), pg("182", "x10c")}, {pg("180", "x10b"), pg("181", "x10b")}}},
		{"not releases", []string{"pg15.c1", "pg15.c2"}, nil},
	} {
		if got := configGroups(tc.names); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
