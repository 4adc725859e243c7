package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// SweepPart is the scaling of each DBMS with the number of clients: present
// when a results folder holds one DBMS at two or more client counts.
type SweepPart struct {
	Clients []int        `json:"clients"` // the client counts, ascending
	DBMS    []string     `json:"dbms"`    // the DBMS swept, without the client count
	Steps   []*SweepStep `json:"steps"`
	// Caption explains the tables of every step, once.
	Caption string `json:"caption"`
	// Findings, Efficiency and Chart lead the part: per DBMS and client
	// count, the scaling efficiency of each step and their median.
	Findings   []string `json:"findings,omitempty"`
	Efficiency *Table   `json:"efficiency,omitempty"`
	Chart      *Chart   `json:"chart,omitempty"`
}

// SweepStep is the sweep of one step.
type SweepStep struct {
	Step StepInfo `json:"step"`
	// Rates has a row per DBMS and a column per client count: the step's
	// average throughput (inserts/s, indexed rows/s or queries/s).
	Rates *Table `json:"rates"`
	// Scaling is the rate at N clients over N/N0 times the rate at the
	// smallest count N0 measured: 1 is linear scaling.
	Scaling *Table `json:"scaling"`
	Chart   *Chart `json:"chart"`
}

// sweepMember is one run of a swept DBMS.
type sweepMember struct {
	tag     string // the display tag of its tree
	clients int
}

// sweepDBMS groups the shown DBMS by what they are without their client
// count (sweepName). It returns the DBMS in order of appearance and their runs by client count.
func (b *ibTables) sweepDBMS() ([]string, map[string][]sweepMember) {
	var names []string
	runs := map[string][]sweepMember{}
	for _, tag := range b.shown {
		t := b.tree[tag]
		if t == nil {
			continue
		}
		n := t.Dop()
		if n == 0 {
			continue
		}
		name := sweepName(t)
		if runs[name] == nil {
			names = append(names, name)
		}
		runs[name] = append(runs[name], sweepMember{tag, n})
	}
	return names, runs
}

// sweepName is a tree's name without its "<N>m." prefix (the row count may
// grow with the clients) and without the ".dop<D>" Load gave trees of one
// name: what stays the same along a sweep.
func sweepName(t *metrics.TreeResult) string {
	return strings.TrimSuffix(stripPrefix(t.Name(), parse.RowPrefix(t.Name())), fmt.Sprintf(".dop%d", t.Dop()))
}

// sweep builds the sweep part when some DBMS ran at two or more client
// counts; otherwise there is none (not an empty one).
func (b *ibTables) sweep() {
	names, runs := b.sweepDBMS()
	var clients []int
	swept := false
	for _, name := range names {
		seen := map[int]bool{}
		for _, m := range runs[name] {
			seen[m.clients] = true
			if !slices.Contains(clients, m.clients) {
				clients = append(clients, m.clients)
			}
		}
		swept = swept || len(seen) > 1
	}
	if !swept {
		return
	}
	slices.Sort(clients)
	part := &SweepPart{Clients: clients, DBMS: names, Caption: fmt.Sprintf("%s ran with %s clients; the summary shows each run as a row of its own. "+
		"Per step: the average throughput (inserts/s for load steps, indexed rows/s for l.x, queries/s for read+write steps) by client count, "+
		"where ○ marks a run that missed its insert-rate target (its clients × the per-client rate): ignore that value; "+
		"and the scaling efficiency, the rate at N clients divided by N/N0 times the rate at the smallest count N0 measured: "+
		"1.00 is linear scaling, 0.50 half of it.", fmt.Sprintf("%d swept DBMS", len(names)), joinInts(clients))}
	for i, st := range b.steps {
		part.Steps = append(part.Steps, b.sweepStep(st, b.rep.Steps[i], names, runs, clients))
	}
	if b.edge.corrected {
		sweepLead(part)
	}
	b.rep.Sweep = part
}

func (b *ibTables) sweepStep(st parse.Step, info StepInfo, names []string, runs map[string][]sweepMember, clients []int) *SweepStep {
	col := throughputCol(st)
	hdr := []string{"dbms"}
	for _, n := range clients {
		hdr = append(hdr, strconv.Itoa(n))
	}
	m, _ := metrics.MetricByName(col)
	what := string(m.Unit(st.Kind))
	if st.Kind == parse.CreateIndex {
		what = "indexed rows/s"
	}
	rates := &Table{ID: "sweep." + st.MergeName, Title: st.MergeName + ": " + what + " by number of clients", Header: hdr}
	scaling := &Table{ID: "sweep." + st.MergeName + ".scaling", Title: st.MergeName + ": scaling efficiency", Header: hdr}
	chart := &Chart{ID: "sweep." + st.MergeName + ".chart", Kind: "line", Title: st.MergeName + ": " + what + " by number of clients",
		XLabel: "clients", YLabel: what}
	for _, n := range clients {
		chart.XTicks = append(chart.XTicks, float64(n))
	}
	for _, name := range names {
		byClients := map[int]string{}
		for _, m := range runs[name] {
			byClients[m.clients] = m.tag
		}
		rateRow := Row{Kind: DataRow, Cells: []Cell{nameCell(name)}}
		scaleRow := Row{Kind: DataRow, Cells: []Cell{nameCell(name)}}
		series := Series{Name: name}
		base, baseN := math.NaN(), 0
		for _, n := range clients {
			tag, ok := byClients[n]
			if !ok {
				na := metrics.NAf(metrics.NoUnit, "%s has no run with %s", name, metrics.Plural(n, "client"))
				rateRow.Cells = append(rateRow.Cells, valueCell(na, 0))
				scaleRow.Cells = append(scaleRow.Cells, valueCell(na, 0))
				continue
			}
			v := b.cell(st.MergeName, tag, col)
			c := valueCellText(v, cellText(col, v))
			if b.missed[st.MergeName][tag] {
				c.Band = Ignored
			}
			rateRow.Cells = append(rateRow.Cells, c)
			f, ok := b.number(v)
			if !ok {
				scaleRow.Cells = append(scaleRow.Cells, valueCell(metrics.NAf(metrics.RatioUnit, "the rate is NA"), 0))
				continue
			}
			series.Points = append(series.Points, Point{X: Num(n), Y: Num(f)})
			if baseN == 0 {
				base, baseN = f, n
			}
			scaleRow.Cells = append(scaleRow.Cells, scalingCell(f, base, n, baseN))
		}
		rates.Rows = append(rates.Rows, rateRow)
		scaling.Rows = append(scaling.Rows, scaleRow)
		chart.Series = append(chart.Series, series)
	}
	return &SweepStep{Step: info, Rates: rates, Scaling: scaling, Chart: chart}
}

// scalingCell is rate / (n/n0 × base): two decimals, NA when the base is 0.
func scalingCell(rate, base float64, n, n0 int) Cell {
	want := base * float64(n) / float64(n0)
	if want == 0 {
		return valueCell(metrics.NAf(metrics.RatioUnit, "the rate at %s is 0", metrics.Plural(n0, "client")), 0)
	}
	x := rate / want
	return Cell{Text: strconv.FormatFloat(x, 'f', 2, 64), Value: &x, Unit: string(metrics.RatioUnit)}
}

// sweepTSV is the sweep of a step as `ibreport tables` writes it: the
// client counts, then the tag, and a row per DBMS of the rates as the
// report prints them.
func sweepTSV(s *SweepStep) string {
	var b strings.Builder
	b.WriteString(strings.Join(append(slices.Clone(s.Rates.Header[1:]), "tag"), "\t"))
	b.WriteString("\n")
	for _, r := range s.Rates.Rows {
		var cells []string
		for _, c := range r.Cells[1:] {
			cells = append(cells, c.Text)
		}
		fmt.Fprintf(&b, "%s\t%s\n", strings.Join(cells, "\t"), r.Cells[0].Text)
	}
	return b.String()
}

// joinInts lists numbers as "1, 2 and 4".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
