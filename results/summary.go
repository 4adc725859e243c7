package results

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
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

// MaxSummaryFile is the largest summary table read: the largest of the
// published studies is 60 KB, so a file far larger is no summary (a log
// named like one) and is skipped rather than read whole.
const MaxSummaryFile = 16 << 20

// Summaries are the sysbench summary tables of one folder, by set.
type Summaries struct {
	// Dir is the folder as the messages name it.
	Dir string
	// Sets are the sets that could be read, in natural order of their
	// names.
	Sets []*Set
	// Skipped lists the files that look like summaries but are not read
	// (a hand-made variant such as qps.abs.ma.all2.tsv.no1103) and the
	// sets that could not be read, each with why.
	Skipped []Skipped
	// Warnings are the problems met reading the sets that were kept.
	Warnings []metrics.Warning
	// SubDirs are, when no set could be read, the sub-folders that hold
	// summary tables of their own (one per host or thread count of a
	// study), in natural order; nil when there is a set.
	SubDirs []string
}

// Skipped is a file or set that was not read, and why.
type Skipped struct {
	File string // the file's name in the folder, or "set <name>"
	Why  string
}

// Set is one set of the summary tables: the builds the author compared
// in one qps.abs/qps.rel/o.met family of files, with their QPS per test
// and, where an o.met file of the same builds exists, the HW metrics per
// operation.
type Set struct {
	// Name is the set's suffix: "latest" of qps.abs.latest.tsv.
	Name string
	// Builds are the result folder names of the set's columns, in
	// column order; Builds[0] is the base of the relative values.
	Builds []string
	// Threads is the sysbench thread count, from the block names of the
	// o.met file (sb.met.<test>.dop<N>); 0 when no file of the set says.
	Threads int
	// ThreadsFrom is the file Threads comes from, "" when it is 0.
	ThreadsFrom string
	// Relative says the set has only qps.rel tables: each cell's QPS is
	// the ratio to the base (1 for the base), not queries per second.
	Relative bool
	// MetOnly says the set has only an o.met file: the QPS are its o/s
	// column, the rate an.sh divided by.
	MetOnly bool
	// Files are the files the set was read from, in name order.
	Files []string
	// Groups are the author's test groups, from qps.rel.<set>.tsv.edit
	// or from the "-> title" of the tables' headers; nil when there are
	// none, and the report groups the tests by their kind.
	Groups []parse.SysbenchGroup
	// Rows has a row per test, in the order of the tables.
	Rows []Row
	// Warnings are the problems met reading the set.
	Warnings []metrics.Warning

	edit    *editTable // while reading
	dopPair bool       // its o.met compares two thread counts
}

// Row is one test of a set.
type Row struct {
	Test parse.SysbenchTest
	// Cells has one cell per build, in the order of Set.Builds.
	Cells []Cell
}

// Cell is one build's values of one test.
type Cell struct {
	// QPS is the queries per second of qps.abs (thousands of rows per
	// second for a scan test), the ratio of qps.rel in a Relative set,
	// the o/s of o.met in a MetOnly set; NA with the reason when the
	// table has none.
	QPS metrics.Value
	// File and Line locate the QPS in the tables.
	File string
	Line int
	// Met is the build's row of the test's o.met block; nil when there
	// is none.
	Met *Met
}

// Met is one row of an o.met block (sum_met.sh): the HW metrics per
// operation of one build and test. A column the generation of the file
// lacks (cs/o before April 2024, r/o before January 2021) is NA.
type Met struct {
	CPUPerOp, CsPerOp, ReadsPerOp, ReadKBPerOp, WriteKBPerOp metrics.Value
	// OpsPerSec is the o/s column, the rate the per-operation values are
	// divided by.
	OpsPerSec metrics.Value
	File      string
	Line      int
}

// SetNames are the names of the sets, in the order of Sets.
func (s *Summaries) SetNames() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.Sets))
	for i, set := range s.Sets {
		out[i] = set.Name
	}
	return out
}

// Set returns the set of that name, or an error that lists the sets.
func (s *Summaries) Set(name string) (*Set, error) {
	if s == nil {
		return nil, inputerr.Errorf("no summary tables (nil *Summaries)")
	}
	for _, set := range s.Sets {
		if set.Name == name {
			return set, nil
		}
	}
	for _, k := range s.Skipped {
		if k.File == "set "+name {
			return nil, inputerr.Errorf("%s: set %s cannot be read: %s", names.Quoted(s.Dir), name, k.Why)
		}
	}
	if len(s.Sets) == 0 {
		return nil, inputerr.Errorf("%s: no set %q: the folder has no readable summary tables", names.Quoted(s.Dir), name)
	}
	return nil, inputerr.Errorf("%s: no set %q; the sets are %s", names.Quoted(s.Dir), name, strings.Join(s.SetNames(), ", "))
}

// Choose returns the set named name, or for "" the default set
// (DefaultSet); the error of a folder without a readable set says what
// it holds: each file or set left out and why, and the sub-folders that
// hold tables of their own.
func (s *Summaries) Choose(name string) (*Set, error) {
	if name != "" {
		return s.Set(name)
	}
	if s == nil {
		return nil, inputerr.Errorf("no summary tables (nil *Summaries)")
	}
	if set := DefaultSet(s.Sets); set != nil {
		return set, nil
	}
	var why []string
	for _, k := range s.Skipped {
		why = append(why, k.File+": "+k.Why)
	}
	msg := names.Quoted(s.Dir) + ": no readable sysbench summary tables"
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	if len(s.SubDirs) > 0 {
		msg += fmt.Sprintf("; its sub-folders %s hold summary tables of their own", strings.Join(s.SubDirs, ", "))
	}
	return nil, inputerr.Errorf("%s", msg)
}

// DefaultSet is the set a report shows when the user names none:
//
//  1. a set named latest, or ending in .latest (the author's usual
//     headline: my.latest, pg.latest);
//  2. else a set named all, or ending in .all;
//  3. else any set;
//
// among several, the one with absolute QPS (over only relative tables,
// over only o.met), then the most builds, then the first name in natural
// order. It returns nil when there is no set.
func DefaultSet(sets []*Set) *Set {
	rank := func(s *Set) int {
		switch {
		case s.Name == "latest" || strings.HasSuffix(s.Name, ".latest"):
			return 0
		case s.Name == "all" || strings.HasSuffix(s.Name, ".all"):
			return 1
		}
		return 2
	}
	kind := func(s *Set) int {
		switch {
		case s.MetOnly:
			return 2
		case s.Relative:
			return 1
		}
		return 0
	}
	var best *Set
	for _, s := range sets {
		if s == nil {
			continue
		}
		if best == nil {
			best = s
			continue
		}
		c := cmp.Or(cmp.Compare(rank(s), rank(best)), cmp.Compare(kind(s), kind(best)), cmp.Compare(len(best.Builds), len(s.Builds)))
		if c < 0 || c == 0 && names.NaturalLess(s.Name, best.Name) {
			best = s
		}
	}
	return best
}

// fileKind is the kind of a summary file.
type fileKind int

const (
	absTSV fileKind = iota
	absCSV
	relTSV
	relCSV
	relEdit
	metFile
)

func (k fileKind) String() string {
	return [...]string{"qps.abs TSV", "qps.abs CSV", "qps.rel TSV", "qps.rel CSV", "qps.rel edit", "o.met"}[k]
}

// summaryFile is a file of a set.
type summaryFile struct {
	name string
	kind fileKind
	set  string
}

// classify tells the kind and set of a file name; ok is false for a name
// that is no summary table. why is set for a name that looks like one but
// is not read.
func classify(name string) (f summaryFile, ok bool, why string) {
	f.name = name
	for _, p := range []struct {
		prefix, suffix string
		kind           fileKind
	}{
		{"qps.abs.", ".tsv", absTSV}, {"qps.abs.", ".csv", absCSV},
		{"qps.rel.", ".tsv.edit", relEdit},
		{"qps.rel.", ".tsv", relTSV}, {"qps.rel.", ".csv", relCSV},
		{"met.", ".txt", metFile},
	} {
		if rest, found := strings.CutPrefix(name, p.prefix); found {
			if set, found := strings.CutSuffix(rest, p.suffix); found && set != "" {
				f.kind, f.set = p.kind, set
				return f, true, ""
			}
		}
	}
	switch {
	case name == "o.met":
		f.kind = metFile
		return f, true, ""
	case strings.HasPrefix(name, "o.met.") && !strings.HasSuffix(name, ".err"):
		f.kind, f.set = metFile, strings.TrimPrefix(name, "o.met.")
		return f, true, ""
	case strings.HasPrefix(name, "qps.abs.") || strings.HasPrefix(name, "qps.rel."):
		return f, false, "not a table sum_qps_csv.sh writes (qps.abs|rel.<set>.tsv|csv, qps.rel.<set>.tsv.edit)"
	}
	return f, false, ""
}

// IsSummaryFile reports whether a file name is one of the summary tables
// ReadSummaries reads.
func IsSummaryFile(name string) bool {
	_, ok, _ := classify(name)
	return ok
}

// HasSummaries reports whether the folder dir of fsys holds a summary
// table, without reading any.
func HasSummaries(fsys fs.FS, dir string) (bool, error) {
	if fsys == nil {
		return false, nil
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		if !e.IsDir() && IsSummaryFile(e.Name()) {
			return true, nil
		}
	}
	return false, nil
}

// ReadSummaries reads the summary tables of the folder dir of fsys, each
// file once, into sets. shown names the folder in messages. A table that
// cannot be read (a row of the wrong width, a label that names no test,
// two rows of one test) leaves its set out, listed in Skipped with why;
// only a folder that cannot be listed and files that cannot be read for
// another reason than their content are errors.
func ReadSummaries(fsys fs.FS, dir, shown string) (*Summaries, error) {
	if fsys == nil {
		return nil, inputerr.Errorf("%s: no folder to read (a nil fs.FS)", names.Quoted(shown))
	}
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	out := &Summaries{Dir: shown}
	bySet := map[string][]summaryFile{}
	var mets []summaryFile
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		f, ok, why := classify(e.Name())
		if why != "" {
			out.Skipped = append(out.Skipped, Skipped{File: e.Name(), Why: why})
		}
		if !ok {
			continue
		}
		if f.kind == metFile {
			mets = append(mets, f)
			continue
		}
		bySet[f.set] = append(bySet[f.set], f)
	}
	// Each file belongs to one set or is one o.met file: read once.
	read := func(name string) ([]byte, error) {
		b, err := parse.ReadRegular(fsys, path.Join(dir, name), MaxSummaryFile)
		if err != nil {
			var nr *parse.NotRegularError
			var big *parse.TooLargeError
			if errors.As(err, &nr) || errors.As(err, &big) {
				return nil, errSkip{err}
			}
			return nil, inputerr.Wrap(err)
		}
		return b, nil
	}
	// The o.met files first: each is matched to the qps set of its
	// builds, and the rest become sets of their own.
	var metTables []*metTable
	for _, f := range mets {
		b, err := read(f.name)
		if err != nil {
			if skip, ok := err.(errSkip); ok {
				out.Skipped = append(out.Skipped, Skipped{File: f.name, Why: skip.Error()})
				continue
			}
			return nil, err
		}
		m, err := readMet(path.Join(shown, f.name), b)
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{File: f.name, Why: err.Error()})
			continue
		}
		m.file, m.set = f.name, f.set
		metTables = append(metTables, m)
	}
	used := map[*metTable]bool{}
	setNames := make([]string, 0, len(bySet))
	for name := range bySet {
		setNames = append(setNames, name)
	}
	slices.SortFunc(setNames, naturalCompare)
	for _, name := range setNames {
		set, err := readSet(shown, name, bySet[name], read)
		if err != nil {
			if skip, ok := err.(errSkip); ok {
				err = skip.error
			} else if !errors.Is(err, inputerr.ErrBadInput) {
				return nil, err
			}
			out.Skipped = append(out.Skipped, Skipped{File: "set " + name, Why: err.Error()})
			continue
		}
		if m := matchMet(set, metTables); m != nil {
			used[m] = true
			set.attachMet(m, shown)
		}
		out.Sets = append(out.Sets, set)
	}
	for _, m := range metTables {
		if used[m] {
			continue
		}
		set := m.set
		if set == "" {
			set = "o.met"
		}
		if slices.ContainsFunc(out.Sets, func(s *Set) bool { return s.Name == set }) {
			set = "o.met." + m.set
		}
		s, err := metOnlySet(set, m, shown)
		if err != nil {
			out.Skipped = append(out.Skipped, Skipped{File: m.file, Why: err.Error()})
			continue
		}
		out.Sets = append(out.Sets, s)
	}
	slices.SortStableFunc(out.Sets, func(a, b *Set) int { return naturalCompare(a.Name, b.Name) })
	if len(out.Sets) == 0 {
		// Only for the message of a folder without a set: a study keeps
		// one folder of tables per host or thread count.
		for _, e := range ents {
			if e.IsDir() {
				if has, err := HasSummaries(fsys, path.Join(dir, e.Name())); err == nil && has {
					out.SubDirs = append(out.SubDirs, e.Name())
				}
			}
		}
		slices.SortFunc(out.SubDirs, naturalCompare)
	}
	folderThreads(out.Sets, metTables, shown)
	for _, s := range out.Sets {
		out.Warnings = append(out.Warnings, s.Warnings...)
	}
	return out, nil
}

// errSkip is a file that is not read for what it is (a FIFO, a file
// larger than MaxSummaryFile), not for what it says.
type errSkip struct{ error }

// readSet reads the qps tables of one set.
func readSet(dir, name string, files []summaryFile, read func(string) ([]byte, error)) (*Set, error) {
	set := &Set{Name: name}
	byKind := map[fileKind]*qpsTable{}
	slices.SortFunc(files, func(a, b summaryFile) int { return strings.Compare(a.name, b.name) })
	for _, f := range files {
		b, err := read(f.name)
		if err != nil {
			return nil, err
		}
		p := path.Join(dir, f.name)
		var t *qpsTable
		switch f.kind {
		case absTSV:
			t, err = readQPSTSV(p, b, false)
		case relTSV:
			t, err = readQPSTSV(p, b, true)
		case relEdit:
			// The author's hand-edited copy gives only the groups.
			set.edit = readEdit(p, b)
			set.edit.file = f.name
		case absCSV, relCSV:
			t, err = readQPSCSV(p, b)
		}
		if err != nil {
			return nil, err
		}
		set.Files = append(set.Files, f.name)
		if t == nil {
			continue
		}
		t.file = f.name
		byKind[f.kind] = t
	}
	abs, rel := byKind[absTSV], byKind[relTSV]
	// The builds: the abs TSV's columns, else the rel TSV's base and
	// columns. The CSV tables name none.
	switch {
	case abs != nil:
		set.Builds = abs.cols
	case rel != nil:
		set.Builds = append([]string{rel.base}, rel.cols...)
	default:
		return nil, inputerr.Errorf("%s: set %s has no TSV table, which names its builds (only %s)", names.Quoted(dir), name, strings.Join(set.Files, ", "))
	}
	if err := checkBuilds(dir, set.Builds, cmp.Or(abs, rel).file); err != nil {
		return nil, err
	}
	if rel != nil && abs != nil {
		want := append([]string{rel.base}, rel.cols...)
		if !slices.Equal(want, set.Builds) {
			return nil, inputerr.Errorf("%s: %s and %s name other builds (%s vs %s)", names.Quoted(dir), abs.file, rel.file, strings.Join(set.Builds, " "), strings.Join(want, " "))
		}
	}
	main := abs
	if main == nil {
		main, set.Relative = rel, true
	}
	for _, r := range main.rows {
		row := Row{Test: r.test, Cells: make([]Cell, len(set.Builds))}
		for i := range set.Builds {
			c := &row.Cells[i]
			c.File, c.Line = path.Join(dir, main.file), r.line
			switch {
			case !set.Relative:
				c.QPS = r.cell(i, r.test.Scan())
			case i == 0:
				c.QPS = metrics.Known(1, metrics.RatioUnit)
			default:
				c.QPS = r.cellUnit(i-1, metrics.RatioUnit)
			}
		}
		set.Rows = append(set.Rows, row)
	}
	if abs != nil {
		set.checkCSV(dir, abs, byKind[absCSV])
		if rel != nil {
			set.checkRel(dir, abs, rel)
		}
	}
	if rel != nil {
		set.checkCSV(dir, rel, byKind[relCSV])
	}
	set.Groups = set.authorGroups(dir, set.edit, main)
	set.edit = nil
	return set, nil
}

// checkBuilds refuses a set whose column names are no build names: two
// columns of one name, or a name that cannot be a folder's.
func checkBuilds(dir string, builds []string, file string) error {
	seen := map[string]bool{}
	for _, b := range builds {
		if err := parse.CheckName(b); err != nil {
			return inputerr.Errorf("%s: column %q: %v", names.Quoted(path.Join(dir, file)), b, err)
		}
		if seen[b] {
			return inputerr.Errorf("%s: two columns name %s", names.Quoted(path.Join(dir, file)), b)
		}
		seen[b] = true
	}
	return nil
}

// relTolerance is how far a printed ratio (%.2f) may be from the ratio of
// the printed QPS: half its last digit, and a little for the float.
const relTolerance = 0.005 + 1e-9

// maxCellWarnings caps the warnings of one kind a set gets, the rest
// counted in one more.
const maxCellWarnings = 10

// checkRel checks the ratios of rel against the QPS of abs.
func (s *Set) checkRel(dir string, abs, rel *qpsTable) {
	byTest := map[string]*qpsRow{}
	for i := range abs.rows {
		byTest[abs.rows[i].test.Sfx] = &abs.rows[i]
	}
	n := 0
	for _, r := range rel.rows {
		a := byTest[r.test.Sfx]
		if a == nil {
			s.warn(rel.file, r.line, r.test.Sfx, "%s:%d: %s is not in %s", path.Join(dir, rel.file), r.line, r.test.Label(), abs.file)
			continue
		}
		base := a.cell(0, false)
		for k := range rel.cols {
			got := r.cellUnit(k, metrics.RatioUnit)
			other := a.cell(k+1, false)
			if !got.OK() || !base.OK() || !other.OK() || base.V == 0 {
				continue
			}
			if want := other.V / base.V; abs64(got.V-want) > relTolerance {
				n++
				if n <= maxCellWarnings {
					s.warn(rel.file, r.line, r.test.Sfx, "%s:%d: %s of %s is %s, %s gives %.3f (%s / %s)", path.Join(dir, rel.file), r.line, rel.cols[k], r.test.Label(), r.fields[k], abs.file, want, a.fields[k+1], a.fields[0])
				}
			}
		}
	}
	if n > maxCellWarnings {
		s.warn(rel.file, 0, "", "%s: %d more ratios disagree with %s", path.Join(dir, rel.file), n-maxCellWarnings, abs.file)
	}
}

// checkCSV checks the CSV table of a set against its TSV table: the same
// tests (in any order: the author regroups the TSV rows by hand at times)
// and the same numbers.
func (s *Set) checkCSV(dir string, tsv, csv *qpsTable) {
	if csv == nil {
		return
	}
	byTest := make(map[string]*qpsRow, len(tsv.rows))
	for i := range tsv.rows {
		byTest[tsv.rows[i].test.Sfx] = &tsv.rows[i]
	}
	n, found := 0, 0
	var only []string
	for _, c := range csv.rows {
		t := byTest[c.test.Sfx]
		if t == nil {
			only = append(only, c.test.Label())
			continue
		}
		found++
		if len(c.fields) != len(t.fields) {
			n++
			if n <= maxCellWarnings {
				s.warn(csv.file, c.line, c.test.Sfx, "%s:%d: %d values where %s:%d has %d", path.Join(dir, csv.file), c.line, len(c.fields), tsv.file, t.line, len(t.fields))
			}
			continue
		}
		for k := range c.fields {
			a, b := c.cellUnit(k, metrics.NoUnit), t.cellUnit(k, metrics.NoUnit)
			if a.OK() != b.OK() || a.OK() && a.V != b.V {
				n++
				if n <= maxCellWarnings {
					s.warn(csv.file, c.line, c.test.Sfx, "%s:%d: %s of %s is %q, %s:%d has %q", path.Join(dir, csv.file), c.line, colName(tsv, k), c.test.Label(), c.fields[k], tsv.file, t.line, t.fields[k])
				}
			}
		}
	}
	if n > maxCellWarnings {
		s.warn(csv.file, 0, "", "%s: %d more cells disagree with %s", path.Join(dir, csv.file), n-maxCellWarnings, tsv.file)
	}
	if len(only) > 0 {
		s.warn(csv.file, 0, "", "%s has %s that %s has not: %s", path.Join(dir, csv.file), metrics.Plural(len(only), "test"), tsv.file, strings.Join(only, ", "))
	}
	if missing := len(tsv.rows) - found; missing > 0 {
		s.warn(csv.file, 0, "", "%s lacks %s of %s", path.Join(dir, csv.file), metrics.Plural(missing, "test"), tsv.file)
	}
}

// colName names column k of a table: its build.
func colName(t *qpsTable, k int) string {
	if k < len(t.cols) {
		return t.cols[k]
	}
	return "col-" + strconv.Itoa(k+1)
}

// info adds information about file of the set, not a problem.
func (s *Set) info(file, format string, args ...any) {
	s.Warnings = append(s.Warnings, metrics.Warning{Kind: metrics.Information, File: file, Text: fmt.Sprintf(format, args...)})
}

func (s *Set) warn(file string, line int, test, format string, args ...any) {
	s.Warnings = append(s.Warnings, metrics.Warning{File: file, Line: line, Step: test, Text: fmt.Sprintf(format, args...)})
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// reQPSLabel is the label of a qps table row: tokens 3..NF of the sb.r.qps
// line joined with "_", "<test>_range=<N>", with the engine first in some
// generations ("innodb_point-query_range=100").
var reQPSLabel = regexp.MustCompile(`^(?:([^_\s]+)_)?([^_\s]+)_range=([0-9]+)$`)

// labelTest is the test a row label names.
func labelTest(label string) (parse.SysbenchTest, bool) {
	m := reQPSLabel.FindStringSubmatch(strings.TrimSpace(label))
	if m == nil {
		return parse.SysbenchTest{}, false
	}
	return parse.ParseSysbenchSfx(m[2] + ".range" + m[3] + ".pk1")
}

// naturalCompare orders names as names.NaturalLess does.
func naturalCompare(a, b string) int {
	switch {
	case names.NaturalLess(a, b):
		return -1
	case names.NaturalLess(b, a):
		return 1
	}
	return 0
}

// folderThreads gives the sets without an o.met file of their own the
// thread count of the folder's o.met files when they all agree on one:
// the author runs a study's builds at one thread count, and summarizes
// o.met for some of its sets only.
func folderThreads(sets []*Set, mets []*metTable, dir string) {
	nt, from := 0, ""
	for _, m := range mets {
		if m.dopPair {
			return
		}
		switch t := m.nt; {
		case nt == 0:
			nt, from = t, m.file
		case t != nt:
			return
		}
	}
	if nt == 0 {
		return
	}
	for _, s := range sets {
		if s.Threads == 0 && !s.dopPair {
			s.Threads, s.ThreadsFrom = nt, path.Join(dir, from)
		}
	}
}
