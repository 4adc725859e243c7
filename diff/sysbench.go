package diff

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
	"github.com/ibreport/ibreport/results"
)

// Sysbench results are compared as tables too, so that they share the
// insert benchmark's rules, thresholds, replicated runs, formats and exit
// codes:
//
//   - kind "sb", one table per test and thread count (step
//     "point-query.range100.dop1"), one row per DBMS folder: qps and the HW
//     per operation of o.met (cpu/o cs/o r/o rKB/o wKB/o);
//   - kind "sbgroup", one table per test group of the summaries (point,
//     range and write queries, sbsum's groups) and thread count: the
//     geometric mean of the QPS of the group's tests.
//
// A run is a folder of DBMS result folders (x.<dbms>.<config>.pk<N>,
// computed as `ibreport build` does) or of the summary tables the scripts
// wrote (qps.abs.*.tsv, o.met.*).

// An sbColumn is a column of the sb tables, with the digits o.met prints
// and the mrg column of the same quantity.
type sbColumn struct {
	name   string
	digits int
	like   string
}

// sbColumns are the columns of the sb tables: qps, then the gated sysbench
// columns of the properties table (metrics.SysbenchColumns).
var sbColumns = func() []sbColumn {
	out := []sbColumn{{metrics.QPS.Name(), metrics.QPS.Digits(), metrics.QPS.Name()}}
	for _, p := range metrics.SysbenchColumns(true) {
		out = append(out, sbColumn{p.Name, p.Digits, p.Metric.Name()})
	}
	return out
}()

// loadSysbenchRaw builds the sb and sbgroup tables of the sysbench DBMS
// folders of dir.
func loadSysbenchRaw(dir string, opt report.LoadOptions) (*ResultSet, []string, error) {
	res, _, err := report.Load(dir, opt)
	if err != nil {
		return nil, nil, err
	}
	set := res.Sysbench
	if set == nil {
		return nil, nil, inputerr.Errorf("%s: no sysbench result folders", names.Quoted(dir))
	}
	rs := &ResultSet{Name: dir, RunNoise: res.Options.RunNoise}
	cells := sbCells{}
	for _, nt := range set.Threads {
		for _, test := range set.Tests {
			if test.Warmup() {
				continue // as the summaries, which leave warm-up runs out
			}
			step := sbStep(test, nt)
			t := ResultTable{Kind: "sb", Step: step, File: filepath.Join(dir, step), Built: true, Group: "dop" + strconv.Itoa(nt), model: true}
			for _, c := range sbColumns {
				t.Columns = append(t.Columns, c.name)
			}
			for _, d := range set.DBMS {
				r := d.Result(test.Sfx, nt)
				if r == nil {
					continue // a test the DBMS did not run: missing
				}
				// The run's typed values, as the report holds them.
				row := ResultRow{DBMS: d.Name, Cells: []metrics.Value{r.QPS, r.HW.CPUPerOp, r.HW.CsPerOp, r.HW.ReadsPerOp, r.HW.ReadKBPerOp, r.HW.WriteKBPerOp}}
				// The run's own noise of its QPS, from its interval lines.
				row.setNoise(0, r.QPSNoise())
				if r.Source != "" {
					if p := filepath.Join(dir, filepath.FromSlash(r.Source)); fileExists(p) {
						row.Source = p
					}
				}
				t.Rows = append(t.Rows, row)
				cells.add(test, nt, d.Name, row.Cells[0])
			}
			if len(t.Rows) > 0 {
				rs.Tables = append(rs.Tables, t)
			}
		}
	}
	rs.Tables = append(rs.Tables, cells.groups(dir)...)
	return rs, set.Warnings(), nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// sbStep names the table of a test at a thread count:
// "point-query.pre.range100.dop1".
func sbStep(t parse.SysbenchTest, nt int) string {
	if nt <= 0 {
		return t.Key()
	}
	return t.Key() + ".dop" + strconv.Itoa(nt)
}

// sbCells collects the QPS of every test, thread count and DBMS for the
// group tables.
type sbCells struct {
	tests   []parse.SysbenchTest
	threads []int
	qps     map[string]metrics.Value // step "\x00" dbms → cell
	dbms    []string
}

func (c *sbCells) add(t parse.SysbenchTest, nt int, dbms string, cell metrics.Value) {
	if c.qps == nil {
		c.qps = map[string]metrics.Value{}
	}
	if !slices.ContainsFunc(c.tests, func(x parse.SysbenchTest) bool { return x.Key() == t.Key() }) {
		c.tests = append(c.tests, t)
	}
	if !slices.Contains(c.threads, nt) {
		c.threads = append(c.threads, nt)
	}
	if !slices.Contains(c.dbms, dbms) {
		c.dbms = append(c.dbms, dbms)
	}
	c.qps[sbStep(t, nt)+"\x00"+dbms] = cell
}

// groups builds the sbgroup tables: per group of the summaries and thread
// count, the geometric mean of the QPS of its tests, per DBMS; NA when a
// test of the group has no QPS for the DBMS, and no row when the DBMS did
// not run a test of the group (the test and the group are then missing).
// The means are of the values as read or computed, not of their printed
// rounding: a test of 261 queries/s printed 261 may be 261.4.
func (c *sbCells) groups(dir string) []ResultTable {
	var out []ResultTable
	for _, nt := range c.threads {
		for _, g := range metrics.DefaultSysbenchGroups(c.tests, 0) {
			step := g.Name
			if nt > 0 {
				step += ".dop" + strconv.Itoa(nt)
			}
			t := ResultTable{Kind: "sbgroup", Step: step, File: filepath.Join(dir, step), Built: true, Columns: []string{"qps"}, model: true}
			for _, test := range g.Tests {
				t.Members = append(t.Members, sbStep(test, nt))
			}
			for _, d := range c.dbms {
				sum, n, absent := 0.0, 0, false
				var na string
				for _, test := range g.Tests {
					v, found := c.qps[sbStep(test, nt)+"\x00"+d]
					switch {
					case !found:
						absent = true
					case !v.OK() || !usable(v.V) || v.V <= 0:
						if n >= 0 {
							na = "no QPS of " + test.Key()
						}
						n = -1
					case n >= 0:
						sum += math.Log(v.V)
						n++
					}
				}
				if absent || n == 0 {
					// A test the DBMS did not run leaves the group out for
					// it: listed as missing, like the test, not as NA.
					continue
				}
				cell := metrics.NA(metrics.QueriesPerSec, na)
				if n > 0 {
					cell = metrics.Known(math.Exp(sum/float64(n)), metrics.QueriesPerSec)
				}
				t.Rows = append(t.Rows, ResultRow{DBMS: d, Cells: []metrics.Value{cell}})
			}
			if len(t.Rows) > 0 {
				out = append(out, t)
			}
		}
	}
	return out
}

// loadSysbenchTables builds the sb and sbgroup tables of a folder of
// summary tables, read as build reads them (package results): the set
// the options name, else the default set; QPS from its qps.abs table,
// the HW per operation and the thread count from its o.met file. A
// folder without a readable set is bad input naming what it holds.
func loadSysbenchTables(dir, setName string) (*ResultSet, error) {
	sum, err := results.ReadSummaries(os.DirFS(dir), ".", dir)
	if err != nil {
		return nil, err
	}
	set, err := sum.Choose(setName)
	if err != nil {
		return nil, err
	}
	rs := &ResultSet{Name: dir}
	cells := sbCells{}
	sets := []*results.Set{set}
	// The o.met files of the set's other thread counts, o.met.<set>.dop<N>
	// (ibreport tables writes one per count; qps.abs has the first),
	// give their tests at those counts, with o/s as the QPS.
	for _, o := range sum.Sets {
		if o.MetOnly && o != set && o.Threads != set.Threads && slices.Equal(o.Builds, set.Builds) &&
			strings.HasPrefix(o.Name, set.Name+".dop") {
			sets = append(sets, o)
		}
	}
	for _, set := range sets {
		rs.addSummarySet(set, dir, &cells)
	}
	parse.SortSysbenchTests(cells.tests)
	slices.SortStableFunc(rs.Tables, func(a, b ResultTable) int { return sbTestRank(cells.tests, a.Step) - sbTestRank(cells.tests, b.Step) })
	rs.Tables = append(rs.Tables, cells.groups(dir)...)
	if len(rs.Tables) == 0 {
		return nil, inputerr.Errorf("%s: no test in set %s of its summary tables (%s)", names.Quoted(dir), set.Name, strings.Join(set.Files, " "))
	}
	return rs, nil
}

// addSummarySet adds a table per test of the set, at its thread count.
func (rs *ResultSet) addSummarySet(set *results.Set, dir string, cells *sbCells) {
	for _, row := range set.Rows {
		if row.Test.Warmup() {
			continue // as the raw folders' tables, which leave warm-up runs out
		}
		step := sbStep(row.Test, set.Threads)
		t := ResultTable{Kind: "sb", Step: step, File: filepath.Join(dir, step), Built: true}
		if set.Threads > 0 {
			t.Group = "dop" + strconv.Itoa(set.Threads)
		}
		units := make([]metrics.Unit, len(sbColumns))
		for j, c := range sbColumns {
			t.Columns = append(t.Columns, c.name)
			units[j] = cellUnit("sb", c.name, step)
		}
		for k, build := range set.Builds {
			c := row.Cells[k]
			r := ResultRow{DBMS: build, Line: c.Line, Source: c.File, Cells: make([]metrics.Value, 0, len(sbColumns))}
			r.Cells = append(r.Cells, summaryCell(c.QPS, units[0]))
			// o.met's columns, in the order of sbColumns after qps.
			var hw []metrics.Value
			if m := c.Met; m != nil {
				hw = []metrics.Value{m.CPUPerOp, m.CsPerOp, m.ReadsPerOp, m.ReadKBPerOp, m.WriteKBPerOp}
			}
			for j, u := range units[1:] {
				v := metrics.NA(u, "no o.met row")
				if hw != nil {
					v = summaryCell(hw[j], u)
				}
				r.Cells = append(r.Cells, v)
			}
			t.Rows = append(t.Rows, r)
			cells.add(row.Test, set.Threads, build, r.Cells[0])
		}
		rs.Tables = append(rs.Tables, t)
	}
}

// summaryCell is a value of the summary tables in the unit of its
// column, with the text the tables printed.
func summaryCell(v metrics.Value, u metrics.Unit) metrics.Value {
	if text, ok := v.Text(); ok {
		return fileCell(text, u)
	}
	v.Unit = u
	return v
}

// sbTestRank is the run order of the test of a step.
func sbTestRank(tests []parse.SysbenchTest, step string) int {
	return slices.IndexFunc(tests, func(t parse.SysbenchTest) bool {
		return step == t.Key() || strings.HasPrefix(step, t.Key()+".dop")
	})
}
