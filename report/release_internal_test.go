package report

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// readNames reads a name list of testdata/releases: one name a line, or
// the "col-N : name" lines of a qps table; # starts a comment. With
// prefix, only the names that start with it (the folders of one engine).
func readNames(t *testing.T, file, prefix string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/releases", file))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if _, n, ok := strings.Cut(l, " : "); ok {
			l = n
		}
		if strings.HasPrefix(l, prefix) {
			names = append(names, l)
		}
	}
	if len(names) == 0 {
		t.Fatalf("%s: no name starts with %q", file, prefix)
	}
	return names
}

// groupWords says a config group in words: the base's version, then each
// config and how many builds of it the group holds, "10.2.30: z12a 16".
func groupWords(g []string) string {
	var cfgs []string
	count := map[string]int{}
	for _, n := range g {
		r, _ := parseRelease(n)
		if count[r.Config] == 0 {
			cfgs = append(cfgs, r.Config)
		}
		count[r.Config]++
	}
	var parts []string
	for _, c := range cfgs {
		parts = append(parts, fmt.Sprintf("%s %d", c, count[c]))
	}
	base, _ := parseRelease(g[0])
	return base.Version.String() + ": " + strings.Join(parts, ", ")
}

// TestConfigGroups groups every name list of the author's qps tables and
// the result folders of each engine by config: an archive of several
// configs, each of two or more builds, is a group per config whose base is
// its first build; a config of one build joins the group that ran its
// release; a list of one config, of one build per config or of several
// engines stays whole (nil). Every list must have a row, so that a new
// list is looked at.
func TestConfigGroups(t *testing.T) {
	for _, tc := range []struct {
		file, prefix string
		want         []string // groupWords of each group; nil: no groups
	}{
		// The 35 MariaDB folders of bench/arc/nov25.maria.sb/hetz.2: the
		// z12b group holds the variants ahi1 and mdev16168 of 12.1.1.
		{"folders.names", "x.ma", []string{"10.2.30: z12a 16", "10.2.44: z12b 19"}},
		{"folders.names", "x.my", nil},
		// PostgreSQL (testdata/arc): x10c and x10d ran 18.0 only, as x10b did.
		{"folders.names", "x.pg", []string{"10.23: x10a 14", "18.0: x10b 2, x10c 1, x10d 1"}},
		{"folders.names", "", nil}, // three engines
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1002.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1003.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1004.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1005.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1006.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1011.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.120.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.1201.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.all.tsv.names", "", []string{"10.2.30: z12a 16", "11.4.8: z12b 4"}},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.all2.tsv.names", "", []string{"10.2.30: z12a 16", "11.0.6: z12b 11"}},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.all2.tsv.no1103.names", "", []string{"10.2.30: z12a 16", "11.0.6: z12b 12"}},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.best.tsv.names", "", []string{"10.2.30: z12a 16", "11.4.8: z12b 4"}},
		{"nov25.maria.sb_hetz.2_qps.abs.ma.latest.tsv.names", "", []string{"10.2.30: z12a 11", "11.4.8: z12b 4"}},
		{"nov25.maria.sb_hetz.2_qps.abs.ma_my_pg.tsv.names", "", nil},
		{"nov25.maria.sb_hetz.2_qps.abs.my.all.tsv.names", "", nil},
		// Six x10a releases and one x10b: no second config of two builds.
		{"nov25.maria.sb_hetz.2_qps.abs.pg.tsv.names", "", nil},
		{"nov25.sb.mysql_dop1_qps.abs.all.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg.latest.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg13.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg14.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg15.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg16.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg17.tsv.names", "", nil},
		{"nov25.sb.pg_dop40_qps.abs.pg18.tsv.names", "", nil},
	} {
		names := readNames(t, tc.file, tc.prefix)
		got := configGroups(names)
		var words []string
		for _, g := range got {
			words = append(words, groupWords(g))
		}
		if !reflect.DeepEqual(words, tc.want) {
			t.Errorf("%s %s: groups %q, want %q", tc.file, tc.prefix, words, tc.want)
		}
		checkConfigGroups(t, tc.file+" "+tc.prefix, names, got)
	}
	// Every list has a row above.
	files, _ := filepath.Glob("testdata/releases/*.names")
	src, err := os.ReadFile("release_internal_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.Contains(string(src), `"`+filepath.Base(f)+`"`) {
			t.Errorf("%s: no row in TestConfigGroups", f)
		}
	}

	// A config of one build whose release no other config ran joins the
	// main config: the PostgreSQL folders with x10d's build moved to a
	// release of its own.
	names := readNames(t, "folders.names", "x.pg")
	for i, n := range names {
		names[i] = strings.Replace(n, "x.pg180_o2nofp.x10d", "x.pg182_o2nofp.x10d", 1)
	}
	got := configGroups(names)
	var words []string
	for _, g := range got {
		words = append(words, groupWords(g))
	}
	if want := []string{"10.23: x10a 14, x10d 1", "18.0: x10b 2, x10c 1"}; !reflect.DeepEqual(words, want) {
		t.Errorf("x10d at 18.2: groups %q, want %q", words, want)
	}
	checkConfigGroups(t, "x10d at 18.2", names, got)
}

// checkConfigGroups checks what holds of any grouping: every name in one
// group; a group's base is the first build of its own config, which has
// two or more builds, in list order; and a build of another config in a
// group ran a release of the group's config if any config of two builds
// ran it.
func checkConfigGroups(t *testing.T, what string, names []string, groups [][]string) {
	t.Helper()
	if groups == nil {
		return
	}
	seen := map[string]int{}
	for _, g := range groups {
		for _, n := range g {
			seen[n]++
		}
	}
	for _, n := range names {
		if seen[n] != 1 {
			t.Errorf("%s: %s in %d groups", what, n, seen[n])
		}
	}
	rs := releasesOf(names)
	count := map[string]int{}
	for _, r := range rs.Rels {
		count[r.Config]++
	}
	for _, g := range groups {
		base, _ := parseRelease(g[0])
		first := slices.IndexFunc(rs.Rels, func(r release) bool { return r.Config == base.Config })
		if count[base.Config] < 2 || rs.Rels[first].Name != g[0] {
			t.Errorf("%s: group base %s is not the first build of a config of two or more", what, g[0])
		}
		for _, n := range g[1:] {
			r, _ := parseRelease(n)
			if r.Config == base.Config {
				continue
			}
			ranIt := func(cfg string) bool {
				return slices.ContainsFunc(rs.Rels, func(o release) bool { return o.Config == cfg && o.Version.Compare(r.Version) == 0 })
			}
			elsewhere := slices.ContainsFunc(rs.Configs, func(c string) bool { return count[c] >= 2 && ranIt(c) })
			if elsewhere && !ranIt(base.Config) {
				t.Errorf("%s: %s is in the group of %s, which did not run its release", what, n, base.Config)
			}
		}
	}
}

// TestReleaseAxis lays out the release axis of each config group (or of
// the whole list when it has none) of every name list: the plain builds of
// the base's config in strictly rising version order, named by version;
// every other build named in the note. The MariaDB folders' z12b group
// leaves its two variants of 12.1.1 off.
func TestReleaseAxis(t *testing.T) {
	files, err := filepath.Glob("testdata/releases/*.names")
	if err != nil || len(files) == 0 {
		t.Fatalf("name lists: %v", err)
	}
	var lists [][]string
	for _, f := range files {
		lists = append(lists, readNames(t, filepath.Base(f), ""))
	}
	for _, p := range []string{"x.ma", "x.my", "x.pg"} {
		lists = append(lists, readNames(t, "folders.names", p))
	}
	axes := 0
	for _, names := range lists {
		groups := configGroups(names)
		if groups == nil {
			groups = [][]string{names}
		}
		for _, g := range groups {
			members, labels, note := releaseAxis(g)
			rs := releasesOf(g)
			if rs == nil {
				if members != nil {
					t.Errorf("%s…: an axis of names that are not releases", g[0])
				}
				continue
			}
			base := rs.Rels[0]
			plain := 0
			for _, r := range rs.Rels {
				if r.Config == base.Config && len(rs.Extra(r)) == 0 {
					plain++
				}
			}
			if plain < 2 {
				if members != nil {
					t.Errorf("%s…: an axis of %d plain builds", g[0], plain)
				}
				continue
			}
			axes++
			if len(members) != plain || len(labels) != plain {
				t.Errorf("%s…: %d members, %d labels, want the %d plain %s builds", g[0], len(members), len(labels), plain, base.Config)
				continue
			}
			on := map[string]bool{}
			for k, m := range members {
				r := rs.Rels[m]
				on[r.Name] = true
				if r.Config != base.Config || len(rs.Extra(r)) > 0 || labels[k] != r.Version.String() {
					t.Errorf("%s…: %s on the axis as %q", g[0], r.Name, labels[k])
				}
				if k > 0 && r.Version.Compare(rs.Rels[members[k-1]].Version) <= 0 {
					t.Errorf("%s…: %s after %s", g[0], labels[k], labels[k-1])
				}
			}
			for _, n := range g {
				if !on[n] && !strings.Contains(note, n) {
					t.Errorf("%s…: %s neither on the axis nor in the note %q", g[0], n, note)
				}
			}
			if len(on) == len(g) && note != "" {
				t.Errorf("%s…: a note %q with every build on the axis", g[0], note)
			}
		}
	}
	if axes < 10 {
		t.Errorf("%d axes laid out, want one for each list of releases", axes)
	}

	ma := configGroups(readNames(t, "folders.names", "x.ma"))
	if len(ma) != 2 {
		t.Fatalf("MariaDB folders: %d groups", len(ma))
	}
	_, labels, note := releaseAxis(ma[1])
	if len(labels) != 17 || labels[0] != "10.2.44" || labels[15] != "12.0.2" || labels[16] != "12.1.1" {
		t.Errorf("MariaDB z12b axis %q", labels)
	}
	want := "The release axis holds the plain builds of config z12b; not on it: the variants x.ma120101_mdev16168_rel_withdbg.z12b_c32r128.pk1 and x.ma120101_rel_withdbg.z12b_ahi1_c32r128.pk1, compared with x.ma120101_rel_withdbg.z12b_c32r128.pk1 in the story."
	if note != want {
		t.Errorf("MariaDB z12b note\n %q\nwant %q", note, want)
	}
}
