package diff

import (
	"bufio"
	"bytes"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
	"github.com/ibreport/ibreport/report"
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

// sbSummaryFile reports whether a file is a summary table the sysbench
// diff reads: qps.abs.<tag>.tsv or o.met.<tag>[.dop<N>] (not .err).
func sbSummaryFile(name string) bool {
	switch {
	case strings.HasPrefix(name, "qps.abs.") && strings.HasSuffix(name, ".tsv"):
		return true
	case strings.HasPrefix(name, "o.met.") && !strings.HasSuffix(name, ".err"):
		return true
	}
	return false
}

var (
	reMetBlock = regexp.MustCompile(`^sb\.met\.(.+)\.dop([0-9]+)$`)
	reQPSLabel = regexp.MustCompile(`^(?:(\S+)[ _])?(\S+)[ _]range=([0-9]+)\s*$`)
)

// sbTableRow is one DBMS's values of one test read from the summaries.
type sbTableRow struct {
	cells   [6]string // as the files print them
	seen    [6]bool
	file    string
	line    int
	test    parse.SysbenchTest
	threads int
}

// loadSysbenchTables builds the sb and sbgroup tables of the summary
// tables of dir: QPS from qps.abs.*.tsv (measured at the first thread
// count, which the o.met blocks of the same folder name; without them the
// step has no thread count), the HW per operation and o/s from o.met.*. A
// DBMS and test found in several files (qps.abs.pg13.tsv and
// qps.abs.pg.latest.tsv, say) takes the first, in name order.
func loadSysbenchTables(dir string, files []string) (*ResultSet, error) {
	rows := map[string]*sbTableRow{} // step "\x00" dbms
	var order []string
	var dbmsOrder []string
	get := func(t parse.SysbenchTest, nt int, dbms string) *sbTableRow {
		k := sbStep(t, nt) + "\x00" + dbms
		r := rows[k]
		if r == nil {
			r = &sbTableRow{test: t, threads: nt}
			for i := range r.cells {
				r.cells[i] = "NA"
			}
			rows[k] = r
			order = append(order, k)
		}
		if !slices.Contains(dbmsOrder, dbms) {
			dbmsOrder = append(dbmsOrder, dbms)
		}
		return r
	}
	slices.Sort(files)
	// o.met first: its block names carry the thread count.
	first := 0
	var qpsFiles []string
	for _, name := range files {
		if strings.HasPrefix(name, "qps.abs.") {
			qpsFiles = append(qpsFiles, name)
			continue
		}
		p := filepath.Join(dir, name)
		data, err := readRegular(dir, name)
		if err != nil {
			return nil, err
		}
		if err := readOMet(p, data, func(t parse.SysbenchTest, nt int, dbms string, vals []string, line int) {
			if first == 0 || nt < first {
				first = nt
			}
			r := get(t, nt, dbms)
			// o.met columns: cpu/o cs/o r/o rKB/o wKB/o o/s dbms.
			for i, v := range vals[:5] {
				if !r.seen[i+1] {
					r.cells[i+1], r.seen[i+1] = v, true
				}
			}
			if !r.seen[0] {
				// o/s is the QPS when qps.abs has none.
				r.cells[0] = vals[5]
			}
			if r.file == "" {
				r.file, r.line = p, line
			}
		}); err != nil {
			return nil, err
		}
	}
	for _, name := range qpsFiles {
		p := filepath.Join(dir, name)
		data, err := readRegular(dir, name)
		if err != nil {
			return nil, err
		}
		if err := readQPSAbs(p, data, func(t parse.SysbenchTest, dbms, cell string, line int) {
			if t.Warmup() {
				return // as the raw folders' tables, which leave warm-up runs out
			}
			r := get(t, first, dbms)
			if !r.seen[0] {
				r.cells[0], r.seen[0] = cell, true
				r.file, r.line = p, line
			}
		}); err != nil {
			return nil, err
		}
	}
	rs := &ResultSet{Name: dir}
	tables := map[string]int{}
	cells := sbCells{}
	for _, k := range order {
		step, dbms, _ := strings.Cut(k, "\x00")
		r := rows[k]
		i, ok := tables[step]
		if !ok {
			i = len(rs.Tables)
			tables[step] = i
			t := ResultTable{Kind: "sb", Step: step, File: filepath.Join(dir, step), Built: true}
			if r.threads > 0 {
				t.Group = "dop" + strconv.Itoa(r.threads)
			}
			for _, c := range sbColumns {
				t.Columns = append(t.Columns, c.name)
			}
			rs.Tables = append(rs.Tables, t)
		}
		// Read once into values that keep the summaries' text.
		row := ResultRow{DBMS: dbms, Line: r.line, Source: r.file}
		for j, text := range r.cells {
			row.Cells = append(row.Cells, fileCell(text, cellUnit("sb", sbColumns[j].name, step)))
		}
		rs.Tables[i].Rows = append(rs.Tables[i].Rows, row)
		cells.add(r.test, r.threads, dbms, row.Cells[0])
	}
	// Rows in DBMS order of the files, as the raw folders list them.
	for i := range rs.Tables {
		slices.SortStableFunc(rs.Tables[i].Rows, func(a, b ResultRow) int {
			return slices.Index(dbmsOrder, a.DBMS) - slices.Index(dbmsOrder, b.DBMS)
		})
	}
	parse.SortSysbenchTests(cells.tests)
	slices.SortStableFunc(rs.Tables, func(a, b ResultTable) int { return sbTestRank(cells.tests, a.Step) - sbTestRank(cells.tests, b.Step) })
	rs.Tables = append(rs.Tables, cells.groups(dir)...)
	if len(rs.Tables) == 0 {
		return nil, inputerr.Errorf("%s: no test in its sysbench summary tables (%s)", names.Quoted(dir), strings.Join(files, " "))
	}
	return rs, nil
}

// sbTestRank is the run order of the test of a step.
func sbTestRank(tests []parse.SysbenchTest, step string) int {
	return slices.IndexFunc(tests, func(t parse.SysbenchTest) bool {
		return step == t.Key() || strings.HasPrefix(step, t.Key()+".dop")
	})
}

func readRegular(dir, name string) ([]byte, error) {
	f, err := parse.OpenRegular(os.DirFS(dir), name)
	if parse.IsNotRegular(err) {
		return nil, inputerr.Errorf("%s/%v", names.Quoted(dir), err)
	}
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(f); err != nil {
		return nil, inputerr.Wrap(err)
	}
	return b.Bytes(), nil
}

// readOMet reads the absolute blocks of an o.met file (sum_met.sh): a
// block name sb.met.<sfx>.dop<N>, "--- absolute", a header, one row per
// DBMS (cpu/o cs/o r/o rKB/o wKB/o o/s dbms), then "--- relative to first
// result" and its rows, which are skipped. sb.prepare.met blocks (the load)
// are skipped too. A row with other than 7 fields is bad input: a gate
// does not skip what it cannot read.
func readOMet(file string, data []byte, row func(t parse.SysbenchTest, nt int, dbms string, vals []string, line int)) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var test parse.SysbenchTest
	nt, n := 0, 0
	inAbs, header := false, false
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			inAbs = false
			continue
		case strings.HasPrefix(line, "sb."):
			inAbs, nt = false, 0
			if m := reMetBlock.FindStringSubmatch(line); m != nil {
				if t, ok := parse.ParseSysbenchSfx(m[1]); ok && !t.Warmup() {
					test = t
					nt, _ = strconv.Atoi(m[2])
				}
			}
			continue
		case line == "--- absolute":
			inAbs, header = nt > 0, true
			continue
		case strings.HasPrefix(line, "---"):
			inAbs = false
			continue
		}
		if !inAbs {
			continue
		}
		if header {
			header = false
			if strings.HasPrefix(line, "cpu/o") {
				continue
			}
		}
		f := strings.Fields(line)
		if len(f) != 7 {
			return inputerr.Errorf("%s:%d: an o.met row has %d fields, want 7 (cpu/o cs/o r/o rKB/o wKB/o o/s dbms)", file, n, len(f))
		}
		row(test, nt, f[6], f[:6], n)
	}
	if err := sc.Err(); err != nil {
		return inputerr.Errorf("%s: %w", file, err)
	}
	return nil
}

// readQPSAbs reads a qps.abs.<tag>.tsv table (sum_qps_csv.sh): "col-N :
// <dbms>" lines, a blank line, the col- header, then one row per test, the
// QPS of each DBMS and the label "<engine>_<test>_range=<N>".
func readQPSAbs(file string, data []byte, row func(t parse.SysbenchTest, dbms, cell string, line int)) error {
	var cols []string
	n := 0
	for l := range strings.Lines(string(data)) {
		n++
		line := strings.TrimRight(l, "\r\n")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "col-") && strings.Contains(line, " : "):
			_, name, _ := strings.Cut(line, " : ")
			cols = append(cols, strings.TrimSpace(name))
			continue
		case strings.HasPrefix(line, "col-"):
			continue // the header
		}
		f := strings.Split(line, "\t")
		if len(f) != len(cols)+1 || len(cols) == 0 {
			return inputerr.Errorf("%s:%d: a row has %d fields for %d DBMS and a label", file, n, len(f), len(cols))
		}
		m := reQPSLabel.FindStringSubmatch(f[len(f)-1])
		if m == nil {
			return inputerr.Errorf("%s:%d: %q is not a test label (<engine>_<test>_range=<N>)", file, n, f[len(f)-1])
		}
		t, ok := parse.ParseSysbenchSfx(m[2] + ".range" + m[3] + ".pk1")
		if !ok {
			return inputerr.Errorf("%s:%d: %q is not a test label", file, n, f[len(f)-1])
		}
		for i, c := range cols {
			row(t, c, strings.TrimSpace(f[i]), n)
		}
	}
	return nil
}

// sysbenchSummaryNames lists the summary tables of a folder.
func sysbenchSummaryNames(ents []fs.DirEntry) []string {
	var out []string
	for _, e := range ents {
		if !e.IsDir() && sbSummaryFile(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}
