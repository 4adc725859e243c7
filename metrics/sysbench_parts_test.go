package metrics_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// TestSysbenchPartOf: each test name of the published archives and the
// fixtures in the part readers put it in.
func TestSysbenchPartOf(t *testing.T) {
	for _, c := range []struct{ sfx, part string }{
		{"point-query.range100.pk1", metrics.PartPoint},
		{"point-query.pre.range100.pk1", metrics.PartPoint},
		{"hot-points.range100.pk1", metrics.PartPoint},
		{"points-covered-pk.range100.pk1", metrics.PartPoint},
		{"points-covered-si.range100.pk1", metrics.PartPoint},
		{"points-notcovered-pk.range100.pk1", metrics.PartPoint},
		{"points-notcovered-si.range100.pk1", metrics.PartPoint},
		{"random-points.range10.pk1", metrics.PartPoint},
		{"random-points.range1000.pk1", metrics.PartPoint},
		{"range-covered-pk.range100.pk1", metrics.PartRange},
		{"range-covered-si.range100.pk1", metrics.PartRange},
		{"range-notcovered-pk.range100.pk1", metrics.PartRange},
		{"range-notcovered-si.pre.range100.pk1", metrics.PartRange},
		{"range-notcovered-si.range100.pk1", metrics.PartRange},
		{"scan.range100.pk1", metrics.PartRange},
		{"read-only-count.range1000.pk1", metrics.PartRangeAgg},
		{"read-only-distinct.range1000.pk1", metrics.PartRangeAgg},
		{"read-only-order.range1000.pk1", metrics.PartRangeAgg},
		{"read-only-simple.range1000.pk1", metrics.PartRangeAgg},
		{"read-only-sum.range1000.pk1", metrics.PartRangeAgg},
		{"read-only.range10.pk1", metrics.PartRangeAgg},
		{"read-only.range100.pk1", metrics.PartRangeAgg},
		{"read-only.range10000.pk1", metrics.PartRangeAgg},
		{"read-only.pre.range100.pk1", metrics.PartRangeAgg},
		{"read-write.range10.pk1", metrics.PartWrites},
		{"read-write.range100.pk1", metrics.PartWrites},
		{"write-only.range10000.pk1", metrics.PartWrites},
		{"delete.range100.pk1", metrics.PartWrites},
		{"insert.range100.pk1", metrics.PartWrites},
		{"update-index.range100.pk1", metrics.PartWrites},
		{"update-inlist.range100.pk1", metrics.PartWrites},
		{"update-nonindex.range100.pk1", metrics.PartWrites},
		{"update-one.range100.pk1", metrics.PartWrites},
		{"update-zipf.range100.pk1", metrics.PartWrites},
		// Not a read-only variant: a name that only starts alike.
		{"read-onlyish.range100.pk1", metrics.PartRange},
	} {
		x, ok := parse.ParseSysbenchSfx(c.sfx)
		if !ok {
			t.Fatal(c.sfx)
		}
		if got := metrics.SysbenchPartOf(x); got != c.part {
			t.Errorf("%s: part %q, want %q", c.sfx, got, c.part)
		}
	}
}

// TestSysbenchPartsArchives groups the tests of the two published archives:
// no part is cut in halves, warm-up runs are left out, and every test of an
// archive is in exactly one part.
func TestSysbenchPartsArchives(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want string
	}{
		// MySQL, 1 thread: point-query.pre and range-notcovered-si.pre
		// count with their parts; point-query.warm, points-covered-si.warm,
		// scan.warm and scan.warmpre are warm-ups.
		{"../testdata/arc/nov25.sb.mysql/dop1", "point:10 range without aggregation:6 range with aggregation:8 writes:10"},
		{"../testdata/arc/nov25.sb.pg/dop40", "point:10 range without aggregation:6 range with aggregation:8 writes:10"},
	} {
		dirs, _ := filepath.Glob(filepath.Join(c.dir, "x.*"))
		if len(dirs) == 0 {
			t.Fatal("no DBMS in", c.dir)
		}
		files, _ := filepath.Glob(filepath.Join(dirs[0], "sb.met.*"))
		var tests []parse.SysbenchTest
		warm := 0
		for _, f := range files {
			sfx := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "sb.met."), filepath.Ext(f))
			x, ok := parse.ParseSysbenchSfx(sfx)
			if !ok {
				t.Fatal(sfx)
			}
			if x.Warmup() {
				warm++
			}
			tests = append(tests, x)
		}
		parse.SortSysbenchTests(tests)
		parts := metrics.SysbenchParts(tests)
		var got []string
		n := 0
		for _, p := range parts {
			got = append(got, p.Name+":"+strconv.Itoa(len(p.Tests)))
			n += len(p.Tests)
		}
		if strings.Join(got, " ") != c.want || n+warm != len(tests) {
			t.Errorf("%s: parts %v (%d tests, %d warm-ups, of %d)", c.dir, got, n, warm, len(tests))
		}
	}
}
