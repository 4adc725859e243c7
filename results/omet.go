package results

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/names"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// metTable is an o.met file (sum_met.sh) as read: its absolute blocks.
type metTable struct {
	file, set string
	blocks    []metBlock
	// dbms are the names of the rows, in the order first seen.
	dbms []string
	// dopPair says the file compares two thread counts (sum_met_dop.sh:
	// "base1 … and base2 …" lines): the thread count of its block names is
	// the base's only.
	dopPair bool
	// index finds a block by test suffix and thread count.
	index map[string]int
	// nt is the thread count of most blocks (mostThreads).
	nt int
}

// metBlock is one "sb.met.<test>.dop<N>" block.
type metBlock struct {
	test    parse.SysbenchTest
	threads int
	line    int
	rows    map[string]*Met
}

var reMetBlockName = regexp.MustCompile(`^sb\.met\.(.+)\.dop([0-9]+)$`)

// metColumns are the header names of the o.met columns, in the order of
// Met's fields.
var metColumns = []string{"cpu/o", "cs/o", "r/o", "rKB/o", "wKB/o", "o/s"}

// readMet reads an o.met file. Each block is its name (sb.met.<test>.dop<N>
// or sb.prepare.met.<test>, the load, which is skipped), in files of
// sum_met_dop.sh a "base1 … and base2 …" line, "--- absolute", a header
// naming the columns of its generation (cpu/o ⇥⇥ cs/o ⇥ r/o ⇥ rKB/o ⇥ wKB/o
// ⇥ o/s ⇥ dbms since April 2024; without cs/o, or also without r/o,
// before), a row per build, then "--- relative to first result" and its
// rows, which are the ratios of the absolute ones and are not read. A row
// of other than one field per column is an error naming the file and
// line, and so is a build twice in a block.
func readMet(file string, data []byte) (*metTable, error) {
	m := &metTable{}
	seen := map[string]bool{}
	var cur *metBlock
	var cols []int // index of each metColumns entry in a row, -1 if absent
	width := 0
	state := 0 // 0 outside, 1 header expected, 2 absolute rows, 3 relative rows
	n := 0
	for l := range strings.Lines(string(data)) {
		n++
		line := strings.TrimSpace(l)
		switch {
		case line == "":
			state, cur = 0, nil
			continue
		case strings.HasPrefix(line, "sb.") && state != 2:
			state, cur = 0, nil
			if mm := reMetBlockName.FindStringSubmatch(line); mm != nil {
				t, ok := parse.ParseSysbenchSfx(mm[1])
				nt, err := strconv.Atoi(mm[2])
				if ok && err == nil && nt > 0 {
					m.blocks = append(m.blocks, metBlock{test: t, threads: nt, line: n, rows: map[string]*Met{}})
					cur = &m.blocks[len(m.blocks)-1]
				}
			}
			continue
		case strings.HasPrefix(line, "base1 ") && strings.Contains(line, " and base2 "):
			m.dopPair = true
			continue
		case line == "--- absolute":
			state = 1
			continue
		case strings.HasPrefix(line, "--- relative"):
			state = 3
			continue
		}
		switch state {
		case 1:
			head := strings.Fields(line)
			if len(head) == 0 || head[len(head)-1] != "dbms" {
				return nil, inputerr.Errorf("%s:%d: an o.met header must end in dbms, not %q", names.Quoted(file), n, line)
			}
			cols, width = make([]int, len(metColumns)), len(head)
			for i, c := range metColumns {
				cols[i] = slices.Index(head, c)
			}
			if cols[0] < 0 || cols[5] < 0 {
				return nil, inputerr.Errorf("%s:%d: an o.met header without cpu/o or o/s: %q", names.Quoted(file), n, line)
			}
			state = 2
		case 2:
			f := strings.Fields(line)
			if len(f) != width {
				return nil, inputerr.Errorf("%s:%d: an o.met row has %d fields, its header %d", names.Quoted(file), n, len(f), width)
			}
			if cur == nil {
				continue // the load, or a block whose name is no test
			}
			dbms := f[width-1]
			if err := parse.CheckName(dbms); err != nil {
				return nil, inputerr.Errorf("%s:%d: %v", names.Quoted(file), n, err)
			}
			if cur.rows[dbms] != nil {
				return nil, inputerr.Errorf("%s:%d: %s twice in the block of line %d: a duplicate row", names.Quoted(file), n, dbms, cur.line)
			}
			cur.rows[dbms] = metRow(file, n, f, cols, cur.test)
			if !seen[dbms] {
				seen[dbms] = true
				m.dbms = append(m.dbms, dbms)
			}
		}
	}
	if len(m.blocks) == 0 {
		return nil, inputerr.Errorf("%s: no sb.met.<test>.dop<N> block", names.Quoted(file))
	}
	m.nt = m.mostThreads()
	m.index = make(map[string]int, len(m.blocks))
	for i, b := range m.blocks {
		k := b.test.Sfx + "\x00" + strconv.Itoa(b.threads)
		if _, dup := m.index[k]; !dup {
			m.index[k] = i
		}
	}
	return m, nil
}

// metRow types one o.met row.
func metRow(file string, line int, f []string, cols []int, t parse.SysbenchTest) *Met {
	row := qpsRow{fields: f, line: line, file: file}
	get := func(k int, u metrics.Unit) metrics.Value {
		if cols[k] < 0 {
			return metrics.NAf(u, "%s: its generation has no %s column", file, metColumns[k])
		}
		return row.cellUnit(cols[k], u)
	}
	rate := metrics.QueriesPerSec
	if t.Scan() {
		rate = metrics.KRowsPerSec
	}
	return &Met{
		CPUPerOp:     get(0, metrics.NoUnit),
		CsPerOp:      get(1, metrics.NoUnit),
		ReadsPerOp:   get(2, metrics.NoUnit),
		ReadKBPerOp:  get(3, metrics.NoUnit),
		WriteKBPerOp: get(4, metrics.NoUnit),
		OpsPerSec:    get(5, rate),
		File:         file,
		Line:         line,
	}
}

// mostThreads is the thread count of most of the file's blocks (those of
// the scan tests, which sum_met.sh lists at every count, aside).
func (m *metTable) mostThreads() int {
	count := map[int]int{}
	best := 0
	for _, b := range m.blocks {
		if b.test.Scan() || b.test.Warmup() {
			continue
		}
		count[b.threads]++
		if c := count[b.threads]; c > count[best] || c == count[best] && b.threads < best {
			best = b.threads
		}
	}
	if best == 0 && len(m.blocks) > 0 {
		best = m.blocks[0].threads
	}
	return best
}

// block is the block of a test at nt threads, or nil.
func (m *metTable) block(sfx string, nt int) *metBlock {
	if i, ok := m.index[sfx+"\x00"+strconv.Itoa(nt)]; ok {
		return &m.blocks[i]
	}
	return nil
}

// matchMet is the o.met file of a set's builds: of those whose rows name
// every build of the set, the one named as the set (o.met.<set>,
// met.<set>.txt), else the one naming no other build, else the one naming
// the fewest others; nil when none names them all.
func matchMet(set *Set, mets []*metTable) *metTable {
	var best *metTable
	score := func(m *metTable) int {
		if m.set == set.Name {
			return -1
		}
		return len(m.dbms) - len(set.Builds)
	}
	for _, m := range mets {
		covers := true
		for _, b := range set.Builds {
			if !slices.Contains(m.dbms, b) {
				covers = false
				break
			}
		}
		if covers && (best == nil || score(m) < score(best)) {
			best = m
		}
	}
	return best
}

// attachMet puts the rows of m into the cells of the set, and takes the
// set's thread count from the names of m's blocks.
func (s *Set) attachMet(m *metTable, dir string) {
	s.Files = append(s.Files, m.file)
	slices.Sort(s.Files)
	if m.dopPair {
		s.dopPair = true
		s.warn(m.file, 0, "", "%s compares the thread count of its base with another of the other builds (sum_met_dop.sh): the thread count is not known", path.Join(dir, m.file))
		return
	}
	s.Threads, s.ThreadsFrom = m.nt, path.Join(dir, m.file)
	missing := 0
	for i := range s.Rows {
		r := &s.Rows[i]
		b := m.block(r.Test.Sfx, s.Threads)
		if b == nil {
			if !r.Test.Warmup() {
				missing++
			}
			continue
		}
		for k, build := range s.Builds {
			r.Cells[k].Met = b.rows[build]
		}
	}
	if missing > 0 {
		s.warn(m.file, 0, "", "%s has no block for %s of set %s: their HW metrics are NA", path.Join(dir, m.file), metrics.Plural(missing, "test"), s.Name)
	}
	// The tests o.met has at the set's thread count and the qps tables
	// not (sum_qps_csv_nopre.sh leaves the .pre tests out): their QPS is
	// the o/s an.sh divided by.
	have := make(map[string]bool, len(s.Rows))
	for _, r := range s.Rows {
		have[r.Test.Sfx] = true
	}
	var added []string
	for i := range m.blocks {
		b := &m.blocks[i]
		if b.threads != s.Threads || have[b.test.Sfx] || b.test.Warmup() {
			continue
		}
		have[b.test.Sfx] = true
		row := metOnlyRow(b, s.Builds, path.Join(dir, m.file))
		if s.Relative {
			// A ratio set holds no rates: a ratio of o/s in their place.
			base := row.Cells[0].QPS
			for k := range row.Cells {
				q := row.Cells[k].QPS
				if q.OK() && base.OK() && base.V > 0 {
					row.Cells[k].QPS = metrics.Known(q.V/base.V, metrics.RatioUnit)
				} else {
					row.Cells[k].QPS = metrics.NA(metrics.RatioUnit, "no o/s of the base")
				}
			}
		}
		s.Rows = append(s.Rows, row)
		added = append(added, b.test.Label())
	}
	if len(added) > 0 {
		s.info(m.file, "%s has %s that the qps tables of set %s have not (%s): their QPS is its o/s", path.Join(dir, m.file), metrics.Plural(len(added), "test"), s.Name, strings.Join(added, ", "))
	}
}

// metOnlySet is a set of an o.met file no qps table shares builds with:
// its builds are those of its rows, its QPS their o/s.
func metOnlySet(name string, m *metTable, dir string) (*Set, error) {
	s := &Set{Name: name, Builds: m.dbms, MetOnly: true, Files: []string{m.file}, dopPair: m.dopPair}
	if err := checkBuilds(dir, s.Builds, m.file); err != nil {
		return nil, err
	}
	if m.dopPair {
		s.warn(m.file, 0, "", "%s compares the thread count of its base with another of the other builds (sum_met_dop.sh): the thread count is not known", path.Join(dir, m.file))
	} else {
		s.Threads, s.ThreadsFrom = m.nt, path.Join(dir, m.file)
	}
	nt := m.nt
	if m.dopPair {
		nt = m.blocks[0].threads
	}
	for _, b := range m.blocks {
		if b.threads != nt {
			continue
		}
		s.Rows = append(s.Rows, metOnlyRow(&b, s.Builds, path.Join(dir, m.file)))
	}
	if len(s.Rows) == 0 {
		return nil, inputerr.Errorf("%s: no test block", names.Quoted(path.Join(dir, m.file)))
	}
	return s, nil
}

// metOnlyRow is the row of a test that only o.met has: each build's
// o.met row, its o/s as the QPS.
func metOnlyRow(b *metBlock, builds []string, file string) Row {
	row := Row{Test: b.test, Cells: make([]Cell, len(builds))}
	for k, build := range builds {
		c := &row.Cells[k]
		c.Met, c.File, c.Line = b.rows[build], file, b.line
		if c.Met == nil {
			c.QPS = metrics.NAf(metrics.QueriesPerSec, "%s: no row of %s in the block of line %d", file, build, b.line)
			continue
		}
		c.QPS, c.Line = c.Met.OpsPerSec, c.Met.Line
	}
	return row
}
