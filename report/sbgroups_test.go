package report_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// sbList is a DBMS list of the nov25.sb.mysql/dop1 builds: short names
// (my5651, ...) stand for x.<name>_rel_o2nofp.z12a_c8r32.pk1, "-" for a
// group break.
func sbList(names ...string) []report.Entry {
	var out []report.Entry
	for _, n := range names {
		if n == "-" {
			out = append(out, report.Entry{Break: true})
			continue
		}
		out = append(out, report.Entry{Name: "x." + n + "_rel_o2nofp.z12a_c8r32.pk1"})
	}
	return out
}

// sbTablesOf loads the archive with a list and returns its summaries by
// name.
func sbTablesOf(t *testing.T, compat bool, list []report.Entry) map[string][]byte {
	t.Helper()
	res, _, err := report.LoadFS(os.DirFS("../testdata/arc/nov25.sb.mysql/dop1"), "test",
		report.LoadOptions{Metrics: metrics.Options{Cores: 8, Compat: compat}, List: list, Sysbench: report.SysbenchOptions{Tag: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := res.Tables(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	return out
}

// TestSysbenchGroups splits a sysbench list in two groups: each group's
// summaries (tag <tag>.g<N>) are those of the group listed alone, and
// differ from the ungrouped list's where the base changed; the report's
// relative table compares each DBMS with its group's base.
func TestSysbenchGroups(t *testing.T) {
	grouped := sbList("my5651", "my5744", "-", "my8043", "my8044", "my8406")
	for _, compat := range []bool{true, false} {
		got := sbTablesOf(t, compat, grouped)
		whole := sbTablesOf(t, compat, sbList("my5651", "my5744", "my8043", "my8044", "my8406"))
		for g, alone := range map[string][]report.Entry{
			"t.g1": sbList("my5651", "my5744"),
			"t.g2": sbList("my8043", "my8044", "my8406"),
		} {
			want := sbTablesOf(t, compat, alone)
			for _, k := range []string{"qps.abs.%s.tsv", "qps.rel.%s.tsv", "qps.rel.%s.csv", "o.met.%s.dop1", "sum.%s", "o.qps.rel.%s"} {
				gn, wn := strings.Replace(k, "%s", g, 1), strings.Replace(k, "%s", "t", 1)
				if len(want[wn]) == 0 || !bytes.Equal(got[gn], want[wn]) {
					t.Errorf("compat %v: %s differs from %s of the group alone (%d and %d bytes)", compat, gn, wn, len(got[gn]), len(want[wn]))
				}
			}
		}
		if bytes.Equal(got["qps.rel.t.g2.tsv"], whole["qps.rel.t.tsv"]) {
			t.Errorf("compat %v: the second group's relative QPS is that of the whole list", compat)
		}
		if _, ok := got["qps.rel.t.tsv"]; ok {
			t.Errorf("compat %v: a grouped list wrote the ungrouped qps.rel.t.tsv", compat)
		}
		for _, d := range []string{"my5651", "my8406"} {
			n := "x." + d + "_rel_o2nofp.z12a_c8r32.pk1/sb.met.point-query.range100.pk1.dop1"
			if !bytes.Equal(got[n], whole[n]) {
				t.Errorf("compat %v: %s differs (%d and %d bytes)", compat, n, len(got[n]), len(whole[n]))
			}
		}
	}

	// The report: my8044 relative to my8043, not to my5651.
	res, _, err := report.LoadFS(os.DirFS("../testdata/arc/nov25.sb.mysql/dop1"), "test",
		report.LoadOptions{Metrics: metrics.Options{Cores: 8}, List: grouped})
	r := built(t, res, err, report.BuildOptions{})
	sb := r.Sysbench
	if strings.Join(sb.Bases, " ") != "x.my5651_rel_o2nofp.z12a_c8r32.pk1 x.my8043_rel_o2nofp.z12a_c8r32.pk1" {
		t.Errorf("bases %q", sb.Bases)
	}
	rel := sb.Threads[0].Relative
	if got := strings.Join(rel.Header, " "); got != "test x.my5744_rel_o2nofp.z12a_c8r32.pk1 x.my8044_rel_o2nofp.z12a_c8r32.pk1 x.my8406_rel_o2nofp.z12a_c8r32.pk1" {
		t.Fatalf("relative header %q", got)
	}
	var abs *report.Table
	for _, x := range sb.Threads[0].Absolute {
		if strings.HasSuffix(x.ID, ".abs.qps") {
			abs = x
		}
	}
	col := map[string]int{}
	for i, h := range abs.Header {
		col[h] = i
	}
	checked := 0
	for i, row := range rel.Rows {
		a := abs.Rows[i]
		q := func(n string) float64 { return num(t, a.Cells[col["x."+n+"_rel_o2nofp.z12a_c8r32.pk1"]].Text) }
		if q("my8043") < 100 {
			continue // too few digits for a ratio to two decimals
		}
		want := q("my8044") / q("my8043")
		if g := num(t, row.Cells[2].Text); g < want-0.006 || g > want+0.006 {
			t.Errorf("%s: my8044 relative %v, want %.3f (over my8043)", row.Cells[0].Text, g, want)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("%d tests checked", checked)
	}
	// The findings compare my8044 with my8043.
	found := false
	for _, b := range r.Bullets {
		if strings.Contains(b.DBMS, "my8044") {
			found = true
			if !strings.Contains(b.Base, "my8043") {
				t.Errorf("finding compares my8044 with %s", b.Base)
			}
		}
	}
	if !found {
		t.Error("no finding about my8044")
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
