package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/parse"
)

// ibenchStory is the release story of the insert benchmark: each group of
// DBMS (a base and the DBMS compared with it) whose names read as at least
// storyMinMembers builds of one DBMS's releases is told in release order,
// per config, as a sysbench release archive is, with the parts of the
// benchmark (load, create index, read+write) as its test groups and the
// throughput of each step as its tests. Groups of two or three DBMS, and
// of names that are no releases, keep their pairwise findings. Nil when
// no group is a release series.
func (b *findings) ibenchStory() *Story {
	steps := b.ib.stepList()
	if len(steps) == 0 {
		return nil
	}
	st := &Story{}
	for _, names := range dbmsGroups(b.ib.dbmsList()) {
		if len(names) < storyMinMembers {
			continue
		}
		inList := releasesOf(names)
		if inList == nil {
			continue
		}
		// In release order: the table's order is the reader's, not
		// necessarily the versions'. The set is read again in that order,
		// whose first use of each config it keeps.
		idx := make([]int, len(names))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(x, y int) int { return inList.Rels[x].Version.Compare(inList.Rels[y].Version) })
		ordered := make([]string, len(idx))
		for i, k := range idx {
			ordered[i] = names[k]
		}
		rs := releasesOf(ordered)
		labels, key := storyKey(rs)
		gs := b.ibenchStoryGroups(steps, ordered)
		if len(gs) == 0 {
			continue
		}
		ss := storySeries(rs)
		first, last := rs.Rels[0], rs.Rels[len(rs.Rels)-1]
		lead := fmt.Sprintf("%s %s to %s, %d builds", first.DBMS(), first.Version, last.Version, len(rs.Rels)) + seriesWhat(rs, ss, b.res.descriptions) +
			fmt.Sprintf(". Insert benchmark throughput (inserts/s; queries/s for read+write), higher is better. "+
				"Each release vs the one before: the median change per part (load, create index, read+write) when ≥%.0f%% and beyond the noise; a step alone when ≥%.0f%%.",
				100*storyFloor, 100*storyTestFloor)
		if st.Lead == "" {
			st.Lead = lead
		} else {
			st.Lines = append(st.Lines, lead)
		}
		for _, l := range seriesStory(rs, ss, gs, labels, b.res.descriptions) {
			// The story's words are sysbench's; its groups here are the
			// benchmark's parts.
			st.Lines = append(st.Lines, ibenchStoryWords.Replace(l))
		}
		st.Key = append(st.Key, key...)
		st.Covers = append(st.Covers, names...)
	}
	if st.Lead == "" {
		return nil
	}
	return st
}

// ibenchStoryWords put the insert benchmark's words in the story's lines,
// which are sysbench's: its groups are the benchmark's parts, its tests
// the steps.
var ibenchStoryWords = strings.NewReplacer("test group", "part", "more tests", "more steps", "more test", "more step")

// ibenchStoryGroups are the parts of the insert benchmark as story groups:
// per step of the part, the throughput of each DBMS of names (NA where it
// is missing or not above 0) and its noise, the step's interval from the
// client logs (raw results only) and the step's run-to-run noise in
// quadrature.
func (b *findings) ibenchStoryGroups(steps []parse.Step, names []string) []storyGroup {
	var out []storyGroup
	for _, part := range []string{"load", "create index", "read+write"} {
		g := storyGroup{name: part}
		for _, s := range steps {
			if ibenchPart(s) != part {
				continue
			}
			col := throughputCol(s)
			run := testRunNoise(b.res, ibNoiseKey(s))
			var q, h []float64
			have := false
			for _, n := range names {
				v := math.NaN()
				if c := b.ib.cell(s.MergeName, n, col); c.OK() && c.V > 0 && !math.IsInf(c.V, 0) {
					v, have = c.V, true
				}
				q, h = append(q, v), append(h, valueNoise(b.ib.noiseOf(s, n), run))
			}
			if have {
				g.tests = append(g.tests, s.MergeName)
				g.q, g.h = append(g.q, q), append(g.h, h)
			}
		}
		if len(g.tests) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// dbmsGroups are the groups of a DBMS list, each its base first, in the
// list's order; a name listed twice in a group counts once.
func dbmsGroups(list []Entry) [][]string {
	var out [][]string
	var g []string
	flush := func() {
		if len(g) > 0 {
			out = append(out, g)
		}
		g = nil
	}
	for _, e := range list {
		switch {
		case e.Break:
			flush()
		case !slices.Contains(g, e.Name):
			g = append(g, e.Name)
		}
	}
	flush()
	return out
}

// ibenchStoryLegend explains the insert benchmark's release story.
var ibenchStoryLegend = fmt.Sprintf("When the DBMS of a group of %d or more read as one DBMS's releases (my8022.cx6d: MySQL 8.0.22, config cx6d), the report leads with their story: per config a series in release order, each release against the one before it, with the parts of the benchmark (load, create index, read+write) as the groups and each step's throughput (inserts/s; queries/s for read+write) as a test. "+
	"A part changed materially when the median over its steps of log(throughput ratio) is at least %.0f%% either way (%.0f%% × √(3/steps) for a part of one or two steps: 8.7%% for create index) and %.0f standard errors from 0; a step's noise is its run-to-run noise (--run-noise, the settings, 1%% by default) with its client logs' interval where the results are raw, and, from 5 releases on, at least its series' own (1.4826 times its median absolute step between releases). "+
	"A step whose part did not change is told alone from %.0f%%. A change the next release takes back is for one release only and ranks after lasting ones. Groups of fewer DBMS, or of other names, keep the findings against their base. "+
	"On simulated series shaped as the published archives (2 load steps, 1 create index, 12 read+write; 4 releases; 5 seeds × 400 series), a flat series tells a change in none at the 1%% noise per value assumed and in 0.7–2.5%% at 2%%; a lasting −15%% of load or create index at the second release is told there in all.",
	storyMinMembers, 100*storyFloor, 100*storyFloor, storyZ, 100*storyTestFloor)
