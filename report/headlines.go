package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ibreport/ibreport/metrics"
)

// Headlines are the findings as short sentences a reader can quote, one
// per DBMS (and sysbench thread count), the largest change first: the
// median relative throughput of each part and the step or test that
// changed most, with the metric that moved most with it. "my8043 vs
// my5651: point 0.73×, writes 0.66×; most on insert range=100, 0.55×
// (cpu/o +92%)." With one base for all, HeadlineLead names it once and
// the lines start with the DBMS. The bullets (BulletLines) have the
// spread and all the causes.
func Headlines(bs []Bullet) []string {
	type line struct {
		text string
		size float64 // mean |log median| over the parts: how far from the base
		at   int     // order in the bullets, for ties
	}
	threads := map[int]bool{}
	bases := map[string]bool{}
	for _, b := range bs {
		threads[b.Threads] = true
		bases[b.Base] = true
	}
	var lines []line
	for i := 0; i < len(bs); {
		j := i
		var parts []string
		size := 0.0
		most := bs[i]
		for ; j < len(bs) && bs[j].DBMS == bs[i].DBMS && bs[j].Base == bs[i].Base && bs[j].Threads == bs[i].Threads; j++ {
			b := bs[j]
			parts = append(parts, fmt.Sprintf("%s %.2f×", b.Part, b.Median))
			size += math.Abs(math.Log(b.Median))
			if math.Abs(math.Log(b.Ratio)) > math.Abs(math.Log(most.Ratio)) {
				most = b
			}
		}
		h := bs[i].DBMS
		if len(bases) > 1 {
			h += " vs " + bs[i].Base
		}
		if bs[i].Threads > 0 && len(threads) > 1 {
			h += ", " + metrics.Plural(bs[i].Threads, "thread")
		}
		s := h + ": " + strings.Join(parts, ", ")
		if most.N > 1 && math.Abs(most.Ratio-1) > metrics.SimilarBand && !most.WithinNoise {
			s += fmt.Sprintf("; most on %s, %.2f×", most.Largest, most.Ratio)
			if len(most.Causes) > 0 {
				c := most.Causes[0]
				s += fmt.Sprintf(" (%s %+.0f%%)", c.Name, 100*c.Change)
			}
		}
		lines = append(lines, line{s + ".", size / float64(j-i), len(lines)})
		i = j
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		if c := cmp.Compare(b.size, a.size); c != 0 {
			return c
		}
		return cmp.Compare(a.at, b.at)
	})
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.text
	}
	return out
}

// HeadlineLead introduces the Headlines: what they compare with.
func HeadlineLead(bs []Bullet) string {
	if len(bs) == 0 {
		return ""
	}
	what := "Throughput"
	if bs[0].Threads > 0 {
		what = "QPS"
	}
	base := bs[0].Base
	for _, b := range bs {
		if b.Base != base {
			return what + " relative to the base, median per part, largest change first:"
		}
	}
	return what + " relative to " + base + ", median per part, largest change first:"
}
