package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// The findings of a report (Report.Bullets) carry their numbers and each
// its sentence (Bullet.Text, Bullet.Short); the lines below word them per
// DBMS, the layout every format shares.

// bulletLines are the summary's lines: one per DBMS (and sysbench thread
// count), its parts' findings joined.
func bulletLines(bs []report.Bullet) []string {
	var out []string
	for i := 0; i < len(bs); {
		j := i
		var parts []string
		for ; j < len(bs) && bs[j].DBMS == bs[i].DBMS && bs[j].Base == bs[i].Base && bs[j].Threads == bs[i].Threads; j++ {
			parts = append(parts, bs[j].Short)
		}
		out = append(out, versus(bs[i])+": "+strings.Join(parts, "; ")+".")
		i = j
	}
	return out
}

// versus names what a bullet compares, "pg15.c2 vs pg15.c1" with the
// sysbench thread count: the lead of its Text, which report words the same.
func versus(b report.Bullet) string {
	h := b.DBMS + " vs " + b.Base
	if b.Threads > 0 {
		h += ", " + report.ThreadCount(b.Threads)
	}
	return h
}

// bulletKey says, in the line above the findings, what their numbers are
// and which way each metric they cite is worse, so that a finding can be
// quoted alone: "×: the throughput divided by the base's, lower is worse; …;
// cpu/o: CPU per operation, higher is worse". The directions are those of
// the properties table (metrics.PropsByName) and, for perf counters, of
// metrics.PerfCounterDefs; "" without bullets.
func bulletKey(bs []report.Bullet) string {
	if len(bs) == 0 {
		return ""
	}
	steps, tests := false, false
	for _, b := range bs {
		steps, tests = steps || b.Threads == 0, tests || b.Threads > 0
	}
	what := "steps"
	switch {
	case steps && tests:
		what = "steps' or tests"
	case tests:
		what = "tests"
	}
	parts := []string{
		"×: the throughput divided by the base's, lower is worse",
		"IQR: the middle half of the " + what + "' ratios, min–max all of them",
	}
	seen := map[string]bool{}
	var cite func(cs []metrics.Cause)
	cite = func(cs []metrics.Cause) {
		for _, c := range cs {
			if !seen[c.Name] {
				seen[c.Name] = true
				if w := worseWay(c.Name); w != "" {
					parts = append(parts, c.Name+": "+c.What+", "+w+" is worse")
				}
			}
			cite(c.Detail)
		}
	}
	for _, b := range bs {
		cite(b.Causes[:min(3, len(b.Causes))])
	}
	return "How to read the findings: " + strings.Join(parts, "; ") + "; a cited metric's percent is its change from the base's value."
}

// worseWay is the way a cited metric gets worse: "higher" for a cost,
// "lower" for a rate (p99) or IPC; "" when neither is known.
func worseWay(name string) string {
	if p, err := metrics.PropsByName(name); err == nil {
		switch p.Better {
		case metrics.LowerIsBetter:
			return "higher"
		case metrics.HigherIsBetter:
			return "lower"
		}
		return ""
	}
	for _, d := range metrics.PerfCounterDefs {
		if d.Name == name {
			if d.Cost {
				return "higher"
			}
			return "lower"
		}
	}
	return ""
}

// headlines are the findings as short sentences a reader can quote, one
// per DBMS (and sysbench thread count), the largest change first: the
// median relative throughput of each part and the step or test that
// changed most, with the metric that moved most with it. "my8043 vs
// my5651: point 0.73×, writes 0.66×; most on insert range=100, 0.55×
// (cpu/o +92%)." With one base for all, headlineLead names it once and
// the lines start with the DBMS. The bullets (bulletLines) have the
// spread and all the causes.
func headlines(bs []report.Bullet) []string {
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
			h += ", " + report.ThreadCount(bs[i].Threads)
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

// untold are the findings of the DBMS the report's release story does not
// tell (Story.Covers), in their order: all of them without a story.
func untold(r *report.Report) []report.Bullet {
	if r.Story == nil {
		return r.Bullets
	}
	var out []report.Bullet
	for _, b := range r.Bullets {
		if !slices.Contains(r.Story.Covers, b.DBMS) {
			out = append(out, b)
		}
	}
	return out
}

// untoldLead introduces the headlines of untold: after a story, as the
// other DBMS's.
func untoldLead(r *report.Report, untold []report.Bullet) string {
	l := headlineLead(untold)
	if r.Story == nil || l == "" {
		return l
	}
	if len(l) > 1 && unicode.IsLower(rune(l[1])) {
		l = strings.ToLower(l[:1]) + l[1:] // "Throughput", not "QPS"
	}
	return "The other DBMS: " + l
}

// headlineLead introduces the headlines: what they compare with.
func headlineLead(bs []report.Bullet) string {
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
