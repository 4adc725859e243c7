package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/report"
)

// perSec halves the rates of a sysbench output's transactions and queries.
var perSec = regexp.MustCompile(`(?m)^(\s*(?:transactions|queries):\s+\d+\s+\()([0-9.]+)( per sec\.\))`)

// sbReleases is an fs of n sysbench DBMS: the fixture's first DBMS as the
// base, then n-1 copies of its second, from the shift-th on at half its
// QPS when shift > 0.
func sbReleases(t *testing.T, n, shift int) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for k := 1; k <= n; k++ {
		src := "x.pg15.c2.pk1"
		if k == 1 {
			src = "x.pg15.c1.pk1"
		}
		ents, err := os.ReadDir(filepath.Join(sysbenchRaw, src))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(sysbenchRaw, src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if shift > 0 && k >= shift && strings.HasPrefix(e.Name(), "sb.o.") {
				b = perSec.ReplaceAllFunc(b, func(l []byte) []byte {
					p := perSec.FindSubmatch(l)
					v, _ := strconv.ParseFloat(string(p[2]), 64)
					return []byte(string(p[1]) + strconv.FormatFloat(v/2, 'f', 2, 64) + string(p[3]))
				})
			}
			m[fmt.Sprintf("x.pg15.r%02d.pk1/%s", k, e.Name())] = &fstest.MapFile{Data: b}
		}
	}
	return m
}

// TestSysbenchReleaseAxis checks that the group charts of a few DBMS are
// bars and those of a series of releases are drawn on the release axis: a
// line per test over the DBMS in order, no taller than a screen.
func TestSysbenchReleaseAxis(t *testing.T) {
	svgHeight := regexp.MustCompile(`<svg width="[0-9.]+pt" height="([0-9.]+)pt"`)
	for _, tc := range []struct {
		n    int
		kind string
	}{{2, "bar"}, {11, "bar"}, {12, "line"}} {
		r := buildFrom(t, sbReleases(t, tc.n, 0), metrics.Options{Device: "vda"}, nil, report.BuildOptions{})
		if r.Sysbench == nil || len(r.Sysbench.Threads) == 0 {
			t.Fatalf("%d DBMS: no sysbench section", tc.n)
		}
		charts := r.Sysbench.Threads[0].GroupCharts
		if len(charts) == 0 {
			t.Fatalf("%d DBMS: no group charts", tc.n)
		}
		for _, c := range charts {
			if c.Kind != tc.kind {
				t.Errorf("%d DBMS: %s is a %s chart, want %s", tc.n, c.ID, c.Kind, tc.kind)
			}
			if c.Kind != "line" {
				continue
			}
			if len(c.XLabels) != tc.n-1 || c.XLabels[0] != "x.pg15.r02.pk1" {
				t.Errorf("%s: release axis %q, want the %d DBMS after the base", c.ID, c.XLabels, tc.n-1)
			}
			if len(c.Series) == 0 || len(c.Series[0].Points) != tc.n-1 {
				t.Errorf("%s: %d lines, first %+v", c.ID, len(c.Series), c.Series)
			}
		}
		page := renderAs(t, r, "html")
		checkHTML(t, page)
		if tc.kind != "line" {
			continue
		}
		// One screen of 768 pixels, less the browser's bars: 700 px.
		for _, m := range svgHeight.FindAllSubmatch(page, -1) {
			if h, _ := strconv.ParseFloat(string(m[1]), 64); h*96/72 > 700 {
				t.Errorf("%d DBMS: a chart %.0f pt tall, more than a screen", tc.n, h)
			}
		}
	}
}

// TestSysbenchReleaseLevels checks that the release axis bands the level of
// a test before and after its QPS halves.
func TestSysbenchReleaseLevels(t *testing.T) {
	r := buildFrom(t, sbReleases(t, 16, 9), metrics.Options{Device: "vda"}, nil, report.BuildOptions{})
	if r.Sysbench == nil || len(r.Sysbench.Threads) == 0 || len(r.Sysbench.Threads[0].GroupCharts) == 0 {
		t.Fatal("no group charts")
	}
	c := r.Sysbench.Threads[0].GroupCharts[0]
	var before, after bool
	for _, l := range c.Levels {
		y := float64(l.Y)
		before = before || float64(l.X1) <= 7 && y > 0.7
		after = after || float64(l.X0) >= 8 && y < 0.7
	}
	if !before || !after {
		t.Errorf("%s: levels %+v, want one before the halving and one lower after it", c.ID, c.Levels)
	}
}
