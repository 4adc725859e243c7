package diff

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/parse"
)

// One run per side: what a change can be without a real change.
//
// A cell of one run per side differs from BASE by the run-to-run noise of
// both runs (RunNoise, a relative standard deviation per run), by the
// noise within each run that the raw logs measure (the one-run interval of
// a step or test, a 95% half-width) and by the rounding of printed values
// (a value printed as 33 is anything in [32.5, 33.5): a standard deviation
// of 1/√12 units). They add in quadrature to Finding.Noise, the standard
// deviation of log(NEW/BASE); a rel cell, a ratio of two DBMS of the same
// run, carries the run-to-run noise of both.
//
// The report is one family of tests, at half of alpha (0.025 by default).
// A cell fails when its change in the bad direction reaches its fail
// level and lies beyond z·Noise, z the one-sided critical value of half of
// that shared (Bonferroni) by the gated cells compared; the other half
// goes to the groups: the geometric
// mean of a step's (or a sysbench thread count's) throughput cells per
// DBMS, the mean of all of a DBMS's steps, and the sysbench test groups
// (sbgroup). A group fails when its mean falls by its throughput warn
// level and beyond z·(its noise), the noise of a mean of n cells being
// √(Σ Noise²)/n, and more than half of its cells fell by half that level:
// cells that all moved a little together are the evidence one cell lacks,
// and one cell's fall, judged by its own levels, does not fail its group. So a report with no change fails with probability at
// most alpha whatever its number of cells, and each finding says the
// smallest change it could detect (Detectable).

// runNoise is the run-to-run noise one-run comparisons use: the options',
// else the BASE folder's settings, else stats.DefaultRunNoise.
func runNoise(opt CompareOptions, base *ResultSet) float64 {
	switch {
	case opt.RunNoise > 0:
		return opt.RunNoise
	case base != nil && base.RunNoise > 0:
		return base.RunNoise
	}
	return stats.DefaultRunNoise
}

// intervalOf is the relative one-run interval of the first row's column;
// NaN when it has none.
func intervalOf(rows []rowRef, col string) float64 {
	if len(rows) == 0 {
		return math.NaN()
	}
	r := rows[0]
	i := slices.Index(r.cols, col)
	if i < 0 || i >= len(r.row.Noise) {
		return math.NaN()
	}
	return r.row.Noise[i]
}

// cellNoise is the standard deviation of log(NEW/BASE) of a one-run cell
// with no real change.
func (cm *comparer) cellNoise(f *Finding) float64 {
	r := cm.cellRunNoise(f)
	v := 2 * r * r
	if f.Table == "rel" {
		v *= 2 // a ratio of two DBMS of one run: both runs' noise
	}
	fl := floorOf(*f)
	for _, s := range []struct {
		side Side
		hw   float64
	}{{f.Base, cm.bInt}, {f.New, cm.nInt}} {
		if hw := s.hw / 1.96; hw > 0 && !math.IsInf(hw, 0) {
			v += hw * hw
		}
		x := math.Max(math.Abs(s.side.Median), fl)
		if x > 0 {
			u := math.Pow(10, -float64(s.side.Decimals)) / math.Sqrt(12) / x
			v += u * u
		}
		switch {
		case f.Floored:
			// Below its floor a value is known to about half the floor, and
			// the change is relative to the floor: wKB/o of a read-only
			// test is 0.029 one run and 0.100 the next.
			v += 0.5 * 0.5
		case f.Table != "rel" && f.Rule.Floor > 0 && x < 1.25*f.Rule.Floor:
			// So it is just above the floor: 0.117 one run, 0.003 the next.
			u := f.Rule.Floor / 2 / x
			v += u * u
		}
	}
	return math.Sqrt(v)
}

// logChange is log(1 + delta), -Inf for a fall to 0 or below.
func logChange(delta float64) float64 {
	if delta <= -1 {
		return math.Inf(-1)
	}
	return math.Log1p(delta)
}

// badChange turns a change of log(NEW/BASE) of size lim in the bad
// direction into a relative change: 1 − e^−lim for higher-is-better,
// e^lim − 1 otherwise.
func badChange(b Better, lim float64) float64 {
	if b == HigherIsBetter {
		return -math.Expm1(-lim)
	}
	return math.Expm1(lim)
}

// detectText says the smallest change that fails, signed in the bad
// direction, the change caught 4 times in 5, and the noise: "fails from
// -5.9%, 4 in 5 from -7.1% (one-run noise ±1.5%)".
func detectText(b Better, d, noise, df float64) string {
	sign := "+"
	if b == HigherIsBetter {
		sign = "-"
	}
	return fmt.Sprintf("fails from %s%s, 4 in 5 from %s%s (one-run noise ±%s)", sign, pctText(d), sign, pctText(power80(b, d, noise, df)), pctText(noise))
}

// power80 is the change in the bad direction that fails 4 times in 5
// when d fails half the time: d's log change plus the noises of the
// quantile of 0.8 of the noise's shape (the normal's 0.84 for df 0).
func power80(b Better, d, noise, df float64) float64 {
	if math.IsNaN(d) || math.IsNaN(noise) {
		return math.NaN()
	}
	lim := math.Log1p(d) // lower is better: d = e^lim − 1
	if b == HigherIsBetter {
		if d >= 1 {
			return 1
		}
		lim = -math.Log1p(-d) // d = 1 − e^−lim
	}
	return badChange(b, lim+stats.TailZ(0.2, df)*noise)
}

// pctText prints a fraction as a percentage with one decimal below 10%.
func pctText(x float64) string {
	p := 100 * x
	if p < 9.95 {
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 0, 64) + "%"
}

// group is one mean tested by the noise gate.
type group struct {
	table, step, dbms string
	// logs are the log changes of its cells (of an sbgroup: its own
	// mean's, as its table printed it, and cells those of its tests);
	// noises and runs are the noise and run-to-run noise of each cell.
	logs, noises []float64
	cells        []float64
	runs         []float64
	// ids are the findings of its cells; run the findings of all the
	// throughput cells of its DBMS's run, of which the rest is the
	// group's contrast.
	ids, run []int
	geomean  int // index in Comparison.Geomeans, or -1
	finding  int // index of an sbgroup finding, or -1
	rule     Rule
}

// oneRunGate judges the one-run cells and groups against their noise
// (see the comment at the top of this file).
func (cm *comparer) oneRunGate() {
	c := cm.c
	// Half of alpha for the family: the run noise is declared, itself an
	// estimate, and the margin keeps the whole report within alpha when it
	// is somewhat understated. Half of that for the cells, half for the
	// groups.
	alpha := oneRunAlpha(c.Alpha) / 2
	groups := cm.groupTests()
	isGroup := map[int]bool{}
	for _, g := range groups {
		if g.finding >= 0 {
			isGroup[g.finding] = true
		}
	}
	m := 0
	var cellsOnly []int
	for _, i := range cm.oneRun {
		if !isGroup[i] {
			m++
			cellsOnly = append(cellsOnly, i)
		}
	}
	// The runs that moved as a whole, named.
	cm.shiftNotes(cellsOnly)
	var note int = -1
	noteOf := func() int {
		if note < 0 {
			note = c.note(fmt.Sprintf("one run per side: each change is judged against the noise it can have — "+
				"run-to-run %s per run (%s), the one-run intervals of the raw logs and the rounding of the printed values — "+
				"and the gated cells and groups of this report are one family: a report with no real change fails with probability at most %g, %s",
				pctText(cm.runNoise), cm.runNoiseSource(), oneRunAlpha(c.Alpha), cm.shapeText()))
		}
		return note
	}
	for _, i := range cm.oneRun {
		if isGroup[i] {
			continue
		}
		f := &c.Findings[i]
		z := stats.FamilyTailZ(alpha, m, cm.runDF)
		if f.Rule.Better == Neutral {
			z = stats.FamilyTailZ(alpha/2, m, cm.runDF)
		}
		lim := z * f.Noise
		lc := logChange(f.Delta)
		if f.Floored {
			// Relative to the floor the noise is absolute (half the floor a
			// side), so the change is weighed as it is, not as a log.
			lc = f.Delta
		}
		sig := math.Abs(lc) >= lim
		beyondAny := false
		for _, th := range []float64{f.Rule.Warn, f.Rule.Fail} {
			if th > 0 && (worse(f) >= th-1e-12 || f.Rule.Better != Neutral && -worse(f) >= th-1e-12) {
				beyondAny = true
			}
		}
		cm.judge(f, sig || !beyondAny)
		if f.Floored && f.Level == LevelFail {
			// From a BASE below its floor one run cannot tell a burst of
			// background work (a checkpoint's writes in a read-only test:
			// wKB/o 0 one run, 2.6 the next) from a change.
			f.Verdict, f.Level = VerdictWarn, LevelWarn
			f.Note = appendNote(f.Note, "warns only: from a BASE below its floor one run per side cannot tell a burst of background work from a change")
		}
		if f.Rule.Fail > 0 {
			f.Detectable = math.Max(f.Rule.Fail, badChange(f.Rule.Better, lim))
			f.Detectable80 = power80(f.Rule.Better, f.Detectable, f.Noise, cm.runDF)
		}
		if !sig && beyondAny {
			f.Note = appendNote(f.Note, "within the one-run noise: "+detectText(f.Rule.Better, f.Detectable, f.Noise, cm.runDF))
			f.Notes = append(f.Notes, noteOf())
		}
	}
	mg := len(groups)
	zg := stats.FamilyTailZ(alpha, mg, cm.runDF)
	for _, g := range groups {
		n := float64(len(g.logs))
		mean := 0.0
		for i := range g.logs {
			mean += g.logs[i] / n
		}
		// The run-to-run noise is shared by every cell of one run: a mean
		// does not divide it, only the rest of each cell's noise.
		noise := sharedGroupNoise(g.noises, g.runs, g.table == "rel")
		// A group that is part of its run is judged against the rest of
		// the run, which shares its run's noise: the contrast cancels it,
		// so a whole run that shifted fails no part, and a part that fell
		// is caught at the noise of its own cells.
		contrast, cnoise, rest, ok := cm.contrast(g)
		if ok {
			noise = cnoise
		}
		lim := zg * noise
		level := g.rule.Warn
		if level == 0 {
			level = g.rule.Fail
		}
		det := math.Max(level, badChange(HigherIsBetter, lim))
		if g.geomean >= 0 {
			c.Geomeans[g.geomean].Detectable = det
		}
		fall := -math.Expm1(mean)
		// Cells as the evidence: most of them fell, so that one cell's
		// fall, judged by its own levels, does not fail its group too.
		cells := g.cells
		if cells == nil {
			cells = g.logs
		}
		fell := 0
		for _, x := range cells {
			if x <= math.Log1p(-level/2) {
				fell++
			}
		}
		failed := level > 0 && fall >= det-1e-12 && 2*fell > len(cells)
		if ok {
			failed = level > 0 && fall >= level-1e-12 && -math.Expm1(contrast) >= det-1e-12 && 2*fell > len(cells)
		}
		against := ""
		if ok {
			against = fmt.Sprintf(" and %s against the rest of its run (%d cells)", pctText(-math.Expm1(contrast)), rest)
		}
		if g.finding >= 0 {
			f := &c.Findings[g.finding]
			f.Noise, f.Detectable, f.Detectable80 = noise, det, power80(HigherIsBetter, det, noise, cm.runDF)
			switch {
			case failed:
				f.Verdict, f.Level = VerdictFail, LevelFail
				f.Note = appendNote(f.Note, fmt.Sprintf("the mean of %d tests fell%s, beyond the noise of the group: %s", len(g.cells), against, detectText(HigherIsBetter, det, noise, cm.runDF)))
				f.Notes = append(f.Notes, noteOf())
			case level > 0 && fall >= level:
				f.Verdict = VerdictNotSignificant
				f.Note = appendNote(f.Note, "within the one-run noise of the group: "+detectText(HigherIsBetter, det, noise, cm.runDF))
				f.Notes = append(f.Notes, noteOf())
			case level > 0 && -worse(f) >= level && math.Abs(mean) >= lim:
				f.Verdict = VerdictImproved
			default:
				f.Verdict = VerdictOK
			}
			f.Notable = f.Notable || f.Level >= LevelNote || f.Verdict != VerdictOK
			continue
		}
		if !failed {
			continue
		}
		what := "step " + g.step
		switch g.step {
		case allSteps:
			what = "all steps"
		case queryStepsGroup:
			what = "query steps"
		case loadStepsGroup:
			what = "load steps"
		}
		// The group's own level, so that the row says what it failed at.
		rule := g.rule
		rule.Metric, rule.Warn, rule.Fail, rule.Floor = "geomean", level, level, 0
		c.Findings = append(c.Findings, Finding{Table: g.table, Step: g.step, DBMS: g.dbms, Metric: "geomean", Rule: rule, Gated: true,
			Base: Side{Median: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}, New: Side{Median: math.NaN(), Lo: math.NaN(), Hi: math.NaN()},
			Delta: math.Expm1(mean), P: math.NaN(), PAdj: math.NaN(), Noise: noise, Detectable: det, Detectable80: power80(HigherIsBetter, det, noise, cm.runDF),
			Verdict: VerdictFail, Level: LevelFail, Notable: true, Notes: []int{noteOf()},
			Note: fmt.Sprintf("geometric mean of %d throughput cells of %s %s%s: together beyond the noise of one run, %s",
				len(g.logs), g.dbms, what, against, detectText(HigherIsBetter, det, noise, cm.runDF))})
	}
}

// oneRunAlpha is the share of one-run reports with no real change that
// may fail: half of alpha.
func oneRunAlpha(alpha float64) float64 { return alpha / 2 }

// allSteps is the step of the group of all of a DBMS's steps;
// queryStepsGroup and loadStepsGroup those of its query and load steps.
const (
	allSteps        = "all"
	queryStepsGroup = "queries"
	loadStepsGroup  = "loads"
)

// shapeText says what the false-failure figure assumes of the shape of
// the run-to-run noise.
func (cm *comparer) shapeText() string {
	if cm.runDF == 0 {
		return "if the run-to-run noise is normal (heavy tails, a run now and then far off, fail more: see --run-noise-df)"
	}
	src := "--run-noise-df"
	if cm.opt.RunNoiseDF == 0 {
		src = "BASE's settings, key " + parse.RunNoiseDFKey
	}
	return fmt.Sprintf("with run-to-run noise of heavy tails, a Student t of %g degrees of freedom (%s)", cm.runDF, src)
}

// runNoiseSource says where the run-to-run noise came from.
func (cm *comparer) runNoiseSource() string {
	switch {
	case cm.opt.RunNoise > 0:
		return "--run-noise"
	case cm.runNoise != stats.DefaultRunNoise:
		return "BASE's settings, key run-noise"
	}
	return "the default; set --run-noise or the settings key run-noise of BASE"
}

// groupTests collects the means the gate tests: per step (sysbench: per
// thread count) and DBMS the throughput cells of the first kind of table,
// as the geometric means take them; per DBMS all of them when it ran more
// than one step; and each sbgroup cell, from the cells of its tests. A
// mean of fewer than 2 cells is not a group.
func (cm *comparer) groupTests() []group {
	c := cm.c
	kind := c.Tables[0]
	type key struct{ group, dbms string }
	idx := map[key]int{}
	var out []group
	add := func(k key, f *Finding, geomean, id int) {
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, group{table: kind, step: k.group, dbms: k.dbms, geomean: geomean, finding: -1, rule: f.Rule})
		}
		out[i].logs = append(out[i].logs, math.Log(f.New.Median/f.Base.Median))
		out[i].noises = append(out[i].noises, f.Noise)
		out[i].runs = append(out[i].runs, f.RunNoise)
		out[i].ids = append(out[i].ids, id)
	}
	runIDs := map[string][]int{}
	steps := map[string]map[string]bool{}
	for i := range c.Findings {
		f := &c.Findings[i]
		if f.Table != kind || f.Metric == "" || f.DBMS == "" || f.Rule.Class != "throughput" ||
			!(f.Base.Median > 0) || !(f.New.Median > 0) || math.IsNaN(f.Noise) {
			continue
		}
		dbms, _, _ := strings.Cut(f.DBMS, "#")
		gr := cm.groups[f.Table+"\x00"+f.Step]
		if gr == "" {
			gr = f.Step
		}
		gi := slices.IndexFunc(c.Geomeans, func(g StepGeomean) bool { return g.Step == gr && g.DBMS == dbms })
		add(key{gr, dbms}, f, gi, i)
		runIDs[dbms] = append(runIDs[dbms], i)
		// The insert benchmark's query steps and load steps, each a
		// group: a fall of every read is caught against the loads.
		if kind == "mrg" {
			switch {
			case strings.HasPrefix(f.Step, "q"):
				add(key{queryStepsGroup, dbms}, f, -1, i)
			case strings.HasPrefix(f.Step, "l."):
				add(key{loadStepsGroup, dbms}, f, -1, i)
			}
		}
		if steps[dbms] == nil {
			steps[dbms] = map[string]bool{}
		}
		steps[dbms][gr] = true
	}
	for i := range c.Findings {
		f := &c.Findings[i]
		dbms, _, _ := strings.Cut(f.DBMS, "#")
		if f.Table != kind || f.Rule.Class != "throughput" || len(steps[dbms]) < 2 ||
			!(f.Base.Median > 0) || !(f.New.Median > 0) || math.IsNaN(f.Noise) {
			continue
		}
		add(key{allSteps + "\x00", dbms}, f, -1, i)
	}
	for i := range out {
		if out[i].step == allSteps+"\x00" {
			out[i].step = allSteps
		}
		out[i].run = runIDs[out[i].dbms]
	}
	// A group of query (or load) steps that are all the steps is no group
	// of its own.
	out = slices.DeleteFunc(out, func(g group) bool {
		return (g.step == queryStepsGroup || g.step == loadStepsGroup) && (len(g.ids) == len(g.run) || len(steps[g.dbms]) < 3)
	})
	// sbgroup cells: a mean of the qps cells of their tests.
	pending := map[int]bool{}
	for _, i := range cm.oneRun {
		pending[i] = true
	}
	for i := range c.Findings {
		f := &c.Findings[i]
		mem := cm.members[f.Table+"\x00"+f.Step]
		if len(mem) == 0 || !pending[i] {
			continue
		}
		dbms, _, _ := strings.Cut(f.DBMS, "#")
		g := group{table: f.Table, step: f.Step, dbms: f.DBMS, geomean: -1, finding: i, rule: f.Rule, run: runIDs[dbms]}
		for j := range c.Findings {
			m := &c.Findings[j]
			if m.DBMS == f.DBMS && m.Metric == f.Metric && slices.Contains(mem, m.Step) && !math.IsNaN(m.Noise) {
				g.logs = append(g.logs, logChange(m.Delta))
				g.noises = append(g.noises, m.Noise)
				g.runs = append(g.runs, m.RunNoise)
				g.ids = append(g.ids, j)
			}
		}
		if len(g.logs) > 0 {
			// The group's own change is the mean's, as its table printed it.
			g.cells = g.logs
			g.logs = []float64{logChange(f.Delta)}
			out = append(out, g)
		}
	}
	return slices.DeleteFunc(out, func(g group) bool { return len(g.logs) < 2 && g.finding < 0 })
}
