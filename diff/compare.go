package diff

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// Level is how much a finding matters to a CI gate.
type Level int

// Levels, from harmless to failing.
const (
	LevelOK   Level = iota // nothing to act on
	LevelNote              // worth a look, never fails
	LevelWarn              // fails with --strict
	LevelFail              // fails
)

func (l Level) String() string {
	return [...]string{"ok", "note", "warn", "fail"}[l]
}

// Verdict is the outcome of one comparison.
type Verdict string

// The verdicts, in order of severity.
const (
	VerdictFail           Verdict = "fail"           // worse by at least the fail threshold
	VerdictWarn           Verdict = "warn"           // worse by at least the warn threshold
	VerdictMissing        Verdict = "missing"        // step, DBMS or column on one side only
	VerdictNotComparable  Verdict = "not comparable" // NA, empty, inf, nan or text on a side
	VerdictImproved       Verdict = "improved"       // better by at least the warn threshold
	VerdictNotSignificant Verdict = "~"              // replicated runs: no significant change
	VerdictOK             Verdict = "ok"             // within thresholds, floors or rounding
	VerdictInfo           Verdict = "info"           // not gated
)

var verdictRank = map[Verdict]int{VerdictFail: 0, VerdictWarn: 1, VerdictMissing: 2, VerdictNotComparable: 3,
	VerdictImproved: 4, VerdictNotSignificant: 5, VerdictOK: 6, VerdictInfo: 7}

// minRuns is the number of runs per side below which the U test is not
// run: with 3 runs per side the smallest two-sided U-test p is 0.1, so no
// difference could reach alpha 0.05. Such cells, and those the test cannot
// show after the Holm adjustment, are judged by consistency (consistent).
const minRuns = 4

// Side is what one side holds for one cell.
type Side struct {
	Runs   int       // runs holding the cell
	Values []float64 // its numeric values, sorted
	// Cells are the cells, one per run: typed values of the merged model,
	// or values read from a file that keep its text.
	Cells  []metrics.Value
	Median float64 // NaN without values
	Lo, Hi float64 // interval of the median; NaN when there is none
	// Decimals is the finest print resolution of the values: the
	// decimals of the text of a cell read from a file, else Digits (for
	// Digits -1, the decimals of the shortest text of the value). A
	// change of one unit of it may be rounding alone.
	Decimals int
	// Digits are the decimals of the column (metrics.Props.MergeDigits
	// for mrg tables, 2 for rel): a cell that keeps no text prints with
	// them; -1 the shortest text that reads back as the value.
	Digits int
}

// A Finding is the comparison of one cell (table, step, DBMS, metric), or a
// step, DBMS or column found on one side only (Metric or DBMS empty).
type Finding struct {
	Table, Step, DBMS, Metric string
	Rule                      Rule
	Gated                     bool // whether this cell can warn or fail
	Base, New                 Side
	// Delta is the relative change of the median, NEW/BASE - 1. When BASE
	// is below the metric's floor (0, say) the change is taken relative to
	// the floor instead (Floored), so that it is a number a reader can
	// weigh; NaN when not comparable, or when BASE is 0 and the metric
	// has no floor.
	Delta   float64
	Floored bool // Delta is relative to the floor, not to BASE
	// Noise is the standard deviation of log(NEW/BASE) that one run per
	// side can show with no change: run-to-run noise of both runs, their
	// one-run intervals where the raw logs give them, and the rounding of
	// the printed values. NaN for replicated runs and cells not compared.
	Noise float64
	// Detectable is the smallest change in the metric's bad direction
	// (a fraction, 0.05 = 5%) that fails this cell: its fail level, or
	// the change its noise can make in the report's family of tests when
	// that is larger. NaN where nothing can fail. A true change of that
	// size fails about half the time.
	Detectable float64
	// Detectable80 is the change that fails with one run per side 4 times
	// in 5: Detectable plus 0.84 of the noise (in log terms), the power a
	// gate is usually sized for. NaN where Detectable is.
	Detectable80 float64
	// RunNoise is the run-to-run noise of one run the cell was judged
	// with (one run per side); RunNoiseKey is the settings key of BASE it
	// came from when it is the test's own, "" when it is the report's
	// (Comparison.RunNoise).
	RunNoise    float64
	RunNoiseKey string
	P, PAdj     float64 // U test and its Holm adjustment; NaN when not tested
	Verdict     Verdict
	Level       Level
	// Notable findings are those a short report lists: everything at note
	// level or above, improvements, and changes beyond the warn threshold
	// that were not significant.
	Notable bool
	Note    string // short explanation
	Notes   []int  // indexes into Comparison.Notes
	File    string // NEW file and line of the cell, when it names a file that exists
	Line    int
	// Rel is the rel table's finding of the same step, DBMS and metric,
	// folded into this mrg finding so that a quantity has one row; nil
	// otherwise.
	Rel *Finding
}

// StepGeomean is the geometric mean of the NEW/BASE ratios of the
// throughput metrics (ips, qps, p50, p99) of one step and one DBMS. It is
// taken per DBMS, never across them: opposite moves of two DBMS would
// cancel and show a failing step as unchanged. For sysbench the step is a
// thread count ("dop1"), over every test run with it.
type StepGeomean struct {
	Step, DBMS, Table string
	Ratio             float64 // NaN when no ratio could be taken
	N                 int     // ratios in the mean
	// Detectable is the smallest fall of the mean that fails the gate with
	// one run per side (a fraction); NaN for replicated runs and means of
	// fewer than 2 ratios, which are not tested.
	Detectable float64
}

// RunShift is a run whose cells of one metric moved alike: the median of
// their changes is at least 1% and at least three quarters of them moved
// its way. A whole-run shift (another host, a reboot) fails no row by
// itself; the mean of the run's cells judges it against one run's noise.
type RunShift struct {
	Table, DBMS, Metric string
	// Delta is the median relative change, NEW/BASE − 1.
	Delta float64
	// Cells are the run's cells of the metric, Moved those that moved the
	// shift's way.
	Cells, Moved int
}

// Comparison is the result of Compare.
type Comparison struct {
	Base, New  []string // run names
	Replicated bool     // more than one run on a side: U tests, medians
	Alpha      float64
	Tables     []string // kinds compared
	Tests      int      // U tests in the Holm family
	// RunNoise is the run-to-run relative standard deviation of one run
	// that one-run comparisons were judged with; 0 for replicated runs.
	RunNoise float64
	// RunNoiseDF is the shape that noise was taken to have: 0 normal,
	// else the degrees of freedom of a Student t (heavy tails).
	RunNoiseDF float64
	Findings   []Finding
	Geomeans   []StepGeomean
	// Shifts are the runs that moved as a whole with one run per side
	// (see RunShift); nil for replicated runs.
	Shifts []RunShift
	Notes  []string // footnotes
	// Comparability lists where BASE and NEW did not run the same work
	// (client count, rows, steps): such a comparison warns, and fails
	// with --strict.
	Comparability []string
	// Problems names the bad input the rest was compared without: a kind
	// of table, step, DBMS or column on one side only when
	// CompareOptions.AllowMissing is not set. Such a comparison exits 2,
	// after listing what it found in the rest.
	Problems []string
}

// Count returns the number of findings with the verdict.
func (c *Comparison) Count(v Verdict) int {
	if c == nil {
		return 0
	}
	n := 0
	for _, f := range c.Findings {
		if f.Verdict == v {
			n++
		}
	}
	return n
}

// Worst returns the highest level of any finding.
func (c *Comparison) Worst() Level {
	if c == nil {
		return LevelOK
	}
	w := LevelOK
	for _, f := range c.Findings {
		w = max(w, f.Level)
	}
	return w
}

// note adds a footnote once and returns its index.
func (c *Comparison) note(s string) int {
	if i := slices.Index(c.Notes, s); i >= 0 {
		return i
	}
	c.Notes = append(c.Notes, s)
	return len(c.Notes) - 1
}

// Compare compares every cell of the NEW runs with the BASE runs: per table
// kind, step, DBMS and metric, joined by name.
//
// With one run per side each metric is judged by its rule's thresholds.
// With more runs on a side the medians are compared, a two-sided Mann-
// Whitney U test decides whether the change is real (Holm-adjusted over all
// tests of the comparison), and nothing is flagged with fewer than 4 runs per
// side. Floors and the printed precision keep tiny or rounded values from
// flapping. NA, empty, inf and nan cells are findings, never a pass: a gated
// value present in BASE and missing in NEW fails (warns with AllowNA).
//
// A kind of table, step, DBMS or column found on one side only is an error
// wrapping errMismatch unless opt.AllowMissing is set; the rest is still
// compared and returned with the error, naming them in Problems, so that a
// crashed step does not hide the regressions of the others. Nothing in
// common is an error without a comparison.
func Compare(base, newer []*ResultSet, opt CompareOptions) (*Comparison, error) {
	opt = opt.withDefaults()
	if len(base) == 0 || len(newer) == 0 {
		return nil, errors.New("need at least one run on each side")
	}
	for i, rs := range append(slices.Clone(base), newer...) {
		if rs == nil {
			side, n := "BASE", i+1
			if i >= len(base) {
				side, n = "NEW", i-len(base)+1
			}
			// A LoadResultSet whose error was not looked at.
			return nil, fmt.Errorf("%s run %d is nil (no *ResultSet: was its LoadResultSet error looked at?)", side, n)
		}
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) || !(opt.Confidence > 0 && opt.Confidence < 1) {
		return nil, fmt.Errorf("alpha %v and confidence %v must lie between 0 and 1", opt.Alpha, opt.Confidence)
	}
	if err := opt.check(); err != nil {
		return nil, err
	}
	c := &Comparison{Replicated: len(base) > 1 || len(newer) > 1, Alpha: opt.Alpha}
	for _, r := range base {
		c.Base = append(c.Base, r.Name)
	}
	for _, r := range newer {
		c.New = append(c.New, r.Name)
	}
	// A kind NEW lacks is listed as missing; without AllowMissing it is a
	// problem, once the rest is compared.
	kinds, lacking, err := chooseKinds(base, newer, opt.Tables)
	if err != nil {
		return nil, err
	}
	c.Tables = kinds
	if slices.Contains(kinds, "rel") {
		// Without absolute values a floor cannot be applied, and ratios of
		// small per-operation values swing widely.
		c.note("rel tables are gated on throughput (ips qps p50 p99) only: ratios of small per-operation " +
			"values swing widely and carry no absolute value to apply a floor to")
	}
	cm := &comparer{c: c, opt: opt, nBase: len(base), nNew: len(newer)}
	if !c.Replicated {
		cm.runNoise = runNoise(opt, base[0])
		cm.testNoise = base[0].TestNoise
		c.RunNoise = cm.runNoise
		cm.runDF = opt.RunNoiseDF
		if cm.runDF == 0 && base[0] != nil {
			cm.runDF = base[0].RunNoiseDF
		}
		c.RunNoiseDF = cm.runDF
	}
	for _, k := range lacking {
		cm.addMissing(k, "", "", "", k+".<step> tables", len(base), len(base), 0, len(newer))
	}
	cm.stepsRun = stepsRun(base, newer)
	for _, k := range kinds {
		for _, step := range stepNames(k, base, newer) {
			cm.table(k, step, tablesOf(base, k, step), tablesOf(newer, k, step))
		}
	}
	var mismatch *mismatchError
	if len(cm.missing) > 0 && !opt.AllowMissing {
		mismatch = &mismatchError{Items: cm.missing.messages()}
		if cm.compared == 0 || cm.valued == 0 {
			return nil, mismatch
		}
	}
	if cm.compared == 0 {
		return nil, fmt.Errorf("%w: nothing was compared: no step and DBMS in common (BASE has %s; NEW has %s)",
			errMismatch, holding(base, kinds), holding(newer, kinds))
	}
	if cm.valued == 0 {
		// Every cell in common is NA on a side: a gate that saw no value
		// cannot pass, and a failure would blame NEW for what may be a run
		// of another kind.
		return nil, fmt.Errorf("%w: nothing was compared: %d cells in %d rows (step and DBMS) of %s tables in common, none with a value on both sides "+
			"(%d NA on both sides, %d NA in NEW only, %d NA in BASE only)", errMismatch,
			cm.cells, cm.compared, strings.Join(c.Tables, " and "), cm.naBoth, cm.naNew, cm.cells-cm.naBoth-cm.naNew)
	}
	cm.finish()
	if mismatch != nil {
		c.Problems = mismatch.Items
		return c, mismatch
	}
	return c, nil
}

// holding says which steps and DBMS the tables of the kinds hold, for the
// message of a comparison with nothing in common: "steps l.i0 l.x, DBMS
// pg15.c1 pg15.c2".
func holding(runs []*ResultSet, kinds []string) string {
	var steps, dbms []string
	for _, r := range runs {
		for _, t := range r.Tables {
			if !slices.Contains(kinds, t.Kind) {
				continue
			}
			if !slices.Contains(steps, t.Step) {
				steps = append(steps, t.Step)
			}
			for _, row := range t.Rows {
				if !slices.Contains(dbms, row.DBMS) {
					dbms = append(dbms, row.DBMS)
				}
			}
		}
	}
	list := func(what string, x []string) string {
		if len(x) == 0 {
			return "no " + what
		}
		if len(x) > 6 {
			x = append(x[:6:6], fmt.Sprintf("and %d more", len(x)-6))
		}
		return what + " " + strings.Join(x, " ")
	}
	return list("steps", steps) + ", " + list("DBMS", dbms)
}

// chooseKinds returns the table kinds to compare: those asked for, which
// every run must have, or else those every BASE run has. A kind BASE has
// and a NEW run lacks (rel files lost to a killed run, say) is returned as
// lacking, so that the gate never passes on less than the baseline
// measured without saying so. It is an error when no other kind is left to
// compare: --allow-missing cannot help then.
func chooseKinds(base, newer []*ResultSet, want []string) (kinds, lacking []string, err error) {
	all := append(slices.Clone(base), newer...)
	has := func(r *ResultSet, kind string) bool {
		return slices.ContainsFunc(r.Tables, func(t ResultTable) bool { return t.Kind == kind })
	}
	if len(want) > 0 {
		for _, k := range want {
			for _, r := range all {
				if !has(r, k) {
					return nil, nil, fmt.Errorf("%w: %s has no %s.<step> tables", errMismatch, r.Name, k)
				}
			}
		}
		return want, nil, nil
	}
	firstLacking := -1
	for _, k := range []string{"mrg", "rel", "sb", "sbgroup"} {
		if slices.ContainsFunc(base, func(r *ResultSet) bool { return !has(r, k) }) {
			continue
		}
		if i := slices.IndexFunc(newer, func(r *ResultSet) bool { return !has(r, k) }); i >= 0 {
			if firstLacking < 0 {
				firstLacking = i
			}
			lacking = append(lacking, k)
			continue
		}
		kinds = append(kinds, k)
	}
	switch {
	case len(kinds) == 0 && len(lacking) > 0:
		// --allow-missing would leave nothing to compare: not offered.
		return nil, nil, fmt.Errorf("%w: BASE has %s tables and NEW %s has none, and no other kind of table (mrg, rel, sysbench) is on both sides: nothing to compare (is NEW the right folder?)", errMismatch, kindList(lacking), newer[firstLacking].Name)
	case len(kinds) == 0:
		return nil, nil, fmt.Errorf("%w: no kind of table (mrg, rel, sysbench) is found in every run", errMismatch)
	}
	// A kind only BASE has is one of the problems the comparison lists
	// (Comparison.Problems, exit 2) while the rest is compared.
	return kinds, lacking, nil
}

// kindList names table kinds: "mrg.<step> and rel.<step>".
func kindList(kinds []string) string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k + ".<step>"
	}
	return strings.Join(names, " and ")
}

// stepNames returns the steps of one kind on either side in report order.
func stepNames(kind string, sides ...[]*ResultSet) []string {
	var steps []parse.Step
	var other []string
	seen := map[string]bool{}
	for _, side := range sides {
		for _, r := range side {
			for _, t := range r.Tables {
				if t.Kind != kind || seen[t.Step] {
					continue
				}
				seen[t.Step] = true
				if st, ok := parse.ParseStepName(t.Step); ok {
					steps = append(steps, st)
				} else {
					other = append(other, t.Step)
				}
			}
		}
	}
	parse.SortSteps(steps)
	var names []string
	for _, st := range steps {
		names = append(names, st.MergeName)
	}
	// Other steps (sysbench tests) keep the order the tables list them in,
	// which is the order the driver runs them.
	return append(names, other...)
}

func tablesOf(runs []*ResultSet, kind, step string) []*ResultTable {
	var out []*ResultTable
	for _, r := range runs {
		for i := range r.Tables {
			if t := &r.Tables[i]; t.Kind == kind && t.Step == step {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// missingList collects what is on one side only, grouped by subject so a
// DBMS missing from every step is named once.
type missingList []missingItem

type missingItem struct{ subject, where string }

func (l missingList) messages() []string {
	var out []string
	idx := map[string]int{}
	var wheres [][]string
	for _, m := range l {
		i, ok := idx[m.subject]
		if !ok {
			i = len(out)
			idx[m.subject] = i
			out = append(out, m.subject)
			wheres = append(wheres, nil)
		}
		wheres[i] = append(wheres[i], m.where)
	}
	for i, w := range wheres {
		if len(w) > 4 {
			w = append(w[:4:4], fmt.Sprintf("%d more", len(w)-4))
		}
		if len(w) > 0 && w[0] != "" {
			out[i] += " (" + strings.Join(w, ", ") + ")"
		}
	}
	return out
}

type comparer struct {
	c           *Comparison
	opt         CompareOptions
	nBase, nNew int
	missing     missingList
	compared    int // steps and DBMS in common
	cells       int // cells of them compared
	valued      int // cells with a value on both sides
	naBoth      int
	naNew       int // cells with a value in BASE only
	stepOrder   []string
	dbmsOrder   []string
	groups      map[string]string  // kind "\x00" step → the table's Group
	pending     []int              // findings waiting for the Holm adjustment
	oneRun      []int              // one-run findings waiting for the noise gate
	runNoise    float64            // run-to-run relative sd of one run
	runDF       float64            // its shape: 0 normal, else a t's degrees of freedom
	testNoise   map[string]float64 // BASE's per test (ResultSet.TestNoise)
	members     map[string][]string
	// bInt and nInt are the relative half-widths of the one-run 95%
	// intervals of the cell being compared (NaN unknown).
	bInt, nInt float64
	// stepsRun counts, by step "\x00" DBMS, the BASE and NEW runs whose
	// tree ran the step; absent when no run says (archived tables).
	stepsRun map[string][2]int
}

// stepsRun counts, per step and DBMS that some run's facts (RunFacts)
// list, the BASE and NEW runs that ran it: a raw tree that lacks a step
// folder still has a row of NA cells in the step's merged table.
func stepsRun(base, newer []*ResultSet) map[string][2]int {
	out := map[string][2]int{}
	known := map[string]bool{} // DBMS with facts on every run of both sides
	count := map[string]int{}
	for _, side := range [][]*ResultSet{base, newer} {
		for _, rs := range side {
			for tag := range rs.Runs {
				count[tag]++
			}
		}
	}
	for tag, n := range count {
		known[tag] = n == len(base)+len(newer)
	}
	for i, side := range [][]*ResultSet{base, newer} {
		for _, rs := range side {
			for tag, facts := range rs.Runs {
				if !known[tag] {
					continue
				}
				for _, st := range facts.Steps {
					k := st + "\x00" + tag
					v := out[k]
					v[i]++
					out[k] = v
				}
			}
		}
	}
	// A step no run of a DBMS ran on either side is none of its.
	return out
}

// addMissing records a step, column or DBMS held by nb of ofB BASE tables
// and nn of ofN NEW ones. Something BASE had and NEW lacks is a warning: what
// the baseline measured is no longer measured.
func (cm *comparer) addMissing(kind, step, dbms, metric, subject string, nb, ofB, nn, ofN int) {
	var where string
	lvl := LevelWarn
	switch {
	case nb == 0:
		where, lvl = "only in NEW", LevelNote
	case nn == 0:
		where = "only in BASE"
	case nn < ofN:
		where = fmt.Sprintf("in %d of %d NEW runs", nn, ofN)
	default:
		where, lvl = fmt.Sprintf("in %d of %d BASE runs", nb, ofB), LevelNote
	}
	at := kind + "." + step
	if step == "" {
		at = "" // a whole kind of table: the subject says which
	}
	cm.missing = append(cm.missing, missingItem{subject + " " + where, at})
	cm.c.Findings = append(cm.c.Findings, Finding{Table: kind, Step: step, DBMS: dbms, Metric: metric,
		Delta: math.NaN(), P: math.NaN(), PAdj: math.NaN(), Verdict: VerdictMissing, Level: lvl,
		Notable: true, Note: subject + " " + where})
}

func (cm *comparer) table(kind, step string, bt, nt []*ResultTable) {
	if !slices.Contains(cm.stepOrder, step) {
		cm.stepOrder = append(cm.stepOrder, step)
	}
	for _, t := range append(slices.Clone(bt), nt...) {
		if len(t.Members) > 0 {
			if cm.members == nil {
				cm.members = map[string][]string{}
			}
			cm.members[kind+"\x00"+step] = t.Members
		}
		if t.Group != "" {
			if cm.groups == nil {
				cm.groups = map[string]string{}
			}
			cm.groups[kind+"\x00"+step] = t.Group
		}
	}
	if len(bt) < cm.nBase || len(nt) < cm.nNew {
		cm.addMissing(kind, step, "", "", "step "+step, len(bt), cm.nBase, len(nt), cm.nNew)
		if len(bt) == 0 || len(nt) == 0 {
			return
		}
	}
	all := append(slices.Clone(bt), nt...)
	// Columns are joined by name; one that is not in every table is missing.
	var cols []string
	for _, t := range all {
		for _, col := range t.Columns {
			if slices.Contains(cols, col) {
				continue
			}
			cols = append(cols, col)
			nb, nn := countHaving(bt, col), countHaving(nt, col)
			if nb < len(bt) || nn < len(nt) {
				cm.addMissing(kind, step, "", col, "column "+col, nb, len(bt), nn, len(nt))
			}
		}
	}
	var dbms []string
	for _, t := range all {
		for _, r := range t.Rows {
			if !slices.Contains(dbms, r.DBMS) {
				dbms = append(dbms, r.DBMS)
			}
		}
	}
	for _, d := range dbms {
		if !slices.Contains(cm.dbmsOrder, d) {
			cm.dbmsOrder = append(cm.dbmsOrder, d)
		}
		br, nr := rowsOf(bt, d), rowsOf(nt, d)
		if len(br) < len(bt) || len(nr) < len(nt) {
			cm.addMissing(kind, step, d, "", "DBMS "+d, len(br), len(bt), len(nr), len(nt))
			if len(br) == 0 || len(nr) == 0 {
				continue
			}
		}
		if ran := cm.stepsRun[step+"\x00"+d]; ran != [2]int{} && (ran[0] < len(br) || ran[1] < len(nr)) {
			// The DBMS's tree has no folder of the step on a side: its row
			// of NA cells is one missing step, not a regression per metric.
			cm.addMissing(kind, step, d, "", "step "+step+" of DBMS "+d, ran[0], len(br), ran[1], len(nr))
			continue
		}
		cm.compared++
		for _, col := range cols {
			bCells, nCells := cellsOf(br, col), cellsOf(nr, col)
			if len(bCells) == 0 || len(nCells) == 0 {
				continue // the column is missing on a side; already reported
			}
			f := Finding{Table: kind, Step: step, DBMS: d, Metric: col, Rule: cm.opt.Rule(col)}
			if first := nr[0]; first.row != nil && first.file != "" {
				f.File, f.Line = first.file, first.row.Line
			}
			cm.bInt, cm.nInt = intervalOf(br, col), intervalOf(nr, col)
			cm.cell(&f, bCells, nCells, columnDigits(kind, col))
			cm.c.Findings = append(cm.c.Findings, f)
		}
	}
}

func countHaving(ts []*ResultTable, col string) int {
	n := 0
	for _, t := range ts {
		if slices.Contains(t.Columns, col) {
			n++
		}
	}
	return n
}

type rowRef struct {
	file  string
	cols  []string
	row   *ResultRow
	model bool // ResultTable.model
}

func rowsOf(ts []*ResultTable, dbms string) []rowRef {
	var out []rowRef
	for _, t := range ts {
		for i := range t.Rows {
			if t.Rows[i].DBMS == dbms {
				file := t.File
				if t.Built {
					// No file to point an annotation at.
					file = t.Rows[i].Source
				}
				out = append(out, rowRef{file, t.Columns, &t.Rows[i], t.model})
				break
			}
		}
	}
	return out
}

// A cellRef is one run's cell of a finding.
type cellRef struct {
	v     metrics.Value
	model bool // a value of the report's model, not read from a file
}

func cellsOf(rows []rowRef, col string) []cellRef {
	var out []cellRef
	for _, r := range rows {
		if i := slices.Index(r.cols, col); i >= 0 && i < len(r.row.Cells) {
			out = append(out, cellRef{r.row.Cells[i], r.model})
		}
	}
	return out
}

// columnDigits are the decimals a column of a table of the kind prints a
// value with: those of the mrg tables (metrics.Props.MergeDigits), two for
// the ratios of rel tables, those of o.met for sysbench's columns and none
// for its group means; -1 (the shortest text) for a column of no known
// metric.
func columnDigits(kind, col string) int {
	switch kind {
	case "rel":
		return 2
	case "sbgroup":
		return metrics.QPS.Digits()
	case "sb":
		for _, c := range sbColumns {
			if c.name == col {
				return c.digits
			}
		}
		return -1
	}
	if m, ok := metrics.MetricByName(col); ok {
		return m.MergeDigits()
	}
	return -1
}

// parseCell returns the value of a cell of a user's file and the decimals
// it was printed with. NA, empty, inf, nan and text are not values.
func parseCell(s string) (v float64, decimals int, ok bool) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	// Every metric of the tables is a rate, count, size, time or ratio: a
	// negative or huge value is garbage, not a baseline.
	if err != nil || !usable(v) {
		return 0, 0, false
	}
	return v, textDecimals(s), true
}

// usable reports whether a number can be compared: every metric of the
// tables is a rate, count, size, time or ratio, so that a negative, huge,
// infinite or NaN value is garbage, not a baseline.
func usable(v float64) bool {
	return parse.Plausible(parse.Ratio, v) == nil
}

// textDecimals are the decimals a number was written with: those after
// its point, none in exponent notation.
func textDecimals(s string) int {
	s = strings.TrimSpace(s)
	if _, frac, found := strings.Cut(s, "."); found && !strings.ContainsAny(s, "eE") {
		return len(frac)
	}
	return 0
}

// shortestDecimals are the decimals of the shortest text that reads back
// as x: the resolution of a value of a column printed with digits -1.
func shortestDecimals(x float64) int {
	return textDecimals(strconv.FormatFloat(x, 'f', -1, 64))
}

// resolution is the print resolution of a cell, in decimals: that of the
// text of a user's file, else (a value of the report's model) the
// column's digits.
func resolution(c cellRef, digits int) int {
	if text, ok := c.v.Text(); ok && !c.model {
		return textDecimals(text)
	}
	v := c.v
	if digits < 0 {
		return shortestDecimals(v.V)
	}
	return digits
}

// side gathers one side of a cell; bad are the cells that are no value.
func side(cells []cellRef, digits int, confidence float64) (s Side, bad []metrics.Value) {
	s.Runs, s.Digits = len(cells), digits
	for _, c := range cells {
		s.Cells = append(s.Cells, c.v)
		if !c.v.OK() || !usable(c.v.V) {
			bad = append(bad, c.v)
			continue
		}
		s.Values = append(s.Values, c.v.V)
		s.Decimals = max(s.Decimals, resolution(c, digits))
	}
	slices.Sort(s.Values)
	s.Median = stats.Median(s.Values)
	s.Lo, s.Hi, _ = stats.MedianInterval(s.Values, confidence)
	return s, bad
}

// describeNA names the non-values of one side: `NA`, `"" (empty)`, `-nan`.
func describeNA(bad []metrics.Value, digits int) string {
	var out []string
	for _, b := range bad {
		q := strings.TrimSpace(valueText(b, digits))
		if q == "" {
			q = `""`
		}
		if !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	return strings.Join(out, ", ")
}

// cell compares one cell; replicated comparisons that need a U test are
// left for finish.
func (cm *comparer) cell(f *Finding, bCells, nCells []cellRef, digits int) {
	c := cm.c
	var bBad, nBad []metrics.Value
	f.Base, bBad = side(bCells, digits, cm.opt.Confidence)
	f.New, nBad = side(nCells, digits, cm.opt.Confidence)
	f.Delta, f.P, f.PAdj = math.NaN(), math.NaN(), math.NaN()
	f.Noise, f.Detectable, f.Detectable80 = math.NaN(), math.NaN(), math.NaN()
	r := f.Rule
	f.Gated = r.Gated() && (f.Table != "rel" || r.Class == "throughput")
	nb, nn := len(f.Base.Values), len(f.New.Values)
	cm.cells++
	switch {
	case nb > 0 && nn == 0:
		cm.naNew++
		// What BASE measured is no longer measured: a warning where the
		// metric is gated, since the gate can no longer see it.
		// A gated metric that NEW lost fails the gate, unless allowed.
		f.Verdict, f.Level, f.Notable = VerdictNotComparable, LevelNote, true
		switch {
		case f.Gated && cm.opt.AllowNA:
			f.Level = LevelWarn
		case f.Gated:
			f.Level = LevelFail
		}
		f.Note = "value in BASE, " + describeNA(nBad, digits) + " in NEW"
		return
	case nb == 0 && nn > 0:
		f.Verdict, f.Level, f.Notable = VerdictNotComparable, LevelNote, true
		f.Note = describeNA(bBad, digits) + " in BASE, value in NEW"
		return
	case nb == 0:
		f.Verdict, f.Level = VerdictNotComparable, LevelOK
		f.Note = describeNA(append(bBad, nBad...), digits) + " on both sides"
		cm.naBoth++
		return
	}
	cm.valued++
	if len(bBad)+len(nBad) > 0 {
		f.Level, f.Notable = LevelNote, true
		f.Note = fmt.Sprintf("%d of %d BASE and %d of %d NEW runs are %s", len(bBad), f.Base.Runs, len(nBad), f.New.Runs, describeNA(append(bBad, nBad...), digits))
	}
	bm, nm := f.Base.Median, f.New.Median
	fl := floorOf(*f)
	switch {
	case bm == nm:
		f.Delta = 0
	case math.Abs(bm) < fl:
		// Relative to a BASE near 0 a change reads +inf% or +978800%:
		// relative to the floor it is a number that can be weighed.
		f.Delta, f.Floored = (nm-bm)/fl, true
		f.Note = appendNote(f.Note, "BASE is below the floor of "+strconv.FormatFloat(fl, 'g', -1, 64)+": the change is relative to the floor")
	case bm == 0:
		f.Delta = math.NaN()
		f.Note = appendNote(f.Note, "BASE is 0: no relative change")
	default:
		f.Delta = (nm - bm) / math.Abs(bm)
	}
	if !c.Replicated && !math.IsNaN(f.Delta) {
		f.Noise = cm.cellNoise(f)
	}
	if !f.Gated {
		f.Verdict = VerdictInfo
		return
	}
	if math.IsNaN(f.Delta) {
		f.Verdict, f.Level, f.Notable = VerdictNotComparable, max(f.Level, LevelNote), true
		return
	}
	// A difference of one unit in the last printed digit may be rounding
	// alone: each value is off by up to half a unit.
	ulp := math.Pow(10, -float64(max(f.Base.Decimals, f.New.Decimals)))
	if d := math.Abs(nm - bm); d > 0 && d <= ulp*(1+1e-9) {
		f.Verdict = VerdictOK
		f.Note = appendNote(f.Note, "within rounding of the printed values")
		return
	}
	if f.Table != "rel" && r.Floor > 0 && math.Abs(bm) < r.Floor && math.Abs(nm) < r.Floor {
		f.Verdict = VerdictOK
		f.Note = "below the floor of " + strconv.FormatFloat(r.Floor, 'g', -1, 64)
		return
	}
	if !c.Replicated {
		// Judged in finish, against its noise and the family of the report.
		cm.oneRun = append(cm.oneRun, len(c.Findings))
		return
	}
	// Identical values in every run cannot differ; testing them would only
	// make the Holm adjustment of the others harsher.
	if bm == nm && f.Base.Values[0] == f.Base.Values[nb-1] && f.New.Values[0] == f.New.Values[nn-1] {
		f.Verdict = VerdictOK
		f.Note = appendNote(f.Note, "the same in every run")
		return
	}
	if f.Base.Runs < minRuns || f.New.Runs < minRuns || nb < minRuns || nn < minRuns {
		f.Notes = append(f.Notes, c.note(fmt.Sprintf("with %d+%d runs the smallest possible two-sided U-test p is %.3g, above alpha %g: "+
			"the change is judged by consistency alone (every NEW run beyond every BASE run)", nb, nn, minP(nb, nn), c.Alpha)))
		cm.judgeReplicated(f, false)
		return
	}
	_, f.P = stats.MannWhitneyU(f.Base.Values, f.New.Values)
	cm.pending = append(cm.pending, len(c.Findings))
}

func appendNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// minP is the smallest two-sided exact U-test p-value for samples of m and
// n values: 2 / C(m+n, m).
func minP(m, n int) float64 {
	if m == 0 || n == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= m; i++ {
		c = c * float64(n+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// worse is how much worse NEW is than BASE, as a fraction, in the metric's
// bad direction; for neutral metrics a change either way counts.
func worse(f *Finding) float64 {
	switch f.Rule.Better {
	case HigherIsBetter:
		return -f.Delta
	case LowerIsBetter:
		return f.Delta
	}
	return math.Abs(f.Delta)
}

// floorOf is the magnitude below which a value of the finding's metric is
// too small to take a relative change from: the rule's floor for absolute
// tables, and for the ratios of rel tables, which carry no floor, the unit
// of their last printed digit (0.01).
func floorOf(f Finding) float64 {
	if f.Table == "rel" {
		return 0.01
	}
	return f.Rule.Floor
}

// separated reports whether the runs of the two sides do not overlap:
// every NEW value above every BASE value, or every one below. With one run
// per side it always holds, so that replicated runs judge at least as
// strictly as single runs wherever their values agree.
func separated(f *Finding) bool {
	b, n := f.Base.Values, f.New.Values
	if len(b) == 0 || len(n) == 0 {
		return false
	}
	return n[0] > b[len(b)-1] || n[len(n)-1] < b[0]
}

// judgeReplicated judges a gated cell of replicated runs. The change is
// real when the U test shows it (significant, after Holm) or when it is
// consistent: the sides' runs do not overlap. A change of the medians
// beyond a threshold whose runs overlap is within the run-to-run noise the
// runs themselves measured; it passes, and the note says so.
//
// Why consistency: with few runs or many cells the U test, after Holm, can
// show nothing (3+3 runs: smallest p 0.1), so a gate relying on it alone
// passes a 10% regression that one run per side would fail. Separation of
// the sides has a chance of 1/C(m+n, m) under no change (0.05 for 3+3,
// 0.004 for 5+5) and is needed together with a median change beyond the
// threshold; TestReplicatedPower measures the rule on simulated runs.
func (cm *comparer) judgeReplicated(f *Finding, significant bool) {
	sep := separated(f)
	cm.judge(f, significant || sep)
	const eps = 1e-12
	w := worse(f)
	switch {
	case f.Verdict == VerdictNotSignificant && (f.Rule.Warn > 0 && w >= f.Rule.Warn-eps || f.Rule.Fail > 0 && w >= f.Rule.Fail-eps):
		f.Note = appendNote(f.Note, fmt.Sprintf("within the run-to-run noise: the BASE runs (%s) and NEW runs (%s) overlap",
			rangeText(f.Base), rangeText(f.New)))
	case !significant && sep && f.Level >= LevelWarn:
		f.Note = appendNote(f.Note, fmt.Sprintf("consistent: every NEW run (%s) is worse than every BASE run (%s)",
			rangeText(f.New), rangeText(f.Base)))
	}
}

// rangeText is the lowest and highest value of a side, as printed.
func rangeText(s Side) string {
	if len(s.Values) == 0 {
		return "NA"
	}
	lo := strconv.FormatFloat(s.Values[0], 'f', s.Decimals, 64)
	hi := strconv.FormatFloat(s.Values[len(s.Values)-1], 'f', s.Decimals, 64)
	if lo == hi {
		return lo
	}
	return lo + "–" + hi
}

// judge sets the verdict of a gated cell from the thresholds; significant
// is false for replicated runs whose change is not shown to be real.
func (cm *comparer) judge(f *Finding, significant bool) {
	const eps = 1e-12
	r, w := f.Rule, worse(f)
	beyond := func(th, x float64) bool { return th > 0 && x >= th-eps }
	switch {
	case !significant:
		f.Verdict = VerdictNotSignificant
		f.Notable = f.Notable || beyond(r.Warn, w) || beyond(r.Fail, w)
	case beyond(r.Fail, w):
		f.Verdict, f.Level = VerdictFail, LevelFail
	case beyond(r.Warn, w):
		f.Verdict, f.Level = VerdictWarn, max(f.Level, LevelWarn)
	case r.Better != Neutral && (beyond(r.Warn, -w) || r.Warn == 0 && beyond(r.Fail, -w)):
		f.Verdict = VerdictImproved
	default:
		f.Verdict = VerdictOK
	}
	f.Notable = f.Notable || f.Level >= LevelNote || f.Verdict == VerdictImproved
}

// finish adjusts the pending U tests, judges them, adds the geometric means
// and footnotes, and sorts the findings by severity.
func (cm *comparer) finish() {
	c := cm.c
	ps := make([]float64, len(cm.pending))
	for i, fi := range cm.pending {
		ps[i] = c.Findings[fi].P
	}
	c.Tests = len(ps)
	if c.Tests > 0 {
		hn := c.note(fmt.Sprintf("p-values are Holm-adjusted over the %d U tests of this report "+
			"(unadjusted, about %.2g of them would be false positives at alpha %g)", c.Tests, c.Alpha*float64(c.Tests), c.Alpha))
		// Holm multiplies the smallest p by the number of tests: when even
		// the smallest p the run counts allow cannot get below alpha, say so.
		best := 1.0
		for _, fi := range cm.pending {
			f := &c.Findings[fi]
			best = math.Min(best, minP(len(f.Base.Values), len(f.New.Values)))
		}
		if best*float64(c.Tests) >= c.Alpha {
			c.note(fmt.Sprintf("with %s and these run counts no change can be significant after the Holm adjustment "+
				"(smallest possible p %.2g × %d >= %g): changes are judged by consistency alone (every NEW run beyond every BASE run)",
				metrics.Plural(c.Tests, "test"), best, c.Tests, c.Alpha))
		}
		for i, adj := range stats.Holm(ps) {
			f := &c.Findings[cm.pending[i]]
			f.PAdj = adj
			f.Notes = append(f.Notes, hn)
			cm.judgeReplicated(f, adj < c.Alpha)
		}
	}
	if c.Replicated {
		for i := range c.Findings {
			f := &c.Findings[i]
			if f.Notable && f.Verdict != VerdictMissing && f.Verdict != VerdictNotComparable &&
				(len(f.Base.Values) > 1 && math.IsNaN(f.Base.Lo) || len(f.New.Values) > 1 && math.IsNaN(f.New.Lo)) {
				f.Notes = append(f.Notes, c.note(fmt.Sprintf("need >= 6 runs for a %g%% interval of the median", cm.opt.Confidence*100)))
			}
		}
	}
	cm.geomeans()
	if !c.Replicated {
		cm.oneRunGate()
	}
	cm.foldRel()
	// Positions by name, looked up once: the sort compares n·log n pairs.
	index := func(names []string) map[string]int {
		m := make(map[string]int, len(names))
		for i, s := range names {
			if _, ok := m[s]; !ok {
				m[s] = i
			}
		}
		return m
	}
	steps, dbms, tables, cols := index(cm.stepOrder), index(cm.dbmsOrder), index(c.Tables), index(metrics.RowColumns)
	pos := func(m map[string]int, s string, missing int) int {
		if i, ok := m[s]; ok {
			return i
		}
		return missing
	}
	slices.SortStableFunc(c.Findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(b.Level, a.Level),
			cmp.Compare(verdictRank[a.Verdict], verdictRank[b.Verdict]),
			cmp.Compare(pos(steps, a.Step, -1), pos(steps, b.Step, -1)),
			cmp.Compare(pos(tables, a.Table, -1), pos(tables, b.Table, -1)),
			cmp.Compare(pos(dbms, a.DBMS, -1), pos(dbms, b.DBMS, -1)),
			cmp.Compare(pos(cols, a.Metric, len(metrics.RowColumns)), pos(cols, b.Metric, len(metrics.RowColumns))),
			strings.Compare(a.Metric, b.Metric),
		)
	})
}

// geomeans adds one geometric mean of throughput ratios per step (per
// table group: a thread count for sysbench) and DBMS, from the first kind
// of table compared (mrg when there are mrg tables).
func (cm *comparer) geomeans() {
	c := cm.c
	kind := c.Tables[0]
	type key struct{ group, dbms string }
	var order []key
	acc := map[key]*StepGeomean{}
	sums := map[key]float64{}
	for _, f := range c.Findings {
		if f.Table != kind || f.Metric == "" || f.DBMS == "" || f.Rule.Class != "throughput" {
			continue
		}
		dbms, _, _ := strings.Cut(f.DBMS, "#")
		k := key{cm.groups[f.Table+"\x00"+f.Step], dbms}
		if k.group == "" {
			k.group = f.Step
		}
		if acc[k] == nil {
			acc[k] = &StepGeomean{Step: k.group, DBMS: k.dbms, Table: kind, Ratio: math.NaN(), Detectable: math.NaN()}
			order = append(order, k)
		}
		if !(f.Base.Median > 0) || !(f.New.Median > 0) {
			continue
		}
		sums[k] += math.Log(f.New.Median / f.Base.Median)
		acc[k].N++
	}
	for _, k := range order {
		g := acc[k]
		if g.N > 0 {
			g.Ratio = math.Exp(sums[k] / float64(g.N))
		}
		c.Geomeans = append(c.Geomeans, *g)
	}
}

// foldRel folds each rel finding into the mrg finding of the same step,
// DBMS and metric, so that a throughput is one row: the mrg finding keeps
// the worse verdict of the two and says the rel change.
func (cm *comparer) foldRel() {
	c := cm.c
	type key struct{ step, dbms, metric string }
	mrg := map[key]int{}
	for i, f := range c.Findings {
		if f.Table == "mrg" && f.Metric != "" && f.DBMS != "" {
			mrg[key{f.Step, f.DBMS, f.Metric}] = i
		}
	}
	if len(mrg) == 0 {
		return
	}
	folded := make([]bool, len(c.Findings))
	for j, f := range c.Findings {
		i, ok := mrg[key{f.Step, f.DBMS, f.Metric}]
		if f.Table != "rel" || f.Metric == "" || f.DBMS == "" || !ok {
			continue
		}
		folded[j] = true
		m := &c.Findings[i]
		rel := f
		m.Rel = &rel
		m.Notable = m.Notable || f.Notable
		if f.Level > m.Level || f.Level == m.Level && verdictRank[f.Verdict] < verdictRank[m.Verdict] {
			m.Level, m.Verdict = f.Level, f.Verdict
		}
		if f.Level > LevelOK || f.Verdict == VerdictImproved || f.Verdict == VerdictFail || f.Verdict == VerdictWarn ||
			f.Verdict == VerdictNotSignificant && f.Notable {
			m.Note = appendNote(m.Note, fmt.Sprintf("rel %s → %s %s", sideText(f.Base, true), sideText(f.New, true), deltaText(f.Delta)))
		}
		for _, n := range f.Notes {
			if !slices.Contains(m.Notes, n) {
				m.Notes = append(m.Notes, n)
			}
		}
	}
	keep := c.Findings[:0]
	for j, f := range c.Findings {
		if !folded[j] {
			keep = append(keep, f)
		}
	}
	c.Findings = keep
}
