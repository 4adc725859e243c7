package report

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibPerfOps are the perf stat counters per operation of each DBMS (display
// tag) and step (merge name) of the insert benchmark.
type ibPerfOps struct {
	ops   map[string]map[string]*metrics.PerfOp
	warns []string
}

func (p *ibPerfOps) get(tag, step string) *metrics.PerfOp {
	if p == nil {
		return nil
	}
	return p.ops[tag][step]
}

// ibenchPerfCaption says how the counters of the insert benchmark are
// normalized, and what the process counted was.
const ibenchPerfCaption = "Hardware counters of perf stat while the step ran (np.sh's o.perf.hw.dop<D>.<n>, samples 1 to the number in o.perf.last.dop<D> as np.sh used them), per operation: " +
	"each counter's count per second over the samples, divided by the operations per second of the process counted, the step's query rate for a read+write step and its insert rate otherwise (as cpupq). " +
	"perf stat -p counts one process: for PostgreSQL one backend of client 1 (its query connection in a read+write step; its insert connection in a load step, or its delete connection on odd samples), " +
	"which does 1/D of the operations of the D clients, so its counts are divided by the rate ÷ D, assuming the clients share the load evenly; " +
	"for MySQL or MariaDB, one process, the counts cover every client and are divided by the whole rate. " +
	"insn/o is instructions per operation (the work done), IPC instructions per cycle (how fast it was done: cache and TLB misses and stalls lower it), cyc/o = insn/o ÷ IPC. " +
	"The ratio columns divide by the base of the DBMS's group; for insn/o and cyc/o less is better, for IPC more. " + ratioBandsCaption

// rePerSampleSVG matches the flame graph of one sample, o.perf.g.<event>.dop<D>.<n>.svg.
var rePerSampleSVG = regexp.MustCompile(`\.dop[0-9]+\.[0-9]+\.svg$`)

// ibenchPerfLegend is the legend's entry for the counters of the insert
// benchmark.
const ibenchPerfLegend = "perf stat counters per operation of a step (insn/o instructions, cyc/o cycles, IPC instructions per cycle, misses per operation, stalled-cycle shares): " +
	"counts per second divided by the step's operation rate (queries for read+write steps, inserts otherwise, as cpupq); " +
	"for PostgreSQL perf stat counted one backend, so by the rate ÷ D clients, assuming the clients share the load evenly; for MySQL the whole server, by the whole rate. " +
	"A cited cpupq is explained by insn/o and IPC: cpupq +54% (insn/o +48%, IPC -4%) is more work per operation and the same work done a little slower"

// ibenchCounters builds the report's perf stat part of the insert
// benchmark: per part (load, create index, read+write) a compact table of
// instructions and cycles per operation and IPC with their ratios to the
// base, per step every counter (folded by renderers), and the flame graphs
// beside the steps. Nil without counters.
func (b *ibTables) ibenchCounters() *PerfPart {
	p := b.ibPerf
	if p == nil {
		return nil
	}
	out := &PerfPart{Notes: p.warns, Caption: ibenchPerfCaption}
	baseOf := map[string]string{}
	for _, bp := range basePairs(b.list) {
		baseOf[bp.tag] = bp.base
	}
	defs := map[string]int{}
	for i, d := range metrics.PerfCounterDefs {
		defs[d.Name] = i
	}
	f := sbDefaultText
	for _, part := range []string{"load", "create index", "read+write"} {
		t := &Table{ID: "ib.perf." + slug(part), Label: part, Title: "perf stat counters per operation: " + part,
			Header: []string{"step", "dbms"}}
		t.Header = append(t.Header, perfCompact...)
		for _, n := range perfCompact {
			t.Header = append(t.Header, n+" / base")
		}
		for _, st := range b.steps {
			if ibenchPart(st) != part {
				continue
			}
			first := true
			for _, e := range b.list {
				op := p.get(e.Name, st.MergeName)
				if e.Break || op == nil {
					continue
				}
				row := Row{Kind: DataRow, GroupStart: first && len(t.Rows) > 0, Cells: []Cell{{Text: st.MergeName}, {Text: e.Name}}}
				first = false
				for _, n := range perfCompact {
					row.Cells = append(row.Cells, perfCell(metrics.PerfCounterDefs[defs[n]].Get(op)))
				}
				base, ok := baseOf[e.Name]
				if !ok {
					base = e.Name // the base of its group
				}
				bop := p.get(base, st.MergeName)
				for _, n := range perfCompact {
					def := metrics.PerfCounterDefs[defs[n]]
					if bop == nil {
						row.Cells = append(row.Cells, valueCellText(metrics.NA("", "the base has no counters for this step"), "NA"))
						continue
					}
					row.Cells = append(row.Cells, f.ratioCell(def.Get(op), def.Get(bop), perfDirection(def.Cost)))
				}
				t.Rows = append(t.Rows, row)
			}
			if dt := b.ibenchPerfDetail(st, baseOf); dt != nil {
				out.Details = append(out.Details, dt)
			}
		}
		if len(t.Rows) > 0 {
			out.Tables = append(out.Tables, t)
		}
	}
	out.FlameGraphs = b.ibenchFlameGraphs()
	if len(out.Tables) == 0 && len(out.Notes) == 0 && len(out.FlameGraphs) == 0 {
		return nil
	}
	return out
}

// ibenchPerfDetail is one step's table of every counter per DBMS, then the
// ratios of each DBMS that is not a base to the base of its group.
func (b *ibTables) ibenchPerfDetail(st parse.Step, baseOf map[string]string) *Table {
	p := b.ibPerf
	t := &Table{ID: "ib.perf." + st.MergeName, Label: st.MergeName, Title: "perf stat counters per operation: " + st.MergeName, Header: []string{"dbms"}}
	for _, d := range metrics.PerfCounterDefs {
		t.Header = append(t.Header, d.Name)
	}
	for _, e := range b.list {
		op := p.get(e.Name, st.MergeName)
		if e.Break || op == nil {
			continue
		}
		row := Row{Kind: DataRow, Cells: []Cell{{Text: e.Name}}}
		for _, def := range metrics.PerfCounterDefs {
			row.Cells = append(row.Cells, perfCell(def.Get(op)))
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return nil
	}
	first := true
	for _, e := range b.list {
		base, ok := baseOf[e.Name]
		op, bop := p.get(e.Name, st.MergeName), p.get(base, st.MergeName)
		if e.Break || !ok || op == nil || bop == nil {
			continue
		}
		row := Row{Kind: DataRow, GroupStart: first, Cells: []Cell{{Text: e.Name + " / " + base}}}
		first = false
		for _, def := range metrics.PerfCounterDefs {
			row.Cells = append(row.Cells, sbDefaultText.ratioCell(def.Get(op), def.Get(bop), perfDirection(def.Cost)))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Caption = "Every counter per operation; stallFE% and stallBE% are stalled cycles as a percent of cycles (counted in another interval than cycles). NA where the CPU did not support a counter."
	return t
}

// ibenchFlameGraphs lists the SVG flame graphs of all samples in the step
// folders of the raw trees (np.sh's o.perf.g.<event>.dop<D>.all.svg, older
// o.perf.g.all.svg, all.diff.svg), by DBMS, step and name. The per-sample
// graphs, o.perf.g.<event>.dop<D>.<n>.svg.gz, are left out: np.sh gzips
// them, a folder read through Packed shows them without their .gz (a link
// would name no file), and the all-sample graph sums them. macOS's "._"
// companions of copied files are not graphs.
func (b *ibTables) ibenchFlameGraphs() []FlameGraph {
	var out []FlameGraph
	seen := map[string]bool{}
	for _, e := range b.list {
		t := b.tree[e.Name]
		if e.Break || t == nil || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		for _, st := range b.steps {
			sr := t.Step(st.MergeName)
			if sr == nil {
				continue
			}
			dir := path.Join(t.Tree.Dir, sr.Step.Name)
			ents, err := fs.ReadDir(b.res.FS, dir)
			if err != nil {
				continue
			}
			var names []string
			for _, en := range ents {
				n := en.Name()
				graph := strings.HasPrefix(n, "o.perf.g.") && strings.HasSuffix(n, ".svg") && !rePerSampleSVG.MatchString(n) || n == "all.diff.svg"
				if !en.IsDir() && graph {
					names = append(names, n)
				}
			}
			sort.Strings(names)
			for _, n := range names {
				out = append(out, FlameGraph{DBMS: e.Name, Test: st.MergeName, Href: path.Join(dir, n)})
			}
		}
	}
	return out
}

// ibenchPerf reads np.sh's perf stat samples (o.perf.hw.dop<D>.<n>, 1 to
// o.perf.last.dop<D>) of every step of every raw tree and normalizes them
// by the step's operation rate (metrics.IbenchPerfOp). Nil without
// samples, in compat mode and for an archive.
func (b *ibench) ibenchPerf() *ibPerfOps {
	if !b.edge.corrected || b.res.Archived() || b.res.FS == nil {
		return nil
	}
	p := &ibPerfOps{ops: map[string]map[string]*metrics.PerfOp{}}
	found := false
	for _, e := range b.list {
		t := b.tree[e.Name]
		if e.Break || t == nil || p.ops[e.Name] != nil {
			continue
		}
		p.ops[e.Name] = map[string]*metrics.PerfOp{}
		for _, sr := range t.Steps {
			dir := path.Join(t.Tree.Dir, sr.Step.Name)
			samples, warns, err := metrics.PerfSamples(b.res.FS, dir)
			p.warns = append(p.warns, warns...)
			if err != nil {
				p.warns = append(p.warns, err.Error())
				continue
			}
			l := samples[fmt.Sprintf("dop%d", sr.Dop)]
			if len(l) == 0 {
				continue
			}
			var stats []*parse.PerfStat
			for _, s := range l {
				name := path.Join(dir, s.Name)
				ps, err := readPerf(b.res.FS, name, &p.warns)
				if err != nil {
					p.warns = append(p.warns, err.Error())
					continue
				}
				stats = append(stats, ps)
			}
			p.ops[e.Name][sr.Step.MergeName] = metrics.IbenchPerfOp(sr, t.Name(), stats)
			found = true
		}
	}
	if !found && len(p.warns) == 0 {
		return nil
	}
	return p
}

// ibenchCPUParts gives the cpupq measure of a step its parts, instructions
// per operation and IPC, when both DBMS have counters for the step.
func (b *ibench) ibenchCPUParts(ms []metrics.Measure, step, base, other string) {
	metrics.WithCPUParts(ms, b.ibPerf.get(base, step), b.ibPerf.get(other, step))
}
