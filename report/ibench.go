package report

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibench is the insert benchmark's part of a report: the merged model of
// its steps and DBMS, which its tables (ibTables) and, through ibFacts, the
// findings read. It writes only the report's DBMS, steps, source and notes.
type ibench struct {
	res *Results
	// edge holds every difference of the compat mode, decided once by build.
	edge  ibEdge
	rep   *Report
	steps []parse.Step
	// some is BuildOptions.Some.
	some []string
	// noPoints is LoadOptions.NoIntervalPoints of the results.
	noPoints bool
	// merged holds each step's merged table; rts its histogram merges.
	merged map[string]*mergedTable
	rts    map[string][]*rtMerge
	// list is the DBMS list by display tag (prefix removed), with breaks.
	list []Entry
	// shown are the display tags the summary shows; tree maps a tag to its
	// raw tree (none for an archive).
	shown []string
	tree  map[string]*metrics.TreeResult
	// missed[step][tag]: the DBMS missed the step's insert-rate target.
	missed   map[string]map[string]bool
	nClients int
	// ibPerf holds the insert benchmark's perf stat counters per operation.
	ibPerf *ibPerfOps
	// treeClients is the client count of each raw tree, by display tag.
	treeClients map[string]int
}

// ibFacts is what the findings read of the insert benchmark's part.
type ibFacts interface {
	stepList() []parse.Step
	dbmsList() []Entry
	shownTags() []string
	treeOf(tag string) *metrics.TreeResult
	row(step, tag string) (*mergedTable, *mergedRow)
	cell(step, tag, col string) metrics.Value
	withinNoise(st parse.Step, tag, base string, ratio float64) bool
	noiseOf(st parse.Step, tag string) metrics.Interval
	ibenchCPUParts(ms []metrics.Measure, step, base, other string)
}

func (b *ibench) stepList() []parse.Step                { return b.steps }
func (b *ibench) dbmsList() []Entry                     { return b.list }
func (b *ibench) shownTags() []string                   { return b.shown }
func (b *ibench) treeOf(tag string) *metrics.TreeResult { return b.tree[tag] }

// model takes the merged tables of the results and the notes of their
// computation: missing steps and NA values, lines of an archive that are
// not rows, DBMS without a histogram.
func (b *ibench) model() error {
	res := b.res
	b.merged = map[string]*mergedTable{}
	b.rts = map[string][]*rtMerge{}
	b.tree = map[string]*metrics.TreeResult{}
	var tables []*mergedTable
	if res.Archived() {
		b.rep.Source = "archive"
		b.steps = res.archive.Steps
		tables = res.archive.tables
		b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(res.archive.Warnings)...)
	} else {
		var warns []metrics.Warning
		var err error
		b.steps, tables, warns, err = mergeResults(res.Trees, res.List, res.Options)
		if err != nil {
			return inputerr.Wrap(err)
		}
		b.rep.Notes = append(b.rep.Notes, warns...)
	}
	for _, mt := range tables {
		b.merged[mt.step.MergeName] = mt
		if b.edge.corrected {
			b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(mt.skipped())...)
		}
	}
	b.names()
	if err := b.chooseSteps(); err != nil {
		return err
	}
	if !res.Archived() {
		byName := map[string]*metrics.TreeResult{}
		for _, t := range res.Trees {
			byName[t.Name()] = t
		}
		prefix := parse.RowPrefix(firstName(res.List))
		var warns []string
		for _, st := range b.steps {
			b.rts[st.MergeName] = rtMerges(byName, res.List, st, prefix, b.edge, &warns)
		}
		b.rep.Notes = append(b.rep.Notes, metrics.TextWarnings(warns)...)
	}
	return nil
}

// chooseSteps keeps the steps of opt.Some, or of the archived mrg.some,
// and says which in a note. It runs after names, so that the DBMS list
// stays that of the whole results.
func (b *ibench) chooseSteps() error {
	some, from := b.some, "--some"
	if len(some) == 0 && b.res.Archived() && len(b.res.archive.Some) > 0 {
		some, from = b.res.archive.Some, "the archived "+b.res.archive.SomeFile+" (--some overrides)"
	}
	if len(some) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, name := range some {
		want[strings.TrimSpace(name)] = true
	}
	var kept []parse.Step
	var names []string
	for _, st := range b.steps {
		if want[st.MergeName] {
			kept = append(kept, st)
			names = append(names, st.MergeName)
			delete(want, st.MergeName)
		}
	}
	if len(want) > 0 {
		var all, missing []string
		for _, st := range b.steps {
			all = append(all, st.MergeName)
		}
		for _, name := range some {
			if want[strings.TrimSpace(name)] {
				missing = append(missing, strings.TrimSpace(name))
			}
		}
		return inputerr.Errorf("%s: no step %s in the results (their steps: %s)", from, strings.Join(missing, ", "), strings.Join(all, " "))
	}
	if len(kept) < len(b.steps) {
		b.note("steps: the %d steps %s of %s; the other %d steps are left out", len(kept), strings.Join(names, " "), from, len(b.steps)-len(kept))
	}
	b.steps = kept
	return nil
}

func (b *ibench) note(format string, args ...any) {
	b.rep.Notes = append(b.rep.Notes, metrics.Warnf(format, args...))
}

// names sets the DBMS list by display tag. Raw trees use the --dbms list;
// an archive has its list in the mrg files: the first step's rows and
// breaks, then any DBMS only later steps have.
func (b *ibench) names() {
	if !b.res.Archived() {
		byName := map[string]*metrics.TreeResult{}
		for _, t := range b.res.Trees {
			byName[t.Name()] = t
		}
		prefix := parse.RowPrefix(firstName(b.res.List))
		for _, e := range b.res.List {
			if e.Break {
				b.list = append(b.list, e)
				continue
			}
			tag := displayTag(e.Name, prefix, b.edge.scripts)
			b.tree[tag] = byName[e.Name]
			b.list = append(b.list, Entry{Name: tag})
		}
	} else {
		seen := map[string]bool{}
		for i, st := range b.steps {
			for _, r := range b.merged[st.MergeName].rows {
				switch {
				case r.kind == breakRow && i == 0:
					b.list = append(b.list, Entry{Break: true})
				case r.kind == dataRow:
					if i == 0 || !seen[r.tag] {
						b.list = append(b.list, Entry{Name: r.tag})
					}
					seen[r.tag] = true
				}
			}
		}
	}
	b.shown = shown(b.list)
	b.rep.DBMS = b.shown
}

// clients takes the client count from the flag or the raw trees' dop.
func (b *ibench) clients(flag int) {
	b.nClients = flag
	if flag > 0 || b.res.Archived() {
		if flag == 0 && b.hasReadWrite() {
			b.note("the client count is unknown for archived results (use --clients): no insert-rate targets")
		}
		b.rep.Clients = flag
		return
	}
	// Each tree's targets use its own client count: a sweep has trees of
	// several counts. A step that ran with another count than its tree's
	// first step is noted.
	b.treeClients = map[string]int{}
	for _, t := range b.res.Trees {
		first := t.Dop()
		if b.nClients == 0 {
			b.nClients = first
		}
		b.treeClients[displayTag(t.Name(), parse.RowPrefix(firstName(b.res.List)), b.edge.scripts)] = first
		for _, sr := range t.Steps {
			if d := sr.Dop; d != 0 && d != first {
				b.note("%s %s ran with %s, the first step with %d; targets use %d", t.Name(), sr.Step.Name, metrics.Plural(d, "client"), first, first)
			}
		}
	}
	b.rep.Clients = b.nClients
}

// clientsOf is the client count of a DBMS's targets: its tree's, else the
// report's.
func (b *ibench) clientsOf(tag string) int {
	if n := b.treeClients[tag]; n > 0 {
		return n
	}
	return b.nClients
}

// clientCounts lists the distinct client counts of the shown DBMS, in
// order of appearance.
func (b *ibench) clientCounts() []int {
	var out []int
	for _, tag := range b.shown {
		if n := b.clientsOf(tag); n > 0 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (b *ibench) hasReadWrite() bool {
	for _, st := range b.steps {
		if st.Kind.ReadWrite() {
			return true
		}
	}
	return false
}

var reRWColumn = regexp.MustCompile(`^(q[rp]?[0-9]+)\.(L)?[0-9]+$`)

// stepInfos describes the steps; a read+write step's summary column drops
// the ".L<k>" as the original did, unless two steps would then share it.
func (b *ibench) stepInfos() {
	count := map[string]int{}
	short := func(st parse.Step) string {
		if m := reRWColumn.FindStringSubmatch(st.MergeName); m != nil && m[2] == "L" {
			return m[1]
		}
		return st.MergeName
	}
	for _, st := range b.steps {
		count[short(st)]++
	}
	for _, st := range b.steps {
		info := StepInfo{
			Name:      st.MergeName,
			Column:    st.MergeName,
			Kind:      st.Kind.String(),
			ReadWrite: st.Kind.ReadWrite(),
			Rate:      st.Rate,
		}
		if count[short(st)] == 1 {
			info.Column = short(st)
		}
		switch {
		case st.Kind == parse.CreateIndex:
			info.Unit = "indexed rows/s"
		case st.Kind.ReadWrite():
			info.Unit = "queries/s"
		default:
			info.Unit = "inserts/s"
			info.Kind = "load"
		}
		info.Description = b.describe(st)
		b.rep.Steps = append(b.rep.Steps, info)
	}
}

// describe is the step description of the original contents list,
// generalized to any step of the naming scheme.
func (b *ibench) describe(st parse.Step) string {
	name := st.MergeName + ": "
	switch {
	case st.Kind == parse.CreateIndex:
		return name + "create secondary indexes"
	case st.Kind.ReadWrite():
		q := "range"
		if st.Kind == parse.ReadWritePoint {
			q = "point"
		}
		return fmt.Sprintf("%s%s queries with %d insert/s per client", name, q, st.Rate)
	case st.Seq == 0:
		return name + "load without secondary indexes"
	}
	d := name + "continue load after secondary indexes created"
	if rpc := b.rowsPerCommit(st); rpc > 0 {
		d += fmt.Sprintf(" with %d inserts per transaction", rpc)
	}
	return d
}

func (b *ibench) rowsPerCommit(st parse.Step) int {
	for _, t := range b.res.Trees {
		if sr := t.Step(st.MergeName); sr != nil && sr.Clients > 0 {
			return sr.RowsPerCommit
		}
	}
	switch st.Name { // archives: the values the original text hard-codes
	case "l.i1":
		return 50
	case "l.i2":
		return 5
	}
	return 0
}

func (b *ibench) defaultTitle() string {
	if len(b.steps) == 0 {
		return "sysbench"
	}
	var p string
	if !b.res.Archived() {
		p = parse.RowPrefix(firstName(b.res.List))
	}
	if counts := b.clientCounts(); len(counts) > 1 {
		slices.Sort(counts)
		return fmt.Sprintf("Insert benchmark with %d to %d clients", counts[0], counts[len(counts)-1])
	}
	switch {
	case p != "" && b.nClients > 0:
		return fmt.Sprintf("%sM docs and %s", strings.TrimSuffix(p, "m"), metrics.Plural(b.nClients, "client"))
	case b.nClients > 0:
		return "Insert benchmark with " + metrics.Plural(b.nClients, "client")
	}
	return "Insert benchmark"
}

// row returns the merged row of a DBMS in a step: the first row of its tag.
func (b *ibench) row(step, tag string) (*mergedTable, *mergedRow) {
	mt := b.merged[step]
	if mt == nil {
		return nil, nil
	}
	return mt, mt.find(tag, false)
}

// cell returns the merged value of a DBMS in a step for a column. A DBMS
// without a row is NA (ibEdge.missing).
func (b *ibench) cell(step, tag, col string) metrics.Value {
	mt, r := b.row(step, tag)
	if r == nil {
		return b.edge.missing(step)
	}
	return mt.value(r, col)
}

// throughputCol is the column of a step's throughput: queries per second for
// read+write steps, inserts per second otherwise.
func throughputCol(st parse.Step) string {
	if st.Kind.ReadWrite() {
		return metrics.QPS.Name()
	}
	return metrics.IPS.Name()
}

// number is a value as the colour rules read it (ibEdge.number).
func (b *ibench) number(v metrics.Value) (float64, bool) { return b.edge.number(v) }

func (b *ibench) columns() []string {
	var out []string
	for _, s := range b.rep.Steps {
		out = append(out, s.Column)
	}
	return out
}

// missedTargets flags the DBMS whose insert rate in a read+write step was
// below 95% of the target (clients × rate): in compat mode, and for
// archived mrg files, the step's average; in the default mode, from raw
// logs, the rate of the clients' full intervals (sustained).
func (b *ibench) missedTargets(st parse.Step) map[string]bool {
	out := map[string]bool{}
	if !st.Kind.ReadWrite() || b.nClients == 0 {
		return out
	}
	for _, tag := range b.shown {
		t95 := math.RoundToEven(0.95 * float64(b.clientsOf(tag)*st.Rate))
		v, ok := b.number(b.cell(st.MergeName, tag, metrics.IPS.Name()))
		if full, known := b.sustained(st, tag); known {
			v, ok = full, true
		}
		if ok && v < t95 {
			out[tag] = true
		}
	}
	return out
}
