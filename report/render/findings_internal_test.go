package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// TestHeadlines: one line per DBMS, the largest change first, naming the
// base once when all share it.
func TestHeadlines(t *testing.T) {
	bs := []report.Bullet{
		{DBMS: "b", Base: "a", Part: "point", Median: 0.9, Ratio: 0.8, N: 3, Largest: "t1"},
		{DBMS: "b", Base: "a", Part: "writes", Median: 0.95, Ratio: 0.95, N: 3},
		{DBMS: "c", Base: "a", Part: "point", Median: 0.5, Ratio: 0.4, N: 3, Largest: "t2",
			Causes: []metrics.Cause{{Name: "cpu/o", Change: 0.9}}},
		{DBMS: "c", Base: "a", Part: "writes", Median: 0.6, Ratio: 0.6, N: 3},
	}
	got := headlines(bs)
	want := []string{
		"c: point 0.50×, writes 0.60×; most on t2, 0.40× (cpu/o +90%).",
		"b: point 0.90×, writes 0.95×; most on t1, 0.80×.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("headlines = %q, want %q", got, want)
	}
	if l := headlineLead(bs); l != "Throughput relative to a, median per part, largest change first:" {
		t.Errorf("lead %q", l)
	}
}

// TestBulletKey: the line above the findings says which way each metric
// they cite is worse, from the properties table (a p99 rate: lower; a cost
// per operation: higher) and the perf counters (IPC: lower), once each,
// and what the second range of a spread is.
func TestBulletKey(t *testing.T) {
	if got := bulletKey(nil); got != "" {
		t.Errorf("no bullets: %q", got)
	}
	bs := []report.Bullet{
		{Threads: 40, Causes: []metrics.Cause{{Name: "cpu/o", What: "CPU per operation", Detail: []metrics.Cause{{Name: "IPC", What: "instructions per cycle"}}}, {Name: "wKB/o", What: "KB written per operation"}}},
		{Threads: 40, Causes: []metrics.Cause{{Name: "p99", What: "the rate 99% of intervals reached"}, {Name: "cpu/o", What: "CPU per operation"}}},
	}
	got := bulletKey(bs)
	for _, want := range []string{
		"×: the throughput divided by the base's, lower is worse",
		"IQR: the middle half of the tests' ratios, min–max all of them",
		"cpu/o: CPU per operation, higher is worse",
		"IPC: instructions per cycle, lower is worse",
		"wKB/o: KB written per operation, higher is worse",
		"p99: the rate 99% of intervals reached, lower is worse",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("key lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "cpu/o"); n != 1 {
		t.Errorf("cpu/o told %d times:\n%s", n, got)
	}
}

// TestUntoldLead: after a story the headlines of the other DBMS say so,
// with a word's capital lowered but not an acronym's; without a story the
// lead is the headlines' own.
func TestUntoldLead(t *testing.T) {
	ib := []report.Bullet{{DBMS: "pg131", Base: "pg1110", Part: "load", Median: 0.94, Ratio: 0.9}}
	sb := []report.Bullet{{DBMS: "b", Base: "a", Part: "point", Threads: 8, Median: 1, Ratio: 1}}
	story := &report.Story{Lead: "MySQL …", Covers: []string{"my5649"}}
	for _, tc := range []struct {
		name  string
		story *report.Story
		bs    []report.Bullet
		want  string
	}{
		{"insert benchmark", story, ib, "The other DBMS: throughput relative to pg1110, median per part, largest change first:"},
		{"sysbench", story, sb, "The other DBMS: QPS relative to a, median per part, largest change first:"},
		{"no story", nil, ib, "Throughput relative to pg1110, median per part, largest change first:"},
		{"nothing untold", story, nil, ""},
	} {
		r := &report.Report{Story: tc.story, Bullets: tc.bs}
		if got := untoldLead(r, untold(r)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
