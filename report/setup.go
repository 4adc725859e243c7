package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ibreport/ibreport/internal/metrics"
)

// setupFacts are the facts of the setup a report's header states, read
// from the results in one place (setupOf), so that a new fact (the
// device, say) is added here alone.
type setupFacts struct {
	DBMS      int
	Tests     int
	Threads   []int
	Tables    []int // --tables
	TableSize []int // --table-size, rows per table
	Seconds   []int // --time, per test
}

// setupOf reads the setup facts of the results. Each list holds the
// distinct values seen, ascending; a value the command lines did not give
// (0) is left out.
func setupOf(res *Results) setupFacts {
	var f setupFacts
	add := func(l *[]int, v int) {
		if v > 0 && !slices.Contains(*l, v) {
			*l = append(*l, v)
		}
	}
	if s := res.Sysbench; s != nil {
		f.DBMS, f.Tests = len(s.DBMS), len(s.Tests)
		for _, d := range s.DBMS {
			for _, r := range d.Results {
				add(&f.Threads, r.Threads)
				add(&f.Tables, r.Tables)
				add(&f.TableSize, r.TableSize)
				add(&f.Seconds, r.Seconds)
			}
		}
	}
	for _, l := range [][]int{f.Threads, f.Tables, f.TableSize, f.Seconds} {
		slices.Sort(l)
	}
	return f
}

// sentence is the setup in words: "9 DBMS, 37 tests at 1 thread, 600 s
// per test, 8 tables of 10M rows (80M rows)"; "" when nothing is known.
func (f setupFacts) sentence() string {
	if f.DBMS == 0 {
		return ""
	}
	ints := func(l []int, f func(int) string) string {
		s := make([]string, len(l))
		for i, v := range l {
			s[i] = f(v)
		}
		return strings.Join(s, ", ")
	}
	var parts []string
	p := strconv.Itoa(f.DBMS) + " DBMS, " + metrics.Plural(f.Tests, "test")
	if len(f.Threads) > 0 {
		p += " at " + ints(f.Threads, strconv.Itoa)
		if len(f.Threads) == 1 && f.Threads[0] == 1 {
			p += " thread"
		} else {
			p += " threads"
		}
	}
	parts = append(parts, p)
	if len(f.Seconds) > 0 {
		parts = append(parts, ints(f.Seconds, strconv.Itoa)+" s per test")
	}
	if len(f.Tables) == 1 && len(f.TableSize) == 1 {
		p := fmt.Sprintf("%s of %s rows", metrics.Plural(f.Tables[0], "table"), rowCount(f.TableSize[0]))
		if f.Tables[0] > 1 {
			p += " (" + rowCount(f.Tables[0]*f.TableSize[0]) + " rows)"
		}
		parts = append(parts, p)
	} else if len(f.TableSize) > 0 {
		parts = append(parts, ints(f.TableSize, rowCount)+" rows per table")
	}
	return strings.Join(parts, ", ")
}

// rowCount prints a row count the way the benchmark's posts do: 10M, 500K.
func rowCount(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "K"
	}
	return strconv.Itoa(n)
}

// sysbenchTitle is the title of a sysbench-only report: what it compares
// at which thread counts.
func (f setupFacts) sysbenchTitle() string {
	if f.DBMS == 0 {
		return "sysbench"
	}
	t := "Sysbench: " + strconv.Itoa(f.DBMS) + " DBMS"
	switch {
	case len(f.Threads) == 1:
		t += ", " + metrics.Plural(f.Threads[0], "thread")
	case len(f.Threads) > 1:
		t += fmt.Sprintf(", %d to %d threads", f.Threads[0], f.Threads[len(f.Threads)-1])
	}
	return t
}
