package report

import (
	"fmt"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/metrics"
)

// sbText is the sysbench part's compat edge: it prints the numbers of the
// part (value a value with the given decimals, ratio the relative value of
// o to b, "1" for 0/0) and holds every way the part of --compat's report
// differs from the default mode's. build chooses it once (sbDefaultText or
// sbCompatText); the tables ask it and test no mode themselves. The compat
// text prints as the compat edge does, so that a ratio of values the
// scripts printed as -nan is -nan.
type sbText struct {
	value func(v metrics.Value, digits int) string
	ratio func(o, b metrics.Value) string
	// scripts: the bands, captions and groups of the scripts' summaries,
	// without the default mode's noise, sweep summary and perf counters.
	scripts bool
}

var (
	sbDefaultText = sbText{metrics.Value.Format, metrics.RatioText, false}
	sbCompatText  = sbText{compat.FormatValue, compat.FormatRatio, true}
)

// sbValueCell prints a value with the given decimals; NA is banded so.
func (f sbText) sbValueCell(v metrics.Value, digits int) Cell {
	if !v.OK() {
		return valueCellText(v, "NA")
	}
	return valueCellText(v, f.value(v, digits))
}

// relValueCell bands a relative value as the relative throughput table
// does; metrics.LowerIsBetter flips the meaning of the bands' markers only in the
// caption, the colours stay those of the original (below/above).
func (f sbText) relValueCell(v metrics.Value) Cell {
	if !v.OK() {
		return valueCellText(v, "NA")
	}
	if f.scripts {
		c := relTextCell(f.value(v, sbsum.RelDigits))
		typed := valueCellText(v, c.Text)
		c.Value, c.Unit = typed.Value, typed.Unit
		return c
	}
	return relCell(v, metrics.HigherIsBetter)
}

// ratioCell prints the relative value of o to b, banded by the better
// direction d of its metric in the default mode (compat: unbanded, as the
// summaries print it).
func (f sbText) ratioCell(o, b metrics.Value, d metrics.Direction) Cell {
	r := metrics.Ratio(o, b)
	if !r.OK() {
		return valueCellText(r, "NA")
	}
	c := valueCellText(r, f.ratio(o, b))
	if !f.scripts {
		c.Band = ratioBand(r.V, d)
	}
	return c
}

// sbBands is a sysbench table's caption with the compat mode's bands or
// the default mode's (ratioBandsCaption).
func (f sbText) sbBands() string {
	if f.scripts {
		return "Below 0.95 yellow (▽), above 1.05 blue (△)."
	}
	return ratioBandsCaption
}

// sbBandsShort is sbBands for the first table of a report, which the
// findings should not push off the first screen: the legend has the rest.
func (f sbText) sbBandsShort() string {
	if f.scripts {
		return f.sbBands()
	}
	return "Better than the base: △ beyond 5%, ▲ beyond 20%; worse: ▽ and ▼; none within noise (~)."
}

// tableGroups are the test groups of the group tables and charts when the
// user gave no group file: the default mode shows one grouping on the
// page, the parts of the findings; the scripts' Point-1 … Writes
// otherwise.
func (f sbText) tableGroups(groups, parts []metrics.SysbenchGroup) []metrics.SysbenchGroup {
	if f.scripts {
		return groups
	}
	return parts
}

// groupsNote defines the test groups under the group table; "" for the
// scripts.
func (f sbText) groupsNote(groups []metrics.SysbenchGroup) string {
	if f.scripts {
		return ""
	}
	return groupsText(groups)
}

// markNoise marks a relative QPS within the noise of its two runs (and run,
// the run-to-run noise); the scripts knew no noise.
func (f sbText) markNoise(c *Cell, rel metrics.SysbenchRel, run float64) {
	if f.scripts || !rel.QPS.OK() {
		return
	}
	within, _ := metrics.WithinNoise(rel.QPS.V, sbNoise(rel.Result), sbNoise(rel.Base), run)
	c.setWithinNoise(within)
}

// noiseTable is sbNoiseTable in the default mode; nil for the scripts.
func (f sbText) noiseTable(set *metrics.SysbenchSet, nt int, id string) *Table {
	if f.scripts {
		return nil
	}
	return sbNoiseTable(set, nt, id)
}

// sweepSummary is sbSweepSummary in the default mode; none for the
// scripts.
func (f sbText) sweepSummary(set *metrics.SysbenchSet) (*Table, *Chart, []string) {
	if f.scripts {
		return nil, nil, nil
	}
	return sbSweepSummary(set)
}

// counters tells whether the part reads perf stat counters: the scripts'
// report had none.
func (f sbText) counters() bool { return !f.scripts }

// efficiencyBands ends the caption of an efficiency table: the default
// mode's directions and bands; nothing for the scripts, which banded none.
func (f sbText) efficiencyBands() string {
	if f.scripts {
		return ""
	}
	return " For operations per second more is better, for the rest less. " + ratioBandsCaption
}

// sweepCaption is the caption of a DBMS's thread-sweep table from n0
// threads on.
func (f sbText) sweepCaption(n0 int) string {
	if f.scripts {
		return fmt.Sprintf("QPS of each test at each thread count, then the QPS at N threads divided by the QPS at %s (N vs %d; 1 for 0/0, inf for x/0). "+
			"%s", metrics.Plural(n0, "thread"), n0, f.sbBands())
	}
	return fmt.Sprintf("QPS of each test at each thread count, then the QPS at N threads divided by the QPS at %s (N vs %d) "+
		"with the scaling efficiency in brackets, that ratio divided by N/%d (1.00 is linear scaling); the marks are the efficiency's, "+
		"against linear scaling, not the ratio's: ▽ below 0.95, ▼ below 0.80, △ above 1.05, ▲ above 1.20.", metrics.Plural(n0, "thread"), n0, n0)
}

// sweepCell is the QPS q at nt threads against base at n0: the scripts'
// banded ratio, or the default mode's ratio with its scaling efficiency.
func (f sbText) sweepCell(q, base metrics.Value, nt, n0 int) Cell {
	if f.scripts {
		return f.relValueCell(metrics.Ratio(q, base))
	}
	return sbSweepCell(q, base, nt, n0)
}
