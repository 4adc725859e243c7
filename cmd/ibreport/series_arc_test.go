package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/report"
)

// pgSeries is the published sysbench results of PostgreSQL 12.22 to 18.1
// at 40 threads, and the list that orders thirteen of its builds as a
// release series (see testdata/arc/README.md).
const (
	pgSeries     = "../../testdata/arc/nov25.sb.pg/dop40"
	pgSeriesList = "../../testdata/arc/nov25.sb.pg/dop40.series"
)

// archivedQPS reads the QPS of every build from the published qps.abs
// tables: per test (as the report names it) and build.
func archivedQPS(t *testing.T) map[string]map[string]float64 {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(pgSeries, "qps.abs.*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatal("no qps.abs tables", err)
	}
	out := map[string]map[string]float64{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cols []string
		for _, l := range strings.Split(string(b), "\n") {
			fs := strings.Fields(l)
			switch {
			case len(fs) == 3 && fs[1] == ":" && strings.HasPrefix(fs[0], "col-"):
				cols = append(cols, fs[2])
			case len(fs) == len(cols)+1 && !strings.HasPrefix(fs[0], "col-"):
				test := strings.Replace(fs[len(fs)-1], "_range=", " range=", 1)
				if out[test] == nil {
					out[test] = map[string]float64{}
				}
				for i, c := range cols {
					v, err := strconv.ParseFloat(fs[i], 64)
					if err != nil {
						t.Fatalf("%s: %q: %v", f, l, err)
					}
					out[test][c] = v
				}
			}
		}
	}
	return out
}

// archivedRel reads the published qps.rel.pg.latest table: per test and
// build, the QPS relative to the first build (two decimals), for the seven
// builds it has.
func archivedRel(t *testing.T) map[string]map[string]float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(pgSeries, "qps.rel.pg.latest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	var cols []string
	for _, l := range strings.Split(string(b), "\n") {
		fs := strings.Fields(l)
		switch {
		case len(fs) == 3 && fs[0] == "Relative" && fs[1] == "to:":
			cols = append(cols, fs[2])
		case len(fs) == 3 && fs[1] == ":" && strings.HasPrefix(fs[0], "col-"):
			cols = append(cols, fs[2])
		case len(fs) == len(cols) && len(cols) > 1 && !strings.HasPrefix(fs[0], "col-"):
			test := strings.Replace(fs[len(fs)-1], "_range=", " range=", 1)
			out[test] = map[string]float64{cols[0]: 1}
			for i, c := range cols[1:] {
				v, err := strconv.ParseFloat(fs[i], 64)
				if err != nil {
					t.Fatalf("%q: %v", l, err)
				}
				out[test][c] = v
			}
		}
	}
	if len(out) < 30 {
		t.Fatalf("%d tests in qps.rel.pg.latest.tsv", len(out))
	}
	return out
}

// relLevel is the median of the published relative values of the members
// of a level that the qps.rel table has; NaN when it has none.
func relLevel(rel map[string]float64, members []string) float64 {
	var y []float64
	for _, m := range members {
		if v, ok := rel[m]; ok {
			y = append(y, v)
		}
	}
	if len(y) == 0 {
		return math.NaN()
	}
	return median(y)
}

// median is stats.Median of a sorted copy.
func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return stats.Median(s)
}

// TestPublishedSeries builds the series of thirteen PostgreSQL releases
// from their raw sysbench outputs and checks its change points against the
// published tables: the levels before and after each of the ten largest
// shifts, recomputed with the same change points from the published QPS of
// all thirteen (the qps.abs tables), match the report's within 1%; from
// the published relative QPS of the seven builds of qps.rel.pg.latest,
// within 5% (fewer members, two decimals). -v prints them.
func TestPublishedSeries(t *testing.T) {
	code, out, stderr := runCmd(t, "build", "--series", "--format", "json", "--dbms", pgSeriesList, pgSeries)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Series == nil || len(rep.Series.Groups) != 1 {
		t.Fatalf("series part %+v, want one group", rep.Series)
	}
	g := rep.Series.Groups[0]
	if len(g.Members) != 13 || len(g.Changes) < 10 {
		t.Fatalf("%d members, %d change points; want 13 and at least 10", len(g.Members), len(g.Changes))
	}
	// Every change point of a test, in member order, to recompute levels.
	cuts := map[string][]int{}
	for _, c := range g.Changes {
		cuts[c.Test] = append(cuts[c.Test], c.Index)
	}
	for _, v := range cuts {
		slices.Sort(v)
	}
	pub := archivedQPS(t)
	rel := archivedRel(t)
	base := g.Members[0]
	t.Logf("%-28s %-22s %7s %7s %7s | %7s %7s %7s | %8s", "test", "at", "before", "abs", "rel", "after", "abs", "rel", "shift")
	for _, c := range g.Changes[:10] {
		q := pub[c.Test]
		if q == nil {
			t.Errorf("%s: not in the published tables", c.Test)
			continue
		}
		var y []float64
		for _, m := range g.Members {
			v, ok := q[m]
			if !ok {
				t.Fatalf("%s: %s not in the published tables", c.Test, m)
			}
			y = append(y, v/q[base])
		}
		at := slices.Index(cuts[c.Test], c.Index)
		lo, hi := 0, len(y)
		if at > 0 {
			lo = cuts[c.Test][at-1]
		}
		if at+1 < len(cuts[c.Test]) {
			hi = cuts[c.Test][at+1]
		}
		before, after := median(y[lo:c.Index]), median(y[c.Index:hi])
		relBefore, relAfter := relLevel(rel[c.Test], g.Members[lo:c.Index]), relLevel(rel[c.Test], g.Members[c.Index:hi])
		t.Logf("%-28s %-22s %7.3f %7.3f %7.2f | %7.3f %7.3f %7.2f | %+7.1f%%", c.Test, g.Labels[c.Index],
			float64(c.Before), before, relBefore, float64(c.After), after, relAfter, 100*c.Shift)
		if math.Abs(float64(c.Before)/before-1) > 0.01 || math.Abs(float64(c.After)/after-1) > 0.01 {
			t.Errorf("%s at %s: levels %.3f → %.3f, the published qps.abs tables give %.3f → %.3f", c.Test, c.Member, float64(c.Before), float64(c.After), before, after)
		}
		if !(math.Abs(float64(c.Before)/relBefore-1) <= 0.05) || !(math.Abs(float64(c.After)/relAfter-1) <= 0.05) {
			t.Errorf("%s at %s: levels %.3f → %.3f, the published qps.rel table gives %.2f → %.2f", c.Test, c.Member, float64(c.Before), float64(c.After), relBefore, relAfter)
		}
	}
	// The findings are the change points by member, not pairwise bullets.
	has := func(prefix string) bool {
		return slices.ContainsFunc(rep.Series.Findings, func(f string) bool { return strings.HasPrefix(f, prefix) })
	}
	// Named by release, not by number; two significant digits; no shift
	// below the 5% floor (random-points −1.4% at 17.7) among them.
	if len(rep.Bullets) != 0 || !has("The level shifted at 17.7 x10a (after 17.6 x10a): delete range=100 +20%.") ||
		!has("The level shifted at 17.6 x10a (after 16.11 x10a): hot-points range=100 +150%, update-index range=100 +74%,") ||
		slices.ContainsFunc(rep.Series.Findings, func(f string) bool { return strings.Contains(f, "−1.4%") || strings.Contains(f, "pg176") }) {
		t.Errorf("bullets %v, findings %q", rep.Bullets, rep.Series.Findings)
	}
	// The writes got faster in 17: the largest shifts are there.
	if top := g.Changes[0]; top.Test != "hot-points range=100" || !strings.Contains(top.Member, "pg176") {
		t.Errorf("largest shift %+v, want hot-points at 17.6", top)
	}
}

// TestPublishedMySQLSeries: the eight MySQL releases of the other published
// folder (5.6.51 … 9.5.0, 1 thread), as a series, lost most of their
// throughput at 8.0.43, the first 8.0 release of the series, in every test
// whose level shifted at all.
func TestPublishedMySQLSeries(t *testing.T) {
	code, out, stderr := runCmd(t, "build", "--series", "--format", "json", "--dbms", publishedList(t), published)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	g := rep.Series.Groups[0]
	if len(g.Members) != 8 || len(g.Changes) < 20 {
		t.Fatalf("%d members, %d change points", len(g.Members), len(g.Changes))
	}
	for _, c := range g.Changes[:20] {
		if !strings.Contains(c.Member, "my8043") || c.Shift > -0.15 {
			t.Errorf("change point %+v: want a drop of more than 15%% at 8.0.43", c)
		}
	}
}
