package sbsum

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func fixture(t *testing.T, dir string) *metrics.SysbenchSet {
	t.Helper()
	fsys := os.DirFS(dir)
	dirs, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	set, err := metrics.ComputeSysbench(fsys, dirs, metrics.Options{Device: "vda"})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestTablesNames(t *testing.T) {
	set := fixture(t, "../../testdata/sysbench/raw")
	for _, c := range []struct {
		tag  string
		want []string
	}{
		{"", []string{"sum.sb", "o.qps.abs.sb", "qps.rel.sb.tsv", "qps.groups.sb.dop1", "per-query.sb.dop1"}},
		{"pg", []string{"sum.pg", "o.met.pg.dop1", "qps.abs.pg.nopre.csv"}},
	} {
		files, _, err := Tables(set, nil, Options{Tag: c.tag})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, f.Name)
		}
		for _, w := range c.want {
			if !slices.Contains(names, w) {
				t.Errorf("tag %q: no %s among %q", c.tag, w, names)
			}
		}
	}
	if _, _, err := Tables(&metrics.SysbenchSet{}, nil, Options{}); err == nil {
		t.Error("a set without DBMS gave tables")
	}
}

// TestTestsLeaveOutWarmups takes the published MySQL runs, which have the
// warm-up runs point-query.warm and read-only.warm.
func TestTestsLeaveOutWarmups(t *testing.T) {
	set := fixture(t, "../../testdata/arc/nov25.sb.mysql/dop1")
	tests := Tests(set)
	if len(tests) == 0 || len(tests) >= len(set.Tests) {
		t.Fatalf("%d tests of %d", len(tests), len(set.Tests))
	}
	for _, x := range tests {
		if x.Warmup() || strings.Contains(x.Sfx, ".warm") {
			t.Errorf("warm-up %s listed", x.Sfx)
		}
	}
}
