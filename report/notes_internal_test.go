package report

import (
	"os"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/internal/sbsum"
	"github.com/ibreport/ibreport/metrics"
)

// TestSysbenchNotesMatchTables checks that the notes Build takes from the
// sysbench model are the warnings the tables report, in the same order, on
// results with a run missing (so that there is something to warn about).
func TestSysbenchNotesMatchTables(t *testing.T) {
	m := sysbenchFixtureFS(t)
	for name := range m {
		if strings.Contains(name, "x.pg15.c2.pk1/sb.") && strings.Contains(name, "point-query.range100.pk1.dop2") {
			delete(m, name)
		}
	}
	res, _, err := LoadFS(m, "sb", LoadOptions{Metrics: metrics.Options{Cores: 2, Device: "vda"}})
	if err != nil {
		t.Fatal(err)
	}
	_, warns, err := buildSysbenchTables(res.Sysbench, res.SysbenchOptions)
	if err != nil {
		t.Fatal(err)
	}
	notes := metrics.WarningTexts(sbsum.Notes(res.Sysbench, res.SysbenchOptions.sum()))
	if len(warns) == 0 || !slices.Equal(notes, warns) {
		t.Errorf("notes differ from the tables' warnings:\nnotes %q\ntables %q", notes, warns)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "x.pg15.c2.pk1 has no sb.met.point-query.range100.pk1.dop2") {
		t.Errorf("no note for the missing run: %q", notes)
	}
}

// sysbenchFixtureFS is the sysbench fixture's two DBMS folders in memory,
// for tests that plant or remove files.
func sysbenchFixtureFS(t *testing.T) fstest.MapFS {
	t.Helper()
	const raw = "../testdata/sysbench/raw"
	m := fstest.MapFS{}
	for _, dir := range []string{"x.pg15.c1.pk1", "x.pg15.c2.pk1"} {
		ents, err := os.ReadDir(path.Join(raw, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(path.Join(raw, dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m[dir+"/"+e.Name()] = &fstest.MapFile{Data: b}
		}
	}
	return m
}
