package diff

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/internal/stats"
)

// Runs that moved as a whole.
//
// The cells of one DBMS's run are not independent: a host that is 2%
// slower that day, a reboot, another build of the compiler moves every
// test or step of the run alike. Per table kind, DBMS and metric with at
// least minShiftCells one-run cells, the run's shift is the median of
// their log changes; a shift of at least shiftNoteLevel that three
// quarters of the cells share is named (Comparison.Shifts and a note), so
// that a reader sees "NEW's qps is 1.0% lower across the board" before
// reading the rows it moved. The verdicts do not use it.

const (
	// minShiftCells is the fewest cells of a run whose median is its shift.
	minShiftCells = 5
	// shiftNoteLevel is the smallest shift the report names.
	shiftNoteLevel = 0.01
)

// runKey names a run's cells of one metric: table kind, DBMS, metric.
type runKey struct{ table, dbms, metric string }

// shiftNotes names the runs whose cells moved alike.
func (cm *comparer) shiftNotes(cells []int) {
	c := cm.c
	logs := map[runKey][]float64{}
	var order []runKey
	for _, i := range cells {
		f := &c.Findings[i]
		if math.IsNaN(f.Delta) || f.Delta <= -1 || math.IsInf(f.Delta, 0) || f.Floored {
			continue
		}
		dbms, _, _ := strings.Cut(f.DBMS, "#")
		k := runKey{f.Table, dbms, f.Metric}
		if _, ok := logs[k]; !ok {
			order = append(order, k)
		}
		logs[k] = append(logs[k], logChange(f.Delta))
	}
	for _, k := range order {
		l := logs[k]
		if len(l) < minShiftCells {
			continue
		}
		s := stats.MedianUnsorted(l)
		moved := 0
		for _, x := range l {
			if x*s > 0 {
				moved++
			}
		}
		d := math.Expm1(s)
		if math.Abs(d) < shiftNoteLevel || 4*moved < 3*len(l) {
			continue
		}
		way := "higher"
		if d < 0 {
			way = "lower"
		}
		c.Shifts = append(c.Shifts, RunShift{Table: k.table, DBMS: k.dbms, Metric: k.metric, Delta: d, Cells: len(l), Moved: moved})
		c.note(fmt.Sprintf("%s: NEW's %s (table %s) is %s %s across the board, the median of %d cells, %d of which moved that way: a whole run shifted (host or build?)",
			k.dbms, k.metric, k.table, pctText(math.Abs(d)), way, len(l), moved))
	}
}

// sharedGroupNoise is the noise of the mean of one run's cells of the
// given noises and run-to-run noises: the run-to-run part, which every
// cell of the run shares (a host slower that day moves them all), as of
// one cell (the smallest of theirs), and the rest of each cell's noise
// (its one-run interval, rounding, a test's own larger run noise)
// averaged as independent. Taken as independent, the run's noise would
// shrink by √k in a mean of k cells, and a report with no change but 1%
// noise shared by its runs' cells would fail its group rows in half the
// reports.
func sharedGroupNoise(noises, runs []float64, rel bool) float64 {
	n := float64(len(noises))
	if n == 0 || len(runs) != len(noises) {
		return math.NaN()
	}
	f := Finding{}
	if rel {
		f.Table = "rel"
	}
	shared := slices.Min(runs)
	rest := 0.0
	for _, x := range noises {
		rest += max(x*x-runVar(&f, shared), 0)
	}
	return math.Sqrt(runVar(&f, shared) + rest/(n*n))
}

// runVar is the variance the run-to-run noise r adds to a cell's log
// change: both runs', and of a rel cell both DBMS's.
func runVar(f *Finding, r float64) float64 {
	v := 2 * r * r
	if f.Table == "rel" {
		v *= 2
	}
	return v
}

// contrast is a group's mean log change less that of the rest of its
// run's throughput cells, and the noise of that difference, each cell's
// whole noise averaged on each side. The noise a run's cells share
// cancels in the difference; counting it anyway keeps the contrast right
// when the declared run noise is each cell's own instead (which one run
// per side cannot tell). Only the insert benchmark's query and load steps
// are judged so, each against the other: a sysbench test group's tests
// run one after the other, and a slow stretch of an IO-bound run moves
// them together (five point tests of one build 11–15% apart on two
// dates), which the rest of the run does not share. ok is false for other
// groups, and when the rest has fewer than 2 cells.
func (cm *comparer) contrast(g group) (diff, noise float64, rest int, ok bool) {
	if g.step != queryStepsGroup && g.step != loadStepsGroup || len(g.ids) == 0 {
		return 0, 0, 0, false
	}
	in := map[int]bool{}
	for _, id := range g.ids {
		in[id] = true
	}
	var others []int
	for _, id := range g.run {
		if !in[id] {
			others = append(others, id)
		}
	}
	if len(others) < 2 {
		return 0, 0, 0, false
	}
	side := func(ids []int) (mean, v float64) {
		n := float64(len(ids))
		for _, id := range ids {
			f := &cm.c.Findings[id]
			mean += math.Log(f.New.Median/f.Base.Median) / n
			v += f.Noise * f.Noise / (n * n)
		}
		return mean, v
	}
	mg, vg := side(g.ids)
	mr, vr := side(others)
	return mg - mr, math.Sqrt(vg + vr), len(others), true
}
