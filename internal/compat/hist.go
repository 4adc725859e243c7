package compat

import (
	"github.com/ibreport/ibreport/internal/awk"
	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// histTable builds the histogram of a kind as rth.sh did: the last
// histogram line of each client, per-bucket sums, and percentages of the
// grand total, every maximum and share keeping the text rth.sh printed.
func histTable(sd *parse.StepData, k parse.HistKind) *metrics.Histogram {
	t := &metrics.Histogram{Kind: k}
	if len(sd.Clients) > 0 {
		t.Header = sd.Clients[0].HistHeaders[k]
	}
	var total int64
	maxv := 0.0
	for _, c := range sd.Clients {
		h := c.Hist(k)
		if h == nil {
			continue
		}
		if len(h.Counts) > len(t.Sum) {
			t.Sum = append(t.Sum, make([]int64, len(h.Counts)-len(t.Sum))...)
		}
		for i, n := range h.Counts {
			t.Sum[i] += n
			total += n
		}
		if h.Max > maxv {
			maxv = h.Max
		}
		t.Clients = append(t.Clients, h.Counts)
		t.ClientMax = append(t.ClientMax, CellValue(awk.F(h.Max, 3), metrics.Seconds))
	}
	t.Max = CellValue(awk.F(maxv, 3), metrics.Seconds)
	for _, sm := range t.Sum {
		v := awk.F(100*(float64(sm)/float64(total)), 3)
		if sm > 0 && v == "0.000" {
			v = "nonzero"
		}
		t.Share = append(t.Share, CellValue(v, metrics.Percent))
	}
	return t
}

// rateLines computes the ten-interval averages of stats column x (1-based:
// 3 inserts, 5 deletes, 7 queries) for every client, windowing over raw
// file lines as np.sh did: window s covers lines s*xp+3 … s*xp+xp+2 where
// xp = (lines with the header's field count − 2)/10, and lines that are not
// stats lines count with whatever awk reads as their x-th field.
func rateLines(sd *parse.StepData, x int, u metrics.Unit) []metrics.RateWindows {
	var out []metrics.RateWindows
	for i, c := range sd.Clients {
		w := metrics.RateWindows{Client: i + 1}
		for s, t := range compatWindows(c, x) {
			w.Values[s] = CellValue(t, u)
		}
		out = append(out, w)
	}
	return out
}

// compatWindows are the ten averages of one client, as np.sh printed them.
func compatWindows(c *parse.ClientLog, x int) [10]string {
	col := parse.Column(x - 1)
	var out [10]string
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
		out[s] = awk.F(sum/float64(cnt), 0)
	}
	return out
}
