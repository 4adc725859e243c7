package compat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/awk"
)

// perfCol is one getcol call of grep_perfstat.sh: print field pcno of the
// first line whose field mcno is mname, named pname.
type perfCol struct {
	mcno  int
	mname string
	pcno  int
	pname string
}

// perfCols are the getcol calls of grep_perfstat.sh (bench/sysbench.lua and
// bench/ibench, the same file), in order. "migratons" is the script's
// spelling.
var perfCols = []perfCol{
	{2, "cycles", 1, "cycles"},
	{2, "cycles", 4, "GHz"},
	{2, "bus-cycles", 1, "bus-cycles"},
	{2, "instructions", 1, "instructions"},
	{2, "instructions", 4, "ipc"},
	{2, "branches", 1, "branches"},
	{2, "branch-misses", 1, "branch-misses"},
	{2, "branch-misses", 4, "branch-miss-pct"},
	{2, "cache-references", 1, "cache-references"},
	{2, "cache-misses", 1, "cache-misses"},
	{2, "cache-misses", 4, "cache-miss-pct"},
	{2, "stalled-cycles-backend", 1, "stalled-cycles-backend"},
	{2, "stalled-cycles-frontend", 1, "stalled-cycles-frontend"},
	{2, "L1-dcache-loads", 1, "L1-dcache-loads"},
	{2, "L1-dcache-load-misses", 1, "L1-dcache-load-misses"},
	{2, "L1-dcache-load-misses", 4, "L1-dcache-load-miss-pct"},
	{2, "L1-dcache-stores", 1, "L1-dcache-stores"},
	{2, "dTLB-loads", 1, "dTLB-loads"},
	{2, "dTLB-load-misses", 1, "dTLB-load-misses"},
	{2, "dTLB-load-misses", 4, "dTLB-load-miss-pct"},
	{2, "dTLB-stores", 1, "dTLB-stores"},
	{2, "dTLB-store-misses", 1, "dTLB-store-misses"},
	{2, "iTLB-loads", 1, "iTLB-loads"},
	{2, "iTLB-load-misses", 1, "iTLB-load-misses"},
	{2, "iTLB-load-misses", 4, "iTLB-load-miss-pct"},
	{2, "L1-icache-loads-misses", 1, "L1-icache-loads-misses"},
	{2, "L1-icache-loads-misses", 4, "L1-icache-load-miss-pct"},
	{2, "L1-icache-loads", 1, "L1-icache-loads"},
	{2, "LLC-loads", 1, "LLC-loads"},
	{2, "LLC-load-misses", 1, "LLC-load-misses"},
	{2, "LLC-stores", 1, "LLC-stores"},
	{2, "LLC-store-misses", 1, "LLC-store-misses"},
	{2, "LLC-prefetches", 1, "LLC-prefetches"},
	{2, "alignment-faults", 1, "alignment-faults"},
	{2, "context-switches", 1, "context-switches"},
	{2, "migrations", 1, "migratons"},
	{2, "major-faults", 1, "major-faults"},
	{2, "minor-faults", 1, "minor-faults"},
	{2, "faults", 1, "faults"},
}

// PerfRaw is grep_perfstat.sh of one perf stat file: the <in>.raw lines
// "name<TAB>value". For each column, the pipeline
//
//	sed 's/<not supported>/-1/' | awk '$mcno == mname {print $pcno}' |
//	sed 's/,//g' | sed 's/%//g' | awk '{printf "%s\t%s\n", pname, $1}' | head -1
//
// replaces the first "<not supported>" of each line by -1, takes the
// field of the first line whose field 2 is the event, removes commas and
// percent signs and prints its first blank-separated token (empty when the
// line had no such field). An event that is absent prints no line; one
// that is "<not counted>" does not match either, its field 2 being
// "counted>".
func PerfRaw(text string) []string {
	lines := strings.Split(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1] // the newline that ends the last line
	}
	fields := make([][]string, len(lines))
	for i, l := range lines {
		fields[i] = strings.Fields(strings.Replace(l, "<not supported>", "-1", 1))
	}
	var out []string
	for _, c := range perfCols {
		for _, f := range fields {
			if len(f) < c.mcno || f[c.mcno-1] != c.mname {
				continue
			}
			v := ""
			if c.pcno <= len(f) {
				v = strings.NewReplacer(",", "", "%", "").Replace(f[c.pcno-1])
			}
			// The last awk reads $1 of what is left; a value is one token.
			if t := strings.Fields(v); len(t) > 0 {
				v = t[0]
			} else {
				v = ""
			}
			if v == "<not supported>" { // the script's guard; sed already replaced it
				v = "-1"
			}
			out = append(out, c.pname+"\t"+v)
			break
		}
	}
	return out
}

// PerfSorted is `sort -k 1,1` of raw lines under the collation: by the
// first blank-separated field, ties by the whole line.
func PerfSorted(raw []string, coll Collation) []string {
	out := append([]string(nil), raw...)
	key := func(s string) string {
		if f := strings.Fields(s); len(f) > 0 {
			return f[0]
		}
		return ""
	}
	sortStable(out, func(a, b string) int {
		if r := coll.Compare(key(a), key(b)); r != 0 {
			return r
		}
		return coll.Compare(a, b)
	})
	return out
}

func sortStable(l []string, cmp func(a, b string) int) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && cmp(l[j], l[j-1]) < 0; j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

// PerfJoinTests are the tests of join_perfstat_sb.sh (bench/sysbench.lua,
// April 2025), in its order; PerfJoinTestsOct24 those of its October 2024
// version, which the feb25.pg.perf archive was joined with (no
// read-only-{count,distinct,order,simple,sum}).
var (
	PerfJoinTests      = perfJoinTests(true)
	PerfJoinTestsOct24 = perfJoinTests(false)
)

func perfJoinTests(apr25 bool) []string {
	l := []string{
		"hot-points.range100.pk1", "point-query.pre.range100.pk1", "point-query.range100.pk1", "point-query.warm.range100.pk1",
		"points-covered-pk.pre.range100.pk1", "points-covered-pk.range100.pk1", "points-covered-si.pre.range100.pk1", "points-covered-si.range100.pk1",
		"points-notcovered-pk.pre.range100.pk1", "points-notcovered-pk.range100.pk1", "points-notcovered-si.pre.range100.pk1", "points-notcovered-si.range100.pk1",
		"random-points.pre.range1000.pk1", "random-points.pre.range100.pk1", "random-points.pre.range10.pk1",
		"random-points.range1000.pk1", "random-points.range100.pk1", "random-points.range10.pk1",
		"range-covered-pk.pre.range100.pk1", "range-covered-pk.range100.pk1", "range-covered-si.pre.range100.pk1", "range-covered-si.range100.pk1",
		"range-notcovered-pk.pre.range100.pk1", "range-notcovered-pk.range100.pk1", "range-notcovered-si.pre.range100.pk1", "range-notcovered-si.range100.pk1",
		"read-only.pre.range10000.pk1", "read-only.pre.range100.pk1", "read-only.pre.range10.pk1",
		"read-only.range10000.pk1", "read-only.range100.pk1", "read-only.range10.pk1",
	}
	if apr25 {
		l = append(l, "read-only-count.range1000.pk1", "read-only-distinct.range1000.pk1", "read-only-order.range1000.pk1",
			"read-only-simple.range1000.pk1", "read-only-sum.range1000.pk1")
	}
	return append(l, "scan.range100.pk1", "read-write.range100.pk1", "read-write.range10.pk1",
		"update-index.range100.pk1", "update-inlist.range100.pk1", "update-nonindex.range100.pk1", "update-one.range100.pk1",
		"update-zipf.range100.pk1", "write-only.range10000.pk1", "delete.range100.pk1", "insert.range100.pk1")
}

// PerfJoin is join_perfstat_sb.sh PREFIX V DBMS… for one test: sorted
// holds, per DBMS in argument order, the lines of its
// sb.perf.hw.<test>.<V>.sorted, nil when the file is missing. It returns
// the lines of join<V>.abs.<PREFIX>.… and join<V>.rel.….
//
// abs is the first file joined with each next one by `join` (field 1,
// blank separated, output fields separated by one space, unpaired lines
// dropped); a missing file anywhere leaves it empty (cp or join fails and
// the redirection still creates the file). rel prints, for each abs
// line, field k ÷ field 2 as %.3f followed by a TAB for k = 3..NF ("INF"
// when field 2 is 0), then field 1.
func PerfJoin(sorted [][]string, coll Collation) (abs, rel []string) {
	if len(sorted) == 0 {
		return nil, nil
	}
	for _, s := range sorted {
		if s == nil {
			return []string{}, []string{}
		}
	}
	abs = joinFirst(sorted[0])
	for _, next := range sorted[1:] {
		abs = joinLines(abs, next, coll)
	}
	rel = make([]string, 0, len(abs))
	for _, l := range abs {
		f := strings.Fields(l)
		var b strings.Builder
		for k := 2; k < len(f); k++ {
			if !awk.EqZero(f[1]) {
				b.WriteString(awk.F(awk.Num(f[k])/awk.Num(f[1]), 3) + "\t")
			} else {
				b.WriteString("INF\t")
			}
		}
		if len(f) > 0 {
			b.WriteString(f[0])
		}
		rel = append(rel, b.String())
	}
	return abs, rel
}

// joinFirst is the copied first file: its lines as they are (cp).
func joinFirst(l []string) []string { return append([]string{}, l...) }

// joinLines is `join a b`: a merge on field 1 under the collation, each
// pair printed as the key, the other fields of a, the other fields of b,
// separated by single spaces; for equal keys every pair, in order.
func joinLines(a, b []string, coll Collation) []string {
	split := func(l []string) [][]string {
		out := make([][]string, len(l))
		for i, s := range l {
			out[i] = strings.Fields(s)
		}
		return out
	}
	fa, fb := split(a), split(b)
	key := func(f []string) string {
		if len(f) == 0 {
			return ""
		}
		return f[0]
	}
	out := []string{}
	i, j := 0, 0
	for i < len(fa) && j < len(fb) {
		switch c := coll.Compare(key(fa[i]), key(fb[j])); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			k := key(fa[i])
			j2 := j
			for j2 < len(fb) && key(fb[j2]) == k {
				j2++
			}
			for ; i < len(fa) && key(fa[i]) == k; i++ {
				for jj := j; jj < j2; jj++ {
					parts := append([]string{k}, rest(fa[i])...)
					out = append(out, strings.Join(append(parts, rest(fb[jj])...), " "))
				}
			}
			j = j2
		}
	}
	return out
}

func rest(f []string) []string {
	if len(f) <= 1 {
		return nil
	}
	return f[1:]
}

// PerfJoinName is the name of a join file: join<V>.<kind>.<PREFIX>.sb.perf.hw.<test>.<V>.sorted.
func PerfJoinName(kind, prefix string, v int, test string) string {
	vs := strconv.Itoa(v)
	return fmt.Sprintf("join%s.%s.%s.sb.perf.hw.%s.%s.sorted", vs, kind, prefix, test, vs)
}
