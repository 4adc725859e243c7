package metrics

import (
	"fmt"
	"strconv"

	"github.com/ibreport/ibreport/parse"
)

// EngineTable is the per-query engine table at one thread count: for each
// test a block with one row per DBMS.
type EngineTable struct {
	Threads int
	Extra   []string // names of the user-supplied columns
	Blocks  []EngineBlock
}

// EngineBlock is one test of an EngineTable.
type EngineBlock struct {
	Test parse.SysbenchTest
	Rows []EngineRow
}

// PercentileLabel is "p95" (or the percentile sysbench used) for the
// latency-percentile column.
func (b EngineBlock) PercentileLabel() string {
	for _, r := range b.Rows {
		if r.Percentile > 0 {
			return "p" + strconv.Itoa(r.Percentile)
		}
	}
	return "p95"
}

// EngineRow is one DBMS in an EngineBlock.
type EngineRow struct {
	DBMS                string
	QPS, LatAvg, LatPct Value
	Percentile          int
	Extra               []string // values of the user columns, "NA" when not given
}

// EngineTable builds the engine table at nt threads. Warm-up runs are left
// out. extra may be nil; a CSV row that matches no DBMS and test is
// reported.
func (s *SysbenchSet) EngineTable(nt int, extra *parse.SysbenchExtra) (*EngineTable, []string) {
	if s == nil {
		return &EngineTable{Threads: nt}, nil
	}
	t := &EngineTable{Threads: nt}
	var warns []string
	used := map[int]bool{}
	if extra != nil {
		t.Extra = extra.Columns
	}
	for _, test := range s.Tests {
		if test.Warmup() {
			continue
		}
		b := EngineBlock{Test: test}
		for _, d := range s.DBMS {
			row := EngineRow{DBMS: d.Name}
			if r := d.Result(test.Sfx, nt); r != nil {
				row.QPS, row.LatAvg, row.LatPct, row.Percentile = r.QPS, r.LatAvg, r.LatPct, r.Percentile
			} else {
				why := fmt.Sprintf("%s has no %s run with %s", d.Name, test.Sfx, Plural(nt, "thread"))
				row.QPS, row.LatAvg, row.LatPct = NA(QueriesPerSec, why), NA(Millis, why), NA(Millis, why)
			}
			if extra != nil {
				row.Extra = make([]string, len(extra.Columns))
				for i := range row.Extra {
					row.Extra[i] = "NA"
				}
				// The last matching CSV row wins, so a row for one thread
				// count can refine a row for all of them.
				for i, x := range extra.Rows {
					if x.DBMS != d.Name || !test.Matches(x.Test) || x.Threads != 0 && x.Threads != nt {
						continue
					}
					used[i] = true
					for j, c := range extra.Columns {
						if v, ok := x.Values[c]; ok && v != "" {
							row.Extra[j] = v
						}
					}
				}
			}
			b.Rows = append(b.Rows, row)
		}
		t.Blocks = append(t.Blocks, b)
	}
	if extra != nil {
		for i, x := range extra.Rows {
			if !used[i] && (x.Threads == 0 || x.Threads == nt) {
				warns = append(warns, fmt.Sprintf("%s: no %s run of %s with %s for this row", x.Pos, x.Test, x.DBMS, Plural(nt, "thread")))
			}
		}
	}
	return t, warns
}
