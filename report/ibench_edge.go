package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ibEdge is the insert benchmark's compat edge: every way its part of the
// report of --compat (the scripts' report) differs from the default
// mode's, decided once by build (newIbEdge). The model and the tables ask
// it and test no mode themselves; what the scripts computed differently is
// in internal/compat.
type ibEdge struct {
	// scripts is the mode of the readers shared with the scripts' files
	// (displayTag, rtHeader, rtRow, rtFind): names, rows and histogram
	// merges as the scripts made them.
	scripts bool
	// corrected adds what the default mode measures and the scripts did
	// not: notes on merged rows left out, the noise of each run and the
	// within-noise mark, the insert rate sustained over full intervals and
	// its notes, perf stat counters, the sweep's findings.
	corrected bool
}

// newIbEdge is the edge of a mode: the one place the insert benchmark's
// part reads it.
func newIbEdge(compatMode bool) ibEdge {
	return ibEdge{scripts: compatMode, corrected: !compatMode}
}

// missing is the value of a DBMS without a row in a step's merged table:
// NA; for the scripts the text "NA", which awk read as 0.
func (e ibEdge) missing(step string) metrics.Value {
	why := "no row in mrg." + step
	if e.scripts {
		v := compat.CellValue("NA", metrics.NoUnit)
		v.Why = why
		return v
	}
	return metrics.NA(metrics.NoUnit, why)
}

// number is a value as the colour rules read it: the scripts read every
// cell as awk did (a text that is not a number is 0); the default mode
// only takes known values.
func (e ibEdge) number(v metrics.Value) (float64, bool) {
	if e.scripts {
		return v.V, true
	}
	return v.V, v.OK()
}

// scriptsRatio is the ratio cell of v to its base bv as the scripts
// printed it, banded as their report did; false in the default mode, which
// divides the values.
func (e ibEdge) scriptsRatio(col string, v, bv metrics.Value) (Cell, bool) {
	if !e.scripts {
		return Cell{}, false
	}
	c := relTextCell(compat.RatioText(cellText(col, v), cellText(col, bv)))
	// The original printed any quotient; the report shows none that
	// no plausible pair of values gives (a base of 1e-300).
	if c.Value != nil {
		if err := parse.Plausible(parse.Ratio, *c.Value); err != nil {
			return valueCell(metrics.NAf(metrics.RatioUnit, "%s relative to its base: %v", col, err), 2), true
		}
	}
	return c, true
}

// relativeCaption is the caption of the relative throughput table; the
// default mode's names the run-to-run noise (runNoise) of its ~ mark.
func (e ibEdge) relativeCaption(runNoise float64) string {
	if e.scripts {
		return "Throughput relative to the base DBMS, the first DBMS of each group (shown as 1.00). " +
			"Values below 0.95 are yellow (▽), values above 1.05 blue (△)."
	}
	return "Throughput relative to the base DBMS, the first DBMS of each group (shown as 1.00). " + ratioBandsCaption +
		fmt.Sprintf(" ~ marks a difference smaller than the noise of the two runs: their 95%% intervals (all clients' intervals) and a run-to-run "+
			"noise of %g%% per run, added in quadrature; no ~ where either interval is low-confidence (the noise table says why): that noise is unknown.", 100*runNoise)
}

// insertRateCaption is the caption of the insert-rate table, whose target
// is who × the per-client rate: the default mode judges raw logs by the
// full intervals (sustained), the scripts and archives by the average.
func (e ibEdge) insertRateCaption(who string, raw bool) string {
	if e.corrected && raw {
		return fmt.Sprintf("Average inserts/s during the read+write steps. The target is %s × the per-client rate; "+
			"values are red (✗) where the clients inserted less than 95%% of the target over their full intervals "+
			"(the partial first and last, in which they start and stop, left out): that DBMS did not sustain the target. "+
			"The notes say where the average, or client 1's SLA, seems to say otherwise, and why.", who)
	}
	return fmt.Sprintf("Average inserts/s during the read+write steps. The target is %s × the per-client rate; "+
		"values below 95%% of the target are red (✗): that DBMS did not sustain the target.", who)
}

// efficiencyCaption is the caption of a step's relative efficiency table.
func (e ibEdge) efficiencyCaption() string {
	if e.scripts {
		return "Each DBMS divided by the base DBMS of its group (1 for 0/0, inf for x/0): throughput, then CPU, context switches, " +
			"reads and KiB read per operation, writes and KiB written per inserted row, database size, RSS, the largest response time " +
			"and the p99 rate. Values below 0.95 are yellow (▽), values above 1.05 blue (△); for the costs (cpupq … maxop) less is better."
	}
	return "Each DBMS divided by the base DBMS of its group (1 for 0/0, inf for x/0): throughput, then CPU, context switches, " +
		"reads and KiB read per operation, writes and KiB written per inserted row, database size, RSS, the largest response time " +
		"and the p99 rate. For throughput and the p99 rate more is better, for the costs (cpupq … maxop) less. " + ratioBandsCaption
}

// rtHeader is the header of a step's histogram merge of kind k (bucket
// names, max and tag); false when the merge is left out. The header comes
// from the first DBMS of the list; in the default mode, when it has no
// histogram of the kind, from the first DBMS that has one, so that no
// DBMS's histogram is dropped, and a kind no DBMS has is left out when it
// is deletes (written only when rows were deleted). The scripts leave out a
// kind the first DBMS lacks (with a warning when another DBMS has it), and
// when the first DBMS printed no histogram header they copied the first
// line of its table, a client row, instead.
func (e ibEdge) rtHeader(byName map[string]*metrics.TreeResult, list []Entry, st parse.Step, k parse.HistKind, warns *[]string) ([]string, bool) {
	var hdr *metrics.Histogram
	if first := rowOf(byName[firstName(list)], st); first != nil {
		hdr = first.Hist[k]
	}
	if !e.scripts && !hasShares(hdr) {
		hdr = firstHist(byName, list, st, k)
	}
	switch {
	case hdr != nil && hdr.Header != nil:
		return append(append([]string{}, hdr.Header...), "tag"), true
	case hdr != nil && e.scripts:
		return strings.Split(firstRowLine(hdr), "\t"), true
	case hdr == nil && (k == parse.Delete || e.scripts):
		if e.scripts && firstHist(byName, list, st, k) != nil {
			*warns = append(*warns, fmt.Sprintf("%s: no %s histogram merge: %s, the first DBMS, has none (compat: the original's rule; the default mode merges the others')",
				st.MergeName, k, firstName(list)))
		}
		return nil, false
	}
	return defaultRTHeader, true
}

// rtRow is the row of DBMS name in a histogram merge of kind k whose
// header has width columns, from its histogram h; nil when it has none. A
// DBMS without the histogram gets an NA row and a warning in the default
// mode, no row from the scripts. The scripts' row is the line they
// printed, its tag what was left of "pct:<name>" once the row prefix of the
// first DBMS was removed anywhere in the line.
func (e ibEdge) rtRow(name string, h *metrics.Histogram, st parse.Step, k parse.HistKind, prefix string, width int, warns *[]string) *rtRow {
	switch {
	case e.scripts && h == nil:
		return nil
	case e.scripts:
		r := &rtRow{share: h.Share, max: h.Max, tag: "pct:" + name}
		r.line = strings.ReplaceAll(r.text(), "pct:"+prefix+".", "")
		r.tag = r.line[strings.LastIndexByte(r.line, '\t')+1:]
		return r
	case !hasShares(h):
		r := &rtRow{tag: stripPrefix(name, prefix), max: metrics.NAf(metrics.Seconds, "no %s histogram", k)}
		// A share per bucket of the header, which ends with max and tag.
		for range max(width-2, 0) {
			r.share = append(r.share, metrics.NAf(metrics.Percent, "no %s histogram", k))
		}
		*warns = append(*warns, fmt.Sprintf("%s %s: no %s histogram", name, st.MergeName, k))
		return r
	}
	return &rtRow{share: h.Share, max: h.Max, tag: stripPrefix(name, prefix)}
}

// rtFind is the line of a tag in a histogram merge as chart_rt.sh found
// it, as an index into its lines() (0 is the header, -1 none): the scripts
// with `grep "<tag>$"` over the file's lines, the default mode by the tag.
func (e ibEdge) rtFind(m *rtMerge, tag string) int {
	if e.scripts {
		return compat.FindRow(m.lines(), tag)
	}
	return m.findTag(tag)
}

// quartileBands applies the summary table's colour rules to one column
// (FORMATS.md §6.3). Compat mode keeps the original's order: the minimum
// is over all rows, the maximum skips ignored rows and red wins over gray.
// The default mode leaves ignored rows out of the range entirely, and gray
// wins, so a value to ignore never decides or gets a colour.
func quartileBands(col string, vals []metrics.Value, ignored []bool, compatMode bool) []Cell {
	out := make([]Cell, len(vals))
	nums := make([]float64, len(vals))
	ok := make([]bool, len(vals))
	// The original started the minimum at 999999999; the default mode has
	// no such ceiling.
	minv, maxv := 999999999.0, 0.0
	if !compatMode {
		minv = math.Inf(1)
	}
	inRange := false
	for i, v := range vals {
		nums[i], ok[i] = v.V, compatMode || v.OK()
		if !ok[i] {
			continue
		}
		if nums[i] < minv && (compatMode || !ignored[i]) {
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
	for i, v := range vals {
		c := valueCellText(v, cellText(col, v))
		x := nums[i]
		switch {
		case !ok[i]:
			c.Band = NotANumber
		case !compatMode && ignored[i]:
			c.Band = Ignored
		case !compatMode && !inRange:
		case x <= botq:
			c.Band = Bottom
		case ignored[i]:
			c.Band = Ignored
		case x >= topq:
			c.Band = Top
		}
		out[i] = c
	}
	return out
}
