package report

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// BuildOptions control Build. The zero value builds the default report.
type BuildOptions struct {
	Title string // default: "<N>M docs and <C> client(s)" as the original
	// Intro is the report's introduction in Markdown (server, DBMS versions,
	// configs). Empty means a generated description of the steps and DBMS.
	Intro string
	// Clients is the number of benchmark clients; 0 means the dop of the raw
	// trees. Archives need it for the insert-rate targets.
	Clients int
}

// Build computes the report of loaded results. It reads nothing: raw trees
// were read by Load, and the tables come from the same code that writes
// `ibreport tables`, so the report shows exactly the numbers of the mrg files.
func Build(res *Results, opt BuildOptions) (*Report, error) {
	files, warns, err := res.Tables(nil)
	if err != nil {
		return nil, err
	}
	b := &builder{
		res:    res,
		compat: res.Options.Compat,
		files:  map[string][]string{},
		rows:   map[string]map[string][]string{},
		rep: &Report{
			Schema: SchemaVersion,
			Compat: res.Options.Compat,
			Source: "raw",
			Bands:  Bands(),
			Notes:  warns,
		},
	}
	for _, f := range files {
		b.files[f.Name] = splitLines(f.Data)
	}
	hasIbench := res.Archived() || len(res.Trees) > 0
	if res.Archived() {
		b.rep.Source = "archive"
		b.steps = res.Steps
	} else {
		b.steps = unionSteps(res.Trees)
	}
	if hasIbench {
		if err := b.readMerged(); err != nil {
			return nil, err
		}
		b.names()
		if len(b.shown) == 0 {
			return nil, badf("%s: no DBMS rows in the merged tables", res.Dir)
		}
		b.clients(opt.Clients)
		b.stepInfos()
	}
	b.rep.Title = opt.Title
	if b.rep.Title == "" {
		b.rep.Title = b.defaultTitle()
	}
	if hasIbench {
		b.summary()
		b.relative()
		b.insertRate()
		for i, st := range b.steps {
			b.section(st, b.rep.Steps[i])
		}
		for i, st := range b.steps {
			b.allMetrics(st, b.rep.Steps[i])
			b.responseTimes(st, b.rep.Steps[i])
		}
	}
	if hasIbench {
		b.rep.Legend = legend()
	}
	if res.Sysbench != nil && len(res.Sysbench.DBMS) > 0 {
		b.sysbench(res.Sysbench, res.SysbenchOptions)
		b.rep.Legend = append(b.rep.Legend, sysbenchLegend()...)
	}
	b.rep.Intro = opt.Intro
	if strings.TrimSpace(b.rep.Intro) == "" {
		b.rep.Intro = b.defaultIntro()
	}
	return b.rep, nil
}

type builder struct {
	res    *Results
	compat bool
	rep    *Report
	files  map[string][]string
	steps  []parse.Step
	// merged holds each step's mrg table; rows maps step → tag → cells.
	merged map[string]*parse.Table
	rows   map[string]map[string][]string
	// list is the DBMS list by display tag (prefix removed), with breaks.
	list []Entry
	// shown are the display tags the summary shows; tree maps a tag to its
	// raw tree (none for an archive).
	shown []string
	tree  map[string]*metrics.TreeResult
	// missed[step][tag]: the DBMS missed the step's insert-rate target.
	missed   map[string]map[string]bool
	nClients int
	// iostatHeaders are the names of the iostat header files, one per dop,
	// sorted; found once.
	iostatHeaders []string
}

func splitLines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// readMerged parses every mrg.<step> table once.
func (b *builder) readMerged() error {
	b.merged = map[string]*parse.Table{}
	for _, st := range b.steps {
		name := "mrg." + st.MergeName
		lines := b.files[name]
		if b.res.Archived() {
			// Tables does not copy the archive's mrg files; read them as given.
			data, err := readFSLines(b.res, name)
			if err != nil {
				return err
			}
			lines = data
		}
		t, err := parse.ReadTable(strings.NewReader(strings.Join(lines, "\n")+"\n"), name)
		if se := parse.SyntaxErrors(err); se != nil {
			for _, e := range se {
				b.note("%v", e)
			}
		} else if err != nil {
			return err
		}
		b.merged[st.MergeName] = t
		byTag := map[string][]string{}
		for _, l := range t.Lines {
			if l.Kind != parse.TableRow {
				continue
			}
			tag := l.Cells[len(l.Cells)-1]
			if _, ok := byTag[tag]; !ok {
				byTag[tag] = l.Cells
			}
		}
		b.rows[st.MergeName] = byTag
	}
	return nil
}

func readFSLines(res *Results, name string) ([]string, error) {
	var buf bytes.Buffer
	f, err := res.FS.Open(name)
	if err != nil {
		return nil, bad(err)
	}
	defer f.Close()
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, bad(fmt.Errorf("%s: %w", name, err))
	}
	return splitLines(buf.Bytes()), nil
}

func (b *builder) note(format string, args ...any) {
	b.rep.Notes = append(b.rep.Notes, fmt.Sprintf(format, args...))
}

// names sets the DBMS list by display tag. Raw trees use the --dbms list;
// an archive has its list in the mrg files: the first step's rows and
// breaks, then any DBMS only later steps have.
func (b *builder) names() {
	b.tree = map[string]*metrics.TreeResult{}
	if !b.res.Archived() {
		byName := map[string]*metrics.TreeResult{}
		for _, t := range b.res.Trees {
			byName[t.Tree.Name] = t
		}
		prefix := parse.RowPrefix(firstName(b.res.List))
		for _, e := range b.res.List {
			if e.Break {
				b.list = append(b.list, e)
				continue
			}
			tag := metrics.StripPrefix(e.Name, prefix, b.compat)
			b.tree[tag] = byName[e.Name]
			b.list = append(b.list, Entry{Name: tag})
		}
	} else {
		seen := map[string]bool{}
		for i, st := range b.steps {
			for _, l := range b.merged[st.MergeName].Lines {
				switch {
				case l.Kind == parse.TableBreak && i == 0:
					b.list = append(b.list, Entry{Break: true})
				case l.Kind == parse.TableRow:
					tag := l.Cells[len(l.Cells)-1]
					if i == 0 || !seen[tag] {
						b.list = append(b.list, Entry{Name: tag})
					}
					seen[tag] = true
				}
			}
		}
	}
	b.shown = shown(b.list)
	b.rep.DBMS = b.shown
}

// clients takes the client count from the flag or the raw trees' dop.
func (b *builder) clients(flag int) {
	b.nClients = flag
	if flag > 0 || b.res.Archived() {
		if flag == 0 && b.hasReadWrite() {
			b.note("the client count is unknown for archived results (use --clients): no insert-rate targets")
		}
		b.rep.Clients = flag
		return
	}
	for _, t := range b.res.Trees {
		for _, sr := range t.Steps {
			d := sr.Data.Dop
			if d == 0 {
				continue
			}
			if b.nClients == 0 {
				b.nClients = d
			} else if d != b.nClients {
				b.note("%s %s ran with %d clients, the first step with %d; targets use %d", t.Tree.Name, sr.Data.Step.Name, d, b.nClients, b.nClients)
			}
		}
	}
	b.rep.Clients = b.nClients
}

func (b *builder) hasReadWrite() bool {
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
func (b *builder) stepInfos() {
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
func (b *builder) describe(st parse.Step) string {
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

func (b *builder) rowsPerCommit(st parse.Step) int {
	for _, t := range b.res.Trees {
		if sr := t.Step(st.MergeName); sr != nil && len(sr.Data.Clients) > 0 {
			return int(sr.Data.Clients[0].IntOption("rows_per_commit", 0))
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

func (b *builder) defaultTitle() string {
	if len(b.steps) == 0 {
		return "sysbench"
	}
	var p string
	if !b.res.Archived() {
		p = parse.RowPrefix(firstName(b.res.List))
	}
	switch {
	case p != "" && b.nClients > 0:
		return fmt.Sprintf("%sM docs and %d client(s)", strings.TrimSuffix(p, "m"), b.nClients)
	case b.nClients > 0:
		return fmt.Sprintf("Insert benchmark with %d client(s)", b.nClients)
	}
	return "Insert benchmark"
}

func (b *builder) defaultIntro() string {
	var s strings.Builder
	if len(b.steps) > 0 {
		b.ibenchIntro(&s)
	}
	if sb := b.rep.Sysbench; sb != nil {
		if s.Len() > 0 {
			s.WriteString("\n")
		}
		fmt.Fprintf(&s, "The sysbench results compare %d DBMS", len(sb.DBMS))
		if len(sb.DBMS) > 1 {
			fmt.Fprintf(&s, " with the base %s", mdEscape(sb.Base))
		}
		s.WriteString(":\n\n")
		for _, d := range sb.DBMS {
			fmt.Fprintf(&s, "- %s\n", mdEscape(d))
		}
	}
	return s.String()
}

func (b *builder) ibenchIntro(s *strings.Builder) {
	fmt.Fprintf(s, "Results of the insert benchmark (%s).", mdEscape(b.rep.Title))
	if b.rep.Source == "archive" {
		s.WriteString(" It was built from archived merged tables, so the parts that need raw logs are left out.")
	}
	s.WriteString("\n\nThe steps are:\n\n")
	for _, st := range b.rep.Steps {
		name, desc, _ := strings.Cut(st.Description, ": ")
		fmt.Fprintf(s, "- **%s**: %s\n", mdEscape(name), mdEscape(desc))
	}
	s.WriteString("\nThe DBMS are listed below; the first DBMS of each group is the base of the relative tables.\n\n")
	groups := [][]string{nil}
	for _, e := range b.list {
		switch {
		case e.Break && len(groups[len(groups)-1]) > 0:
			groups = append(groups, nil)
		case !e.Break:
			groups[len(groups)-1] = append(groups[len(groups)-1], e.Name)
		}
	}
	for gi, g := range groups {
		for i, name := range g {
			s.WriteString("- ")
			if len(groups) > 1 {
				fmt.Fprintf(s, "group %d: ", gi+1)
			}
			s.WriteString(mdEscape(name))
			if i == 0 {
				s.WriteString(" (base)")
			}
			s.WriteString("\n")
		}
	}
}

// mdEscape escapes text for Markdown: the characters that start inline
// markup or end a table cell get a backslash, and <, > and & become
// entities, so no name turns into markup. Dots and dashes stay as they are,
// so numbers read well in the Markdown source too.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case strings.ContainsRune("\\`*_[]|~", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// value returns the mrg cell of a DBMS in a step: ips for loads, qps for
// read+write steps (col), with whether the row exists.
func (b *builder) cell(step, tag string, col int) (string, bool) {
	cells, ok := b.rows[step][tag]
	if !ok || col >= len(cells) {
		return "NA", false
	}
	return cells[col], true
}

func throughputCol(st parse.Step) int {
	if st.Kind.ReadWrite() {
		return metrics.ColQps
	}
	return metrics.ColIps
}

// number reads a cell for banding: compat reads as awk (empty is 0), the
// default mode only takes finite numbers.
func (b *builder) number(s string) (float64, bool) {
	return metrics.Number(s, b.compat)
}

func textCell(s string) Cell {
	if s == "NA" {
		return Cell{Text: s, Band: NotANumber}
	}
	return Cell{Text: s}
}

func header(cols ...string) []string { return append([]string{"dbms"}, cols...) }

func (b *builder) columns() []string {
	var out []string
	for _, s := range b.rep.Steps {
		out = append(out, s.Column)
	}
	return out
}

// summary is the absolute-throughput table (tput.tab) with quartile bands.
func (b *builder) summary() {
	b.missed = map[string]map[string]bool{}
	for _, st := range b.steps {
		b.missed[st.MergeName] = b.missedTargets(st)
	}
	t := &Table{
		ID:     "throughput",
		Title:  "Average throughput",
		Header: header(b.columns()...),
		Caption: "Inserts/s for load steps, indexed rows/s for create index and queries/s for read+write steps, " +
			"averaged over the step. Per column, values in the bottom 25% of the range are red (▼), values in the top 25% green (▲). " +
			"Red is not used when the minimum is at least 80% of the maximum. " +
			"Gray (○) marks a DBMS that missed the step's insert-rate target: ignore that value.",
	}
	for _, tag := range b.shown {
		t.Rows = append(t.Rows, Row{Kind: DataRow, Cells: []Cell{{Text: tag}}})
	}
	for _, st := range b.steps {
		vals := make([]string, len(b.shown))
		ignored := make([]bool, len(b.shown))
		for i, tag := range b.shown {
			vals[i], _ = b.cell(st.MergeName, tag, throughputCol(st))
			ignored[i] = b.missed[st.MergeName][tag]
			if vals[i] == "NA" {
				t.Notes = append(t.Notes, fmt.Sprintf("%s %s: NA: %s", tag, st.MergeName, b.whyNA(st, tag)))
			}
		}
		for i, c := range quartileBands(vals, ignored, b.compat) {
			t.Rows[i].Cells = append(t.Rows[i].Cells, c)
		}
	}
	b.rep.Summary = t
}

// whyNA explains a missing summary cell.
func (b *builder) whyNA(st parse.Step, tag string) string {
	if _, ok := b.rows[st.MergeName][tag]; !ok {
		return "no row in mrg." + st.MergeName
	}
	if t := b.tree[tag]; t != nil {
		sr := t.Step(st.MergeName)
		if sr == nil {
			return "the step is missing"
		}
		col := metrics.RowColumns[throughputCol(st)]
		if why, ok := sr.Row.Notes[col]; ok {
			return why
		}
		if why, ok := sr.Row.Notes["all"]; ok {
			return why
		}
	}
	return "the merged table has no number there"
}

// quartileBands applies the summary table's colour rules to one column
// (FORMATS.md §6.3). Compat mode keeps the original's order: the minimum
// is over all rows, the maximum skips ignored rows and red wins over gray.
// The default mode leaves ignored rows out of the range entirely, and gray
// wins, so a value to ignore never decides or gets a colour.
func quartileBands(vals []string, ignored []bool, compat bool) []Cell {
	out := make([]Cell, len(vals))
	nums := make([]float64, len(vals))
	ok := make([]bool, len(vals))
	// The original started the minimum at 999999999; the default mode has
	// no such ceiling.
	minv, maxv := 999999999.0, 0.0
	if !compat {
		minv = math.Inf(1)
	}
	inRange := false
	for i, s := range vals {
		nums[i], ok[i] = metrics.Number(s, compat)
		if !ok[i] {
			continue
		}
		if nums[i] < minv && (compat || !ignored[i]) {
			minv = nums[i]
		}
		if nums[i] > maxv && !ignored[i] {
			maxv = nums[i]
		}
		inRange = inRange || !ignored[i]
	}
	g4 := math.Trunc(0.25 * (maxv - minv))
	topq, botq := maxv-g4, minv+g4
	if math.RoundToEven(minv*1000) >= math.RoundToEven(maxv*0.8*1000) {
		botq = 0
	}
	for i, s := range vals {
		c := textCell(s)
		v := nums[i]
		switch {
		case !ok[i]:
			if s != "NA" {
				c.Band = NotANumber
			}
		case !compat && ignored[i]:
			c.Band = Ignored
		case !compat && !inRange:
		case v <= botq:
			c.Band = Bottom
		case ignored[i]:
			c.Band = Ignored
		case v >= topq:
			c.Band = Top
		}
		out[i] = c
	}
	return out
}

// missedTargets flags the DBMS whose insert rate in a read+write step was
// below 95% of the target (clients × rate).
func (b *builder) missedTargets(st parse.Step) map[string]bool {
	out := map[string]bool{}
	if !st.Kind.ReadWrite() || b.nClients == 0 {
		return out
	}
	t95 := math.RoundToEven(0.95 * float64(b.nClients*st.Rate))
	for _, tag := range b.shown {
		s, _ := b.cell(st.MergeName, tag, metrics.ColIps)
		if v, ok := b.number(s); ok && v < t95 {
			out[tag] = true
		}
	}
	return out
}

// relative is the table of throughput relative to the base DBMS of each
// group (tputr.tab).
func (b *builder) relative() {
	t := &Table{
		ID:     "relative",
		Title:  "Relative throughput",
		Header: header(b.columns()...),
		Caption: "Throughput relative to the base DBMS, the first DBMS of each group (shown as 1.00). " +
			"Values below 0.95 are yellow (▽), values above 1.05 blue (△).",
	}
	var base string
	started := false
	groupStart := false
	for _, e := range b.list {
		if e.Break {
			base = ""
			groupStart = started
			continue
		}
		started = true
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: []Cell{{Text: e.Name}}}
		groupStart = false
		isBase := base == ""
		if isBase {
			base = e.Name
			row.Cells[0].Band = Base
		}
		for _, st := range b.steps {
			col := throughputCol(st)
			v, _ := b.cell(st.MergeName, e.Name, col)
			if isBase {
				c := textCell(v)
				if _, ok := b.number(v); ok {
					c = Cell{Text: "1.00"}
				}
				row.Cells = append(row.Cells, c)
				continue
			}
			bv, _ := b.cell(st.MergeName, base, col)
			row.Cells = append(row.Cells, relCell(metrics.CellRatioText(v, bv, !b.compat)))
		}
		t.Rows = append(t.Rows, row)
	}
	b.rep.Relative = t
}

// relCell bands a ratio: p = round(ratio × 100), above 105 or below 95.
func relCell(s string) Cell {
	c := textCell(s)
	r, err := strconv.ParseFloat(s, 64)
	switch {
	case s == "1":
		c.Text = "1.00"
	case err != nil && s != "inf":
		if s != "NA" {
			c.Band = NotANumber
		}
	case s == "inf" || math.RoundToEven(r*100) > 105:
		c.Band = Above
	case math.RoundToEven(r*100) < 95:
		c.Band = Below
	}
	return c
}

// insertRate is the table of achieved insert rates during the read+write
// steps against their targets (iput.tab).
func (b *builder) insertRate() {
	var rw []parse.Step
	for _, st := range b.steps {
		if st.Kind.ReadWrite() {
			rw = append(rw, st)
		}
	}
	if len(rw) == 0 || b.nClients == 0 {
		return
	}
	t := &Table{
		ID:    "insert-rate",
		Title: "Insert rate during read+write steps",
		Caption: fmt.Sprintf("Average inserts/s during the read+write steps. The target is %d client(s) × the per-client rate; "+
			"values below 95%% of the target are red (✗): that DBMS did not sustain the target.", b.nClients),
	}
	t.Header = append(t.Header, "dbms")
	for _, st := range rw {
		t.Header = append(t.Header, st.MergeName)
	}
	for _, tag := range b.shown {
		row := Row{Kind: DataRow, Cells: []Cell{{Text: tag}}}
		for _, st := range rw {
			s, _ := b.cell(st.MergeName, tag, metrics.ColIps)
			c := textCell(s)
			if b.missed[st.MergeName][tag] {
				c.Band = Missed
			}
			row.Cells = append(row.Cells, c)
		}
		t.Rows = append(t.Rows, row)
	}
	target := Row{Kind: TargetRow, Cells: []Cell{{Text: "target"}}}
	for _, st := range rw {
		target.Cells = append(target.Cells, Cell{Text: strconv.Itoa(b.nClients * st.Rate), Band: TargetValue})
	}
	t.Rows = append(t.Rows, target)
	b.rep.InsertRate = t
}

// tagFirst turns a table of the original layout (tag in the last column)
// into one with the DBMS first; short rows are padded with NA.
func tagFirst(id, title string, lines []string, sep string) *Table {
	if len(lines) == 0 {
		return nil
	}
	t := &Table{ID: id, Title: title}
	hdr := strings.Split(lines[0], sep)
	if n := len(hdr); n > 0 && hdr[n-1] == "tag" {
		hdr = hdr[:n-1]
	}
	t.Header = header(hdr...)
	groupStart := false
	for _, l := range lines[1:] {
		if l == "-" {
			groupStart = len(t.Rows) > 0
			continue
		}
		cells := strings.Split(l, sep)
		tag := cells[len(cells)-1]
		vals := cells[:len(cells)-1]
		row := Row{Kind: DataRow, GroupStart: groupStart, Cells: []Cell{{Text: tag}}}
		groupStart = false
		for i := 0; i < len(hdr); i++ {
			v := "NA"
			if i < len(vals) {
				v = vals[i]
			}
			row.Cells = append(row.Cells, textCell(v))
		}
		if len(vals) != len(hdr) {
			t.Notes = append(t.Notes, fmt.Sprintf("%s has %d values for %d columns", tag, len(vals), len(hdr)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (b *builder) section(st parse.Step, info StepInfo) {
	sec := &StepSection{Step: info}
	sec.Throughput = b.throughputChart(st)
	if b.res.Archived() {
		sec.Notes = append(sec.Notes, "Per-interval charts, response-time histograms and iostat averages need the raw logs; this report was built from archived mrg files.")
	} else {
		sec.Intervals = b.intervalCharts(st)
		for _, k := range histKinds(st) {
			name := fmt.Sprintf("mrg.%s.rt.%s.some", st.MergeName, k)
			if lines, ok := b.files[name]; ok {
				sec.Histograms = append(sec.Histograms, histogramTable(st, k, lines))
			}
		}
		if st.Kind == parse.CreateIndex {
			sec.Notes = append(sec.Notes, "There are no response-time histograms for creating the indexes.")
		}
		sec.Iostat = b.iostatTable(st)
	}
	some := b.files["mrg."+st.MergeName+".some"]
	if b.res.Archived() {
		some = b.someFromArchive(st)
	}
	sec.Metrics = tagFirst(st.MergeName+".some", "Metrics", some, "\t")
	if sec.Metrics != nil {
		sec.Metrics.Caption = "Performance metrics of the DBMS listed above; the legend at the end explains each column."
	}
	b.rep.Sections = append(b.rep.Sections, sec)
}

// someFromArchive picks the shown DBMS' rows from an archived mrg table.
func (b *builder) someFromArchive(st parse.Step) []string {
	t := b.merged[st.MergeName]
	if t == nil || t.Header == nil {
		return nil
	}
	out := []string{strings.Join(t.Header, "\t")}
	for _, tag := range b.shown {
		if cells, ok := b.rows[st.MergeName][tag]; ok {
			out = append(out, strings.Join(cells, "\t"))
		}
	}
	return out
}

// histKinds are the histograms a step's section shows, queries first for
// read+write steps as the original did.
func histKinds(st parse.Step) []parse.HistKind {
	if st.Kind.ReadWrite() {
		return []parse.HistKind{parse.Query, parse.Insert, parse.Delete}
	}
	return []parse.HistKind{parse.Insert, parse.Delete}
}

// histogramTable shades the percentages and bands the max column of a
// histogram merge (FORMATS.md §6.6).
func histogramTable(st parse.Step, k parse.HistKind, lines []string) *Table {
	t := tagFirst(st.MergeName+".hist."+k.String(), kindTitle(k)+" response time histogram", lines, "\t")
	if t == nil {
		return nil
	}
	t.Caption = "Each cell is the percentage of responses in the bucket (at most the bucket's time, more than the previous one); " +
		"darker cells hold more. max is the largest response time in seconds: the slowest 25% of its range are red (▼), the fastest 25% green (▲); " +
		"green is not used when the minimum is at least 80% of the maximum."
	last := len(t.Header) - 1
	if last < 1 || t.Header[last] != "max" {
		return t
	}
	minv, maxv := math.Inf(1), math.Inf(-1)
	for _, r := range t.Rows {
		if v, err := strconv.ParseFloat(r.Cells[last].Text, 64); err == nil {
			minv, maxv = math.Min(minv, v), math.Max(maxv, v)
		}
	}
	g4, _ := strconv.ParseFloat(strconv.FormatFloat((maxv-minv)/4, 'f', 3, 64), 64)
	topq := math.RoundToEven((maxv - g4) * 1000)
	botq := math.RoundToEven((minv + g4) * 1000)
	if math.RoundToEven(minv*1000) >= math.RoundToEven(maxv*0.8*1000) {
		botq = 0
	}
	for ri := range t.Rows {
		cells := t.Rows[ri].Cells
		for ci := 1; ci < len(cells); ci++ {
			c := &cells[ci]
			v, err := strconv.ParseFloat(c.Text, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if ci == last {
				m := math.RoundToEven(v * 1000)
				if m >= topq {
					c.Band = Slowest
				} else if m <= botq {
					c.Band = Fastest
				}
				continue
			}
			if c.Text == "0.000" {
				c.Text = "" // the original leaves empty buckets blank
				continue
			}
			c.Shade = int(math.RoundToEven(v / 5))
		}
	}
	return t
}

// iostatTable is the step's iostat averages per shown DBMS.
func (b *builder) iostatTable(st parse.Step) *Table {
	if b.iostatHeaders == nil {
		b.iostatHeaders = []string{}
		for name := range b.files {
			if strings.HasPrefix(name, "o.iostat.avg.header.") {
				b.iostatHeaders = append(b.iostatHeaders, name)
			}
		}
		sort.Strings(b.iostatHeaders)
	}
	var hdr, data []string
	for _, name := range b.iostatHeaders {
		dop := strings.TrimPrefix(name, "o.iostat.avg.header.")
		if d := b.files["o.iostat.avg.data."+dop+"."+st.MergeName]; len(d) > 0 && len(b.files[name]) > 0 {
			hdr, data = b.files[name], d
			break
		}
	}
	if hdr == nil || len(data) == 0 {
		return nil
	}
	h := strings.TrimRight(hdr[0], "\t")
	var rows []string
	for _, l := range data {
		cells := strings.Split(l, "\t")
		tag := cells[len(cells)-1]
		vals := strings.TrimRight(strings.Join(cells[:len(cells)-1], "\t"), "\t")
		rows = append(rows, vals+"\t"+tag)
	}
	t := tagFirst(st.MergeName+".iostat", "iostat averages", append([]string{h + "\ttag"}, rows...), "\t")
	t.Caption = "Average values from iostat for the database device."
	return t
}

func (b *builder) allMetrics(st parse.Step, info StepInfo) {
	t := b.merged[st.MergeName]
	var lines []string
	if t != nil {
		for _, l := range t.Lines {
			if l.Kind == parse.TableHeader || l.Kind == parse.TableRow || l.Kind == parse.TableBreak {
				lines = append(lines, l.Text)
			}
		}
	}
	tab := tagFirst(st.MergeName+".metrics", info.Description, lines, "\t")
	if tab == nil {
		tab = &Table{ID: st.MergeName + ".metrics", Title: info.Description, Header: header(), Notes: []string{"no merged table for this step"}}
	}
	tab.Caption = "Metrics of every DBMS of the list, not only those in the summary; each group starts with its base DBMS."
	b.rep.AllMetrics = append(b.rep.AllMetrics, tab)
}

func (b *builder) responseTimes(st parse.Step, info StepInfo) {
	sec := &StepTables{Step: info}
	switch {
	case b.res.Archived():
		sec.Notes = append(sec.Notes, "Response-time histograms need the raw logs.")
	case st.Kind == parse.CreateIndex:
		sec.Notes = append(sec.Notes, "There are no response-time histograms for creating the indexes.")
	default:
		for _, k := range histKinds(st) {
			name := fmt.Sprintf("mrg.%s.rt.%s", st.MergeName, k)
			if lines, ok := b.files[name]; ok && len(lines) > 0 {
				t := tagFirst(st.MergeName+".rt."+k.String(), kindTitle(k)+" response time histogram", lines, "\t")
				t.Caption = "Percentage of responses per bucket for every DBMS of the list; max is in seconds."
				sec.Tables = append(sec.Tables, t)
			}
		}
	}
	b.rep.ResponseTimes = append(b.rep.ResponseTimes, sec)
}

func legend() []LegendItem {
	return []LegendItem{
		{"ips", "average inserted rows per second over the step (l.x: rows indexed per second)"},
		{"qps", "average queries per second (0 for load steps)"},
		{"rps, wps", "storage read and write requests per second (iostat r/s, w/s)"},
		{"rmbps, wmbps", "storage MiB read and written per second"},
		{"rpq, rkbpq", "storage reads and KiB read per operation"},
		{"wpi, wkbpi", "storage writes and KiB written per inserted row"},
		{"csps, cspq", "context switches per second and per operation (vmstat cs)"},
		{"cpups", "CPU utilization: average vmstat us + sy, percent of all CPUs"},
		{"cpupq", "CPU microseconds per operation, all processes on the host"},
		{"dbgb1", "database size in GiB as reported by the DBMS or its data directory"},
		{"dbgb2", "size of the whole data directory in GiB"},
		{"rss", "RSS in GiB of the DBMS process (largest sample)"},
		{"maxop", "maximum response time in seconds (insert statement for load steps, query for read+write steps)"},
		{"p50, p99", "50th and 99th percentile of client 1's per-interval rates from the descending list: p99 is the rate 99% of the intervals reached (inserts for load steps, queries for read+write steps)"},
		{"operation", "an inserted row for load steps (l.x: an indexed row), a query for read+write steps; wpi and wkbpi are always per inserted row"},
		{"256us … gt", "histogram buckets: the percentage of responses of at most 256 µs, more than 256 µs up to 1 ms, …, more than 16 s"},
		{"max", "in histograms, the largest response time in seconds"},
	}
}

func sysbenchLegend() []LegendItem {
	return []LegendItem{
		{"QPS", "sysbench queries per second (scan tests: thousands of rows per second)"},
		{"cpu/o", "CPU seconds per operation: vmstat us + sy over the run, per query (sysbench)"},
		{"µs/o", "CPU microseconds per operation, when the CPU count is known (sysbench)"},
		{"cs/o", "context switches per operation (sysbench)"},
		{"r/o, rKB/o, wKB/o", "storage reads, KB read and KB written per operation (sysbench)"},
		{"o/s", "operations per second, the rate the per-operation values divide by (sysbench)"},
		{"Average … Stddev", "statistics over a test group of the QPS relative to the base DBMS; Stddev is the sample standard deviation"},
	}
}
