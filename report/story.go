package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
)

// Story is the release story of a sysbench archive whose DBMS are one
// DBMS's releases (names that read as versions: x.my5651_rel_o2nofp… is
// MySQL 5.6.51): per config, the releases in order and, for each release
// that changed a test group materially, by how much against the release
// before it. It leads the report in place of the headlines, which compare
// every build with the first.
type Story struct {
	// Lead says what the lines compare: the DBMS, its releases and
	// configs, the thread count and host, and the materiality rule.
	Lead string `json:"lead"`
	// Lines are the findings: the release with the largest material
	// change first, then the others in release order, then the changes
	// between configs and variants of a release.
	Lines []string `json:"lines"`
	// Key names the builds in words: label, DBMS, version, config and
	// build flavour.
	Key []ReleaseKey `json:"key"`
	// Covers are the DBMS the story tells, by the names the tables show:
	// the findings (Report.Bullets) of the others lead after it.
	Covers []string `json:"covers,omitempty"`
}

// ReleaseKey is a build of a release archive in words.
type ReleaseKey struct {
	Label   string `json:"label"` // as the story names it: "10.5.6 z12b"
	Name    string `json:"name"`  // the folder name
	DBMS    string `json:"dbms"`  // "MariaDB"
	Version string `json:"version"`
	Config  string `json:"config,omitempty"`
	Flavour string `json:"flavour,omitempty"` // "rel withdbg ahi1"
}

// storyFloor is the materiality floor: a change smaller than 5% is not told
// even when beyond the noise; storyZ is how many standard errors of its
// group median a change must be from 0 to be beyond the noise. The
// simulation in story_internal_test.go states the false-alarm rate and
// power they give.
const (
	storyFloor = 0.05
	storyZ     = 3.0
)

// storyLegend explains the story in the legend of a report that has one.
var storyLegend = fmt.Sprintf("When the DBMS names read as one DBMS's releases (x.my5651_rel_o2nofp.z12a_c8r32.pk1: MySQL 5.6.51, build rel o2nofp, config z12a, my.cnf size class c8r32), the report leads with their story: per config a series in release order, each release against the one before it. "+
	"A test group changed materially when the median over its tests of log(QPS ratio) is at least %.0f%% either way (the floor; times √(3/tests) for a group of one or two tests) and %.0f standard errors from 0; a test's noise is the larger of its runs' (sysbench interval lines, with the run-to-run noise of --run-noise or the settings, 1%% by default) and its series' own (1.4826 times its median absolute step between releases). "+
	"A test whose group did not change is told alone from %.0f%% beyond its noise. A change the next release takes back (the level after it within half the change of the level before) is for one release only and ranks after lasting ones; the largest lasting change (by |log ratio|) leads. "+
	"On simulated series (9 releases, 4 groups of 8 tests, 3%% noise per value) a lasting 12%% drop of one group at the second release is found there in 99–100%% of series, and a flat series has any group change in 0.3–1%% (3 seeds of 300 series).",
	100*storyFloor, storyZ, 100*storyTestFloor)

// configGroupsLegend says, for a release archive of several configs
// grouped by config (configGroups), that each group is compared with its
// own base and which build that is: "z12a (16 builds): base
// x.ma100230_rel_withdbg.z12a_c32r128.pk1".
func configGroupsLegend(set *metrics.SysbenchSet) string {
	var parts []string
	for _, g := range set.Split() {
		b := g.Base()
		if b == nil {
			continue
		}
		var cfgs []string
		for _, d := range g.DBMS {
			if r, ok := parseRelease(d.Name); ok && r.Config != "" && !slices.Contains(cfgs, r.Config) {
				cfgs = append(cfgs, r.Config)
			}
		}
		parts = append(parts, fmt.Sprintf("%s (%s): base %s", andList(cfgs), metrics.Plural(len(g.DBMS), "build"), b.Name))
	}
	return "The archive holds several configs, so its builds are in a group per config, and each group is compared with its own base, its first release, never with another config's: " +
		strings.Join(parts, "; ") + ". A config of one build is in the group of a config that ran its release (else the main config's). " +
		"The relative tables, findings and charts compare each build with its group's base; the story compares each release with the one before it in its config."
}

// storyBudget is the most characters the series' lines take, so that the
// story and the first table fit the first screen.
const storyBudget = 800

// chars counts the characters of lines.
func chars(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len([]rune(l))
	}
	return n
}

// storyMinMembers is the fewest builds told as a story: two or three DBMS
// keep the pairwise findings.
const storyMinMembers = 4

// groupStep is the change of one test group from member a to member b:
// the median over its tests of log(b/a) (d holds each test's, NaN where a
// value is missing) and the standard error of that median. The error
// comes from each test's step noise (stepNoise) where known, else from
// the tests' spread.
func groupStep(g storyGroup, a, b int) (step, se float64, d []float64) {
	var ok, vars []float64
	for t := range g.q {
		x, y := g.q[t][a], g.q[t][b]
		if !(x > 0) || !(y > 0) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			d = append(d, math.NaN())
			continue
		}
		d = append(d, math.Log(y/x))
		ok = append(ok, d[t])
		if s := g.stepSD(t, a, b); s > 0 {
			vars = append(vars, s*s)
		}
	}
	n := len(ok)
	if n == 0 {
		return math.NaN(), math.NaN(), d
	}
	step = medianOf(ok)
	// The median's standard error is about 1.25 times the mean's.
	switch {
	case len(vars) == n:
		m := 0.0
		for _, v := range vars {
			m += v
		}
		se = 1.253 * math.Sqrt(m/float64(n)/float64(n))
	case n >= 3:
		var dev []float64
		for _, x := range ok {
			dev = append(dev, math.Abs(x-step))
		}
		se = 1.253 * 1.4826 * medianOf(dev) / math.Sqrt(float64(n))
	default:
		se = math.NaN() // nothing says how noisy it is
	}
	return step, se, d
}

// stepSD is the standard deviation of test t's log change from member a
// to b when nothing changed: the larger of what its runs' noise says and
// what the series' own steps say (1.4826 times their median absolute
// step: robust while fewer than half the releases change the test); 0
// when neither is known.
func (g storyGroup) stepSD(t, a, b int) float64 {
	s := runSE(g.h, t, a, b)
	if t < len(g.sigma) && g.sigma[t] > s {
		s = g.sigma[t]
	}
	return s
}

// withNoise sets the series' own step noise of each test, from at least
// four steps.
func (g storyGroup) withNoise() storyGroup {
	g.sigma = make([]float64, len(g.q))
	for t, q := range g.q {
		var abs []float64
		for i := 1; i < len(q); i++ {
			if q[i-1] > 0 && q[i] > 0 && !math.IsInf(q[i], 0) && !math.IsInf(q[i-1], 0) {
				abs = append(abs, math.Abs(math.Log(q[i]/q[i-1])))
			}
		}
		if len(abs) >= 4 {
			g.sigma[t] = 1.4826 * medianOf(abs)
		}
	}
	return g
}

// material reports whether a group step over n tests is told: beyond
// storyZ standard errors and at least the group's floor either way.
func material(step, se float64, n int) bool {
	if math.IsNaN(step) || math.IsNaN(se) {
		return false
	}
	return math.Abs(step) >= math.Log(1+groupFloor(n)) && math.Abs(step) >= storyZ*se
}

// known counts the values of d that are not NaN.
func known(d []float64) int {
	n := 0
	for _, x := range d {
		if !math.IsNaN(x) {
			n++
		}
	}
	return n
}

// groupFloor is the materiality floor of a group of n tests: storyFloor
// from 3 tests on, whose median averages their noise out; a group of one
// or two tests is about one measurement, and a run-to-run noise larger
// than the one assumed would make its steps pass the floor by chance
// (twice the assumed noise: 16–22% of flat 4-release series told a change
// with the plain floor), so its floor grows as sqrt(3/n): 8.7% for one
// test, 6.1% for two (TestIbenchStorySim).
func groupFloor(n int) float64 {
	if n >= 3 || n <= 0 {
		return storyFloor
	}
	return storyFloor * math.Sqrt(3/float64(n))
}

// storyEvent is a release at which some group changed materially.
type storyEvent struct {
	at     int // the member
	from   int // the member it is compared with
	groups []groupChange
	// alone are the tests that moved by storyTestFloor or more while
	// their group did not change materially, the largest first.
	alone []testMove
	spike bool // every change returned at the next member
	size  float64
}

type groupChange struct {
	group string
	step  float64
	spike bool
	// against are the tests that moved the other way beyond the floor.
	against []testMove
	tests   int
}

type testMove struct {
	name  string
	step  float64
	spike bool // taken back at the next member
}

// storyGroup is one test group's values along a series.
type storyGroup struct {
	name  string
	tests []string
	q, h  [][]float64 // per test, per member
	// sigma is each test's step noise from the series (withNoise); nil
	// or 0 when unknown.
	sigma []float64
}

// seriesEvents finds the material changes of a series: at each member
// against the one before it, per group; a change that the next member
// takes back (the level after it is within half the change of the level
// before it) is a one-release spike.
func seriesEvents(groups []storyGroup, n int) []storyEvent {
	var out []storyEvent
	// returned marks the step that takes a one-release spike back: it is
	// the spike's end, not a change of its own.
	returned := map[[3]int]bool{} // group, test (-1: the group), member
	for i := 1; i < n; i++ {
		ev := storyEvent{at: i, from: i - 1, spike: true}
		for gi, g := range groups {
			step, se, d := groupStep(g, i-1, i)
			if returned[[3]int{gi, -1, i}] {
				continue
			}
			if material(step, se, known(d)) {
				gc := groupChange{group: g.name, step: step}
				if i+1 < n {
					back, _, _ := groupStep(g, i-1, i+1)
					gc.spike = !math.IsNaN(back) && math.Abs(back) < math.Abs(step)/2 && !movedToStay(g, d, step, i)
					returned[[3]int{gi, -1, i + 1}] = gc.spike
				}
				for t, x := range d {
					if math.IsNaN(x) {
						continue
					}
					gc.tests++
					if x*step < 0 && math.Abs(x) >= math.Log(1+storyFloor) {
						gc.against = append(gc.against, testMove{name: g.tests[t], step: x})
					}
				}
				slices.SortFunc(gc.against, func(a, b testMove) int { return cmp.Compare(math.Abs(b.step), math.Abs(a.step)) })
				ev.groups = append(ev.groups, gc)
				ev.spike = ev.spike && gc.spike
				if !gc.spike {
					ev.size = max(ev.size, math.Abs(step))
				}
				continue
			}
			// A test that moved alone, by storyTestFloor or more and
			// beyond its noise, while its group did not.
			for t, x := range d {
				if math.IsNaN(x) || math.Abs(x) < math.Log(1+storyTestFloor) || math.Abs(x) < storyZ*g.stepSD(t, i-1, i) || returned[[3]int{gi, t, i}] {
					continue
				}
				spike := false
				if i+1 < n && g.q[t][i-1] > 0 && g.q[t][i+1] > 0 {
					back := math.Log(g.q[t][i+1] / g.q[t][i-1])
					spike = math.Abs(back) < math.Abs(x)/2
					returned[[3]int{gi, t, i + 1}] = spike
				}
				ev.alone = append(ev.alone, testMove{name: g.tests[t], step: x, spike: spike})
				ev.spike = ev.spike && spike
			}
		}
		if len(ev.groups) > 0 || len(ev.alone) > 0 {
			slices.SortStableFunc(ev.alone, func(a, b testMove) int { return cmp.Compare(math.Abs(b.step), math.Abs(a.step)) })
			out = append(out, ev)
		}
	}
	return out
}

// movedToStay reports whether a test of the group that moved with the
// group's change (in its direction, by the story's floor or more) stayed
// there at the next member (less than half of its move back): then the
// change is no one-release spike, however the group's median returned. A
// median of six comes back on the unchanged tests when scan recovers,
// while range-notcovered-si stays at 0.39 of its level; told "for this
// release only", a lasting change would read as a spike.
func movedToStay(g storyGroup, d []float64, step float64, i int) bool {
	for t, x := range d {
		if math.IsNaN(x) || x*step <= 0 || math.Abs(x) < math.Log(1+storyFloor) {
			continue
		}
		if t >= len(g.q) || i+1 >= len(g.q[t]) || !(g.q[t][i-1] > 0) || !(g.q[t][i+1] > 0) {
			continue
		}
		if back := math.Log(g.q[t][i+1] / g.q[t][i-1]); math.Abs(back) >= math.Abs(x)/2 && back*x > 0 {
			return true
		}
	}
	return false
}

// storyTestFloor is how far one test must move to be told alone, when its
// group did not change materially.
const storyTestFloor = 0.20

// runSE is the standard error of one test's log change from member a to b
// from its runs' noise; 0 when unknown.
func runSE(h [][]float64, t, a, b int) float64 {
	v := 0.0
	for _, i := range []int{a, b} {
		if t < len(h) && i < len(h[t]) && h[t][i] > 0 {
			s := h[t][i] / 1.96
			v += s * s
		}
	}
	return math.Sqrt(v)
}

// rankEvents orders events by what a reader must see first: lasting
// changes before one-release spikes, each by |log ratio|.
func rankEvents(evs []storyEvent) []storyEvent {
	r := slices.Clone(evs)
	// size is the largest lasting group change; 0 for an event of
	// spikes or of tests alone, which rank after, by their largest test.
	key := func(e storyEvent) (float64, float64) {
		alone := 0.0
		for _, t := range e.alone {
			alone = max(alone, math.Abs(t.step))
		}
		for _, g := range e.groups {
			alone = max(alone, math.Abs(g.step))
		}
		return e.size, alone
	}
	slices.SortStableFunc(r, func(a, b storyEvent) int {
		sa, ta := key(a)
		sb, tb := key(b)
		if c := cmp.Compare(sb, sa); c != 0 {
			return c
		}
		return cmp.Compare(tb, ta)
	})
	return r
}

// pctText prints a log ratio as a signed percent with two significant
// digits: "−27%", "+150%", "+5.3%".
func pctText(logRatio float64) string {
	return percentText(math.Expm1(logRatio))
}

// percentText prints a relative change with two significant digits.
func percentText(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "NA"
	}
	p := 100 * x
	a := math.Abs(p)
	var s string
	switch {
	case a >= 100:
		e := math.Pow(10, math.Floor(math.Log10(a))-1)
		s = strconv.FormatFloat(math.Round(a/e)*e, 'f', 0, 64)
	case a >= 9.95:
		s = strconv.FormatFloat(math.Round(a), 'f', 0, 64)
	default:
		s = strconv.FormatFloat(a, 'f', 1, 64)
	}
	if s == "0" || s == "0.0" {
		return "0%"
	}
	if p < 0 {
		return "−" + s + "%"
	}
	return "+" + s + "%"
}

// eventText tells one event: "5.7.44 vs 5.6.51: point −11%, writes −14%
// (faster on 2 of 10: insert +20%, delete +8.0%)". The changes that the
// next release takes back come after the lasting ones, apart and named as
// such, so that a lasting change is never read as a spike or the other way
// round: "point −43%; range without aggregation −12%, for this release
// only (back at 10.6.23)".
func eventText(ev storyEvent, labels []string) string {
	var lasting, spikes []string
	add := func(p string, spike bool) {
		if spike {
			spikes = append(spikes, p)
		} else {
			lasting = append(lasting, p)
		}
	}
	for _, g := range ev.groups {
		p := g.group + " " + pctText(g.step)
		if len(g.against) > 0 {
			way := "faster"
			if g.step > 0 {
				way = "slower"
			}
			var ts []string
			for _, t := range g.against[:min(2, len(g.against))] {
				ts = append(ts, t.name+" "+pctText(t.step))
			}
			if len(g.against) > 2 {
				ts = append(ts, "…")
			}
			p += fmt.Sprintf(" (%s on %d of %d: %s)", way, len(g.against), g.tests, strings.Join(ts, ", "))
		}
		add(p, g.spike)
	}
	for k, t := range ev.alone {
		if k == 2 {
			lasting = append(lasting, fmt.Sprintf("%s by %.0f%% or more", metrics.Plural(len(ev.alone)-k, "more test"), 100*storyTestFloor))
			break
		}
		add(t.name+" "+pctText(t.step), t.spike)
	}
	s := labels[ev.at] + " vs " + labels[ev.from] + ": " + strings.Join(lasting, ", ")
	if len(spikes) > 0 {
		if len(lasting) > 0 {
			s += "; "
		}
		s += andList(spikes) + ", for this release only (back at " + labels[min(ev.at+1, len(labels)-1)] + ")"
	}
	return s + "."
}

// andList joins "a", "b", "c" as "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// storyLines tells a series: the largest lasting change first, then the
// other events in release order (at most max), then the change from the
// first member to the last.
func storyLines(groups []storyGroup, labels []string, prefix string, maxLines int) []string {
	n := len(labels)
	evs := seriesEvents(groups, n)
	if len(evs) == 0 {
		return []string{fmt.Sprintf("%s%s to %s: no release changed a test group by %.0f%% or more beyond the noise.", prefix, labels[0], labels[n-1], 100*storyFloor)}
	}
	ranked := rankEvents(evs)
	lead := ranked[0]
	out := []string{prefix + "largest: " + eventText(lead, labels)}
	shown := map[int]bool{lead.at: true}
	for _, ev := range ranked[1:min(len(ranked), maxLines)] {
		shown[ev.at] = true
	}
	var rest []string
	for _, ev := range evs {
		if ev.at != lead.at && shown[ev.at] {
			rest = append(rest, eventText(ev, labels))
		}
	}
	if len(rest) > 0 {
		out = append(out, prefix+"in release order: "+strings.Join(rest, " "))
	}
	if left := len(evs) - len(shown); left > 0 {
		out[len(out)-1] += fmt.Sprintf(" (%d smaller not told.)", left)
	} else if len(evs) < n-1 {
		// The releases not named are the story too: flat.
		out[len(out)-1] += " No other release changed a test group materially."
	}
	if n > 2 {
		ev := storyEvent{at: n - 1, from: 0}
		for _, g := range groups {
			step, _, _ := groupStep(g, 0, n-1)
			if !math.IsNaN(step) {
				ev.groups = append(ev.groups, groupChange{group: g.name, step: step})
			}
		}
		if len(ev.groups) > 0 {
			out = append(out, prefix+"first to last, "+eventText(ev, labels))
		}
	}
	for i := range out {
		out[i] = prefix + upperFirst(strings.TrimPrefix(out[i], prefix))
	}
	return out
}

// upperFirst capitalizes a line's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// releaseStory tells a sysbench set whose DBMS are one DBMS's releases;
// nil otherwise, or for fewer than storyMinMembers builds. build asks for
// none in compat mode: the scripts told no story.
func (b *findings) releaseStory(set *metrics.SysbenchSet, parts []metrics.SysbenchGroup, host string) *Story {
	if len(set.DBMS) < storyMinMembers || (set.Grouped() && !b.res.sbConfigGroups) {
		return nil
	}
	var names []string
	for _, d := range set.DBMS {
		names = append(names, d.Name)
	}
	rs := releasesOf(names)
	if rs == nil {
		return nil
	}
	st := &Story{}
	labels, key := storyKey(rs)
	st.Key, st.Covers = key, names
	ss := storySeries(rs)
	first, last := rs.Rels[0], rs.Rels[len(rs.Rels)-1]
	for _, nt := range set.Threads {
		gs := storyGroups(set, parts, nt, b.res)
		if len(gs) == 0 {
			continue
		}
		lead := fmt.Sprintf("%s %s to %s, %d builds", first.DBMS(), first.Version, last.Version, len(rs.Rels))
		lead += seriesWhat(rs, ss, b.res.descriptions)
		lead += fmt.Sprintf(". Sysbench QPS at %s", ThreadCount(nt))
		if host != "" {
			lead += ", " + host
		}
		lead += fmt.Sprintf(", higher is better. Each release vs the one before: the median change per test group (groups under the first table) when ≥%.0f%% and beyond the noise; a test alone when ≥%.0f%%.", 100*storyFloor, 100*storyTestFloor)
		if st.Lead == "" {
			st.Lead = lead
		} else {
			st.Lines = append(st.Lines, lead)
		}
		st.Lines = append(st.Lines, seriesStory(rs, ss, gs, labels, b.res.descriptions)...)
	}
	return st
}

// relSeries is one config's series of a release set: its plain builds
// (no extra flavour), as indices of the set's builds, in release order.
type relSeries struct {
	cfg     string
	members []int
}

// storySeries are the series of a release set whose builds are in
// release order: per config, its plain builds; a build with extra flavour
// is a variant of the plain build of its release and config. The config
// of the most builds comes first.
func storySeries(rs *releaseSet) []relSeries {
	var ss []relSeries
	for _, c := range rs.Configs {
		s := relSeries{cfg: c}
		for i, r := range rs.Rels {
			if r.Config == c && len(rs.Extra(r)) == 0 {
				s.members = append(s.members, i)
			}
		}
		if len(s.members) > 0 {
			ss = append(ss, s)
		}
	}
	slices.SortStableFunc(ss, func(a, b relSeries) int { return cmp.Compare(len(b.members), len(a.members)) })
	return ss
}

// seriesWhat names the configs of a story's lead: "; configs z12b (17),
// z12a (16), each a series of its own", or ", config z12a".
func seriesWhat(rs *releaseSet, ss []relSeries, desc map[string]string) string {
	if len(ss) > 1 {
		var what []string
		for _, s := range ss {
			n := fmt.Sprintf("%d", len(s.members))
			if d := desc[s.cfg]; d != "" {
				n += ", " + d
			}
			what = append(what, fmt.Sprintf("%s (%s)", s.cfg, n))
		}
		return "; configs " + strings.Join(what, ", ") + ", each a series of its own"
	}
	if rs.Main != "" {
		return ", config " + described(rs.Main, desc)
	}
	return ""
}

// described is a code with the user's description of it, "x10d
// (io_method=io_uring)", or the code alone.
func described(code string, desc map[string]string) string {
	if d := desc[code]; d != "" {
		return code + " (" + d + ")"
	}
	return code
}

// storyKey labels the builds of a release set as the story names them
// and names each in words.
func storyKey(rs *releaseSet) ([]string, []ReleaseKey) {
	labels := make([]string, len(rs.Rels))
	var key []ReleaseKey
	for i, r := range rs.Rels {
		labels[i] = rs.Label(r)
		key = append(key, ReleaseKey{Label: labels[i], Name: r.Name, DBMS: r.DBMS(), Version: r.Version.String(), Config: r.Config, Flavour: strings.Join(r.Flavour, " ")})
	}
	return labels, key
}

// seriesStory tells each series of a release set from gs, whose values
// are per build of the set: as many releases per series as keep the lines
// short enough for the first screen, at least the largest change; then
// what the series leave out (configLines).
func seriesStory(rs *releaseSet, ss []relSeries, gs []storyGroup, labels []string, desc map[string]string) []string {
	var lines []string
	for maxLines := 6; maxLines >= 1; maxLines-- {
		lines = nil
		for _, s := range ss {
			if len(s.members) < 2 {
				continue
			}
			sub := make([]storyGroup, len(gs))
			for gi, g := range gs {
				sub[gi] = storyGroup{name: g.name, tests: g.tests, q: pick(g.q, s.members), h: pick(g.h, s.members)}.withNoise()
			}
			var ls []string
			for _, m := range s.members {
				ls = append(ls, rs.Rels[m].Version.String())
			}
			prefix := ""
			if len(ss) > 1 {
				// The prefix names the config.
				prefix = s.cfg + ": "
			}
			lines = append(lines, storyLines(sub, ls, prefix, maxLines)...)
		}
		if chars(lines) <= storyBudget {
			break
		}
	}
	return append(lines, configLines(rs, labels, gs, desc)...)
}

// configLines compare what the series leave out: a variant of a release
// (extra flavour) with its plain build, and a config with the main config
// at the releases both ran, said as such.
func configLines(rs *releaseSet, labels []string, gs []storyGroup, desc map[string]string) []string {
	pair := func(at, from int, prefix string) string { return pairLine(gs, labels, at, from, prefix) }
	out := variantLines(rs, labels, pair)
	plainOf := func(cfg string, v dbmsVersion) int {
		return slices.IndexFunc(rs.Rels, func(p release) bool {
			return p.Config == cfg && p.Version.Compare(v) == 0 && len(rs.Extra(p)) == 0
		})
	}
	count := map[string]int{}
	for _, r := range rs.Rels {
		count[r.Config]++
	}
	bridged := map[string]bool{} // the first releases bridged to
	// bridge tells the first build of config c against the last
	// main-config release before it, said as across configs.
	bridge := func(c string) string {
		first := slices.IndexFunc(rs.Rels, func(r release) bool { return r.Config == c && len(rs.Extra(r)) == 0 })
		prev := -1
		for i, r := range rs.Rels {
			if r.Config == rs.Main && len(rs.Extra(r)) == 0 && first >= 0 && r.Version.Compare(rs.Rels[first].Version) < 0 {
				prev = i
			}
		}
		if first < 0 || prev < 0 || bridged[rs.Rels[first].Version.String()] {
			return ""
		}
		bridged[rs.Rels[first].Version.String()] = true
		return pair(first, prev, fmt.Sprintf("Across configs (%s → %s, release and config both changed): ", described(rs.Main, desc), described(c, desc)))
	}
	done := map[[2]string]bool{}
	for _, c := range rs.Configs {
		if c == rs.Main {
			continue
		}
		// The config compared with: the main one when both ran a
		// release, else the largest that shares one with c.
		refs := []string{rs.Main}
		for _, o := range rs.Configs {
			if o != c && o != rs.Main {
				refs = append(refs, o)
			}
		}
		slices.SortStableFunc(refs[1:], func(a, b string) int { return cmp.Compare(count[b], count[a]) })
		ref, shared, others := sharedReleases(rs, c, refs, plainOf)
		if ref != "" && done[[2]string{ref, c}] {
			continue // told as ref against c
		}
		done[[2]string{c, ref}] = true
		if ref != rs.Main {
			// No release ran in both c and the main config: the bridge
			// from the main config is told too.
			if l := bridge(c); l != "" {
				out = append(out, l)
			}
		}
		if len(shared) == 0 {
			continue
		}
		parts, within := configShift(gs, shared, others)
		var vs []string
		for _, i := range shared {
			vs = append(vs, rs.Rels[i].Version.String())
		}
		what := "median "
		if len(shared) == 1 {
			what = ""
		}
		if within {
			out = append(out, fmt.Sprintf("Config %s vs %s at the same release (%s): every test group within %.0f%%.", described(c, desc), described(ref, desc), strings.Join(vs, ", "), 100*storyFloor))
			continue
		}
		out = append(out, fmt.Sprintf("Config %s vs %s at the same release (%s): %s%s.", described(c, desc), described(ref, desc), strings.Join(vs, ", "), what, strings.Join(parts, ", ")))
	}
	return out
}

const noChange = "no test group changed materially."

// pick takes the members' columns of per-test rows.
func pick(rows [][]float64, members []int) [][]float64 {
	out := make([][]float64, len(rows))
	for t, r := range rows {
		for _, m := range members {
			v := math.NaN()
			if m < len(r) {
				v = r[m]
			}
			out[t] = append(out[t], v)
		}
	}
	return out
}

// storyGroups are the parts' QPS and noise of every DBMS at nt threads:
// a value's noise holds its run's interval and the test's run-to-run
// noise (testRunNoise of res).
func storyGroups(set *metrics.SysbenchSet, parts []metrics.SysbenchGroup, nt int, res *Results) []storyGroup {
	var out []storyGroup
	for _, p := range parts {
		g := storyGroup{name: p.Name}
		for _, t := range p.Tests {
			var q, h []float64
			have := false
			for _, d := range set.DBMS {
				v, iv := math.NaN(), metrics.Interval{}
				if r := d.Result(t.Sfx, nt); r != nil {
					if r.QPS.OK() {
						v, have = r.QPS.V, true
					}
					iv = sbNoise(r)
				}
				q, h = append(q, v), append(h, valueNoise(iv, testRunNoise(res, sbNoiseKey(t, nt))))
			}
			if have {
				g.tests = append(g.tests, sbTestName(t))
				g.q, g.h = append(g.q, q), append(g.h, h)
			}
		}
		if len(g.tests) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// valueNoise is the relative 95% half-width of one run's value for the
// story: its run's interval (iv.HalfWidth, relative to its mean; left out
// when unknown or low-confidence) and the run-to-run noise run, in quadrature,
// as the ~ of the relative tables adds them.
func valueNoise(iv metrics.Interval, run float64) float64 {
	v := 1.96 * run * 1.96 * run
	if r := iv.HalfWidth(); iv.LowConfidence == "" && r > 0 && !math.IsInf(r, 0) {
		v += r * r
	}
	return math.Sqrt(v)
}

// pairLine tells the build at against the build from: each test group's
// material change, or noChange.
func pairLine(gs []storyGroup, labels []string, at, from int, prefix string) string {
	ev := storyEvent{at: at, from: from}
	for _, g := range gs {
		step, se, d := groupStep(g, from, at)
		if material(step, se, known(d)) {
			ev.groups = append(ev.groups, groupChange{group: g.name, step: step})
		}
	}
	if len(ev.groups) == 0 {
		return prefix + labels[at] + " vs " + labels[from] + ": " + noChange
	}
	return prefix + eventText(ev, labels)
}

// variantLines compare each variant of a release (extra flavour) with its
// plain build (pair); the variants of one build that changed nothing
// materially share a line.
func variantLines(rs *releaseSet, labels []string, pair func(at, from int, prefix string) string) []string {
	var out []string
	var same []string // variants that changed nothing materially
	sameOf := ""
	for i, r := range rs.Rels {
		if len(rs.Extra(r)) == 0 {
			continue
		}
		plain := slices.IndexFunc(rs.Rels, func(p release) bool {
			return p.Config == r.Config && p.Version.Compare(r.Version) == 0 && len(rs.Extra(p)) == 0
		})
		if plain < 0 {
			continue
		}
		if l := pair(i, plain, "Variant: "); strings.HasSuffix(l, noChange) && (sameOf == "" || sameOf == labels[plain]) {
			same, sameOf = append(same, strings.Join(rs.Extra(r), " ")), labels[plain]
		} else {
			out = append(out, l)
		}
	}
	if len(same) > 0 {
		out = append(out, fmt.Sprintf("Variants %s of %s: %s", strings.Join(same, ", "), sameOf, noChange))
	}
	return out
}

// sharedReleases finds the first config of refs that ran a release of
// config c too (plainOf: its plain build of a version, -1 none): that
// config, and the builds of c (shared) and of it (others) at those
// releases.
func sharedReleases(rs *releaseSet, c string, refs []string, plainOf func(cfg string, v dbmsVersion) int) (ref string, shared, others []int) {
	for _, o := range refs {
		for i, r := range rs.Rels {
			if r.Config != c || len(rs.Extra(r)) > 0 {
				continue
			}
			if m := plainOf(o, r.Version); m >= 0 {
				shared, others = append(shared, i), append(others, m)
			}
		}
		if len(shared) > 0 {
			return o, shared, others
		}
	}
	return "", shared, others
}

// configShift is the median over the shared releases of each group's
// change from others to shared, in words, and whether every group is
// within the story's floor.
func configShift(gs []storyGroup, shared, others []int) (parts []string, within bool) {
	within = true
	for _, g := range gs {
		var steps []float64
		for k := range shared {
			if s, _, _ := groupStep(g, others[k], shared[k]); !math.IsNaN(s) {
				steps = append(steps, s)
			}
		}
		if len(steps) > 0 {
			m := medianOf(steps)
			parts = append(parts, g.name+" "+pctText(m))
			within = within && math.Abs(m) < math.Log(1+storyFloor)
		}
	}
	return parts, within
}
