package report

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// PerfPart is the perf stat counters of the sysbench part: per benchmark
// part a compact table (instructions per operation, cycles per operation,
// IPC and their ratios to the base), and per test the full counters,
// which renderers fold away.
type PerfPart struct {
	Caption string   `json:"caption"`
	Tables  []*Table `json:"tables"`
	Details []*Table `json:"details,omitempty"`
	// FlameGraphs link the SVG flame graphs found beside the tests,
	// relative to the results folder; they carry scripts, so reports link
	// them and never inline them.
	FlameGraphs []FlameGraph `json:"flame_graphs,omitempty"`
	Notes       []string     `json:"notes,omitempty"`
}

// FlameGraph is one flame graph file of a DBMS.
type FlameGraph struct {
	DBMS string `json:"dbms"`
	Test string `json:"test,omitempty"` // "" when the name names no test
	Href string `json:"href"`           // relative to the results folder
}

// sbPerfOps are the per-operation counters of each DBMS and test, at the
// thread count they were recorded with.
type sbPerfOps struct {
	ops   map[string]map[string]*metrics.PerfOp // DBMS name → test suffix
	nt    map[string]map[string]int
	warns []string
}

func (p *sbPerfOps) get(dbms, sfx string, nt int) *metrics.PerfOp {
	if p == nil || p.nt[dbms][sfx] != nt {
		return nil
	}
	return p.ops[dbms][sfx]
}

// sysbenchPerf reads the perf stat samples of every DBMS folder. run.sh
// names them by test, not by thread count, so a test run at several
// thread counts keeps the samples of the last one, the largest: they are
// normalized by that run's QPS.
func (b *sbBuild) sysbenchPerf(set *metrics.SysbenchSet) *sbPerfOps {
	if !b.text.counters() || b.res == nil || b.res.FS == nil {
		return nil
	}
	p := &sbPerfOps{ops: map[string]map[string]*metrics.PerfOp{}, nt: map[string]map[string]int{}}
	found := false
	for _, d := range set.DBMS {
		samples, warns, err := metrics.PerfSamples(b.res.FS, d.Dir.Dir)
		p.warns = append(p.warns, warns...)
		if err != nil {
			p.warns = append(p.warns, err.Error())
			continue
		}
		p.ops[d.Name], p.nt[d.Name] = map[string]*metrics.PerfOp{}, map[string]int{}
		for sfx, l := range samples {
			threads := d.Dir.Threads[sfx]
			if len(threads) == 0 || len(l) == 0 {
				continue
			}
			nt := threads[len(threads)-1]
			r := d.Result(sfx, nt)
			if r == nil {
				continue
			}
			var stats []*parse.PerfStat
			for _, s := range l {
				name := path.Join(d.Dir.Dir, s.Name)
				ps, err := readPerf(b.res.FS, name, &p.warns)
				if err != nil {
					p.warns = append(p.warns, err.Error())
					continue
				}
				stats = append(stats, ps)
			}
			p.ops[d.Name][sfx] = metrics.ComputePerfOp(stats, r.QPS, metrics.PerfProcs(d.Name, nt))
			p.nt[d.Name][sfx] = nt
			found = true
		}
	}
	if !found && len(p.warns) == 0 {
		return nil
	}
	return p
}

// readPerf reads a perf stat sample (parse.ReadPerfFile): its syntax
// errors go to warns, and a file that cannot be read is an error to
// report and skip.
func readPerf(fsys fs.FS, name string, warns *[]string) (*parse.PerfStat, error) {
	ps, err := parse.ReadPerfFile(fsys, name)
	if se := parse.SyntaxErrors(err); se != nil {
		for _, e := range se {
			*warns = append(*warns, e.Error())
		}
		return ps, nil
	}
	return ps, err
}

// perfDigits prints a per-operation counter: whole events from 100 on,
// else three decimals.
func perfText(v metrics.Value) string {
	switch {
	case !v.OK():
		return "NA"
	case v.Unit == metrics.IPCUnit:
		return fmt.Sprintf("%.2f", v.V)
	case v.V >= 100:
		return fmt.Sprintf("%.0f", v.V)
	}
	return fmt.Sprintf("%.3f", v.V)
}

func perfCell(v metrics.Value) Cell { return valueCellText(v, perfText(v)) }

func perfDirection(cost bool) metrics.Direction {
	if cost {
		return metrics.LowerIsBetter
	}
	return metrics.HigherIsBetter
}

// perfCompact are the counters of the compact tables: the two that split
// CPU per operation (instructions per operation ÷ IPC) and their product.
var perfCompact = []string{"insn/o", "cyc/o", "IPC"}

// perfPart builds the counters' tables at nt threads; nil without counters.
func (f sbText) perfPart(set *metrics.SysbenchSet, p *sbPerfOps, parts []metrics.SysbenchGroup, id string, fsys fs.FS) *PerfPart {
	if p == nil {
		return nil
	}
	out := &PerfPart{Notes: p.warns}
	defs := map[string]int{}
	for i, d := range metrics.PerfCounterDefs {
		defs[d.Name] = i
	}
	anyPG, anyServer := false, false
	for _, g := range parts {
		t := &Table{ID: id + ".perf." + slug(g.Name), Label: g.Name, Title: "perf stat counters per operation: " + g.Name,
			Header: []string{"test", "dbms", "threads"}}
		t.Header = append(t.Header, perfCompact...)
		for _, n := range perfCompact {
			t.Header = append(t.Header, n+" / base")
		}
		for _, test := range g.Tests {
			first := true
			for _, d := range set.DBMS {
				nt := p.nt[d.Name][test.Sfx]
				op := p.get(d.Name, test.Sfx, nt)
				if op == nil {
					continue
				}
				if op.Procs > 1 {
					anyPG = true
				} else {
					anyServer = true
				}
				row := Row{Kind: DataRow, GroupStart: first && len(t.Rows) > 0, Cells: []Cell{{Text: sbTestName(test)}, {Text: d.Name}, {Text: fmt.Sprint(nt)}}}
				first = false
				bop := p.get(set.BaseOf(d).Name, test.Sfx, nt)
				for _, n := range perfCompact {
					row.Cells = append(row.Cells, perfCell(metrics.PerfCounterDefs[defs[n]].Get(op)))
				}
				for _, n := range perfCompact {
					def := metrics.PerfCounterDefs[defs[n]]
					if bop == nil {
						row.Cells = append(row.Cells, valueCellText(metrics.NA("", "the base has no counters for this test"), "NA"))
						continue
					}
					row.Cells = append(row.Cells, f.ratioCell(def.Get(op), def.Get(bop), perfDirection(def.Cost)))
				}
				t.Rows = append(t.Rows, row)
			}
			if dt := f.perfDetail(set, p, test, id); dt != nil {
				out.Details = append(out.Details, dt)
			}
		}
		if len(t.Rows) > 0 {
			out.Tables = append(out.Tables, t)
		}
	}
	if len(out.Tables) == 0 && len(out.Notes) == 0 {
		return nil
	}
	var scope []string
	if anyPG {
		scope = append(scope, "for PostgreSQL perf stat -p counted one backend, which serves one connection of N: its counts are divided by QPS ÷ N (the thread count), assuming the connections share the load evenly")
	}
	if anyServer {
		scope = append(scope, "for a server that is one process (MySQL) the counts cover every connection and are divided by QPS")
	}
	out.Caption = "Hardware counters of perf stat while the test ran, per operation: each counter's count per second over the samples (1 to the number in sb.perf.last, as run.sh used), divided by the operations per second of the process counted; " +
		strings.Join(scope, "; ") + ". insn/o is instructions per operation (the work done), IPC instructions per cycle (how fast it was done: cache and TLB misses and stalls lower it), cyc/o = insn/o ÷ IPC. The ratio columns divide by the base; for insn/o and cyc/o less is better, for IPC more. " + ratioBandsCaption
	out.FlameGraphs = flameGraphs(set, fsys)
	return out
}

// perfDetail is one test's table of every counter per DBMS and the ratios
// to the base.
func (f sbText) perfDetail(set *metrics.SysbenchSet, p *sbPerfOps, test parse.SysbenchTest, id string) *Table {
	t := &Table{ID: id + ".perf." + test.Sfx, Label: sbTestName(test), Title: "perf stat counters per operation: " + sbTestName(test), Header: []string{"dbms"}}
	for _, d := range metrics.PerfCounterDefs {
		t.Header = append(t.Header, d.Name)
	}
	any := false
	for _, d := range set.DBMS {
		op := p.get(d.Name, test.Sfx, p.nt[d.Name][test.Sfx])
		if op == nil {
			continue
		}
		any = true
		row := Row{Kind: DataRow, Cells: []Cell{{Text: d.Name}}}
		for _, def := range metrics.PerfCounterDefs {
			row.Cells = append(row.Cells, perfCell(def.Get(op)))
		}
		t.Rows = append(t.Rows, row)
	}
	if !any {
		return nil
	}
	for i, pair := range set.Pairs() {
		d := pair.DBMS
		op := p.get(d.Name, test.Sfx, p.nt[d.Name][test.Sfx])
		bop := p.get(pair.Base().Name, test.Sfx, p.nt[pair.Base().Name][test.Sfx])
		if op == nil || bop == nil {
			continue
		}
		row := Row{Kind: DataRow, GroupStart: i == 0, Cells: []Cell{{Text: d.Name + " / base"}}}
		for _, def := range metrics.PerfCounterDefs {
			row.Cells = append(row.Cells, f.ratioCell(def.Get(op), def.Get(bop), perfDirection(def.Cost)))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Caption = "Every counter per operation; stallFE% and stallBE% are stalled cycles as a percent of cycles (counted in another interval than cycles). NA where the CPU did not support a counter."
	return t
}

// flameGraphs lists the SVG flame graphs in the DBMS folders (run.sh's
// sb.perf.g.<test>….svg, np.sh's o.perf.g.all.svg, all.diff.svg), in
// folder then name order.
func flameGraphs(set *metrics.SysbenchSet, fsys fs.FS) []FlameGraph {
	if fsys == nil {
		return nil
	}
	var out []FlameGraph
	for _, d := range set.DBMS {
		ents, err := fs.ReadDir(fsys, d.Dir.Dir)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".svg") && strings.Contains(e.Name(), "perf") || e.Name() == "all.diff.svg" {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			fg := FlameGraph{DBMS: d.Name, Href: path.Join(d.Dir.Dir, n)}
			for _, t := range set.Tests {
				if strings.Contains(n, "."+t.Sfx+".") && len(t.Sfx) > len(fg.Test) {
					fg.Test = t.Sfx
				}
			}
			out = append(out, fg)
		}
	}
	return out
}

// slug makes a part name usable in an id.
func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
}
