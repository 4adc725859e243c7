package report

import (
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/internal/relname"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/results"
)

// HostsPart compares the same builds in the sub-folders of a folder, each
// read from its own summary tables against its own base at its own
// thread count: one sub-folder per host is the author's layout
// (dec25.sb.80plus/{dell32,hetz48,pn53,socket2}); per thread count
// (dop1, dop40) and per run of a study (v1, v2) read alike.
type HostsPart struct {
	// Kind is what a sub-folder is: "host", "thread count" (folders
	// named dop<N> or <N>u…) or "run" (v<N>); the sentences count them so.
	Kind string `json:"kind"`
	// Hosts are the sub-folders compared, in natural order.
	Hosts []HostInfo `json:"hosts"`
	// Base and Builds are the base and the compared builds, named without
	// the parts of their own host's names (the my.cnf size class c32r128,
	// a host name): the names that are the same on every host.
	Base   string   `json:"base"`
	Builds []string `json:"builds"`
	// Findings say, per compared build, in how many tests a change of at
	// least the floor reproduces on every host, on some only, and where
	// hosts disagree, naming the tests.
	Findings []string `json:"findings"`
	// Overview counts per build and host the tests slower, faster and
	// within the floor.
	Overview *Table `json:"overview"`
	// Tests has one table per compared build: a row per test, its QPS
	// relative to the base on each host, and the verdict across hosts.
	Tests []*Table `json:"tests"`
	// Stories are each host's release story (or, with --series, its change
	// points): the findings of `ibreport build` on that sub-folder.
	Stories []HostStory `json:"stories,omitempty"`
	// Left are the sub-folders with summary tables that are not compared,
	// each with why.
	Left []string `json:"left,omitempty"`
}

// HostInfo is one sub-folder of a HostsPart.
type HostInfo struct {
	Name      string `json:"name"` // the sub-folder: "hetz48"
	Set       string `json:"set"`  // the set shown: "my.80plus"
	Threads   int    `json:"threads"`
	Tests     int    `json:"tests"`
	SizeClass string `json:"size_class,omitempty"` // of the builds' names: c32r128
	// Description is the describe.<name> key of the settings; "" when the
	// user gave none.
	Description string `json:"description,omitempty"`
	// Relative says its set has only qps.rel tables.
	Relative bool `json:"relative,omitempty"`
}

// HostStory is one host's findings.
type HostStory struct {
	Host  string   `json:"host"`
	Lead  string   `json:"lead,omitempty"`
	Lines []string `json:"lines"`
}

// hostMove is -1 when a ratio counts as slower on a host, +1 as faster,
// 0 within the floor: beyond 5% as the tables print it (0.94 or less,
// 1.06 or more), the cells' own bands, so that the verdict and the
// marked cells agree. The summary tables keep no interval lines, so no
// noise of their own narrows or widens it.
func hostMove(r float64) int {
	switch ratioBand(r, metrics.HigherIsBetter) {
	case Worse, MuchWorse:
		return -1
	case Better, MuchBetter:
		return 1
	}
	return 0
}

// hostsLegend says how the host comparison reads.
const hostsLegend = "Each host's QPS relative to its own base, at its own thread count. A test is slower on a host when the ratio, as printed, is 0.94 or less, faster at 1.06 or more (beyond the report's 5% floor: the cells marked ▽ and △; the summary tables hold no noise measure); \"on all N\" means every host with a value agrees, \"disagree\" that one host is slower and another faster."

// loadHosts loads a folder without sets of its own whose sub-folders
// hold summary tables: each sub-folder as a host (Results.Hosts). It
// returns false when fewer than two of them share a base and a compared
// build, and the folder is no comparison of hosts.
func (r *Results) loadHosts(fsys fs.FS, dir string, sum *results.Summaries, opt LoadOptions) (bool, error) {
	if len(sum.SubDirs) < 2 {
		return false, nil
	}
	type loaded struct {
		name string
		res  *Results
		key  string
	}
	var all []loaded
	var left []string
	for _, sub := range sum.SubDirs {
		sfs, err := fs.Sub(fsys, sub)
		if err != nil {
			return false, inputerr.Wrap(err)
		}
		hopt := opt
		hopt.Progress = nil
		h, err := load(sfs, path.Join(dir, sub), hopt)
		if err != nil {
			left = append(left, fmt.Sprintf("%s: %v", sub, err))
			continue
		}
		if h.Sysbench == nil || len(h.Sysbench.DBMS) < 2 || h.Summary == nil {
			left = append(left, sub+": no set of two or more builds")
			continue
		}
		all = append(all, loaded{sub, h, ""})
	}
	loadedHosts := make([]*Results, len(all))
	for i, l := range all {
		loadedHosts[i] = l.res
	}
	crossNames(loadedHosts)
	for i, l := range all {
		all[i].key = l.res.crossName(l.res.Sysbench.DBMS[0].Name)
	}
	// The base most hosts share; a tie goes to the first host's.
	count := map[string]int{}
	best := ""
	for _, l := range all {
		count[l.key]++
		if best == "" || count[l.key] > count[best] {
			best = l.key
		}
	}
	bestName := ""
	for _, l := range all {
		if l.key == best {
			bestName = l.res.Sysbench.DBMS[0].Name + " of " + l.name
			break
		}
	}
	var hosts []*Results
	for _, l := range all {
		if l.key != best {
			left = append(left, fmt.Sprintf("%s: its base %s is not %s", l.name, l.res.Sysbench.DBMS[0].Name, bestName))
			continue
		}
		hosts = append(hosts, l.res)
	}
	if len(hosts) < 2 || len(hostBuilds(hosts)) == 0 {
		r.hostsLeft = left
		if len(hosts) >= 2 {
			r.hostsLeft = append(r.hostsLeft, "no compared build is in two of them")
		}
		return false, nil
	}
	for _, h := range hosts {
		// The folder's descriptions, unless the host's own settings say
		// otherwise.
		d := maps.Clone(r.descriptions)
		if d == nil {
			d = map[string]string{}
		}
		maps.Copy(d, h.descriptions)
		h.descriptions = d
	}
	r.Hosts = hosts
	r.hostsLeft = left
	r.FS = nil
	return true, nil
}

// crossNames gives each build of each host its name across hosts: the
// folder name without the parts that every build of its host has and not
// every host shares, the host's own parts (the my.cnf size class c32r128
// against c24r64, or a host name such as bee against c8r32).
// x.my8044_rel_o2nofp.z12a_c32r128.pk1 is x.my8044_rel_o2nofp.z12a.pk1.
func crossNames(hosts []*Results) {
	split := func(n string) []string {
		return strings.FieldsFunc(n, func(c rune) bool { return c == '.' || c == '_' })
	}
	common := make([]map[string]bool, len(hosts))
	shared := map[string]int{}
	for i, h := range hosts {
		var c map[string]bool
		for _, d := range h.Sysbench.DBMS {
			parts := map[string]bool{}
			for _, p := range split(d.Name) {
				if c == nil || c[p] {
					parts[p] = true
				}
			}
			c = parts
		}
		common[i] = c
		for p := range c {
			shared[p]++
		}
	}
	for i, h := range hosts {
		h.crossNames = map[string]string{}
		for _, d := range h.Sysbench.DBMS {
			h.crossNames[d.Name] = withoutParts(d.Name, func(p string) bool { return common[i][p] && shared[p] < len(hosts) })
		}
	}
}

// withoutParts is a name without the parts (between . and _) that drop
// says; the separator before a dropped part goes with it.
func withoutParts(name string, drop func(string) bool) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' && name[i] != '_' {
			continue
		}
		part := name[start:i]
		sep := ""
		if start > 0 {
			sep = name[start-1 : start]
		}
		if part == "" || !drop(part) {
			b.WriteString(sep + part)
		}
		start = i + 1
	}
	return b.String()
}

// crossName is a host's build by its name across hosts.
func (r *Results) crossName(build string) string {
	if n, ok := r.crossNames[build]; ok {
		return n
	}
	return build
}

// sizeClass is the size class of a set's builds; "" when none has one.
func sizeClass(set *metrics.SysbenchSet) string {
	for _, d := range set.DBMS {
		if r, ok := relname.Parse(d.Name); ok && r.Host != "" {
			return r.Host
		}
	}
	return ""
}

// hostBuilds are the compared builds (the base left out) of the first
// host that at least one other host has too, in the first host's order,
// then those of later hosts.
func hostBuilds(hosts []*Results) []string {
	seen := map[string]int{}
	var order []string
	for _, h := range hosts {
		for _, d := range h.Sysbench.DBMS[1:] {
			k := h.crossName(d.Name)
			if seen[k] == 0 {
				order = append(order, k)
			}
			seen[k]++
		}
	}
	return slices.DeleteFunc(order, func(k string) bool { return seen[k] < 2 })
}

// hostKind says what the sub-folders are, from their names.
func hostKind(names []string) string {
	all := func(re *regexp.Regexp) bool {
		return !slices.ContainsFunc(names, func(n string) bool { return !re.MatchString(n) })
	}
	switch {
	case all(reThreadFolder):
		return "thread count"
	case all(reRunFolder):
		return "run"
	}
	return "host"
}

// reThreadFolder names a sub-folder per thread count (dop40, 1u.1t.50m),
// reRunFolder one per run of a study (v2).
var (
	reThreadFolder = regexp.MustCompile(`^(dop[0-9]+|[0-9]+u([.].*)?)$`)
	reRunFolder    = regexp.MustCompile(`^v[0-9]+$`)
)

// hostVerdict is a test's moves across hosts.
type hostVerdict struct {
	test                  string
	slower, faster, equal []string // hosts
	na                    int
	logs                  []float64 // log ratios of the hosts with a value
}

func (v hostVerdict) n() int { return len(v.slower) + len(v.faster) + len(v.equal) }

// text is the verdict column: "slower on all 4", "faster on 1 of 4
// (pn53)", "disagree: slower on dell32; faster on pn53".
func (v hostVerdict) text(kind string) string {
	n := v.n()
	on := func(hs []string) string {
		if len(hs) == n {
			return fmt.Sprintf("on all %d", n)
		}
		return fmt.Sprintf("on %d of %d (%s)", len(hs), n, strings.Join(hs, ", "))
	}
	switch {
	case n == 0:
		return "NA"
	case len(v.slower) > 0 && len(v.faster) > 0:
		return fmt.Sprintf("disagree: slower on %s; faster on %s", strings.Join(v.slower, ", "), strings.Join(v.faster, ", "))
	case len(v.slower) > 0:
		return "slower " + on(v.slower)
	case len(v.faster) > 0:
		return "faster " + on(v.faster)
	}
	return "within 5% " + on(v.equal)
}

// where names the hosts a test moved on: "slower on dell32, hetz48",
// "slower on dell32, faster on pn53".
func (v hostVerdict) where() string {
	var parts []string
	if len(v.slower) > 0 {
		parts = append(parts, "slower on "+strings.Join(v.slower, ", "))
	}
	if len(v.faster) > 0 {
		parts = append(parts, "faster on "+strings.Join(v.faster, ", "))
	}
	return strings.Join(parts, "; ")
}

// median is the median ratio over the hosts with a value.
func (v hostVerdict) median() float64 { return math.Exp(medianOf(v.logs)) }

// buildHosts builds the report of a folder of hosts: each host's own
// report for its story, and the comparison across hosts.
func buildHosts(res *Results, opt BuildOptions) (*builder, error) {
	hosts := res.Hosts
	for i, h := range hosts {
		if h == nil || h.Sysbench == nil || len(h.Sysbench.DBMS) < 2 || h.Summary == nil {
			return nil, inputerr.Errorf("%s: host %d of %d has no set of two or more builds from summary tables", names.Quoted(res.Dir), i+1, len(hosts))
		}
	}
	if len(hosts) < 2 {
		return nil, inputerr.Errorf("%s: a comparison of hosts wants two or more, not %d", names.Quoted(res.Dir), len(hosts))
	}
	crossNames(hosts)
	hp := &HostsPart{Left: res.hostsLeft, Builds: hostBuilds(hosts), Base: hosts[0].crossName(hosts[0].Sysbench.DBMS[0].Name)}
	rep := &Report{Schema: SchemaVersion, Source: "summary", Bands: modeBands(false), Descriptions: res.descriptions, Hosts: hp}
	rep.Notes = append(rep.Notes, res.settingsWarnings...)
	var hostNames []string
	for _, h := range hosts {
		hostNames = append(hostNames, path.Base(h.Dir))
	}
	hp.Kind = hostKind(hostNames)
	reps := make([]*Report, len(hosts))
	errs := make([]error, len(hosts))
	metrics.Parallel(len(hosts), func(i int) {
		ho := opt
		ho.Title = ""
		reps[i], errs[i] = Build(hosts[i], ho)
	})
	for i, h := range hosts {
		if errs[i] != nil {
			return nil, errs[i]
		}
		name := hostNames[i]
		set := h.Sysbench
		info := HostInfo{Name: name, Set: h.Summary.Set, Tests: len(set.Tests), SizeClass: sizeClass(set), Description: res.descriptions[name], Relative: h.Summary.Relative}
		if len(set.Threads) > 0 {
			info.Threads = set.Threads[len(set.Threads)-1]
		}
		hp.Hosts = append(hp.Hosts, info)
		hr := reps[i]
		switch {
		case hr.Story != nil:
			hp.Stories = append(hp.Stories, HostStory{Host: name, Lead: hr.Story.Lead, Lines: hr.Story.Lines})
		case hr.Series != nil && len(hr.Series.Findings) > 0:
			hp.Stories = append(hp.Stories, HostStory{Host: name, Lines: hr.Series.Findings})
		}
		for _, n := range hr.Notes {
			if !slices.ContainsFunc(rep.Notes, func(w metrics.Warning) bool { return w.Text == n.Text }) {
				rep.Notes = append(rep.Notes, n)
			}
		}
	}
	rep.DBMS = append([]string{hp.Base}, hp.Builds...)
	hp.compare(hosts, hostNames)
	for _, l := range hp.Left {
		rep.Notes = append(rep.Notes, metrics.Warning{Text: "Not compared: " + path.Join(res.Dir, l)})
	}
	rep.Title = opt.Title
	if rep.Title == "" {
		rep.Title = fmt.Sprintf("%s on %s", metrics.Plural(len(rep.DBMS), "build"), hp.count(len(hosts)))
	}
	rep.Setup = hp.setup()
	rep.Legend = append(rep.Legend, LegendItem{"hosts", hostsLegend})
	return &builder{rep: rep}, nil
}

// count is "4 hosts", "2 thread counts", "2 runs".
func (hp *HostsPart) count(n int) string { return metrics.Plural(n, hp.Kind) }

// setup is the setup line: each host with its set, thread count and size
// class.
func (hp *HostsPart) setup() string {
	parts := make([]string, len(hp.Hosts))
	for i, h := range hp.Hosts {
		p := fmt.Sprintf("%s (set %s, %s, %s", h.Name, h.Set, ThreadCount(h.Threads), metrics.Plural(h.Tests, "test"))
		if h.SizeClass != "" {
			p += ", my.cnf size class " + h.SizeClass
		}
		if h.Relative {
			p += ", relative QPS only"
		}
		if h.Description != "" {
			p += "; " + h.Description
		}
		parts[i] = p + ")"
	}
	return fmt.Sprintf("%s, each build against %s on the same %s: %s", hp.count(len(hp.Hosts)), hp.Base, hp.Kind, strings.Join(parts, ", "))
}

// compare makes the tables and findings of the comparison.
func (hp *HostsPart) compare(hosts []*Results, hostNames []string) {
	// Every test of any host, in the first host's order, then the others'.
	var tests []parse.SysbenchTest
	seen := map[string]bool{}
	for _, h := range hosts {
		for _, t := range h.Sysbench.Tests {
			if !t.Warmup() && !seen[t.Label()] {
				seen[t.Label()] = true
				tests = append(tests, t)
			}
		}
	}
	hp.Overview = &Table{ID: "hosts.overview", Title: "Tests slower, faster and within 5% on each " + hp.Kind,
		Caption: "Per compared build and " + hp.Kind + ": the tests whose QPS relative to the base is 0.94 or less (slower), 1.06 or more (faster) or between, as printed, and the geometric mean of the ratios over the tests with a value.",
		Header:  []string{"dbms", hp.Kind, "slower", "faster", "within 5%", "NA", "geomean"}}
	for bi, b := range hp.Builds {
		t := &Table{ID: fmt.Sprintf("hosts.%d", bi+1), Label: b, Title: fmt.Sprintf("%s vs %s on each %s", b, hp.Base, hp.Kind),
			Caption: "QPS relative to the base on each " + hp.Kind + ", at its own thread count, and the verdict across them.",
			Header:  append(append([]string{"test"}, hostNames...), "median", "verdict")}
		// Each ratio once: the test's row and the host's overview row
		// both count it.
		counts := make([]hostCounts, len(hosts))
		var verdicts []hostVerdict
		for _, test := range tests {
			v := hostVerdict{test: test.Label()}
			row := Row{Kind: DataRow, Cells: []Cell{{Text: test.Label()}}}
			for hi, h := range hosts {
				r := hostRatio(h, b, test)
				row.Cells = append(row.Cells, relCell(r, metrics.HigherIsBetter))
				if !r.OK() || r.V <= 0 || math.IsInf(r.V, 0) {
					v.na++
					counts[hi].na++
					continue
				}
				switch hostMove(r.V) {
				case -1:
					v.slower = append(v.slower, hostNames[hi])
					counts[hi].slower++
				case 1:
					v.faster = append(v.faster, hostNames[hi])
					counts[hi].faster++
				default:
					v.equal = append(v.equal, hostNames[hi])
					counts[hi].equal++
				}
				v.logs = append(v.logs, math.Log(r.V))
				counts[hi].logSum += math.Log(r.V)
			}
			med := metrics.NA(metrics.RatioUnit, "no "+hp.Kind+" has a value")
			if m := v.median(); !math.IsNaN(m) {
				med = metrics.Known(m, metrics.RatioUnit)
			}
			row.Cells = append(row.Cells, relCell(med, metrics.HigherIsBetter), textCell(v.text(hp.Kind)))
			t.Rows = append(t.Rows, row)
			verdicts = append(verdicts, v)
		}
		hp.Tests = append(hp.Tests, t)
		hp.overviewRows(b, hostNames, counts)
		hp.Findings = append(hp.Findings, hp.finding(b, verdicts))
	}
}

// hostCounts are one host's tests of one build: slower, faster, within
// the floor, NA, and the sum of the log ratios of those with a value.
type hostCounts struct {
	slower, faster, equal, na int
	logSum                    float64
}

// hostRatio is the QPS of build b (by its cross-host name) relative to
// the host's base, at the host's thread count.
func hostRatio(h *Results, b string, test parse.SysbenchTest) metrics.Value {
	set := h.Sysbench
	var d *metrics.SysbenchDBMS
	for _, x := range set.DBMS[1:] {
		if h.crossName(x.Name) == b {
			d = x
			break
		}
	}
	if d == nil {
		return metrics.NA(metrics.RatioUnit, "the build is not in this set")
	}
	var sfx parse.SysbenchTest
	found := false
	for _, t := range set.Tests {
		if t.Label() == test.Label() {
			sfx, found = t, true
			break
		}
	}
	if !found || len(set.Threads) == 0 {
		return metrics.NA(metrics.RatioUnit, "the test is not in this set")
	}
	return set.Relative(d, sfx, set.Threads[len(set.Threads)-1]).QPS
}

// overviewRows adds build b's rows to the overview, a row per host.
func (hp *HostsPart) overviewRows(b string, hostNames []string, counts []hostCounts) {
	for hi, c := range counts {
		gm := metrics.NA(metrics.RatioUnit, "no test has a value")
		if n := c.slower + c.faster + c.equal; n > 0 {
			gm = metrics.Known(math.Exp(c.logSum/float64(n)), metrics.RatioUnit)
		}
		row := Row{Kind: DataRow, GroupStart: hi == 0 && len(hp.Overview.Rows) > 0, Cells: []Cell{nameCell(b), textCell(hostNames[hi]),
			countCell(c.slower), countCell(c.faster), countCell(c.equal), countCell(c.na), relCell(gm, metrics.HigherIsBetter)}}
		hp.Overview.Rows = append(hp.Overview.Rows, row)
	}
}

func countCell(n int) Cell {
	return valueCell(metrics.Known(float64(n), metrics.Count), 0)
}

// finding sums build b's verdicts up, naming the tests: those that
// reproduce on every host, those on some only, those where hosts
// disagree.
func (hp *HostsPart) finding(b string, vs []hostVerdict) string {
	var allSlow, allFast, someSlow, someFast, disagree []hostVerdict
	hostsWith := 0
	for _, v := range vs {
		n := v.n()
		hostsWith = max(hostsWith, n)
		switch {
		case n < 2:
		case len(v.slower) > 0 && len(v.faster) > 0:
			disagree = append(disagree, v)
		case len(v.slower) == n:
			allSlow = append(allSlow, v)
		case len(v.faster) == n:
			allFast = append(allFast, v)
		case len(v.slower) > 0:
			someSlow = append(someSlow, v)
		case len(v.faster) > 0:
			someFast = append(someFast, v)
		}
	}
	// The largest moves first: the median ratio's distance from 1.
	byMove := func(l []hostVerdict) []hostVerdict {
		slices.SortStableFunc(l, func(a, c hostVerdict) int {
			da, dc := math.Abs(math.Log(a.median())), math.Abs(math.Log(c.median()))
			switch {
			case da > dc:
				return -1
			case da < dc:
				return 1
			}
			return 0
		})
		return l
	}
	list := func(l []hostVerdict, say func(hostVerdict) string) string {
		l = byMove(l)
		const shown = 3
		parts := []string{}
		for i, v := range l {
			if i == shown {
				parts = append(parts, fmt.Sprintf("%d more in the table", len(l)-shown))
				break
			}
			parts = append(parts, v.test+" "+say(v))
		}
		return strings.Join(parts, ", ")
	}
	ratio := func(v hostVerdict) string {
		return metrics.RatioText(metrics.Known(v.median(), metrics.RatioUnit), metrics.Known(1, metrics.RatioUnit))
	}
	on := func(hosts []string) func(hostVerdict) string {
		return func(hostVerdict) string { return "(" + strings.Join(hosts, ", ") + ")" }
	}
	var s []string
	if len(allSlow) > 0 {
		s = append(s, fmt.Sprintf("slower on every %s in %s, median ratio %s", hp.Kind, metrics.Plural(len(allSlow), "test"), list(allSlow, ratio)))
	}
	if len(allFast) > 0 {
		s = append(s, fmt.Sprintf("faster on every %s in %s, median ratio %s", hp.Kind, metrics.Plural(len(allFast), "test"), list(allFast, ratio)))
	}
	some := func(l []hostVerdict, word string, hosts func(hostVerdict) []string) {
		if len(l) > 0 {
			s = append(s, fmt.Sprintf("%s on some %ss only in %s: %s", word, hp.Kind, metrics.Plural(len(l), "test"), list(l, func(v hostVerdict) string { return on(hosts(v))(v) })))
		}
	}
	some(someSlow, "slower", func(v hostVerdict) []string { return v.slower })
	some(someFast, "faster", func(v hostVerdict) []string { return v.faster })
	if len(disagree) > 0 {
		s = append(s, fmt.Sprintf("%ss disagree in %s: %s", hp.Kind, metrics.Plural(len(disagree), "test"), list(disagree, func(v hostVerdict) string { return "(" + v.where() + ")" })))
	}
	head := fmt.Sprintf("%s vs %s (%s, %s)", b, hp.Base, metrics.Plural(len(vs), "test"), hp.count(hostsWith))
	if len(s) == 0 {
		return head + ": within 5% on every " + hp.Kind + " in every test."
	}
	for i := range s {
		s[i] = strings.ToUpper(s[i][:1]) + s[i][1:]
	}
	return head + ". " + strings.Join(s, ". ") + "."
}

// HostsLead introduces the findings of a comparison across hosts.
func HostsLead(h *HostsPart) string {
	if h == nil {
		return ""
	}
	return fmt.Sprintf("Across %s, each build against %s on the same %s; a test is slower or faster on a %s when its QPS moved beyond 5%% (0.94 or less, 1.06 or more):", h.count(len(h.Hosts)), h.Base, h.Kind, h.Kind)
}
