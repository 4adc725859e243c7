package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/ibreport/ibreport/internal/inputerr"
	"github.com/ibreport/ibreport/internal/metrics"
	"github.com/ibreport/ibreport/internal/parse"
)

// DiffOptions control Diff.
type DiffOptions struct {
	Load    LoadOptions // for runs given as raw DBMS trees
	Compare metrics.CompareOptions
}

// Diff loads the BASE and NEW runs (folders) and compares them. Each folder
// is one run: raw DBMS trees, whose mrg and rel tables are built in memory,
// or archived mrg.<step> and rel.<step> files. Warnings met while building
// tables from trees are returned; unreadable, malformed or mismatched input
// is an error wrapping ErrBadInput.
func Diff(base, newer []string, opt DiffOptions) (*metrics.Comparison, []string, error) {
	var warns []string
	load := func(dirs []string, side string) ([]*metrics.ResultSet, error) {
		if len(dirs) == 0 {
			return nil, inputerr.Errorf("no %s results given", side)
		}
		var out []*metrics.ResultSet
		for _, d := range dirs {
			rs, w, err := LoadResultSet(d, opt.Load)
			if err != nil {
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
	c, err := metrics.Compare(b, n, opt.Compare)
	if errors.Is(err, metrics.ErrMismatch) {
		return nil, warns, inputerr.Errorf("BASE and NEW do not match: %w", err)
	}
	if c != nil {
		for _, bs := range b {
			for _, ns := range n {
				c.Comparability = append(c.Comparability, metrics.Comparability(bs, ns)...)
			}
		}
		attribute(c)
	}
	return c, warns, err
}

// throughputMetrics are the columns whose change the efficiency metrics
// may explain.
var throughputMetrics = map[string]bool{"ips": true, "qps": true}

// attribute adds to each warning or failing throughput finding the
// efficiency metrics of the same table, step and DBMS that moved with it
// ("cpupq +14%, wkbpi +2%"), or "unexplained" (metrics.Attribute).
func attribute(c *metrics.Comparison) {
	type key struct{ table, step, dbms string }
	byCell := map[key]map[string]metrics.Finding{}
	for _, f := range c.Findings {
		k := key{f.Table, f.Step, f.DBMS}
		if byCell[k] == nil {
			byCell[k] = map[string]metrics.Finding{}
		}
		byCell[k][f.Metric] = f
	}
	for i, f := range c.Findings {
		if !throughputMetrics[f.Metric] || f.Level < metrics.LevelWarn || math.IsNaN(f.Delta) || math.IsInf(f.Delta, 0) {
			continue
		}
		var ms []metrics.Measure
		for _, r := range metrics.AttributionRules {
			g, ok := byCell[key{f.Table, f.Step, f.DBMS}][r.Metric.Name()]
			if !ok {
				continue
			}
			ms = append(ms, metrics.Measure{Name: r.Metric.Name(), What: r.What, Cost: r.Cost,
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

// LoadResultSet reads one run for Diff: the mrg.<step> and rel.<step> files
// of dir, or, when dir holds DBMS trees, the tables built from them (as
// `ibreport tables` would write them). Any syntax error in a table is bad
// input: a gate must not pass on a file it could not read.
func LoadResultSet(dir string, opt LoadOptions) (*metrics.ResultSet, []string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	if !st.IsDir() {
		return nil, nil, inputerr.Errorf("%s: not a folder", dir)
	}
	fsys := os.DirFS(dir)
	trees, err := parse.ReadTree(fsys, ".")
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	rs := &metrics.ResultSet{Name: dir}
	if len(trees) > 0 {
		res, err := Load(dir, opt)
		if err != nil {
			return nil, nil, err
		}
		_, merged, warns, err := mergeResults(res.Trees, res.List, res.Options)
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		for _, mt := range merged {
			mrg, rel, err := resultTables(dir, mt, res.Options.Compat, &warns)
			if err != nil {
				return nil, nil, err
			}
			rs.Tables = append(rs.Tables, mrg, rel)
		}
		rs.Runs = map[string]metrics.RunFacts{}
		rs.Cores, rs.Device = res.Options.Cores, res.Options.Device
		prefix := parse.RowPrefix(firstName(res.List))
		for _, t := range res.Trees {
			f := metrics.RunFacts{Clients: t.Dop(), Rows: parse.RowPrefix(t.Tree.Name)}
			for _, s := range t.Steps {
				f.Steps = append(f.Steps, s.Step.MergeName)
			}
			rs.Runs[displayTag(t.Tree.Name, prefix, res.Options.Compat)] = f
		}
		return rs, warns, nil
	}
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	for _, e := range ents {
		if e.IsDir() || tableName(e.Name()) == "" {
			continue
		}
		data, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, nil, inputerr.Wrap(err)
		}
		if err := addTable(rs, dir, e.Name(), data); err != nil {
			return nil, nil, err
		}
	}
	if len(rs.Tables) == 0 {
		return nil, nil, inputerr.Errorf("%s: no DBMS result trees and no mrg.<step> or rel.<step> files", dir)
	}
	return rs, nil, nil
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

// resultTables are the mrg and rel tables of a merged table as diff sees
// them: the cells printed as `ibreport tables` prints them, at the lines
// those files would have.
func resultTables(dir string, mt *mergedTable, compatMode bool, warns *[]string) (mrg, rel metrics.ResultTable, err error) {
	name := mt.step.MergeName
	mrg = metrics.ResultTable{Kind: "mrg", Step: name, File: filepath.Join(dir, "mrg."+name), Columns: mt.cols[:len(mt.cols)-1]}
	rel = metrics.ResultTable{Kind: "rel", Step: name, File: filepath.Join(dir, "rel."+name), Columns: mrg.Columns}
	if compatMode {
		// sum_met.awk works on the text of the lines: read its output back.
		lines := mt.relLines(true, warns)
		t, err := parse.ReadTable(strings.NewReader(strings.Join(lines, "\n")+"\n"), rel.File)
		if err != nil && parse.SyntaxErrors(err) == nil {
			return mrg, rel, inputerr.Wrap(err)
		}
		if rel, err = metrics.NewResultTable("rel", name, rel.File, t); err != nil {
			return mrg, rel, inputerr.Wrap(err)
		}
	}
	keys, relKeys := metrics.RowKeys{}, metrics.RowKeys{}
	relLine := 1
	var base *mergedRow
	for i, r := range mt.rows {
		switch r.kind {
		case breakRow:
			relLine++
			base = nil
			continue
		case dataRow:
		default:
			continue
		}
		texts := make([]string, len(r.cells))
		for j, v := range r.cells {
			texts[j] = cellText(mrg.Columns[j], v)
		}
		mrg.Rows = append(mrg.Rows, metrics.ResultRow{DBMS: keys.Key(metrics.TagKey(r.tag)), Line: i + 2, Cells: texts})
		if compatMode {
			continue
		}
		if base == nil {
			base = r
			continue
		}
		relLine++
		rel.Rows = append(rel.Rows, metrics.ResultRow{DBMS: relKeys.Key(metrics.TagKey(r.tag)), Line: relLine, Cells: ratios(r, base)})
	}
	return mrg, rel, nil
}

func addTable(rs *metrics.ResultSet, dir, name string, data []byte) error {
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
	rt, err := metrics.NewResultTable(kind, st.MergeName, p, t)
	if err != nil {
		return inputerr.Wrap(err)
	}
	rs.Tables = append(rs.Tables, rt)
	return nil
}

// DiffFormats are the output formats of WriteDiff.
var DiffFormats = []string{"text", "md", "json", "github"}

// DiffRender controls WriteDiff.
type DiffRender struct {
	Format string // one of DiffFormats
	All    bool   // list every comparison, not only the notable ones
	Strict bool   // warnings fail too; changes the status line only
}

// status is the one-word outcome a report starts with.
func status(c *metrics.Comparison, strict bool) string {
	w := c.Worst()
	if len(c.Comparability) > 0 {
		w = max(w, metrics.LevelWarn) // the runs did not run the same work
	}
	switch {
	case w == metrics.LevelFail, w == metrics.LevelWarn && strict:
		return "FAIL"
	case w == metrics.LevelWarn:
		return "WARN"
	}
	return "PASS"
}

// ExitCode is the exit status a CI gate should use for c: 1 when a finding
// is at fail level (or at warn level with strict), else 0.
func ExitCode(c *metrics.Comparison, strict bool) int {
	if status(c, strict) == "FAIL" {
		return 1
	}
	return 0
}

// counts summarizes the findings: "1 fail, 2 warn, … ".
func counts(c *metrics.Comparison) string {
	var parts []string
	for _, v := range []metrics.Verdict{metrics.VerdictFail, metrics.VerdictWarn, metrics.VerdictMissing,
		metrics.VerdictNotComparable, metrics.VerdictImproved, metrics.VerdictNotSignificant, metrics.VerdictOK, metrics.VerdictInfo} {
		if n := c.Count(v); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	return strings.Join(parts, ", ")
}
