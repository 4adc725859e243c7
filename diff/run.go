package diff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// Options control Run.
type Options struct {
	Load    report.LoadOptions // for runs given as raw DBMS trees
	Compare CompareOptions
}

// Run loads the BASE and NEW runs (folders) and compares them. Each folder
// is one run: raw DBMS trees, whose mrg and rel tables are built in memory
// as `ibreport tables` would write them, or archived mrg.<step> and
// rel.<step> files. Warnings met while building tables from trees are
// returned; unreadable, malformed or mismatched input is an error wrapping
// report.ErrBadInput. When only a kind of table, step, DBMS or column is on
// one side (Compare), the comparison of the rest is returned with the
// error; its Problems name what is missing, and ExitCode is 2.
func Run(base, newer []string, opt Options) (*Comparison, []string, error) {
	var warns []string
	load := func(dirs []string, side string) ([]*ResultSet, error) {
		if len(dirs) == 0 {
			return nil, inputerr.Errorf("no %s results given", side)
		}
		var out []*ResultSet
		for _, d := range dirs {
			rs, w, err := LoadResultSet(d, opt.Load)
			if err != nil {
				return nil, err
			}
			if rs.TestNoise, rs.RunNoiseDF, err = readTestNoise(d); err != nil {
				return nil, err
			}
			warns = append(warns, w...)
			out = append(out, rs)
		}
		return out, nil
	}
	b, err := load(base, "BASE")
	if err != nil {
		return nil, warns, err
	}
	n, err := load(newer, "NEW")
	if err != nil {
		return nil, warns, err
	}
	c, err := Compare(b, n, opt.Compare)
	if errors.Is(err, errMismatch) {
		err = inputerr.Errorf("BASE and NEW do not match: %w", err)
	}
	if c != nil {
		for _, bs := range b {
			for _, ns := range n {
				c.Comparability = append(c.Comparability, comparability(bs, ns)...)
			}
		}
		attribute(c)
	}
	return c, warns, err
}

// explained reports whether the efficiency metrics may explain a change of
// the column: the average throughput, ips or qps.
func explained(col string) bool {
	m, ok := metrics.MetricByName(col)
	return ok && (m == metrics.IPS || m == metrics.QPS)
}

// attribute adds to each warning or failing throughput finding the
// efficiency metrics of the same table, step and DBMS that moved with it
// ("cpupq +14%, wkbpi +2%"), or "unexplained" (metrics.Attribute).
func attribute(c *Comparison) {
	type key struct{ table, step, dbms string }
	byCell := map[key]map[string]Finding{}
	for _, f := range c.Findings {
		k := key{f.Table, f.Step, f.DBMS}
		if byCell[k] == nil {
			byCell[k] = map[string]Finding{}
		}
		byCell[k][f.Metric] = f
	}
	for i, f := range c.Findings {
		if !explained(f.Metric) || f.Level < LevelWarn || math.IsNaN(f.Delta) || math.IsInf(f.Delta, 0) {
			continue
		}
		var ms []metrics.Measure
		for _, r := range metrics.AttributionRules {
			g, ok := byCell[key{f.Table, f.Step, f.DBMS}][r.Metric.Name()]
			if !ok {
				// A sysbench column of the same quantity (cs/o for cspq).
				for _, c := range sbColumns {
					if c.like == r.Metric.Name() && c.name != c.like {
						g, ok = byCell[key{f.Table, f.Step, f.DBMS}][c.name]
					}
				}
			}
			if !ok {
				continue
			}
			// g.Metric is the column's own name (cs/o for a sysbench cspq).
			ms = append(ms, metrics.Measure{Name: g.Metric, What: r.What, Cost: r.Cost,
				Base: metrics.Known(g.Base.Median, metrics.NoUnit), Other: metrics.Known(g.New.Median, metrics.NoUnit)})
		}
		causes := metrics.Attribute(ms, 1+f.Delta, metrics.SimilarBand)
		var parts []string
		for j, cs := range causes {
			if j == 3 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s %+.0f%%", cs.Name, 100*cs.Change))
		}
		why := "unexplained"
		if len(parts) > 0 {
			why = strings.Join(parts, ", ")
		}
		if f.Note != "" {
			why = f.Note + "; " + why
		}
		c.Findings[i].Note = why
	}
}

// LoadResultSet reads one run for Run: the mrg.<step> and rel.<step> files
// of dir, or, when dir holds DBMS trees, the typed tables of the merged
// model built from them (Results.Merged), whose cells are the report's own
// values; for sysbench, the tables of its DBMS result folders (typed
// values too) or of its summaries (qps.abs.*.tsv, o.met.*), as sysbench.go
// describes. Files are read once into values that keep their text. Any
// syntax error in a file is bad input: a gate must not pass on a file it
// could not read.
func LoadResultSet(dir string, opt report.LoadOptions) (*ResultSet, []string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	if !st.IsDir() {
		return nil, nil, inputerr.Errorf("%s: not a folder", names.Quoted(dir))
	}
	fsys := os.DirFS(dir)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	rs := &ResultSet{Name: dir}
	if len(trees) > 0 {
		res, _, err := report.Load(dir, opt)
		if err != nil {
			return nil, nil, err
		}
		// The typed tables of the model, as the report computed them:
		// nothing is printed, nothing read back.
		tables, warns, err := res.Merged()
		if err != nil {
			return nil, nil, err
		}
		for _, mt := range tables {
			// Built in memory: there is no mrg.<step> file to annotate.
			rs.Tables = append(rs.Tables, builtTable(mt, filepath.Join(dir, mt.Kind+"."+mt.Step)))
		}
		rs.Runs = map[string]RunFacts{}
		rs.Cores, rs.Device, rs.RunNoise = res.Options.Cores, res.Options.Device, res.Options.RunNoise
		for _, t := range res.Trees {
			f := RunFacts{Clients: t.Dop(), Rows: parse.RowPrefix(t.Name())}
			for _, s := range t.Steps {
				f.Steps = append(f.Steps, s.Step.MergeName)
			}
			rs.Runs[res.Tag(t.Name())] = f
		}
		stepNoise(rs, res.Trees, res.Tag)
		return rs, warns, nil
	}
	sb, err := parse.FindSysbenchDirs(fsys, ".")
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	if len(sb) > 0 {
		return loadSysbenchRaw(dir, opt)
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	noise, err := settingsRunNoise(fsys, dir)
	if err != nil {
		return nil, nil, err
	}
	rs.RunNoise = noise
	if slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return !e.IsDir() && results.IsSummaryFile(e.Name()) }) && !slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return tableName(e.Name()) != "" }) {
		rs, err := loadSysbenchTables(dir, opt.Sysbench.Set)
		if rs != nil {
			rs.RunNoise = noise
		}
		return rs, nil, err
	}
	for _, e := range ents {
		if e.IsDir() || tableName(e.Name()) == "" {
			continue
		}
		// Checked before it is opened: a FIFO would block the gate, a
		// link to a device never end. A gate does not skip a table.
		f, err := parse.OpenRegular(fsys, e.Name())
		if parse.IsNotRegular(err) {
			return nil, nil, inputerr.Errorf("%s/%v", names.Quoted(dir), err)
		}
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		if err := addTable(rs, dir, e.Name(), data); err != nil {
			return nil, nil, err
		}
	}
	if len(rs.Tables) == 0 {
		return nil, nil, inputerr.Errorf("%s: no DBMS result trees, no sysbench result folders, no mrg.<step> or rel.<step> files and no sysbench summaries (qps.abs.*.tsv, o.met.*)", names.Quoted(dir))
	}
	return rs, nil, nil
}

// settingsRunNoise is the run-noise key of the ibreport.settings file of
// a folder of archived tables, 0 when unset: a baseline carries the
// run-to-run noise its one-run comparisons are judged with.
func settingsRunNoise(fsys fs.FS, dir string) (float64, error) {
	set, err := parse.ReadSettings(fsys, ".")
	if err != nil {
		return 0, inputerr.Wrap(err)
	}
	v, ok := set["run-noise"]
	if !ok {
		return 0, nil
	}
	r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(r > 0 && r < 1) {
		return 0, inputerr.Errorf("%s: run-noise = %q: want a fraction above 0, below 1 (0.01 for 1%%)", filepath.Join(dir, parse.SettingsFile), v)
	}
	return r, nil
}

// tableName returns the kind of a mrg.<step> or rel.<step> file name, ""
// for any other file (mrg.some, mrg.<step>.ips, …).
func tableName(name string) string {
	for _, kind := range []string{"mrg", "rel"} {
		if step, ok := strings.CutPrefix(name, kind+"."); ok {
			if _, ok := parse.ParseStepName(step); ok {
				return kind
			}
		}
	}
	return ""
}

// addTable adds an archived mrg.<step> or rel.<step> file to rs.
func addTable(rs *ResultSet, dir, name string, data []byte) error {
	kind := tableName(name)
	if kind == "" {
		return nil
	}
	st, _ := parse.ParseStepName(strings.TrimPrefix(name, kind+"."))
	p := filepath.Join(dir, name)
	t, err := parse.ReadTable(bytes.NewReader(data), p)
	if err != nil {
		return inputerr.Wrap(err)
	}
	rt, err := newResultTable(kind, st.MergeName, p, t)
	if err != nil {
		return inputerr.Wrap(err)
	}
	rs.Tables = append(rs.Tables, rt)
	return nil
}

// Formats are the output formats of Write.
var Formats = []string{"text", "md", "json", "github"}

// WriteOptions controls Write.
type WriteOptions struct {
	Format string // one of Formats
	All    bool   // list every comparison, not only the notable ones
	Strict bool   // warnings fail too; changes the status line only
	// MaxBytes, above 0, is the most bytes the md report takes, for a
	// pull-request comment (GitHub refuses one over MaxCommentChars
	// characters, and no text has fewer bytes than characters). A longer
	// report lists the first rows of its findings table that fit (the
	// most severe come first) and says how many it left out and where
	// the full report is (FullReport); if even none fit, its lines that
	// fit. Other formats ignore it.
	MaxBytes int
	// FullReport says where the full report is, in the line of a report
	// cut to MaxBytes: "the job summary of https://…/actions/runs/1";
	// empty for "the job summary and report file of the run".
	FullReport string
}

// MaxCommentChars is the longest comment GitHub takes, in characters.
const MaxCommentChars = 65536

// status is the one-word outcome a report starts with: ERROR when part of
// the input was missing (exit 2), else FAIL, WARN or PASS.
func status(c *Comparison, strict bool) string {
	if c == nil || len(c.Problems) > 0 {
		return "ERROR"
	}
	w := c.Worst()
	if len(c.Comparability) > 0 {
		w = max(w, LevelWarn) // the runs did not run the same work
	}
	switch {
	case w == LevelFail, w == LevelWarn && strict:
		return "FAIL"
	case w == LevelWarn:
		return "WARN"
	}
	return "PASS"
}

// ExitCode is the exit status a CI gate should use for c: 2 when part of
// the input was missing (c.Problems) or there is no comparison (nil, as
// Run returns when nothing could be compared), 1 when a finding is at fail level
// (or at warn level with strict), else 0.
func ExitCode(c *Comparison, strict bool) int {
	switch status(c, strict) {
	case "ERROR":
		return 2
	case "FAIL":
		return 1
	}
	return 0
}

// shown is the verdict the reports give a finding. A gated value BASE has
// and NEW lacks is not comparable, and fails the gate (warns with
// AllowNA): the reports call it a fail (a warn), so that its row, the
// headline's counts and the status say the same.
func shown(f Finding) Verdict {
	if f.Verdict == VerdictNotComparable {
		switch f.Level {
		case LevelFail:
			return VerdictFail
		case LevelWarn:
			return VerdictWarn
		}
	}
	return f.Verdict
}

// reportVerdicts are the verdicts in the order the reports count them.
var reportVerdicts = []Verdict{VerdictFail, VerdictWarn, VerdictMissing,
	VerdictNotComparable, VerdictImproved, VerdictNotSignificant, VerdictOK, VerdictInfo}

// shownCounts counts the findings by the verdict the reports give them.
func shownCounts(c *Comparison) map[Verdict]int {
	n := map[Verdict]int{}
	for _, f := range c.Findings {
		n[shown(f)]++
	}
	return n
}

// counts summarizes the findings: "1 fail, 2 warn, … ".
func counts(c *Comparison) string {
	var parts []string
	n := shownCounts(c)
	for _, v := range reportVerdicts {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	return strings.Join(parts, ", ")
}

// stepNoise gives the throughput cell of each raw tree's step its one-run
// noise: the relative half-width of the interval of the step's mean rate
// (metrics.StepResult.Noise), of inserts for load steps and of queries for
// read+write steps, as sysbench runs give theirs. Cells without an
// interval keep NaN, and the gate judges them with the run-to-run noise
// alone.
func stepNoise(rs *ResultSet, trees []*metrics.TreeResult, tag func(string) string) {
	byTag := map[string]*metrics.TreeResult{}
	for _, t := range trees {
		byTag[rowPrefix.ReplaceAllString(tag(t.Name()), "")] = t
	}
	for ti := range rs.Tables {
		t := &rs.Tables[ti]
		if t.Kind != "mrg" {
			continue
		}
		for ri := range t.Rows {
			row := &t.Rows[ri]
			tree := byTag[rowPrefix.ReplaceAllString(row.DBMS, "")]
			if tree == nil {
				continue
			}
			st := tree.Step(t.Step)
			if st == nil {
				continue
			}
			m := metrics.IPS
			if st.Step.Kind.ReadWrite() {
				m = metrics.QPS
			}
			row.setNoise(slices.Index(t.Columns, m.Name()), st.Noise)
		}
	}
}
