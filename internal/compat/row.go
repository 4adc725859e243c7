package compat

import (
	"fmt"
	"io/fs"
	"strconv"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// ComputeStep reads one step folder and summarizes it as the driver and
// etl.sh did; it is a metrics.StepFunc. The rows are tagged with the tree
// name; the <N>m. prefix is removed later, when rows of several trees are
// merged, as the original did.
func ComputeStep(fsys fs.FS, dir string, st parse.Step, tree string, opt metrics.Options) (*metrics.StepResult, error) {
	big := newBigFiles()
	sd, err := parse.ScanStep(fsys, dir, st, big.sinks())
	if err != nil {
		return nil, err
	}
	big.rereadFrom(fsys, sd)
	r := summarizeWith(sd, big, opt).result(sd, tree, opt)
	// The result holds copies of what it took from the logs: their
	// intervals can serve the next step's.
	for _, c := range sd.Clients {
		c.Release()
	}
	return r, nil
}

// Summarize computes one step as the driver and etl.sh did. Every value
// carries the text they printed (metrics.Value.Printed) and, as V, the
// number awk read from that text in the scripts' next step; a text that is
// not a number ("", "-nan", "NA") is also NA, with awk's reading kept in V.
func Summarize(sd *parse.StepData, tree string, opt metrics.Options) *metrics.StepResult {
	return summarize(sd, opt).result(sd, tree, opt)
}

// result is the typed step result of the summary.
func (s *Summary) result(sd *parse.StepData, tree string, opt metrics.Options) *metrics.StepResult {
	kind := sd.Step.Kind
	r := &metrics.StepResult{
		Tree: tree, Step: sd.Step, Dop: sd.Dop, Clients: len(sd.Clients),
		Seconds:    CellValue(strconv.FormatInt(s.TotSecs, 10), metrics.Seconds),
		Rows:       s.MaxRows * int64(s.RealDop),
		Queries:    s.TotalQuery,
		Deletes:    s.Deletes == "yes" || s.Deletes == "1",
		InsertRate: CellValue(s.InsertRate, metrics.IPS.Unit(kind)),
		QueryRate:  CellValue(s.QueryRate, metrics.QueriesPerSec),
		Max:        map[parse.HistKind][]metrics.Value{},
		ClientCPU:  CellValue(s.ClientCPU[2], metrics.Seconds),
		DBMSCPU:    CellValue(s.DBMSCPU, metrics.Seconds),
		PsUser:     s.PsUser, Cores: s.Cores, CoresSource: s.CoresSource, Device: s.Device,
	}
	for _, w := range metrics.TextWarnings(s.Warnings) {
		w.DBMS, w.Step = tree, sd.Step.MergeName
		r.Warnings = append(r.Warnings, w)
	}
	if len(sd.Clients) > 0 {
		r.RowsPerCommit = int(sd.Clients[0].IntOption("rows_per_commit", 0))
	}
	cells := s.cells(tree, opt)
	for i := range r.Metrics {
		r.Metrics[i] = CellValue(cells[i], metrics.Metric(i).Unit(kind))
	}
	by := s.ByInsert
	if kind.ReadWrite() {
		by = s.ByQuery
	}
	r.Iostat = metrics.IostatRates{Samples: atoi(by.Iostat[0]),
		ReadsPerSec: CellValue(by.Iostat[1], metrics.ReadsPerSec), ReadMiBPerSec: CellValue(by.Iostat[2], metrics.MiBPerSec),
		WritesPerSec: CellValue(by.Iostat[3], metrics.WritesPerSec), WriteMiBPerSec: CellValue(by.Iostat[4], metrics.MiBPerSec)}
	r.Vmstat = metrics.VmstatRates{Samples: atoi(by.Vmstat[0]),
		CSPerSec: CellValue(by.Vmstat[1], metrics.CSPerSec), CPUPercent: CellValue(by.Vmstat[2], metrics.CPUPercent)}
	r.IostatAvg.Header = s.IostatHeader
	for _, t := range s.IostatAvg {
		r.IostatAvg.Values = append(r.IostatAvg.Values, CellValue(t, metrics.NoUnit))
	}
	for k, l := range s.Max {
		for _, t := range l {
			r.Max[k] = append(r.Max[k], CellValue(t, metrics.Seconds))
		}
	}
	units := [3]metrics.Unit{metrics.InsertsPerSec, metrics.DeletesPerSec, metrics.QueriesPerSec}
	for _, ps := range s.Percentiles {
		var out []metrics.Percentile
		for _, p := range ps {
			out = append(out, metrics.Percentile{X: p.X, Offset: p.Off, Lines: p.Lines,
				Insert: CellValue(p.Insert, units[0]), Delete: CellValue(p.Delete, units[1]), Query: CellValue(p.Query, units[2])})
		}
		r.Percentiles = append(r.Percentiles, out)
	}
	r.Hist, r.Rates = s.Hist, s.Rates
	if len(sd.Clients) > 0 {
		r.Series = metrics.NewClientSeries(1, sd.Clients[0], opt.SeriesPoints)
	}
	r.ExplainNA()
	return r
}

// cells is the step's row: etl.sh applied to the o.res text of the summary,
// byte for byte. Without a CPU count the cpupq cell is empty.
func (s *Summary) cells(tag string, opt metrics.Options) Cells {
	user := opt.PsUser
	if user == "" {
		user = s.PsUser
	}
	c := RowFromRes(s.ResLines(), true, s.Step.Kind.ReadWrite(), tag, user, s.Cores)
	if s.Cores == 0 {
		c[metrics.CPUPQ] = ""
	}
	return c
}

// MissingRow is the row etl.sh printed for a step without o.res: almost
// empty, as awk had no input line.
func MissingRow(st parse.Step) metrics.Row {
	c := RowFromRes(nil, false, st.Kind.ReadWrite(), "", "", 0)
	var r metrics.Row
	for i := range r {
		r[i] = CellValue(c[i], metrics.Metric(i).Unit(st.Kind))
	}
	return r
}

// CellValue is a value as the scripts printed it: the text, and as V the
// number awk reads from it. A text that is not a number is NA (awk's reading,
// usually 0, stays in V, as the scripts computed with it).
func CellValue(text string, u metrics.Unit) metrics.Value {
	v := metrics.Known(awk.Num(text), u)
	if !awk.IsStrNum(text) {
		v.Why = fmt.Sprintf("the original printed %q", text)
	}
	return v.Printed(text)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
