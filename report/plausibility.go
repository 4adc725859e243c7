package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/metrics"
)

// superLinear is how far a throughput ratio between two thread or client
// counts may exceed the ratio of the counts before a note asks whether the
// two runs did the same work. More threads can at best multiply the work
// done in parallel; well beyond that the smaller run was slowed by
// something else (a cold cache, other data, a shorter run), and a scaling
// table built on it misleads. 1.3 leaves room for ordinary noise and
// modest cache effects.
const superLinear = 1.3

// superLinearNotes notes each pair of consecutive counts (ascending, NaN
// where the rate is unknown) whose rate ratio exceeds superLinear times the
// ratio of the counts. who names the DBMS and the test or step; unit is
// the rate's; noun is "thread" or "client".
func superLinearNotes(who, unit, noun string, counts []int, rates []float64) []string {
	var out []string
	prev := -1
	for i, r := range rates {
		if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 || counts[i] <= 0 {
			continue
		}
		if prev >= 0 {
			n0, n1, r0 := counts[prev], counts[i], rates[prev]
			want := float64(n1) / float64(n0)
			if got := r / r0; n1 > n0 && got > superLinear*want {
				out = append(out, fmt.Sprintf("%s: %s → %s %s from %s to %d (%.2f× for %s× the %ss): more than %.1f × linear scaling; "+
					"check that both runs did the same work (cache warm-up, data size, duration)",
					who, rateText(r0), rateText(r), unit, metrics.Plural(n0, noun), n1, got, strconv.FormatFloat(want, 'f', -1, 64), noun, superLinear))
			}
		}
		prev = i
	}
	return out
}

// rateText prints a rate with its thousands grouped: "101,140".
func rateText(x float64) string {
	if math.Abs(x) < 100 {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	s := strconv.FormatFloat(math.Abs(x), 'f', 0, 64)
	var b strings.Builder
	if x < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// sysbenchPlausibility notes, per DBMS and test, super-linear scaling across
// the thread counts and latency percentiles from too few events.
func (b *findings) sysbenchPlausibility(set *metrics.SysbenchSet) {
	for _, d := range set.DBMS {
		for _, t := range set.Tests {
			if t.Warmup() {
				continue
			}
			rates := make([]float64, len(set.Threads))
			unit := ""
			for i, nt := range set.Threads {
				rates[i] = math.NaN()
				if r := d.Result(t.Sfx, nt); r != nil && r.QPS.OK() {
					rates[i], unit = r.QPS.V, string(r.QPS.Unit)
				}
			}
			b.rep.Plausibility = append(b.rep.Plausibility, superLinearNotes(d.Name+" "+sbTestName(t), unit, "thread", set.Threads, rates)...)
		}
		for _, nt := range set.Threads {
			for _, t := range set.Tests {
				if r := d.Result(t.Sfx, nt); r != nil && !t.Warmup() {
					if n := shortPercentile(r.Percentile, r.Events); n != "" {
						b.rep.Plausibility = append(b.rep.Plausibility, fmt.Sprintf("%s %s, %s: the %dth-percentile latency (%s ms) %s",
							d.Name, sbTestName(t), ThreadCount(nt), r.Percentile, r.LatPct.Format(-1), n))
					}
				}
			}
		}
	}
}

// shortPercentile says why a percentile x of n values is not one, "" when
// it is: at least one value must lie beyond it, so it needs
// n·(100−x)/100 ≥ 1 (100 values for p99, 20 for p95). With fewer it is
// the most extreme value or next to it.
func shortPercentile(x int, n metrics.Value) string {
	if x <= 0 || x >= 100 || !n.OK() || n.V <= 0 {
		return ""
	}
	need := int(math.Ceil(100 / float64(100-x)))
	if n.V >= float64(need) {
		return ""
	}
	return fmt.Sprintf("comes from %s, fewer than the %d a %dth percentile needs: it is the most extreme of them, not a percentile",
		metrics.Plural(int(n.V), "event"), need, x)
}

// ibenchPlausibility notes, per DBMS, the steps whose p99 per-interval rate
// comes from fewer than 100 intervals of client 1 (the rule of
// shortPercentile): the descending list then has no interval beyond p99,
// which is its slowest interval or the next one.
func (b *findings) ibenchPlausibility() {
	seen := map[string]bool{}
	for _, tag := range b.ib.shownTags() {
		t := b.ib.treeOf(tag)
		if t == nil || seen[tag] {
			continue
		}
		seen[tag] = true
		var short []string
		for _, st := range b.ib.stepList() {
			sr := t.Step(st.MergeName)
			if sr == nil || len(sr.Percentiles) == 0 {
				continue
			}
			for _, p := range sr.Percentiles[0] {
				if p.X != 99 || p.Lines < 10 || p.Lines*(100-p.X) >= 100 {
					continue
				}
				short = append(short, fmt.Sprintf("%s (%d intervals: the %s)", st.MergeName, p.Lines, slowest(p.Lines-max(p.Offset, 1)+1)))
			}
		}
		if len(short) > 0 {
			b.rep.Plausibility = append(b.rep.Plausibility, fmt.Sprintf("%s: p99 comes from fewer than the 100 intervals of client 1 a 99th percentile needs in %s: "+
				"it is the slowest interval or next to it, not a percentile", tag, strings.Join(short, ", ")))
		}
	}
}

// slowest names the k-th slowest interval: "slowest", "2nd slowest".
func slowest(k int) string {
	switch k {
	case 1:
		return "slowest"
	case 2:
		return "2nd slowest"
	case 3:
		return "3rd slowest"
	}
	return strconv.Itoa(k) + "th slowest"
}

// sweepPlausibility notes super-linear scaling over the client counts of
// the sweep part, per swept DBMS and step, from its rates tables.
func (b *findings) sweepPlausibility() {
	s := b.rep.Sweep
	if s == nil {
		return
	}
	for _, st := range s.Steps {
		unit := strings.TrimPrefix(st.Rates.Title, st.Step.Name+": ")
		unit, _, _ = strings.Cut(unit, " by ")
		for _, row := range st.Rates.Rows {
			rates := make([]float64, len(s.Clients))
			for i := range s.Clients {
				rates[i] = math.NaN()
				if i+1 < len(row.Cells) && row.Cells[i+1].Value != nil {
					rates[i] = *row.Cells[i+1].Value
				}
			}
			b.rep.Plausibility = append(b.rep.Plausibility, superLinearNotes(row.Cells[0].Text+" "+st.Step.Name, unit, "client", s.Clients, rates)...)
		}
	}
}

// configChanges notes where a part of the members' names that is not the
// one naming the member (the release) changes inside a series: results on
// either side mix two changes. The names are split into parts as
// seriesLabels splits them; names of different part counts are not
// compared. The naming part is the varying part with the most distinct
// values (the first on a tie); every other part that varies is
// configuration, and each member where it changes gets a note.
func configChanges(names []string) []string {
	if len(names) < 2 {
		return nil
	}
	toks := make([][]string, len(names))
	for i, n := range names {
		toks[i] = nameParts(n)
		if len(toks[i]) != len(toks[0]) {
			return nil
		}
	}
	var varying []int
	naming, most := -1, 0
	for p := range toks[0] {
		if allSame(toks, func(t []string) string { return t[p] }) {
			continue
		}
		varying = append(varying, p)
		distinct := map[string]bool{}
		for _, t := range toks {
			distinct[t[p]] = true
		}
		if len(distinct) > most {
			naming, most = p, len(distinct)
		}
	}
	var out []string
	for _, p := range varying {
		if p == naming {
			continue
		}
		for i := 1; i < len(names); i++ {
			a, z := strings.TrimLeft(toks[i-1][p], "._-"), strings.TrimLeft(toks[i][p], "._-")
			if a != z {
				out = append(out, fmt.Sprintf("The configuration part %s of the names changes to %s inside a series, from %s to %s "+
					"(members %d and %d): a change point at %s may be the configuration's rather than the release's",
					a, z, names[i-1], names[i], i, i+1, names[i]))
			}
		}
	}
	return out
}

// nameParts splits a member's name before each '.', '_' and '-' (each part
// keeps its leading separator): "x.pg180_o2nofp" is "x", ".pg180",
// "_o2nofp".
func nameParts(s string) []string {
	var parts []string
	start := 0
	for i, r := range s {
		if i > 0 && strings.ContainsRune("._-", r) {
			parts = append(parts, s[start:i])
			start = i
		}
	}
	return append(parts, s[start:])
}

// seriesPlausibility notes the configuration changes inside the series of
// a report, once for series of the same members (a sysbench series per
// thread count).
func seriesPlausibility(p *SeriesPart) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range p.Groups {
		for _, n := range configChanges(g.Members) {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}
