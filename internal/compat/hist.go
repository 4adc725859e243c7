package compat

import (
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// RTRow is one row of a response-time histogram table.
type RTRow struct {
	Label  string   // "t1", "t2", … then "sum" and "pct"
	Values []string // one per bucket: counts, or percentages / "nonzero"
	Max    string   // "%.3f" seconds
}

// histogram is the table as a typed histogram whose values keep their text.
func (t *RTTable) histogram() *metrics.Histogram {
	h := &metrics.Histogram{Kind: t.Kind, Header: t.Header, Max: CellValue(t.Pct.Max, metrics.Seconds)}
	for _, c := range t.Clients {
		var counts []int64
		for _, v := range c.Values {
			n, _ := strconv.ParseInt(v, 10, 64)
			counts = append(counts, n)
		}
		h.Clients = append(h.Clients, counts)
		h.ClientMax = append(h.ClientMax, CellValue(c.Max, metrics.Seconds))
	}
	for i, v := range t.Sum.Values {
		n, _ := strconv.ParseInt(v, 10, 64)
		h.Sum = append(h.Sum, n)
		h.Share = append(h.Share, CellValue(t.Pct.Values[i], metrics.Percent))
	}
	return h
}

// RTTable is the response-time histogram table of one kind for one step
// (the driver's o.rt.{c,t}.<kind>): one row per client, their sum, and the
// share of responses per bucket over all clients.
type RTTable struct {
	Kind    parse.HistKind
	Header  []string // bucket names and "max", from client 1; nil when it printed none
	Clients []RTRow
	Sum     RTRow
	Pct     RTRow
}

// histTable builds the table as rth.sh did: the last histogram line of each
// client, per-bucket sums, and percentages of the grand total.
func histTable(sd *parse.StepData, k parse.HistKind) *RTTable {
	t := &RTTable{Kind: k, Sum: RTRow{Label: "sum"}, Pct: RTRow{Label: "pct"}}
	if len(sd.Clients) > 0 {
		t.Header = sd.Clients[0].HistHeaders[k]
	}
	var sums []int64
	var total int64
	maxv := 0.0
	for _, c := range sd.Clients {
		h := c.Hist(k)
		if h == nil {
			continue
		}
		row := RTRow{Label: "t" + strconv.Itoa(len(t.Clients)+1), Max: awk.F(h.Max, 3)}
		if len(h.Counts) > len(sums) {
			sums = append(sums, make([]int64, len(h.Counts)-len(sums))...)
		}
		for i, n := range h.Counts {
			row.Values = append(row.Values, strconv.FormatInt(n, 10))
			sums[i] += n
			total += n
		}
		if h.Max > maxv {
			maxv = h.Max
		}
		t.Clients = append(t.Clients, row)
	}
	t.Sum.Max, t.Pct.Max = awk.F(maxv, 3), awk.F(maxv, 3)
	for _, sm := range sums {
		t.Sum.Values = append(t.Sum.Values, strconv.FormatInt(sm, 10))
		v := awk.F(100*(float64(sm)/float64(total)), 3)
		if sm > 0 && v == "0.000" {
			v = "nonzero"
		}
		t.Pct.Values = append(t.Pct.Values, v)
	}
	return t
}

// Lines renders the table as the driver's o.rt file with the given separator
// ("," for o.rt.c.*, TAB for o.rt.t.*) and DBMS name (the driver wrote the
// literal "DBMS").
func (t *RTTable) Lines(sep, dbms string) []string {
	var out []string
	if t.Header != nil {
		out = append(out, strings.Join(t.Header, sep)+sep+"tag")
	}
	for _, r := range append(append([]RTRow{}, t.Clients...), t.Sum, t.Pct) {
		out = append(out, r.line(sep, dbms))
	}
	return out
}

func (r RTRow) line(sep, dbms string) string {
	var b strings.Builder
	for _, v := range r.Values {
		b.WriteString(v)
		b.WriteString(sep)
	}
	b.WriteString(r.Max)
	b.WriteString(sep)
	b.WriteString(r.Label + ":" + dbms)
	return b.String()
}

// RateLine is one client's ten average rates over consecutive tenths of the
// step (o.rate.{c,t}.<x>).
type RateLine struct {
	Client int
	Values [10]string
}

// Line renders the rate line with the given separator and DBMS name.
func (r RateLine) Line(sep, dbms string) string {
	return strings.Join(r.Values[:], sep) + sep + strconv.Itoa(r.Client) + ":" + dbms
}

// rateLines computes the ten-interval averages of stats column x (1-based:
// 3 inserts, 5 deletes, 7 queries) for every client, windowing over raw
// file lines as np.sh did: window s covers lines s*xp+3 … s*xp+xp+2 where
// xp = (lines with the header's field count − 2)/10, and lines that are not
// stats lines count with whatever awk reads as their x-th field.
func rateLines(sd *parse.StepData, x int) []RateLine {
	col := parse.Column(x - 1)
	var out []RateLine
	for i, c := range sd.Clients {
		rl := RateLine{Client: i + 1}
		compatWindows(c, x, col, &rl)
		out = append(out, rl)
	}
	return out
}

func compatWindows(c *parse.ClientLog, x int, col parse.Column, rl *RateLine) {
	xm := c.WidthLines - 2
	xp := xm / 10
	if xp < 0 {
		xp = 0 // bash division truncates toward zero
	}
	// Values of field x by raw line number, for the lines that matter.
	stats := c.Intervals
	other := c.Other
	value := func(line int) float64 {
		for len(stats) > 0 && stats[0].Line < line {
			stats = stats[1:]
		}
		if len(stats) > 0 && stats[0].Line == line {
			return stats[0].Get(col)
		}
		for len(other) > 0 && other[0].Line < line {
			other = other[1:]
		}
		if len(other) > 0 && other[0].Line == line && x-1 < len(other[0].Fields) {
			return awk.Num(other[0].Fields[x-1])
		}
		return 0
	}
	for s := 0; s < 10; s++ {
		ha := s*xp + xp + 2
		if ha > c.Lines {
			ha = c.Lines // head stops at the end of the file
		}
		lo := max(ha-xp+1, 1)
		sum, cnt := 0.0, 0
		for line := lo; line <= ha && xp > 0; line++ {
			sum += value(line)
			cnt++
		}
		rl.Values[s] = awk.F(sum/float64(cnt), 0)
	}
}
