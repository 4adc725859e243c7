package report_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/report"
)

// hasNote reports whether some plausibility note holds every part.
func hasNote(notes []string, parts ...string) bool {
	return slices.ContainsFunc(notes, func(n string) bool {
		for _, p := range parts {
			if !strings.Contains(n, p) {
				return false
			}
		}
		return true
	})
}

// TestPlausibilityRealData: each kind of note where it occurs in the
// shipped results, with the DBMS, the test or step and the numbers.
func TestPlausibilityRealData(t *testing.T) {
	sb := buildSysbench(t, sysbenchRaw)
	if !hasNote(sb.Plausibility, "x.pg15.c1.pk1 point-query range=100: 8,760 → 101,140 queries/s from 1 thread to 2 (11.55× for 2× the threads)") ||
		!hasNote(sb.Plausibility, "x.pg15.c2.pk1 write-only range=10000: 6,641 → 40,581 queries/s from 1 thread to 2 (6.11× for 2× the threads)") {
		t.Errorf("sysbench fixture: super-linear notes %q", sb.Plausibility)
	}
	ex := loadBuild(t, example, report.LoadOptions{}, report.BuildOptions{})
	if !hasNote(ex.Plausibility, "pg15.c1: p99 comes from fewer than the 100 intervals", "l.i0 (10 intervals: the slowest)", "qp100.L2 (29 intervals: the slowest)") {
		t.Errorf("example: percentile notes %q", ex.Plausibility)
	}
	// pg15.c2's l.i0 has 6 full intervals and l.x none: their p99 is NA, not noted.
	if !hasNote(ex.Plausibility, "pg15.c2: p99", "l.i1 (26 intervals: the slowest)") || hasNote(ex.Plausibility, "pg15.c2: p99", "l.i0 (") || hasNote(ex.Plausibility, "l.x (") {
		t.Errorf("example: percentile notes %q", ex.Plausibility)
	}
	sw := loadBuild(t, sweepDir, report.LoadOptions{}, report.BuildOptions{})
	if !hasNote(sw.Plausibility, "pg15.c1 l.i2: 1,000 → 6,667 inserts/s from 2 clients to 4 (6.67× for 2× the clients)") ||
		!hasNote(sw.Plausibility, "pg15.c1.dop4: p99", "l.i0 (55 intervals: the 2nd slowest)") {
		t.Errorf("client sweep: notes %q", sw.Plausibility)
	}
	// l.i2 at 2 clients has 295 intervals: enough for p99.
	if !hasNote(sw.Plausibility, "pg15.c1.dop2: p99") || hasNote(sw.Plausibility, "pg15.c1.dop2: p99", "l.i2 (") {
		t.Errorf("client sweep: notes %q", sw.Plausibility)
	}
	const pg = "../testdata/arc/nov25.sb.pg/dop40"
	series := loadBuild(t, pg, report.LoadOptions{DBMSList: pg + ".series"}, report.BuildOptions{Series: true})
	if !hasNote(series.Plausibility, "x10a of the names changes to x10b inside a series, from x.pg177_o2nofp.x10a_c32r128.pk1 to x.pg180_o2nofp.x10b_c32r128.pk1") {
		t.Errorf("PostgreSQL series: notes %q", series.Plausibility)
	}
	// Nine MySQL builds at one thread: nothing to scale, 80 scan events
	// are enough for a 95th percentile, one configuration.
	my := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{}, report.BuildOptions{})
	if len(my.Plausibility) != 0 {
		t.Errorf("MySQL archive: notes %q", my.Plausibility)
	}
}

// TestSysbenchFindingParts: the findings sum the tests up as point, range
// without and with aggregation and writes, never halves by list position,
// with the median and its spread; a group file still wins.
func TestSysbenchFindingParts(t *testing.T) {
	my := loadBuild(t, "../testdata/arc/nov25.sb.mysql/dop1", report.LoadOptions{}, report.BuildOptions{})
	var parts []string
	for _, b := range my.Bullets {
		if b.DBMS == "x.my5744_rel_o2nofp.z12a_c8r32.pk1" {
			parts = append(parts, b.Part)
		}
	}
	if strings.Join(parts, "|") != "point|range without aggregation|range with aggregation|writes" {
		t.Errorf("parts %q", parts)
	}
	lines := bulletTexts(my.Bullets)
	for _, want := range []string{
		"x.my5744_rel_o2nofp.z12a_c8r32.pk1 vs x.my5651_rel_o2nofp.z12a_c8r32.pk1, 1 thread, point: less, median 0.89× (IQR 0.88–0.90, min–max 0.87–1.01, 10 tests)",
		"range without aggregation: less, median 0.85× (IQR 0.84–0.87, min–max 0.84–0.90, 6 tests)",
		"range with aggregation: less, median 0.89× (IQR 0.86–1.02, min–max 0.84–1.44, 8 tests), largest on read-only-distinct range=1000 (1.44×)",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("no %q in\n%s", want, lines)
		}
	}
	if strings.Contains(lines, "-1:") || strings.Contains(lines, "range-1") {
		t.Errorf("halves in the findings:\n%s", lines)
	}

	groups := filepath.Join(t.TempDir(), "groups")
	if err := os.WriteFile(groups, []byte("Lookups: point-query\nScans: read-only read-write\nChanges: insert update-index write-only\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb := loadBuild(t, sysbenchRaw, report.LoadOptions{SysbenchGroups: groups}, report.BuildOptions{})
	parts = nil
	for _, b := range sb.Bullets {
		if b.Threads == 1 {
			parts = append(parts, b.Part)
		}
	}
	if strings.Join(parts, "|") != "Lookups|Scans|Changes" {
		t.Errorf("user groups: parts %q", parts)
	}
}

// TestCPUPerOpLegend: cpu/o is vmstat's us + sy percent per operation per
// second, not CPU seconds, in the legend and the HW captions.
func TestCPUPerOpLegend(t *testing.T) {
	sb := buildSysbench(t, sysbenchRaw)
	found := false
	for _, l := range sb.Legend {
		if l.Name == "cpu/o" {
			found = true
			if strings.Contains(l.Meaning, "CPU seconds per operation") || !strings.Contains(l.Meaning, "not CPU seconds") || !strings.Contains(l.Meaning, "× CPU count × 10⁴") {
				t.Errorf("cpu/o legend %q", l.Meaning)
			}
		}
	}
	if !found {
		t.Error("no cpu/o in the legend")
	}
	for _, th := range sb.Sysbench.Threads {
		for _, tab := range th.Efficiency {
			if strings.Contains(tab.Caption, "CPU seconds (cpu/o)") {
				t.Errorf("%s: caption %q", tab.ID, tab.Caption)
			}
		}
	}
}
