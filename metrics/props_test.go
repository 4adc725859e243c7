package metrics_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ibreport/ibreport/metrics"
	"github.com/ibreport/ibreport/parse"
)

// TestPropsTable checks the invariants of the properties table: a name once,
// the insert benchmark's metrics first and in order, each gate class with
// its direction, and levels and floors that can be compared.
func TestPropsTable(t *testing.T) {
	all := metrics.AllProps()
	seen := map[string]bool{}
	wantBetter := map[string]metrics.Direction{
		"throughput": metrics.HigherIsBetter, "efficiency": metrics.LowerIsBetter, "size": metrics.LowerIsBetter,
		"latency": metrics.LowerIsBetter, "rate": metrics.NoDirection,
	}
	for i, p := range all {
		if p.Name == "" || seen[p.Name] {
			t.Errorf("entry %d: name %q empty or twice", i, p.Name)
		}
		seen[p.Name] = true
		if i < int(metrics.NumMetrics) && (p.Metric != metrics.Metric(i) || p.Sysbench || p.Name != metrics.Metric(i).Name()) {
			t.Errorf("entry %d is %q (metric %v, sysbench %v), want the insert benchmark's %v", i, p.Name, p.Metric, p.Sysbench, metrics.Metric(i))
		}
		if i >= int(metrics.NumMetrics) && (!p.Sysbench || p.Metric < 0 || p.Metric >= metrics.NumMetrics) {
			t.Errorf("%s: sysbench %v, metric %v, want a sysbench column with its insert-benchmark peer", p.Name, p.Sysbench, p.Metric)
		}
		if p.Gate.Class != "" && p.Better != wantBetter[p.Gate.Class] {
			t.Errorf("%s: %s gate with direction %v, want %v", p.Name, p.Gate.Class, p.Better, wantBetter[p.Gate.Class])
		}
		if p.Floor < 0 || p.Gate.Warn < 0 || p.Gate.Fail < p.Gate.Warn || p.Unit == "" || p.Meaning == "" {
			t.Errorf("%s: floor %v, warn %v, fail %v, unit %q, meaning %q", p.Name, p.Floor, p.Gate.Warn, p.Gate.Fail, p.Unit, p.Meaning)
		}
	}
	// The table is a copy: changing it changes nothing.
	all[0].Floor = 99
	if metrics.Floor("ips") != 1 {
		t.Errorf("AllProps returns the table itself")
	}
}

func TestPropsByName(t *testing.T) {
	for _, c := range []struct {
		name     string
		better   metrics.Direction
		floor    float64
		gate     string
		sysbench bool
	}{
		{"ips", metrics.HigherIsBetter, 1, "throughput", false},
		{"p99", metrics.HigherIsBetter, 1, "throughput", false},
		{"cpupq", metrics.LowerIsBetter, 1, "efficiency", false},
		{"cpups", metrics.NoDirection, 0, "rate", false},
		{"rss", metrics.LowerIsBetter, 0.5, "size", false},
		{"maxop", metrics.LowerIsBetter, 0.05, "latency", false},
		{"cpu/o", metrics.LowerIsBetter, 1e-6, "efficiency", true},
		{"cs/o", metrics.LowerIsBetter, 0.05, "efficiency", true},
		{"µs/o", metrics.LowerIsBetter, 1, "", true},
		{"o/s", metrics.HigherIsBetter, 1, "", true},
	} {
		p, err := metrics.PropsByName(c.name)
		if err != nil || p.Name != c.name || p.Better != c.better || p.Floor != c.floor || p.Gate.Class != c.gate || p.Sysbench != c.sysbench {
			t.Errorf("PropsByName(%q) = %+v, %v", c.name, p, err)
		}
		if metrics.Floor(c.name) != c.floor {
			t.Errorf("Floor(%q) = %v, want %v", c.name, metrics.Floor(c.name), c.floor)
		}
	}
	for _, name := range []string{"", "IPS", "pg15.c1", "insn/o"} {
		p, err := metrics.PropsByName(name)
		if err == nil || !strings.Contains(err.Error(), "want one of ips qps") || !strings.Contains(err.Error(), "wKB/o") {
			t.Errorf("PropsByName(%q): error %v, want the names there are", name, err)
		}
		if p.Better != metrics.NoDirection || p.Floor != 0 || p.Gate.Class != "" || p.Name != "" {
			t.Errorf("PropsByName(%q) = %+v, want zero properties", name, p)
		}
		if metrics.Floor(name) != 0 {
			t.Errorf("Floor(%q) = %v, want 0", name, metrics.Floor(name))
		}
	}
	// cpu/o's floor is its last printed digit: the gate leaves it out.
	if p, _ := metrics.PropsByName("cpu/o"); !p.Gate.NoFloor || p.Digits != 6 {
		t.Errorf("cpu/o: gate %+v digits %d, want no floor in the gate and 6 digits", p.Gate, p.Digits)
	}
	var gated []string
	for _, p := range metrics.SysbenchColumns(true) {
		gated = append(gated, p.Name)
	}
	if got := strings.Join(gated, " "); got != "cpu/o cs/o r/o rKB/o wKB/o" {
		t.Errorf("gated sysbench columns %q, want o.met's", got)
	}
}

// TestMetricUnits checks the units the table's placeholders give per step
// kind, and that out-of-range metrics are safe.
func TestMetricUnits(t *testing.T) {
	for _, c := range []struct {
		m    metrics.Metric
		k    parse.StepKind
		want metrics.Unit
	}{
		{metrics.IPS, parse.Load, metrics.InsertsPerSec},
		{metrics.IPS, parse.CreateIndex, metrics.RowsPerSec},
		{metrics.IPS, parse.ReadWriteRange, metrics.InsertsPerSec},
		{metrics.P99, parse.ReadWriteRange, metrics.QueriesPerSec},
		{metrics.P50, parse.CreateIndex, metrics.RowsPerSec},
		{metrics.RPQ, parse.ReadWriteRange, "reads/query"},
		{metrics.RKBPQ, parse.CreateIndex, "KiB/row"},
		{metrics.WKBPI, parse.ReadWriteRange, "KiB/insert"},
		{metrics.CPUPQ, parse.Load, "CPU µs/insert"},
		{metrics.MaxOp, parse.Load, metrics.Seconds},
		{metrics.NumMetrics, parse.Load, metrics.NoUnit},
		{-1, parse.Load, metrics.NoUnit},
	} {
		if got := c.m.Unit(c.k); got != c.want {
			t.Errorf("%v in a %v step: %q, want %q", c.m, c.k, got, c.want)
		}
	}
	if m := metrics.Metric(-1); m.Digits() != 0 || m.Meaning() != "" || m.Props().Name != "" {
		t.Errorf("Metric(-1): digits %d meaning %q props %+v", m.Digits(), m.Meaning(), m.Props())
	}
}

func ExamplePropsByName() {
	p, _ := metrics.PropsByName("cpu/o")
	fmt.Println(p.Name, p.Better, p.Floor, p.Gate.Class, p.Metric)
	_, err := metrics.PropsByName("cpu")
	fmt.Println(err != nil)
	fmt.Println(metrics.CPUPQ.Props().Better, metrics.CPUPS.Props().Better)
	// Output:
	// cpu/o lower 1e-06 efficiency cpupq
	// true
	// lower none
}
