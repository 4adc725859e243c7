package metrics

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/ibreport/ibreport/parse"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// DefaultGroupSplit is the largest point or range group kept whole; a larger
// one is split into two consecutive halves (Point-1, Point-2), as the
// published result posts show them.
const DefaultGroupSplit = 8

// SysbenchGroup is a named list of tests whose relative QPS is summarized
// together.
type SysbenchGroup struct {
	Name  string
	Tests []parse.SysbenchTest
}

var reWriteTest = regexp.MustCompile(`delete|insert|update|write`)

// DefaultSysbenchGroups groups tests as sum_qps_csv.sh does (FORMATS.md
// §5.15), but by test type rather than by the text of the result line:
// point queries (the type contains "point"), writes (it contains delete,
// insert, update or write) and range queries (the rest). Warm-up runs are
// left out. A point or range group with more than split tests is cut into
// two consecutive halves, the first one the larger; Writes stays whole.
// split <= 0 means DefaultGroupSplit.
func DefaultSysbenchGroups(tests []parse.SysbenchTest, split int) []SysbenchGroup {
	if split <= 0 {
		split = DefaultGroupSplit
	}
	var point, rng, write []parse.SysbenchTest
	for _, t := range tests {
		switch {
		case t.Warmup():
		case reWriteTest.MatchString(t.Type):
			write = append(write, t)
		case strings.Contains(t.Type, "point"):
			point = append(point, t)
		default:
			rng = append(rng, t)
		}
	}
	var out []SysbenchGroup
	for _, g := range []SysbenchGroup{{"Point", point}, {"Range", rng}, {"Writes", write}} {
		switch {
		case len(g.Tests) == 0:
		case len(g.Tests) > split && g.Name != "Writes":
			h := (len(g.Tests) + 1) / 2
			out = append(out, SysbenchGroup{g.Name + "-1", g.Tests[:h]}, SysbenchGroup{g.Name + "-2", g.Tests[h:]})
		default:
			out = append(out, g)
		}
	}
	return out
}

// The parts the findings sum sysbench tests up in (SysbenchPartOf).
const (
	PartPoint    = "point"
	PartRange    = "range without aggregation"
	PartRangeAgg = "range with aggregation"
	PartWrites   = "writes"
)

// SysbenchPartOf names the part of the findings a test belongs to, as
// readers of these results group them: writes (the type contains delete,
// insert, update or write, so read-write too), point queries (it contains
// "point"), range queries with aggregation (the read-only family: the
// oltp_read_only transaction and its one-query variants read-only-count,
// -distinct, -order, -simple and -sum) and range queries without
// aggregation (range-covered-*, range-notcovered-*, scan and any other read
// test). The summaries' groups (DefaultSysbenchGroups) stay the scripts'.
func SysbenchPartOf(t parse.SysbenchTest) string {
	switch {
	case reWriteTest.MatchString(t.Base):
		return PartWrites
	case strings.Contains(t.Base, "point"):
		return PartPoint
	case t.Base == "read-only" || strings.HasPrefix(t.Base, "read-only-"):
		return PartRangeAgg
	}
	return PartRange
}

// SysbenchParts groups the tests (warm-up runs left out) by SysbenchPartOf,
// in the order point, range without aggregation, range with aggregation,
// writes; a part without tests is left out. Unlike DefaultSysbenchGroups it
// never cuts a part in halves by list position.
func SysbenchParts(tests []parse.SysbenchTest) []SysbenchGroup {
	order := []string{PartPoint, PartRange, PartRangeAgg, PartWrites}
	by := map[string][]parse.SysbenchTest{}
	for _, t := range tests {
		if !t.Warmup() {
			p := SysbenchPartOf(t)
			by[p] = append(by[p], t)
		}
	}
	var out []SysbenchGroup
	for _, p := range order {
		if len(by[p]) > 0 {
			out = append(out, SysbenchGroup{Name: p, Tests: by[p]})
		}
	}
	return out
}

// CustomSysbenchGroups resolves the groups of a group file against the
// tests of a set. A name that matches no test is reported; a test in no
// group is reported too, since it then counts nowhere.
func CustomSysbenchGroups(spec []parse.SysbenchGroup, tests []parse.SysbenchTest) ([]SysbenchGroup, []string) {
	var out []SysbenchGroup
	var warns []string
	used := map[string]bool{}
	for _, g := range spec {
		sg := SysbenchGroup{Name: g.Name}
		for _, name := range g.Tests {
			found := false
			for _, t := range tests {
				if t.Matches(name) {
					found = true
					if !used[t.Sfx] {
						used[t.Sfx] = true
						sg.Tests = append(sg.Tests, t)
					}
				}
			}
			if !found {
				warns = append(warns, fmt.Sprintf("%s: group %s: no test %q", g.Pos, g.Name, name))
			}
		}
		out = append(out, sg)
	}
	for _, t := range tests {
		if !used[t.Sfx] && !t.Warmup() {
			warns = append(warns, fmt.Sprintf("test %s is in no group", t.Sfx))
		}
	}
	return out, warns
}

// GroupStats summarizes the relative QPS of one DBMS over the tests of a
// group at one thread count.
type GroupStats struct {
	Group   string
	DBMS    string
	Threads int
	Tests   []parse.SysbenchTest // the tests whose ratio is known
	Ratios  []float64            // their relative QPS, unrounded, in test order

	// Average, Median, Min, Max and Stddev (the sample standard deviation)
	// of the ratios. The result posts print them with two decimals, the
	// deviation with three.
	Average, Median, Min, Max, Stddev Value
	Warnings                          []string
}

// GroupStats computes the statistics of every group for every DBMS but the
// base, at nt threads. A test whose relative QPS is NA or infinite is left
// out with a warning.
func (s *SysbenchSet) GroupStats(groups []SysbenchGroup, nt int) []GroupStats {
	var out []GroupStats
	for _, g := range groups {
		for _, d := range s.DBMS[min(1, len(s.DBMS)):] {
			gs := GroupStats{Group: g.Name, DBMS: d.Name, Threads: nt}
			for _, t := range g.Tests {
				rel := s.Relative(d, t, nt)
				switch {
				case !rel.QPS.OK():
					gs.Warnings = append(gs.Warnings, fmt.Sprintf("%s %s %s dop%d: left out: %s", g.Name, d.Name, t.Sfx, nt, rel.QPS.Why))
				case math.IsInf(rel.QPS.V, 0) || math.IsNaN(rel.QPS.V):
					gs.Warnings = append(gs.Warnings, fmt.Sprintf("%s %s %s dop%d: left out: the base QPS is 0", g.Name, d.Name, t.Sfx, nt))
				default:
					gs.Tests = append(gs.Tests, t)
					gs.Ratios = append(gs.Ratios, rel.QPS.V)
				}
			}
			gs.Average, gs.Median, gs.Min, gs.Max, gs.Stddev = Describe(gs.Ratios)
			out = append(out, gs)
		}
	}
	return out
}

// Describe returns the mean, median, minimum, maximum and sample standard
// deviation of xs, relative values. An empty list gives NA everywhere; one
// value has no deviation.
func Describe(xs []float64) (avg, med, lo, hi, sd Value) {
	if len(xs) == 0 {
		v := NA(RatioUnit, "no test with a known relative QPS")
		return v, v, v, v, v
	}
	x := append([]float64(nil), xs...)
	sort.Float64s(x) // stat.Quantile needs sorted input
	n := len(x)
	mean := stat.Mean(x, nil)
	// gonum's quantile kinds give the lower middle (Empirical) or an
	// interpolation that is not the midpoint (LinInterp) for an even count;
	// the median of the posts is the mean of the two middle values.
	m := stat.Quantile(0.5, stat.Empirical, x, nil)
	if n%2 == 0 {
		m = stat.Mean(x[n/2-1:n/2+1], nil)
	}
	avg, med = Known(mean, RatioUnit), Known(m, RatioUnit)
	lo, hi = Known(floats.Min(x), RatioUnit), Known(floats.Max(x), RatioUnit)
	if n < 2 {
		sd = NA(RatioUnit, "one test: no standard deviation")
	} else {
		sd = Known(stat.StdDev(x, nil), RatioUnit)
	}
	return
}
