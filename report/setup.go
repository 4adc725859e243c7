package report

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/relname"
	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// setupFacts are the facts of the setup a report's header states, read
// from the results in one place (setupOf), so that a new fact is added
// here alone.
type setupFacts struct {
	// Host.
	CPUs     []int    // sysbench's "N CPUs", else the cores setting
	Device   string   // the block device of the hardware columns
	Devices  int      // how many devices the runs chose (more than 1: mixed)
	Versions []string // sysbench versions, without the build hash
	Configs  []string // the config parts of the DBMS names, when they differ

	// Sysbench.
	DBMS      int
	Tests     int
	Threads   []int
	Tables    tally // --tables, per test
	TableSize tally // --table-size, rows per table, per test
	Seconds   tally // --time, per test
	// Summary names the set of the author's summary tables shown: "set
	// latest of the summary tables (2 other sets: --set)"; "" for result
	// folders of no set.
	Summary string

	// Insert benchmark.
	IDBMS   int
	Clients []int
	Rows    int64      // rows of the first load step (the largest over DBMS)
	Steps   []stepSecs // median seconds per step, in run order
	RWSecs  tally      // seconds of the read+write steps
}

// stepSecs is the median duration of a step over the DBMS.
type stepSecs struct {
	Name    string
	Seconds int
}

// tally counts the tests (or steps) that ran with each value of a setting;
// the most common value first (ties: the smaller), which the setup names
// as the main one. Values not given (0) are not counted.
type tally []valueCount

type valueCount struct {
	V, N  int
	Tests []string // the tests with this value, in run order
}

func (t *tally) add(v int, test string) {
	if v <= 0 {
		return
	}
	for i := range *t {
		if (*t)[i].V == v {
			(*t)[i].N++
			if !slices.Contains((*t)[i].Tests, test) {
				(*t)[i].Tests = append((*t)[i].Tests, test)
			}
			return
		}
	}
	*t = append(*t, valueCount{V: v, N: 1, Tests: []string{test}})
}

func (t tally) sort() {
	slices.SortStableFunc(t, func(a, b valueCount) int {
		if c := cmp.Compare(len(b.Tests), len(a.Tests)); c != 0 {
			return c
		}
		return cmp.Compare(a.V, b.V)
	})
}

// main is the most common value and the others in words: "600 s (900 s:
// 8, 60 s: 2 tests)", naming the test when only one differs: "50M rows
// (update-one: 1 row)". "" when nothing is known.
func (t tally) main(unit func(v int, main bool) string) string {
	if len(t) == 0 {
		return ""
	}
	s := unit(t[0].V, true)
	if len(t) == 1 {
		return s
	}
	var named, counted []string
	for _, o := range t[1:] {
		if len(o.Tests) == 1 {
			named = append(named, o.Tests[0]+": "+unit(o.V, false))
		} else {
			counted = append(counted, fmt.Sprintf("%s: %d", unit(o.V, false), len(o.Tests)))
		}
	}
	if len(counted) > 0 {
		named = append(named, strings.Join(counted, ", ")+" tests")
	}
	return s + " (" + strings.Join(named, "; ") + ")"
}

// setupOf reads the setup facts of the results. Lists of ints hold the
// distinct values seen, ascending; a value the logs did not give (0) is
// left out.
func setupOf(res *Results) setupFacts {
	var f setupFacts
	f.Summary = res.Summary.phrase()
	add := func(l *[]int, v int) {
		if v > 0 && !slices.Contains(*l, v) {
			*l = append(*l, v)
		}
	}
	var names []string
	if s := res.Sysbench; s != nil {
		f.DBMS, f.Tests = len(s.DBMS), len(s.Tests)
		for di, d := range s.DBMS {
			names = append(names, d.Name)
			for _, r := range d.Results {
				// A warm-up run's thread count is no test's: the title
				// and setup count the tests' (a warm-up at 8 threads
				// beside tests at 40 is "40 threads").
				if !r.Test.Warmup() {
					add(&f.Threads, r.Threads)
				}
				add(&f.CPUs, r.CPUs)
				if v, _, _ := strings.Cut(r.Version, "-"); v != "" && !slices.Contains(f.Versions, v) {
					f.Versions = append(f.Versions, v)
				}
				// The test settings of the first DBMS that ran the test
				// and the first thread count: a test counts once.
				if di == 0 || s.DBMS[0].Result(r.Test.Sfx, r.Threads) == nil {
					if len(s.Threads) == 0 || r.Threads == s.Threads[0] {
						f.Tables.add(r.Tables, r.Test.Type)
						f.TableSize.add(r.TableSize, r.Test.Type)
						f.Seconds.add(r.Seconds, r.Test.Type)
					}
				}
			}
		}
	}
	if len(res.Trees) > 0 {
		// A sweep names a DBMS's tree at each client count by the
		// count ("6m.pg15.c1.dop2"): one DBMS.
		dbms := map[string]bool{}
		secs := map[string][]float64{}
		var order []string
		for _, t := range res.Trees {
			name := reDopSuffix.ReplaceAllString(t.Name(), "")
			dbms[name] = true
			names = append(names, name)
			add(&f.Clients, t.Dop())
			first := true
			for _, st := range t.Steps {
				if st == nil {
					continue
				}
				if first && st.Step.Kind == parse.Load && st.Rows > f.Rows {
					f.Rows = st.Rows
				}
				first = false
				if !st.Seconds.OK() {
					continue
				}
				if st.Step.Kind.ReadWrite() {
					f.RWSecs.add(int(math.Round(st.Seconds.V)), st.Step.MergeName)
					continue
				}
				n := st.Step.MergeName
				if _, ok := secs[n]; !ok {
					order = append(order, n)
				}
				secs[n] = append(secs[n], st.Seconds.V)
			}
		}
		f.IDBMS = len(dbms)
		for _, n := range order {
			f.Steps = append(f.Steps, stepSecs{n, int(math.Round(medianOf(secs[n])))})
		}
		if len(f.CPUs) == 0 && res.Options.Cores > 0 {
			f.CPUs = []int{res.Options.Cores}
		}
	}
	if s := res.Sysbench; s != nil && len(f.Threads) == 0 {
		// Only warm-up runs: their thread counts are all there is.
		f.Threads = slices.Clone(s.Threads)
	}
	for _, l := range [][]int{f.Threads, f.Clients, f.CPUs} {
		slices.Sort(l)
	}
	for _, t := range []tally{f.Tables, f.TableSize, f.Seconds, f.RWSecs} {
		t.sort()
	}
	if res.Options.Device != "" {
		f.Device, f.Devices = res.Options.Device, 1
	} else if len(res.Devices) > 0 {
		f.Device, f.Devices = res.Devices[0].Name, len(res.Devices)
	}
	f.Configs = configParts(uniqueNames(names))
	return f
}

var reDopSuffix = regexp.MustCompile(`\.dop[0-9]+$`)

// medianOf is the median of v, which it leaves as it is.
func medianOf(v []float64) float64 { return stats.MedianUnsorted(v) }

// configParts say how the configs of the DBMS differ, read from their
// names: names of as many parts where, besides the first part that differs
// (the version: "pg1222", "pg180"), later parts differ too ("x10a",
// "x10b" in "x.pg180_o2nofp.x10b_c32r128.pk1"). The most common config
// comes first, each other with the versions that use it: "x10a", "x10b:
// 18.0, 18.1" (the version part as written, "pg180", when the names do not
// read as releases). Nil when all the DBMS share their config.
func configParts(names []string) []string {
	if len(names) < 2 {
		return nil
	}
	parts := make([][]string, len(names))
	for i, n := range names {
		parts[i], _ = splitName(n)
		if len(parts[i]) != len(parts[0]) {
			return nil
		}
	}
	var cols []int
	for j := range parts[0] {
		for i := range names {
			if parts[i][j] != parts[0][j] {
				cols = append(cols, j)
				break
			}
		}
	}
	if len(cols) < 2 {
		return nil
	}
	type config struct {
		name     string
		versions []string
	}
	var cs []config
	for i := range names {
		var c []string
		for _, j := range cols[1:] {
			c = append(c, parts[i][j])
		}
		name := strings.Join(c, "_")
		k := slices.IndexFunc(cs, func(c config) bool { return c.name == name })
		if k < 0 {
			cs, k = append(cs, config{name: name}), len(cs)
		}
		// The version as the rest of the page shows it (18.0, not pg180)
		// when the name reads as a release.
		v := parts[i][cols[0]]
		if r, ok := relname.Parse(names[i]); ok {
			v = r.Version.String()
		}
		cs[k].versions = append(cs[k].versions, v)
	}
	if len(cs) < 2 {
		return nil
	}
	slices.SortStableFunc(cs, func(a, b config) int { return len(b.versions) - len(a.versions) })
	out := []string{cs[0].name}
	for _, c := range cs[1:] {
		out = append(out, c.name+": "+strings.Join(c.versions, ", "))
	}
	return out
}

// host is the host part of the setup: "8 CPUs, sysbench 1.1.0, device
// md0"; "" when nothing is known.
func (f setupFacts) host() string {
	var parts []string
	if len(f.CPUs) > 0 {
		parts = append(parts, ints(f.CPUs, strconv.Itoa)+" CPUs")
	}
	if len(f.Versions) > 0 && f.DBMS > 0 {
		parts = append(parts, "sysbench "+strings.Join(f.Versions, ", "))
	}
	switch {
	case f.Devices == 1:
		parts = append(parts, "device "+f.Device)
	case f.Devices > 1:
		parts = append(parts, fmt.Sprintf("device %s (of %d: see Notes)", f.Device, f.Devices))
	}
	if len(f.Configs) > 0 {
		parts = append(parts, "config "+f.Configs[0]+" ("+strings.Join(f.Configs[1:], "; ")+")")
	}
	return strings.Join(parts, ", ")
}

func ints(l []int, f func(int) string) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = f(v)
	}
	return strings.Join(s, ", ")
}

// sentence is the setup in words: "8 CPUs, sysbench 1.1.0; 9 DBMS, 38
// tests at 1 thread, 600 s per test (900 s: 9 tests), 1 table of 50M
// rows"; "" when nothing is known.
func (f setupFacts) sentence() string {
	var parts []string
	if h := f.host(); h != "" {
		parts = append(parts, h)
	}
	if s := f.sysbench(); s != "" {
		parts = append(parts, s)
	}
	if s := f.ibench(); s != "" {
		parts = append(parts, s)
	}
	if f.Summary != "" && f.DBMS > 0 {
		parts = append(parts, f.Summary)
	}
	if len(parts) == 0 || (f.DBMS == 0 && f.IDBMS == 0) {
		return ""
	}
	return strings.Join(parts, "; ")
}

// sysbench is the sysbench part of the setup.
func (f setupFacts) sysbench() string {
	if f.DBMS == 0 {
		return ""
	}
	var parts []string
	p := strconv.Itoa(f.DBMS) + " DBMS, " + metrics.Plural(f.Tests, "test")
	if len(f.Threads) == 1 && f.Threads[0] == 0 {
		p += " at an unknown thread count"
	} else if len(f.Threads) > 0 {
		p += " at " + ints(f.Threads, strconv.Itoa)
		if len(f.Threads) == 1 && f.Threads[0] == 1 {
			p += " thread"
		} else {
			p += " threads"
		}
	}
	parts = append(parts, p)
	if s := f.Seconds.main(func(v int, main bool) string {
		if main {
			return strconv.Itoa(v) + " s per test"
		}
		return strconv.Itoa(v) + " s"
	}); s != "" {
		parts = append(parts, s)
	}
	rows := func(v int, _ bool) string {
		if v == 1 {
			return "1 row"
		}
		return rowCount(v) + " rows"
	}
	if len(f.Tables) == 1 && len(f.TableSize) > 0 {
		parts = append(parts, metrics.Plural(f.Tables[0].V, "table")+" of "+f.TableSize.main(rows))
	} else if len(f.TableSize) > 0 {
		parts = append(parts, f.TableSize.main(rows)+" per table")
	}
	return strings.Join(parts, ", ")
}

// ibench is the insert-benchmark part of the setup: "2 DBMS, 1 client, 2M
// rows loaded; l.i0 40 s, l.x 9 s, l.i1 300 s, l.i2 300 s, queries 600 s".
func (f setupFacts) ibench() string {
	if f.IDBMS == 0 {
		return ""
	}
	p := strconv.Itoa(f.IDBMS) + " DBMS"
	if len(f.Clients) > 0 {
		p += ", " + ints(f.Clients, strconv.Itoa)
		if len(f.Clients) == 1 && f.Clients[0] == 1 {
			p += " client"
		} else {
			p += " clients"
		}
	}
	if f.Rows > 0 {
		p += ", " + rowCount(int(f.Rows)) + " rows loaded"
	}
	var steps []string
	for _, s := range f.Steps {
		steps = append(steps, fmt.Sprintf("%s %d s", s.Name, s.Seconds))
	}
	// The read+write steps run for a set time, a few seconds apart.
	if len(f.RWSecs) > 0 {
		lo, hi := f.RWSecs[0].V, f.RWSecs[0].V
		var names []string
		for _, v := range f.RWSecs {
			lo, hi = min(lo, v.V), max(hi, v.V)
			for _, t := range v.Tests {
				if !slices.Contains(names, t) {
					names = append(names, t)
				}
			}
		}
		n := len(names)
		r := strconv.Itoa(lo)
		if hi != lo {
			r += "–" + strconv.Itoa(hi)
		}
		steps = append(steps, fmt.Sprintf("%d query steps %s s", n, r))
	}
	if len(steps) > 0 {
		p += "; " + strings.Join(steps, ", ")
	}
	return p
}

// rowCount prints a row count the way the benchmark's posts do: 10M, 500K,
// 1.5M.
func rowCount(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1_000_000 && n%100_000 == 0:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "K"
	}
	return strconv.Itoa(n)
}

// sysbenchTitle is the title of a sysbench-only report: what it compares
// at which thread counts.
func (f setupFacts) sysbenchTitle() string {
	if f.DBMS == 0 {
		return "sysbench"
	}
	t := "Sysbench: " + strconv.Itoa(f.DBMS) + " DBMS"
	switch {
	case len(f.Threads) == 1:
		t += ", " + ThreadCount(f.Threads[0])
	case len(f.Threads) > 1:
		t += fmt.Sprintf(", %d to %d threads", f.Threads[0], f.Threads[len(f.Threads)-1])
	}
	return t
}
