package report_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestReleaseStory: the published archives of release series lead with
// their story in release order: the release with the largest change
// first, the 5.6 → 5.7 change at the second member, configs apart.
func TestReleaseStory(t *testing.T) {
	my := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{})
	if my.Story == nil {
		t.Fatal("nine MySQL releases: no story")
	}
	lines := strings.Join(my.Story.Lines, "\n")
	for _, want := range []string{
		"Largest: 8.0.43 vs 5.7.44: point −18%", // −27% from 5.7 to 8.0 in writes
		"5.7.44 vs 5.6.51: point −11%",          // a level of one member at the start
		"faster on 2 of 8: read-only-distinct range=1000 +44%",
		"First to last, 9.5.0 vs 5.6.51",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("MySQL story lacks %q:\n%s", want, lines)
		}
	}
	if !strings.Contains(my.Story.Lead, "MySQL 5.6.51 to 9.5.0, 9 builds, config z12a") || !strings.Contains(my.Story.Lead, "1 thread, 8 CPUs") {
		t.Errorf("MySQL lead: %s", my.Story.Lead)
	}
	if len(my.Story.Key) != 9 || my.Story.Key[1].Version != "5.7.44" || my.Story.Key[1].DBMS != "MySQL" || my.Story.Key[1].Config != "z12a" {
		t.Errorf("MySQL key: %+v", my.Story.Key)
	}

	pg := loadBuild(t, "../testdata/arc/nov25.sb.pg/dop40", report.LoadOptions{}, report.BuildOptions{})
	if pg.Story == nil {
		t.Fatal("PostgreSQL series: no story")
	}
	lines = strings.Join(pg.Story.Lines, "\n")
	for _, want := range []string{
		"x10a: Largest: 17.6 vs 16.11:", // hot-points +150%, writes +16%
		"hot-points range=100 +150%",
		"Across configs (x10a → x10b, release and config both changed): 18.0 x10b vs 17.7 x10a",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("PostgreSQL story lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, ".5%,") && strings.Contains(lines, "148.5") {
		t.Errorf("false precision: %s", lines)
	}
	// Pairwise findings stay for two DBMS.
	two := buildSysbench(t, sysbenchRaw)
	if two.Story != nil || len(two.Bullets) == 0 {
		t.Errorf("two DBMS: story %v, %d bullets; want the pairwise findings", two.Story != nil, len(two.Bullets))
	}
}

// TestOneGrouping: the findings and the group table sum the tests up in
// the same groups, and the table says which tests each holds.
func TestOneGrouping(t *testing.T) {
	r := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{Metrics: metrics.Options{Cores: 8}}, report.BuildOptions{})
	var parts, groups []string
	for _, b := range r.Bullets {
		if !slices.Contains(parts, b.Part) {
			parts = append(parts, b.Part)
		}
	}
	gt := r.Sysbench.Threads[0].Groups
	for _, row := range gt.Rows {
		if g := row.Cells[0].Text; !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	if !slices.Equal(parts, groups) || len(parts) != 4 {
		t.Errorf("findings group as %v, the table as %v", parts, groups)
	}
	defs := strings.Join(gt.Notes, " ")
	for _, g := range groups {
		if !strings.Contains(defs, g+" (") {
			t.Errorf("the group table does not define %s: %s", g, defs)
		}
	}
	if !strings.Contains(defs, "read-only-distinct range=1000") {
		t.Errorf("the group table does not list the tests: %s", defs)
	}
}

// TestReleaseArchiveConfigBases: in a release archive of several configs
// (the PostgreSQL series: x10a, x10b, x10c, x10d) every finding compares a
// build with the base of its config's group, never silently with another
// config's first release; the story is still told; one config (the nine
// MySQL releases) keeps one base.
func TestReleaseArchiveConfigBases(t *testing.T) {
	config := func(name string) string {
		for _, c := range []string{"x10a", "x10b", "x10c", "x10d"} {
			if strings.Contains(name, "."+c+"_") {
				return c
			}
		}
		return ""
	}
	r := loadBuild(t, "../testdata/arc/nov25.sb.pg/dop40", report.LoadOptions{}, report.BuildOptions{})
	if r.Story == nil {
		t.Fatal("no story")
	}
	if got := r.Sysbench.Bases; len(got) != 2 || config(got[0]) != "x10a" || config(got[1]) != "x10b" {
		t.Errorf("bases %q, want the first x10a and the first x10b release", got)
	}
	if len(r.Bullets) == 0 {
		t.Fatal("no findings")
	}
	for _, b := range r.Bullets {
		same := config(b.DBMS) == config(b.Base)
		// A one-build config is compared with another config at its own
		// release only.
		sameRelease := strings.Split(b.DBMS, "_")[0] == strings.Split(b.Base, "_")[0]
		if !same && !sameRelease {
			t.Errorf("%s vs %s: another config's base at another release", b.DBMS, b.Base)
		}
	}
	// The release-axis charts: one per group, each over the plain builds
	// of its base's config in version order, named by version; the builds
	// of other configs are named in a note, never joined to the line.
	charts := 0
	for _, st := range r.Sysbench.Threads {
		for _, c := range st.GroupCharts {
			if c.Kind != "line" {
				t.Errorf("%s: a %s chart of %d builds, want the release axis", c.ID, c.Kind, len(r.Sysbench.DBMS))
				continue
			}
			charts++
			want := []string{"12.22", "13.22", "13.23", "14.19", "14.20", "15.14", "15.15", "16.10", "16.11", "17.6", "17.7"}
			var note []string
			if strings.HasSuffix(c.ID, ".2") {
				want = []string{"18.0", "18.1"}
				note = []string{"The release axis holds the plain builds of config x10b; not on it: x.pg180_o2nofp.x10c_c32r128.pk1 and x.pg180_o2nofp.x10d_c32r128.pk1 of other configs, compared with x.pg180_o2nofp.x10b_c32r128.pk1 in the story."}
			}
			if !slices.Equal(c.XLabels, want) || !slices.Equal(c.Notes, note) {
				t.Errorf("%s (%s): axis %q, notes %q; want %q, %q", c.ID, c.Title, c.XLabels, c.Notes, want, note)
			}
			for _, s := range c.Series {
				if len(s.Points) > len(want) {
					t.Errorf("%s: %s has %d points on an axis of %d releases", c.ID, s.Name, len(s.Points), len(want))
				}
			}
		}
	}
	// The story's legend names each group's base.
	legend := func(r *report.Report) string {
		for _, l := range r.Legend {
			if l.Name == "release story" {
				return l.Meaning
			}
		}
		return ""
	}
	if l := legend(r); !strings.Contains(l, "x10a (11 builds): base x.pg1222_o2nofp.x10a_c32r128.pk1; x10b, x10c and x10d (4 builds): base x.pg180_o2nofp.x10b_c32r128.pk1.") {
		t.Errorf("the story legend names no base of each config group: %q", l)
	}
	if charts != 8 {
		t.Errorf("%d release-axis charts, want 4 groups of tests × 2 groups of builds", charts)
	}
	my := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{}, report.BuildOptions{})
	if len(my.Sysbench.Bases) != 0 || my.Story == nil {
		t.Errorf("MySQL: bases %q, story %v", my.Sysbench.Bases, my.Story != nil)
	}
	if l := legend(my); l == "" || strings.Contains(l, "group per config") {
		t.Errorf("MySQL, one config: story legend %q", l)
	}
}
