package metrics_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

func TestWarningJSON(t *testing.T) {
	for _, c := range []struct {
		w    metrics.Warning
		want string
	}{
		{metrics.Warning{Text: "x"}, `{"kind":"problem","text":"x"}`},
		{metrics.Warning{Kind: metrics.Information, Text: "block device: vda (ibreport.settings)"},
			`{"kind":"info","text":"block device: vda (ibreport.settings)"}`},
		{metrics.Warning{Kind: metrics.NotAvailable, File: "a/o.ib.dop1.1", Line: 3, DBMS: "2m.pg", Step: "l.x", Metric: "p50", Text: "t"},
			`{"kind":"na","file":"a/o.ib.dop1.1","line":3,"dbms":"2m.pg","step":"l.x","metric":"p50","text":"t"}`},
	} {
		b, err := json.Marshal(c.w)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v: %s, %v; want %s", c.w, b, err, c.want)
			continue
		}
		var back metrics.Warning
		if err := json.Unmarshal(b, &back); err != nil || back != c.w {
			t.Errorf("%s read back as %+v, %v", b, back, err)
		}
		if c.w.String() != c.w.Text || c.w.Info() != (c.w.Kind == metrics.Information) {
			t.Errorf("%+v: String %q, Info %v", c.w, c.w.String(), c.w.Info())
		}
	}
	if _, err := json.Marshal(metrics.Warning{Kind: 7}); err == nil {
		t.Error("an unknown kind marshals")
	}
	var k metrics.WarningKind
	if err := k.UnmarshalText([]byte("fatal")); err == nil {
		t.Error("an unknown kind name reads")
	}
}

func TestErrWarning(t *testing.T) {
	se := &parse.SyntaxError{Pos: parse.Pos{File: "l.x/o.vm", Line: 7}, Msg: "bad"}
	for _, c := range []struct {
		err  error
		want metrics.Warning
	}{
		{nil, metrics.Warning{}},
		{se, metrics.Warning{File: "l.x/o.vm", Line: 7, Text: "l.x/o.vm:7: bad"}},
		{fmt.Errorf("reading: %w", se), metrics.Warning{File: "l.x/o.vm", Line: 7, Text: "reading: l.x/o.vm:7: bad"}},
		{&fs.PathError{Op: "open", Path: "l.x/o.res", Err: fs.ErrNotExist}, metrics.Warning{File: "l.x/o.res", Text: "open l.x/o.res: file does not exist"}},
		{fmt.Errorf("plain"), metrics.Warning{Text: "plain"}},
	} {
		if got := metrics.ErrWarning(c.err); got != c.want {
			t.Errorf("%v: %+v, want %+v", c.err, got, c.want)
		}
	}
}

// A step with no files is NA almost everywhere: each NA metric has its
// warning, once, also after ExplainNA runs again on a renamed result.
func TestExplainNA(t *testing.T) {
	r := metrics.Summarize(&parse.StepData{Step: parse.Step{Name: "l.x", MergeName: "l.x"}}, "2m.pg", metrics.Options{})
	check := func(tree string) {
		t.Helper()
		n := 0
		for _, w := range r.Warnings {
			if w.Kind != metrics.NotAvailable {
				continue
			}
			m, ok := metrics.MetricByName(w.Metric)
			if !ok || r.Metrics[m].OK() || w.DBMS != tree || w.Step != "l.x" ||
				w.Text != tree+" l.x: "+m.Name()+" is NA: "+r.Metrics[m].Why {
				t.Errorf("warning %+v", w)
			}
			n++
		}
		na := 0
		for _, v := range r.Metrics {
			if !v.OK() {
				na++
			}
		}
		if n != na || na < int(metrics.NumMetrics)/2 {
			t.Errorf("%d NA warnings, want one per NA metric (%d of %d)", n, na, metrics.NumMetrics)
		}
	}
	check("2m.pg")
	r.Tree = "2m.pg.dop2"
	r.ExplainNA()
	check("2m.pg.dop2")
	var nilStep *metrics.StepResult
	nilStep.ExplainNA()
	if got := metrics.WarningTexts(metrics.TextWarnings([]string{"a", "b"})); strings.Join(got, ",") != "a,b" {
		t.Errorf("texts %q", got)
	}
}
