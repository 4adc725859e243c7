package diff

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/parse"
)

const testHeader = "ips\tqps\trps\tcspq\tcpupq\tmaxop\tp99\ttag"

// testRow is the row of one DBMS in the test tables, the tag last.
var testRow = map[string][]string{
	"a": {"100000", "0", "50", "0.150", "54", "0.080", "90000", "20m.a"},
	"b": {"50000", "0", "10", "0.010", "14", "0.010", "NA", "20m.b"},
}

// run builds a one-table run (mrg.l.i0, or the kind and step in tables)
// whose cells are the test rows changed by edits "dbms.metric=value".
func run(t testing.TB, name string, edits ...string) *ResultSet {
	t.Helper()
	rows := map[string][]string{}
	for d, r := range testRow {
		rows[d] = append([]string(nil), r...)
	}
	cols := strings.Split(testHeader, "\t")
	for _, e := range edits {
		k, v, _ := strings.Cut(e, "=")
		d, m, _ := strings.Cut(k, ".")
		i := -1
		for j, c := range cols {
			if c == m {
				i = j
			}
		}
		if rows[d] == nil || i < 0 {
			t.Fatalf("bad edit %q", e)
		}
		rows[d][i] = v
	}
	text := testHeader + "\n" + strings.Join(rows["a"], "\t") + "\n" + strings.Join(rows["b"], "\t") + "\n"
	return &ResultSet{Name: name, Tables: []ResultTable{table(t, "mrg", "l.i0", text)}}
}

func table(t testing.TB, kind, step, text string) ResultTable {
	t.Helper()
	pt, err := parse.ReadTable(strings.NewReader(text), kind+"."+step)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := newResultTable(kind, step, kind+"."+step, pt)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// find returns the finding of one DBMS and metric.
func find(c *Comparison, dbms, metric string) *Finding {
	for i, f := range c.Findings {
		if f.DBMS == dbms && f.Metric == metric {
			return &c.Findings[i]
		}
	}
	return nil
}

func TestCompareSingleRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		edits     []string
		threshold string // fail levels
		cell      string // dbms.metric to check
		verdict   Verdict
		level     Level
		note      string
	}{
		{"identical", nil, "", "a.ips", VerdictOK, LevelOK, ""},
		{"ips 6% lower fails", []string{"a.ips=94000"}, "", "a.ips", VerdictFail, LevelFail, ""},
		{"ips 5% lower fails", []string{"a.ips=95000"}, "", "a.ips", VerdictFail, LevelFail, ""},
		{"ips 4% lower is within the one-run noise", []string{"a.ips=96000"}, "", "a.ips", VerdictNotSignificant, LevelOK, "within the one-run noise: fails from -5.0%"},
		{"ips 2.9% lower passes", []string{"a.ips=97100"}, "", "a.ips", VerdictOK, LevelOK, ""},
		{"ips 4% higher is within the one-run noise", []string{"a.ips=104000"}, "", "a.ips", VerdictNotSignificant, LevelOK, ""},
		{"ips 8% higher improves", []string{"a.ips=108000"}, "", "a.ips", VerdictImproved, LevelOK, ""},
		{"ips 6% lower warns with a 10% fail level", []string{"a.ips=94000"}, "ips=10%", "a.ips", VerdictWarn, LevelWarn, ""},
		{"ips fail level off keeps the warn level", []string{"a.ips=50000"}, "ips=off", "a.ips", VerdictWarn, LevelWarn, ""},
		// CPU per operation moves by about 4% a run between two runs of
		// the same build (metrics.Gate.Noise): with one run per side an
		// 11% rise is within its noise, a 26% one fails.
		{"cpupq 5.6% higher is within its own noise", []string{"a.cpupq=57"}, "", "a.cpupq", VerdictNotSignificant, LevelOK, "(one-run noise ±5.7%)"},
		{"cpupq 11% higher is within its own noise", []string{"a.cpupq=60"}, "", "a.cpupq", VerdictNotSignificant, LevelOK, "fails from +18%"},
		{"cpupq 26% higher fails", []string{"a.cpupq=68"}, "", "a.cpupq", VerdictFail, LevelFail, ""},
		{"cpupq lower improves", []string{"a.cpupq=40"}, "", "a.cpupq", VerdictImproved, LevelOK, ""},
		{"cpupq one unit is rounding", []string{"b.cpupq=15"}, "", "b.cpupq", VerdictOK, LevelOK, "rounding"},
		{"cspq below the floor", []string{"b.cspq=0.040"}, "", "b.cspq", VerdictOK, LevelOK, "floor"},
		{"cspq above the floor", []string{"a.cspq=0.200"}, "", "a.cspq", VerdictFail, LevelFail, ""},
		{"maxop below the floor", []string{"b.maxop=0.040"}, "", "b.maxop", VerdictOK, LevelOK, "floor"},
		{"maxop 25% higher fails", []string{"a.maxop=0.100"}, "", "a.maxop", VerdictFail, LevelFail, ""},
		{"rps is informational", []string{"a.rps=100"}, "", "a.rps", VerdictInfo, LevelOK, ""},
		{"rps with a threshold gates either way", []string{"a.rps=40"}, "rps=10%", "a.rps", VerdictFail, LevelFail, ""},
		{"NA in NEW fails", []string{"a.p99=NA"}, "", "a.p99", VerdictNotComparable, LevelFail, "value in BASE, NA in NEW"},
		{"-nan in NEW fails", []string{"a.p99=-nan"}, "", "a.p99", VerdictNotComparable, LevelFail, "-nan in NEW"},
		{"empty in NEW fails", []string{"a.p99="}, "", "a.p99", VerdictNotComparable, LevelFail, `"" in NEW`},
		{"NA in NEW warns with AllowNA", []string{"a.p99=NA", "allow-na"}, "", "a.p99", VerdictNotComparable, LevelWarn, "value in BASE, NA in NEW"},
		{"NA in NEW of an informational metric is a note", []string{"a.rps=NA"}, "", "a.rps", VerdictNotComparable, LevelNote, "value in BASE, NA in NEW"},
		{"a negative baseline is not a value", []string{"a.ips=-5"}, "", "a.ips", VerdictNotComparable, LevelFail, "-5 in NEW"},
		{"a huge value is not a value", []string{"a.ips=1e300"}, "", "a.ips", VerdictNotComparable, LevelFail, "1e300 in NEW"},
		{"NA in BASE only is a note", []string{"b.p99=80000"}, "", "b.p99", VerdictNotComparable, LevelNote, "NA in BASE"},
		{"rps to 0 is informational", []string{"b.rps=0"}, "", "b.rps", VerdictInfo, LevelOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := DefaultCompareOptions()
			if err := opt.SetThresholds(tc.threshold, false); err != nil {
				t.Fatal(err)
			}
			edits := tc.edits
			if i := slices.Index(edits, "allow-na"); i >= 0 {
				opt.AllowNA = true
				edits = slices.Delete(slices.Clone(edits), i, i+1)
			}
			base := run(t, "base")
			c, err := Compare([]*ResultSet{base}, []*ResultSet{run(t, "new", edits...)}, opt)
			if err != nil {
				t.Fatal(err)
			}
			d, m, _ := strings.Cut(tc.cell, ".")
			f := find(c, d, m)
			if f == nil {
				t.Fatalf("no finding for %s", tc.cell)
			}
			if f.Verdict != tc.verdict || f.Level != tc.level || !strings.Contains(f.Note, tc.note) {
				t.Errorf("%s: verdict %q level %v note %q (delta %v); want %q %v %q", tc.cell, f.Verdict, f.Level, f.Note, f.Delta, tc.verdict, tc.level, tc.note)
			}
			// Nothing else changed, so nothing else may be flagged.
			for _, g := range c.Findings {
				if (g.DBMS != d || g.Metric != m) && g.Level > LevelOK && g.Verdict != VerdictNotComparable {
					t.Errorf("unexpected finding %s %s: %s", g.DBMS, g.Metric, g.Verdict)
				}
			}
		})
	}
}

func TestCompareZeroBase(t *testing.T) {
	opt := DefaultCompareOptions()
	c, err := Compare([]*ResultSet{run(t, "base", "a.cpupq=0")}, []*ResultSet{run(t, "new", "a.cpupq=5")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	// cpupq's floor is 1 µs: from 0 to 5 is +500% of the floor, not +inf%;
	// from a BASE below its floor one run per side warns, it does not fail.
	f := find(c, "a", "cpupq")
	if f.Verdict != VerdictWarn || f.Delta != 5 || !f.Floored || !strings.Contains(f.Note, "relative to the floor") || !strings.Contains(f.Note, "warns only") {
		t.Errorf("0 -> 5 cpupq: %s delta %v floored %v %q, want warn 5 relative to the floor", f.Verdict, f.Delta, f.Floored, f.Note)
	}
	// Replicated runs can tell: there it fails.
	c, err = Compare([]*ResultSet{run(t, "base", "a.cpupq=0"), run(t, "base2", "a.cpupq=0"), run(t, "base3", "a.cpupq=0")},
		[]*ResultSet{run(t, "new", "a.cpupq=5"), run(t, "new2", "a.cpupq=5"), run(t, "new3", "a.cpupq=5")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if f := find(c, "a", "cpupq"); f.Verdict != VerdictFail {
		t.Errorf("0 -> 5 cpupq, 3 runs a side: %s %q, want fail", f.Verdict, f.Note)
	}
}

func TestThresholdSyntax(t *testing.T) {
	for _, tc := range []struct {
		spec string
		err  string
		fail float64
		warn float64
	}{
		{"ips=7%", "", 0.07, 0.03},
		{"ips=7", "", 0.07, 0.03},
		{"ips=2%", "", 0.02, 0.02}, // warn lowered to the fail level
		{"ips=off", "", 0, 0.03},
		{"ips=x", "not a positive percentage", 0, 0},
		{"ips=-1", "not a positive percentage", 0, 0},
		{"nosuch=5%", "unknown metric", 0, 0},
		{"ips", "want metric=N%", 0, 0},
	} {
		opt := DefaultCompareOptions()
		err := opt.SetThresholds(tc.spec, false)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if r := opt.Rule("ips"); err != nil || !near(r.Fail, tc.fail, 1e-12) || !near(r.Warn, tc.warn, 1e-12) {
			t.Errorf("%q: fail %v warn %v err %v; want %v %v", tc.spec, r.Fail, r.Warn, err, tc.fail, tc.warn)
		}
	}
	// The defaults are not changed by setting a copy.
	if DefaultCompareOptions().Rule("ips").Fail != 0.05 {
		t.Error("SetThresholds changed the defaults")
	}
}

func TestCompareMismatch(t *testing.T) {
	base := run(t, "base")
	onlyA := run(t, "new")
	onlyA.Tables[0].Rows = onlyA.Tables[0].Rows[:1]
	otherStep := run(t, "new")
	otherStep.Tables = append(otherStep.Tables, table(t, "mrg", "l.x", testHeader+"\n"+strings.Join(testRow["a"], "\t")+"\n"))
	relOnly := run(t, "new")
	relOnly.Tables[0].Kind = "rel"
	for _, tc := range []struct {
		name    string
		new     *ResultSet
		want    string
		missing int
	}{
		{"DBMS only in BASE", onlyA, "DBMS b only in BASE (mrg.l.i0)", 1},
		{"step only in NEW", otherStep, "step l.x only in NEW", 1},
		{"a kind BASE has is missing in NEW", relOnly, "BASE has mrg.<step> tables and NEW new has none", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compare([]*ResultSet{base}, []*ResultSet{tc.new}, DefaultCompareOptions())
			if !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want errMismatch naming %q", err, tc.want)
			}
			if tc.missing < 0 {
				return
			}
			opt := DefaultCompareOptions()
			opt.AllowMissing = true
			c, err := Compare([]*ResultSet{base}, []*ResultSet{tc.new}, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Count(VerdictMissing); got != tc.missing {
				t.Errorf("%d missing findings, want %d", got, tc.missing)
			}
		})
	}
}

// runs returns n runs whose a.ips is centre plus a small spread.
func runs(t *testing.T, name string, n int, centre float64) []*ResultSet {
	var out []*ResultSet
	for i := range n {
		v := centre * (1 + 0.002*float64(i-n/2))
		out = append(out, run(t, fmt.Sprintf("%s%d", name, i), fmt.Sprintf("a.ips=%.0f", v)))
	}
	return out
}

func TestCompareReplicated(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nb, nn   int
		newScale float64
		verdict  Verdict
		note     string
	}{
		// One test in the family: 5+5 separated samples give p = 2/252.
		{"5+5, 8% lower", 5, 5, 0.92, VerdictFail, ""},
		{"5+5, same", 5, 5, 1, VerdictNotSignificant, ""},
		{"5+5, 1% lower, significant but small", 5, 5, 0.99, VerdictOK, ""},
		// Too few runs for the U test: every NEW run below every BASE run
		// is a consistent change, judged by the thresholds.
		{"3+3, 20% lower: consistent", 3, 3, 0.8, VerdictFail, "judged by consistency alone"},
		{"1+5, 20% lower: consistent", 1, 5, 0.8, VerdictFail, "judged by consistency alone"},
		{"3+3, 0.1% lower: runs overlap", 3, 3, 0.999, VerdictNotSignificant, "judged by consistency alone"},
		{"3+3, 1% lower: consistent but small", 3, 3, 0.99, VerdictOK, "judged by consistency alone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Compare(runs(t, "b", tc.nb, 100000), runs(t, "n", tc.nn, 100000*tc.newScale), DefaultCompareOptions())
			if err != nil {
				t.Fatal(err)
			}
			f := find(c, "a", "ips")
			notes := ""
			for _, n := range f.Notes {
				notes += c.Notes[n]
			}
			if f.Verdict != tc.verdict || !strings.Contains(notes, tc.note) {
				t.Errorf("verdict %q p %v padj %v notes %q; want %q %q", f.Verdict, f.P, f.PAdj, notes, tc.verdict, tc.note)
			}
			if !c.Replicated {
				t.Error("not marked replicated")
			}
			if tc.verdict == VerdictFail && tc.nb >= 4 && c.Tests != 1 {
				t.Errorf("%d tests in the Holm family, want 1 (unchanged cells are not tested)", c.Tests)
			}
		})
	}
}

// TestCompareHolmFamily checks that the adjustment spans the report: two
// cells each with p = 2/252 = .0079 are adjusted to .0159 and .0159.
func TestCompareHolmFamily(t *testing.T) {
	mk := func(name string, n int, scale float64) []*ResultSet {
		var out []*ResultSet
		for i := range n {
			f := 1 + 0.002*float64(i)
			out = append(out, run(t, fmt.Sprintf("%s%d", name, i),
				fmt.Sprintf("a.ips=%.0f", 100000*scale*f), fmt.Sprintf("b.ips=%.0f", 50000*scale*f)))
		}
		return out
	}
	c, err := Compare(mk("b", 5, 1), mk("n", 5, 0.9), DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a", "b"} {
		f := find(c, d, "ips")
		if !near(f.P, 2.0/252, 1e-12) || !near(f.PAdj, 4.0/252, 1e-12) || f.Verdict != VerdictFail {
			t.Errorf("%s: p %v padj %v %s; want %v %v fail", d, f.P, f.PAdj, f.Verdict, 2.0/252, 4.0/252)
		}
	}
}

func TestNewResultTable(t *testing.T) {
	rt := table(t, "mrg", "l.i0", "ips\ttag\n1\t20m.pg\n0\tpg#2\n2\tpg\n3\tmy\n")
	var got []string
	for _, r := range rt.Rows {
		got = append(got, r.DBMS)
	}
	if strings.Join(got, " ") != "pg pg#2 pg#3 my" {
		t.Errorf("tags %q, want pg pg#2 pg#3 my", got)
	}
	pt, _ := parse.ReadTable(strings.NewReader("ips\tqps\n1\t2\n"), "x")
	if _, err := newResultTable("mrg", "l.i0", "x", pt); err == nil {
		t.Error("a header without tag was accepted")
	}
}

// TestCompareLostKind checks that a kind of table BASE has and NEW lacks
// (rel files lost to a killed run) stops the gate, or with AllowMissing is
// a warning, never a silent pass on the rest.
func TestCompareLostKind(t *testing.T) {
	base := run(t, "base")
	rel := run(t, "base")
	rel.Tables[0].Kind = "rel"
	base.Tables = append(base.Tables, rel.Tables[0])
	newer := run(t, "new")
	// Without AllowMissing the rest is compared and returned with the
	// error, which names the lost tables.
	c, err := Compare([]*ResultSet{base}, []*ResultSet{newer}, DefaultCompareOptions())
	if !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), "rel.<step> tables only in BASE") {
		t.Fatalf("error %v, want a mismatch naming the lost rel tables", err)
	}
	if c == nil || !slices.Equal(c.Tables, []string{"mrg"}) || !slices.Equal(c.Problems, []string{"rel.<step> tables only in BASE"}) || ExitCode(c, false) != 2 {
		t.Fatalf("comparison %+v, want mrg compared, the lost rel tables as its problem, exit 2", c)
	}
	opt := DefaultCompareOptions()
	opt.AllowMissing = true
	c, err = Compare([]*ResultSet{base}, []*ResultSet{newer}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Tables, []string{"mrg"}) || c.Worst() != LevelWarn {
		t.Errorf("tables %v, worst %v; want mrg compared and a warning", c.Tables, c.Worst())
	}
	found := false
	for _, f := range c.Findings {
		found = found || f.Verdict == VerdictMissing && f.Table == "rel" && strings.Contains(f.Note, "rel.<step> tables only in BASE")
	}
	if !found {
		t.Error("no finding says the rel tables are missing")
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
