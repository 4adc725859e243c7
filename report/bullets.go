package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// A Bullet is one finding of the summary: how a DBMS's throughput compares
// with its base's over a part of the benchmark, and which efficiency
// metrics moved with the largest change.
type Bullet struct {
	DBMS    string `json:"dbms"`
	Base    string `json:"base"`
	Part    string `json:"part"`              // "load", "create index", "read+write"; a sysbench group
	Threads int    `json:"threads,omitempty"` // sysbench: the thread count
	// Min, Median and Max are of the relative throughput (DBMS / base)
	// over the part's steps or tests.
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	// Q1 and Q3 are the quartiles of the same ratios (linear
	// interpolation between order statistics), N their count: the
	// finding prints the quartiles from 4 ratios on.
	Q1 float64 `json:"q1"`
	Q3 float64 `json:"q3"`
	N  int     `json:"n"`
	// Word is "more", "less" or "similar" (the median within
	// metrics.SimilarBand of 1).
	Word string `json:"word"`
	// Largest is the step or test with the largest change, Ratio its
	// relative throughput and Causes the metrics that moved with it;
	// Unexplained when it is beyond the band and none did.
	Largest     string          `json:"largest"`
	Ratio       float64         `json:"ratio"`
	Causes      []metrics.Cause `json:"causes,omitempty"`
	Unexplained bool            `json:"unexplained,omitempty"`
	// WithinNoise: the largest change is within the noise of the runs
	// (every change, when Word is "similar" for it), so none is explained.
	WithinNoise bool `json:"within_noise,omitempty"`
	// Text is the finding in words; Short the same without the DBMS, as a
	// part of the line a report prints per DBMS.
	Text  string `json:"text"`
	Short string `json:"-"`
}

// partRatio is one step's or test's relative throughput and what can
// explain it.
type partRatio struct {
	name     string
	ratio    float64
	measures []metrics.Measure
	noise    bool // the difference is within the runs' noise
}

// bulletOf sums a part up; ok is false when no ratio is known.
func bulletOf(dbms, base, part string, threads int, rs []partRatio) (Bullet, bool) {
	if len(rs) == 0 {
		return Bullet{}, false
	}
	vals := make([]float64, len(rs))
	largest := rs[0]
	for i, r := range rs {
		vals[i] = r.ratio
		if math.Abs(math.Log(r.ratio)) > math.Abs(math.Log(largest.ratio)) {
			largest = r
		}
	}
	sorted := slices.Sorted(slices.Values(vals))
	b := Bullet{DBMS: dbms, Base: base, Part: part, Threads: threads, Min: sorted[0], Max: sorted[len(sorted)-1],
		Median: stats.Median(sorted), Q1: quartile(sorted, 0.25), Q3: quartile(sorted, 0.75), N: len(sorted),
		Largest: largest.name, Ratio: largest.ratio}
	switch {
	case b.Median > 1+metrics.SimilarBand:
		b.Word = "more"
	case b.Median < 1-metrics.SimilarBand:
		b.Word = "less"
	default:
		b.Word = "similar"
	}
	allNoise := true
	for _, r := range rs {
		allNoise = allNoise && r.noise
	}
	switch {
	case allNoise:
		b.Word, b.WithinNoise = "similar", true
	case largest.noise:
		b.WithinNoise = true // the largest change is not one
	case math.Abs(largest.ratio-1) > metrics.SimilarBand:
		b.Causes = metrics.Attribute(largest.measures, largest.ratio, metrics.SimilarBand)
		b.Unexplained = len(b.Causes) == 0
	}
	b.Short = bulletText(b, len(rs))
	b.Text = b.head() + ", " + b.Short
	return b, true
}

// head names what a bullet compares: "pg15.c2 vs pg15.c1", with the
// sysbench thread count.
func (b Bullet) head() string {
	h := b.DBMS + " vs " + b.Base
	if b.Threads > 0 {
		h += ", " + ThreadCount(b.Threads)
	}
	return h
}

// bulletText puts a part's finding in words: "load: more, median 1.41×
// (IQR 1.30–1.90, 1.28–2.24, 6 steps), largest on l.i2 (2.24×): rkbpq
// -99%, rpq -93%".
func bulletText(b Bullet, n int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%s: %s, %s", b.Part, b.Word, spreadText(b, n))
	if math.Abs(b.Ratio-1) <= metrics.SimilarBand {
		return s.String()
	}
	if b.WithinNoise && b.Word == "similar" && len(b.Causes) == 0 && !b.Unexplained {
		if n > 1 {
			return s.String() + ", all within noise"
		}
		return s.String() + ", within noise"
	}
	if n > 1 {
		fmt.Fprintf(&s, ", largest on %s (%.2f×)", b.Largest, b.Ratio)
	}
	if b.WithinNoise {
		s.WriteString(" ~ within noise")
		return s.String()
	}
	if b.Unexplained {
		s.WriteString(": unexplained")
		return s.String()
	}
	var causes []string
	for i, c := range b.Causes {
		if i == 3 {
			break
		}
		causes = append(causes, fmt.Sprintf("%s %+.0f%%", c.Name, 100*c.Change)+detailText(c.Detail))
	}
	s.WriteString(": " + strings.Join(causes, ", "))
	return s.String()
}

// detailText is a cause's explanation one level deeper: " (insn/o +48%,
// IPC -4%)"; "" without one.
func detailText(d []metrics.Cause) string {
	if len(d) == 0 {
		return ""
	}
	var parts []string
	for _, c := range d {
		parts = append(parts, fmt.Sprintf("%s %+.0f%%", c.Name, 100*c.Change))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// spreadMin is the count of ratios from which a finding gives their
// interquartile range: with fewer, the quartiles are little more than the
// extremes.
const spreadMin = 4

// spreadText is the median ratio of a part and its spread: "0.93×" for one
// ratio or when all round alike, "median 0.93× (0.85–1.01, 3 tests)" with
// the min–max, and from spreadMin ratios on also the interquartile range:
// "median 0.93× (IQR 0.90–0.95, min–max 0.85–1.01, 8 tests)".
func spreadText(b Bullet, n int) string {
	f := func(x float64) string { return fmt.Sprintf("%.2f", x) }
	if n == 1 || f(b.Min) == f(b.Max) {
		return f(b.Median) + "×"
	}
	what := "steps"
	if b.Threads > 0 {
		what = "tests"
	}
	iqr := ""
	if n >= spreadMin {
		iqr = "IQR " + f(b.Q1) + "–" + f(b.Q3) + ", "
	}
	return fmt.Sprintf("median %s× (%smin–max %s–%s, %d %s)", f(b.Median), iqr, f(b.Min), f(b.Max), n, what)
}

// quartile is the p-quantile of sorted values by linear interpolation
// between order statistics (position p·(n−1), R's type 7): it never leaves
// the values' range and gives the median at p = 0.5.
func quartile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	h := p * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// bulletLegend explains the bullets, for the legends of every format.
const bulletLegend = "each DBMS against the base of its group: its throughput divided by the base's (×) over the steps of each part " +
	"(load, create index, read+write) or the tests of each sysbench part (point, range without aggregation, range with aggregation, writes; or the groups of --sb-groups), " +
	"as the median and its spread: the interquartile range (from 4 steps or tests on), min–max and the count; and the word more, less or similar " +
	"(the median within ±3% of 1, or every change within the noise of the runs); then the step or test of the largest change and the efficiency metrics that moved with it beyond ±3% " +
	"(a cost per operation that rose when throughput fell, or fell when it rose; a p99 rate the other way, when both come from the 100 intervals or more a 99th percentile needs). " +
	"A metric is cited only when it matters: both values at least its floor (rpq, wpi, r/o 0.01; rkbpq, wkbpi, rKB/o, wKB/o 0.1 KiB; cspq, cs/o 0.05; cpupq 1 µs; cpu/o 0.000001; maxop 0.05 s; p99 1/s; " +
	"the floors diff uses), so that no percentage is of a near-zero value, and accounting for at least 10% of the change: " +
	"a metric that changed by the factor q accounts for |log q| / |log r| of a throughput ratio r, at most 100%. " +
	"They are ranked by that share (in steps of 10%), then by how close their change is to the throughput's; " +
	"unexplained when none did, ~ within noise when the change is smaller than the 95% noise of the two runs plus run-to-run noise (see ~)"

// ibenchParts groups the steps as the bullets sum them up.
func ibenchPart(st parse.Step) string {
	switch {
	case st.Kind == parse.CreateIndex:
		return "create index"
	case st.Kind.ReadWrite():
		return "read+write"
	}
	return "load"
}

// findings sum the report up: the bullets, the comparability and
// plausibility checks and the release story. They read the insert
// benchmark's part through ibFacts and the sysbench set as plain data, and
// write only the report's Bullets, Comparability, Plausibility and Story.
type findings struct {
	rep *Report
	res *Results
	ib  ibFacts
	// sbPerf holds the sysbench perf stat counters per operation.
	sbPerf *sbPerfOps
}

// bullets sums up every DBMS against the base of its group, per part of
// the insert benchmark, from the typed values of the merged tables.
func (b *findings) bullets() {
	parts := []string{"load", "create index", "read+write"}
	for _, p := range basePairs(b.ib.dbmsList()) {
		e, base := p.tag, p.base
		for _, part := range parts {
			var rs []partRatio
			for _, st := range b.ib.stepList() {
				if ibenchPart(st) != part {
					continue
				}
				col := throughputCol(st)
				v, bv := b.ib.cell(st.MergeName, e, col), b.ib.cell(st.MergeName, base, col)
				// A base of 0 makes no finding: 0/0 is 1 only by the
				// tables' convention, and x/0 no number at all.
				r := metrics.RelativeTo(v, bv, col)
				if !r.OK() || bv.V == 0 || r.V <= 0 || math.IsInf(r.V, 0) {
					continue
				}
				pr := partRatio{name: st.MergeName, ratio: r.V, noise: b.ib.withinNoise(st, e, base, r.V)}
				mt, br := b.ib.row(st.MergeName, base)
				if _, or := b.ib.row(st.MergeName, e); br != nil && or != nil {
					pr.measures = metrics.RowMeasures(mt.rowValues(br), mt.rowValues(or))
					b.dropShortP99(pr.measures, st, base, e)
					b.ib.ibenchCPUParts(pr.measures, st.MergeName, base, e)
				}
				rs = append(rs, pr)
			}
			if bl, ok := bulletOf(e, base, part, 0, rs); ok {
				b.rep.Bullets = append(b.rep.Bullets, bl)
			}
		}
	}
}

// dropShortP99 takes the p99 out of the measures that can explain a
// change when either DBMS's p99 comes from fewer intervals than a 99th
// percentile needs (shortP99): it is then the slowest interval, one
// partial second or one hiccup, and the Check notes say so; a cause read
// from it would contradict them.
func (b *findings) dropShortP99(ms []metrics.Measure, st parse.Step, base, other string) {
	for i := range ms {
		if ms[i].Name != metrics.P99.String() {
			continue
		}
		for _, tag := range []string{base, other} {
			if n, short := b.shortP99(st, tag); short {
				ms[i].Base = metrics.NAf(ms[i].Base.Unit, "%s's p99 in %s comes from %d intervals, fewer than the 100 a 99th percentile needs", tag, st.MergeName, n)
			}
		}
	}
}

// shortP99 reports whether client 1's p99 of a step comes from fewer than
// the 100 intervals a 99th percentile needs, and from how many.
func (b *findings) shortP99(st parse.Step, tag string) (int, bool) {
	t := b.ib.treeOf(tag)
	if t == nil {
		return 0, false
	}
	sr := t.Step(st.MergeName)
	if sr == nil || len(sr.Percentiles) == 0 {
		return 0, false
	}
	for _, p := range sr.Percentiles[0] {
		if p.X == 99 {
			return p.Lines, p.Lines*(100-p.X) < 100
		}
	}
	return 0, false
}

// rowValues is a merged row as a metrics.Row, by column name: an
// archive's columns may be of another generation (NA where it has none).
func (t *mergedTable) rowValues(r *mergedRow) metrics.Row {
	var out metrics.Row
	for i := range out {
		out[i] = t.value(r, metrics.Metric(i).Name())
	}
	return out
}

// sysbenchMeasures pairs the HW use per operation of two sysbench runs.
func sysbenchMeasures(b, o *metrics.SysbenchHW) []metrics.Measure {
	return []metrics.Measure{
		metrics.MeasureOf("cpu/o", "CPU per operation", b.CPUPerOp, o.CPUPerOp),
		metrics.MeasureOf("r/o", "storage reads per operation (cache misses)", b.ReadsPerOp, o.ReadsPerOp),
		metrics.MeasureOf("rKB/o", "KB read per operation (cache misses)", b.ReadKBPerOp, o.ReadKBPerOp),
		metrics.MeasureOf("wKB/o", "KB written per operation (write amplification)", b.WriteKBPerOp, o.WriteKBPerOp),
		metrics.MeasureOf("cs/o", "context switches per operation (contention)", b.CsPerOp, o.CsPerOp),
	}
}

// sysbenchBullets sums up every DBMS against the base per part at each
// thread count: parts are the groups given (metrics.SysbenchParts by
// default, or the user's groups), each taken whole.
func (b *findings) sysbenchBullets(set *metrics.SysbenchSet, groups []metrics.SysbenchGroup) {
	base := set.Base()
	if base == nil || len(set.DBMS) < 2 {
		return
	}
	var parts []string
	tests := map[string][]parse.SysbenchTest{}
	for _, g := range groups {
		if tests[g.Name] == nil {
			parts = append(parts, g.Name)
		}
		tests[g.Name] = append(tests[g.Name], g.Tests...)
	}
	for _, p := range set.Pairs() {
		d, base := p.DBMS, p.Base()
		for _, nt := range set.Threads {
			for _, part := range parts {
				var rs []partRatio
				for _, t := range tests[part] {
					rel := p.Group.Relative(d, t, nt)
					if !rel.QPS.OK() || rel.QPS.V <= 0 || math.IsInf(rel.QPS.V, 0) || rel.Result == nil || rel.Base == nil {
						continue
					}
					ms := sysbenchMeasures(&rel.Base.HW, &rel.Result.HW)
					ms[0].Parts = metrics.CPUParts(b.sbPerf.get(base.Name, t.Sfx, nt), b.sbPerf.get(d.Name, t.Sfx, nt))
					rs = append(rs, partRatio{name: sbTestName(t), ratio: rel.QPS.V, measures: ms})
				}
				if bl, ok := bulletOf(d.Name, base.Name, part, nt, rs); ok {
					b.rep.Bullets = append(b.rep.Bullets, bl)
				}
			}
		}
	}
}

// comparability warns where a DBMS and the base of its group did not run
// the same work: client count (unless it is the same DBMS swept over
// clients), rows loaded (the <N>m of the tree name), the step list, and the
// duration of rate-limited steps (more than 20% apart). Each warning names
// both values and both DBMS.
func (b *findings) comparability() {
	if b.res.Archived() {
		return
	}
	for _, p := range basePairs(b.ib.dbmsList()) {
		bt, ot := b.ib.treeOf(p.base), b.ib.treeOf(p.tag)
		if bt == nil || ot == nil {
			continue
		}
		b.rep.Comparability = append(b.rep.Comparability, treeComparability(p.tag, p.base, ot, bt)...)
	}
}

// basePair is a DBMS of the list and the base of its group; groupStart
// marks the first pair of a group after the first group.
type basePair struct {
	tag, base  string
	groupStart bool
}

// basePairs lists every DBMS that is not the base of its group, with that
// base, in list order.
func basePairs(list []Entry) []basePair {
	var out []basePair
	base := ""
	groupStart := false
	for _, e := range list {
		switch {
		case e.Break:
			base, groupStart = "", len(out) > 0
		case base == "":
			base = e.Name
		default:
			out = append(out, basePair{e.Name, base, groupStart})
			groupStart = false
		}
	}
	return out
}

func treeComparability(tag, base string, ot, bt *metrics.TreeResult) []string {
	var out []string
	// One DBMS swept over clients may load rows in proportion to them.
	sweep := sweepName(ot) == sweepName(bt)
	if n, bn := ot.Dop(), bt.Dop(); n != bn && n > 0 && bn > 0 && !sweep {
		out = append(out, fmt.Sprintf("%s ran with %s, its base %s with %s", tag, metrics.Plural(n, "client"), base, metrics.Plural(bn, "client")))
	}
	if r, br := parse.RowPrefix(ot.Name()), parse.RowPrefix(bt.Name()); r != br && r != "" && br != "" && !sweep {
		out = append(out, fmt.Sprintf("%s loaded %s rows (%s), its base %s %s (%s)", tag, strings.ToUpper(r), ot.Name(), base, strings.ToUpper(br), bt.Name()))
	}
	var missing, extra []string
	for _, s := range bt.Steps {
		if ot.Step(s.Step.MergeName) == nil {
			missing = append(missing, s.Step.MergeName)
		}
	}
	for _, s := range ot.Steps {
		if bt.Step(s.Step.MergeName) == nil {
			extra = append(extra, s.Step.MergeName)
		}
	}
	if len(missing) > 0 {
		out = append(out, fmt.Sprintf("%s lacks steps its base %s ran: %s", tag, base, strings.Join(missing, ", ")))
	}
	if len(extra) > 0 {
		out = append(out, fmt.Sprintf("%s ran steps its base %s lacks: %s", tag, base, strings.Join(extra, ", ")))
	}
	for _, s := range ot.Steps {
		bs := bt.Step(s.Step.MergeName)
		if bs == nil || !s.Step.Kind.ReadWrite() || !s.Seconds.OK() || !bs.Seconds.OK() || bs.Seconds.V == 0 {
			continue
		}
		if r := s.Seconds.V / bs.Seconds.V; r > 1.2 || r < 1/1.2 {
			out = append(out, fmt.Sprintf("%s ran %s for %.0f s, its base %s for %.0f s", tag, s.Step.MergeName, s.Seconds.V, base, bs.Seconds.V))
		}
	}
	return out
}

// sysbenchComparability warns where a sysbench DBMS ran other tests or
// thread counts than the base.
func (b *findings) sysbenchComparability(set *metrics.SysbenchSet) {
	base := set.Base()
	if base == nil {
		return
	}
	key := func(r *metrics.SysbenchResult) string {
		return r.Test.Label() + " at " + ThreadCount(r.Threads)
	}
	have := func(d *metrics.SysbenchDBMS) map[string]bool {
		m := map[string]bool{}
		for _, r := range d.Results {
			m[key(r)] = true
		}
		return m
	}
	for _, p := range set.Pairs() {
		d, base := p.DBMS, p.Base()
		bh, dh := have(base), have(d)
		var missing, extra []string
		for _, r := range base.Results {
			if !dh[key(r)] {
				missing = append(missing, key(r))
			}
		}
		for _, r := range d.Results {
			if !bh[key(r)] {
				extra = append(extra, key(r))
			}
		}
		// The tables, their size and the run time of the same runs.
		seen := map[string]bool{}
		for _, r := range d.Results {
			br := base.Result(r.Test.Sfx, r.Threads)
			if br == nil {
				continue
			}
			for _, o := range []struct {
				name  string
				v, bv int
			}{{"--tables", r.Tables, br.Tables}, {"--table-size", r.TableSize, br.TableSize}, {"--time", r.Seconds, br.Seconds}} {
				w := fmt.Sprintf("%s ran with %s=%d, its base %s with %s=%d", d.Name, o.name, o.v, base.Name, o.name, o.bv)
				if o.v != o.bv && o.v > 0 && o.bv > 0 && !seen[w] {
					seen[w] = true
					b.rep.Comparability = append(b.rep.Comparability, w+" ("+key(r)+")")
				}
			}
		}
		if len(missing) > 0 {
			b.rep.Comparability = append(b.rep.Comparability, fmt.Sprintf("%s lacks runs its base %s has: %s", d.Name, base.Name, strings.Join(missing, ", ")))
		}
		if len(extra) > 0 {
			b.rep.Comparability = append(b.rep.Comparability, fmt.Sprintf("%s has runs its base %s lacks: %s", d.Name, base.Name, strings.Join(extra, ", ")))
		}
	}
}
