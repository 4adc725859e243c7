package results_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/results"
)

const (
	absTSV = "col-1 : x.a.c1.pk1\ncol-2 : x.b.c1.pk1\n\ncol-1\tcol-2\n100\t200\tpoint-query_range=100\n50\t25\tscan_range=100\n"
	relTSV = "Relative to: x.a.c1.pk1\ncol-1 : x.b.c1.pk1\n\ncol-1\n2.00\tpoint-query_range=100\n0.50\tscan_range=100\n"
	absCSV = "point-query_range=100,100,200\nscan_range=100,50,25\n"
	oMet   = "sb.met.point-query.range100.pk1.dop8\n--- absolute\ncpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms\n" +
		"0.001\t2.5\t0\t0\t0.1\t100\tx.a.c1.pk1\n0.002\t2.0\t0\t0\t0.2\t200\tx.b.c1.pk1\n--- relative to first result\n2.00\t\t0.80\t1\t1\t2\t2\tx.b.c1.pk1\n\n" +
		"sb.met.scan.range100.pk1.dop8\n--- absolute\ncpu/o\t\tcs/o\tr/o\trKB/o\twKB/o\to/s\tdbms\n0.1\t1\t0\t0\t0\t50\tx.a.c1.pk1\n0.2\t1\t0\t0\t0\t25\tx.b.c1.pk1\n"
)

func read(t *testing.T, files map[string]string) *results.Summaries {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	s, err := results.ReadSummaries(fsys, ".", "dir")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func texts(ws []metrics.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Text + "\n")
	}
	return b.String()
}

func TestReadSummaries(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		// want is checked against the set s: "" skips it.
		sets     string // the set names and kinds, "name:kind builds threads"
		warn     []string
		skipped  []string
		qps, cpu string // cell (row 0, build 1): QPS and cpu/o as formatted
	}{
		{name: "abs, rel, csv and o.met agree",
			files: map[string]string{"qps.abs.s.tsv": absTSV, "qps.rel.s.tsv": relTSV, "qps.abs.s.csv": absCSV, "o.met.s": oMet},
			sets:  "s:abs 2 8", qps: "200", cpu: "0.002"},
		{name: "a ratio off by more than its rounding",
			files: map[string]string{"qps.abs.s.tsv": absTSV, "qps.rel.s.tsv": strings.Replace(relTSV, "2.00", "1.90", 1)},
			sets:  "s:abs 2 0", qps: "200", cpu: "NA",
			warn: []string{"dir/qps.rel.s.tsv:5: x.b.c1.pk1 of point-query range=100 is 1.90, qps.abs.s.tsv gives 2.000 (200 / 100)"}},
		{name: "a ratio within its rounding",
			files: map[string]string{"qps.abs.s.tsv": absTSV, "qps.rel.s.tsv": strings.Replace(relTSV, "2.00", "2.005", 1)},
			sets:  "s:abs 2 0", qps: "200", cpu: "NA"},
		{name: "the csv disagrees",
			files: map[string]string{"qps.abs.s.tsv": absTSV, "qps.abs.s.csv": strings.Replace(absCSV, ",200", ",201", 1)},
			sets:  "s:abs 2 0", qps: "200", cpu: "NA",
			warn: []string{`dir/qps.abs.s.csv:1: x.b.c1.pk1 of point-query range=100 is "201", qps.abs.s.tsv:5 has "200"`}},
		{name: "only relative tables",
			files: map[string]string{"qps.rel.s.tsv": relTSV},
			sets:  "s:rel 2 0", qps: "2.00", cpu: "NA"},
		{name: "only o.met, of the January 2021 generation",
			files: map[string]string{"o.met.m": "sb.met.point-query.range100.pk1.dop1\n--- absolute\ncpu/o\t\tr/o\trKB/o\twKB/o\to/s\tdbms\n0.1\t0\t0\t0\t10\tx.a.c1.pk1\n0.2\t0\t0\t0\t20\tx.b.c1.pk1\n"},
			sets:  "m:met 2 1", qps: "20", cpu: "0.2"},
		{name: "a duplicate row leaves the set out",
			files:   map[string]string{"qps.abs.s.tsv": absTSV + "1\t2\tpoint-query_range=100\n"},
			skipped: []string{"set s: dir/qps.abs.s.tsv:7: point-query range=100 again (first at line 5): a duplicate row"}},
		{name: "a short row leaves the set out",
			files:   map[string]string{"qps.abs.s.tsv": absTSV + "1\tinsert_range=100\n"},
			skipped: []string{"qps.abs.s.tsv:7: 2 fields, want 3 (a value per build and the label)"}},
		{name: "a label that names no test",
			files:   map[string]string{"qps.abs.s.tsv": strings.Replace(absTSV, "scan_range=100", "<script>", 1)},
			skipped: []string{`"<script>" is not a test label`}},
		{name: "a build name with a control character",
			files:   map[string]string{"qps.abs.s.tsv": strings.Replace(absTSV, "x.b.c1.pk1", "x.b\x1b[31m", 1)},
			skipped: []string{"control character"}},
		{name: "NaN, negative and empty cells are NA",
			files: map[string]string{"qps.abs.s.tsv": strings.Replace(absTSV, "100\t200", "100\tNaN", 1)},
			sets:  "s:abs 2 0", qps: "NA", cpu: "NA"},
		{name: "a hand-made variant is not read",
			files: map[string]string{"qps.abs.s.tsv": absTSV, "qps.abs.s.tsv.no1103": "junk"},
			sets:  "s:abs 2 0", qps: "200", cpu: "NA",
			skipped: []string{"qps.abs.s.tsv.no1103: not a table sum_qps_csv.sh writes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := read(t, c.files)
			var sets []string
			for _, set := range s.Sets {
				kind := "abs"
				if set.Relative {
					kind = "rel"
				} else if set.MetOnly {
					kind = "met"
				}
				sets = append(sets, fmt.Sprintf("%s:%s %d %d", set.Name, kind, len(set.Builds), set.Threads))
				for _, r := range set.Rows {
					if len(r.Cells) != len(set.Builds) {
						t.Errorf("%s: %d cells for %d builds", r.Test.Sfx, len(r.Cells), len(set.Builds))
					}
				}
			}
			if got := strings.Join(sets, ","); got != c.sets {
				t.Errorf("sets %q, want %q", got, c.sets)
			}
			var skipped []string
			for _, k := range s.Skipped {
				skipped = append(skipped, k.File+": "+k.Why)
			}
			for _, w := range c.skipped {
				if !strings.Contains(strings.Join(skipped, "\n"), w) {
					t.Errorf("skipped %q lacks %q", skipped, w)
				}
			}
			if len(c.skipped) == 0 && len(skipped) > 0 {
				t.Errorf("skipped %q", skipped)
			}
			warns := texts(s.Warnings)
			for _, w := range c.warn {
				if !strings.Contains(warns, w) {
					t.Errorf("warnings %q lack %q", warns, w)
				}
			}
			if len(c.warn) == 0 && warns != "" {
				t.Errorf("warnings %q", warns)
			}
			if len(s.Sets) == 0 {
				return
			}
			cell := s.Sets[0].Rows[0].Cells[1]
			if got := cell.QPS.Format(-1); got != c.qps {
				t.Errorf("QPS %s (%s), want %s", got, cell.QPS.Why, c.qps)
			}
			cpu := "NA"
			if cell.Met != nil {
				cpu = cell.Met.CPUPerOp.Format(-1)
			}
			if cpu != c.cpu {
				t.Errorf("cpu/o %s, want %s", cpu, c.cpu)
			}
		})
	}
}

// TestSysbenchModel checks the typed model of a set: a DBMS per build in
// column order, the HW of o.met, TPS and latencies NA with the reason.
func TestSysbenchModel(t *testing.T) {
	s := read(t, map[string]string{"qps.abs.s.tsv": absTSV, "o.met.s": oMet})
	set := s.Sets[0].Sysbench(metrics.Options{})
	if got := strings.Join(set.Names(), " "); got != "x.a.c1.pk1 x.b.c1.pk1" {
		t.Fatalf("names %q", got)
	}
	if len(set.Threads) != 1 || set.Threads[0] != 8 {
		t.Errorf("threads %v", set.Threads)
	}
	r := set.DBMS[1].Result("point-query.range100.pk1", 8)
	if r == nil {
		t.Fatal("no result")
	}
	if !r.QPS.OK() || r.QPS.V != 200 || r.HW.CPUPerOp.V != 0.002 || r.HW.CsPerOp.V != 2.0 {
		t.Errorf("QPS %v, cpu/o %v, cs/o %v", r.QPS, r.HW.CPUPerOp, r.HW.CsPerOp)
	}
	if r.TPS.OK() || r.TPS.Why == "" || r.LatAvg.OK() {
		t.Errorf("TPS %v, latency %v: want NA with a reason", r.TPS, r.LatAvg)
	}
	if scan := set.DBMS[1].Result("scan.range100.pk1", 8); scan == nil || scan.QPS.Unit != metrics.KRowsPerSec || scan.HW.CPUPerOp.V != 0.2 {
		t.Errorf("scan %+v", scan)
	}
	var nilSet *results.Set
	if nilSet.Sysbench(metrics.Options{}) != nil {
		t.Error("a nil set has a model")
	}
}

func TestDefaultSet(t *testing.T) {
	set := func(name string, builds int, rel bool) *results.Set {
		return &results.Set{Name: name, Builds: make([]string, builds), Relative: rel}
	}
	for _, c := range []struct {
		sets []*results.Set
		want string
	}{
		{[]*results.Set{set("all", 9, false), set("latest", 3, false)}, "latest"},
		{[]*results.Set{set("my.latest", 5, false), set("my.ma.pg.latest", 3, false), set("pg.latest", 7, false)}, "pg.latest"},
		{[]*results.Set{set("pg13", 2, false), set("all", 7, false), set("new", 13, false)}, "all"},
		{[]*results.Set{set("pg13", 2, false), set("new", 13, false)}, "new"},
		{[]*results.Set{set("ma106.8u", 5, true), set("ma106.12u", 5, true)}, "ma106.8u"},
		{[]*results.Set{set("latest", 5, true), set("latest2", 5, false)}, "latest"},
		{nil, ""},
	} {
		got := ""
		if s := results.DefaultSet(c.sets); s != nil {
			got = s.Name
		}
		if got != c.want {
			t.Errorf("DefaultSet = %q, want %q", got, c.want)
		}
	}
}

func TestNilAndZero(t *testing.T) {
	if _, err := results.ReadSummaries(nil, ".", "x"); err == nil {
		t.Error("a nil FS reads")
	}
	var s *results.Summaries
	if _, err := s.Set("x"); err == nil || s.SetNames() != nil {
		t.Error("a nil Summaries has sets")
	}
	if ok, err := results.HasSummaries(nil, "."); ok || err != nil {
		t.Error("a nil FS has summaries")
	}
	if _, err := read(t, nil).Set("latest"); err == nil || !strings.Contains(err.Error(), "no readable summary tables") {
		t.Errorf("Set of an empty folder: %v", err)
	}
	if _, err := s.Choose(""); err == nil {
		t.Error("a nil Summaries chooses a set")
	}
	bad := read(t, map[string]string{"qps.abs.s.tsv": absTSV + "1\tinsert_range=100\n", "sub/qps.abs.t.tsv": absTSV})
	if _, err := bad.Choose(""); err == nil || !strings.Contains(err.Error(), "qps.abs.s.tsv:7") || !strings.Contains(err.Error(), "its sub-folders sub hold") {
		t.Errorf("Choose of a folder without a readable set: %v", err)
	}
	if set, err := read(t, map[string]string{"qps.abs.s.tsv": absTSV}).Choose(""); err != nil || set.Name != "s" {
		t.Errorf("Choose: %v, %v", set, err)
	}
}

// FuzzReadSummaries reads any qps.abs, qps.rel and o.met content: no
// panic, every row with a cell per build, every value known or NA with
// a reason.
func FuzzReadSummaries(f *testing.F) {
	f.Add(absTSV, relTSV, oMet)
	f.Add(absTSV, strings.Replace(relTSV, "2.00", "x", 1), "")
	f.Add("col-1 : a\n\ncol-1\n1\tinsert_range=1\n", "", "sb.met.x.range1.pk1.dop1\n--- absolute\ncpu/o o/s dbms\n1 2 a\n")
	f.Fuzz(func(t *testing.T, abs, rel, met string) {
		fsys := fstest.MapFS{
			"qps.abs.s.tsv": &fstest.MapFile{Data: []byte(abs)},
			"qps.rel.s.tsv": &fstest.MapFile{Data: []byte(rel)},
			"o.met.s":       &fstest.MapFile{Data: []byte(met)},
			"qps.abs.s.csv": &fstest.MapFile{Data: []byte(strings.ReplaceAll(abs, "\t", ","))},
		}
		s, err := results.ReadSummaries(fsys, ".", "dir")
		if err != nil {
			t.Fatal(err) // content is never an error of the folder
		}
		for _, set := range s.Sets {
			for _, r := range set.Rows {
				if len(r.Cells) != len(set.Builds) {
					t.Fatalf("%d cells for %d builds", len(r.Cells), len(set.Builds))
				}
				for _, c := range r.Cells {
					if !c.QPS.OK() && c.QPS.Why == "" {
						t.Fatalf("an unset value")
					}
				}
			}
			m := set.Sysbench(metrics.Options{})
			if len(m.DBMS) != len(set.Builds) {
				t.Fatalf("%d DBMS for %d builds", len(m.DBMS), len(set.Builds))
			}
		}
	})
}
