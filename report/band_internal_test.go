package report

import (
	"math"
	"strconv"
	"testing"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/metrics"
)

// values reads cells as the merged model holds them: numbers, or NA
// (compat: the text as awk reads it).
func values(cells []string, compatMode bool) []metrics.Value {
	var out []metrics.Value
	for _, s := range cells {
		if compatMode {
			out = append(out, compat.CellValue(s, metrics.InsertsPerSec))
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			out = append(out, metrics.NA(metrics.InsertsPerSec, "not a number"))
			continue
		}
		out = append(out, metrics.Known(v, metrics.InsertsPerSec))
	}
	return out
}

func TestQuartileBands(t *testing.T) {
	for _, c := range []struct {
		name    string
		vals    []string
		ignored []bool
		compat  bool
		want    []Band
	}{
		// min 20, max 100: g4 = 20, top from 80, bottom up to 40.
		{"range split", []string{"100", "60", "80", "79", "40", "41", "20"}, nil, false, []Band{Top, NoBand, Top, NoBand, Bottom, NoBand, Bottom}},
		// min 85 ≥ 80% of 100: no red; g4 = 3, top from 97.
		{"80% rule: no red", []string{"100", "85", "97", "96"}, nil, false, []Band{Top, NoBand, Top, NoBand}},
		{"all equal: all green", []string{"5", "5"}, nil, true, []Band{Top, Top}},
		{"ignored is gray and out of the range", []string{"100", "10", "50"}, []bool{false, true, false}, false, []Band{Top, Ignored, Bottom}},
		{"compat: ignored still sets the minimum and can be red", []string{"100", "10", "50"}, []bool{false, true, false}, true, []Band{Top, Bottom, NoBand}},
		{"compat: ignored never green", []string{"100", "99"}, []bool{true, false}, true, []Band{Ignored, Top}},
		{"NA left out", []string{"NA", "100", "10"}, nil, false, []Band{NotANumber, Top, Bottom}},
		{"compat: empty reads as 0", []string{"", "100", "90"}, nil, true, []Band{Bottom, Top, Top}},
		// The original's minimum started at 999999999, so it never saw these.
		{"above the original's ceiling", []string{"2000000000", "1500000000"}, nil, false, []Band{Top, Bottom}},
		{"all ignored", []string{"10", "20"}, []bool{true, true}, false, []Band{Ignored, Ignored}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ign := c.ignored
			if ign == nil {
				ign = make([]bool, len(c.vals))
			}
			got := quartileBands("ips", values(c.vals, c.compat), ign, c.compat)
			for i, w := range c.want {
				if got[i].Band != w {
					t.Errorf("cell %d (%q): band %q, want %q", i, c.vals[i], got[i].Band, w)
				}
			}
		})
	}
}

func TestRelCell(t *testing.T) {
	k := func(x float64) metrics.Value { return metrics.Known(x, metrics.RatioUnit) }
	for _, c := range []struct {
		v    metrics.Value
		d    metrics.Direction
		text string
		band Band
	}{
		{metrics.Ratio(k(0), k(0)), metrics.HigherIsBetter, "1.00", NoBand},
		{k(0.95), metrics.HigherIsBetter, "0.95", NoBand},
		{k(0.9449), metrics.HigherIsBetter, "0.94", Worse},
		{k(0.9451), metrics.HigherIsBetter, "0.95", NoBand},
		{k(1.0549), metrics.HigherIsBetter, "1.05", NoBand},
		{k(1.0551), metrics.HigherIsBetter, "1.06", Better},
		{k(math.Inf(1)), metrics.HigherIsBetter, "inf", MuchBetter},
		{k(math.Inf(1)), metrics.LowerIsBetter, "inf", MuchWorse},
		{k(0.9449), metrics.LowerIsBetter, "0.94", Better},
		{metrics.NA(metrics.RatioUnit, "base: no o.res"), metrics.HigherIsBetter, "NA", NotANumber},
	} {
		got := relCell(c.v, c.d)
		if got.Text != c.text || got.Band != c.band {
			t.Errorf("relCell(%v, %v) = %q %q, want %q %q", c.v.V, c.d, got.Text, got.Band, c.text, c.band)
		}
		if c.v.OK() != (got.NA == "") || got.Unit != "ratio" {
			t.Errorf("relCell(%v): NA %q unit %q", c.v.V, got.NA, got.Unit)
		}
	}
}

// TestRatioBand checks the bands by direction, with the cells that were
// coloured by direction alone: in a relative efficiency table cpupq 0.77
// (less CPU per operation) was yellow like a loss, rss 2.03 blue like a
// gain, and a throughput of 1.10 within noise blue.
func TestRatioBand(t *testing.T) {
	for _, c := range []struct {
		col   string
		r     float64
		noise bool
		want  Band
	}{
		{"cpupq", 0.77, false, MuchBetter}, // 23% less CPU: better, beyond 20%
		{"cpupq", 0.85, false, Better},
		{"cpupq", 0.80, false, Better}, // exactly 20% is not beyond it
		{"cpupq", 0.79, false, MuchBetter},
		{"cpupq", 1.06, false, Worse},
		{"rss", 2.03, false, MuchWorse},
		{"maxop", 1.15, false, Worse},
		{"dbgb1", 0.5, false, MuchBetter},
		{"ips", 1.10, true, NoBand}, // within noise: neutral
		{"ips", 1.10, false, Better},
		{"qps", 1.61, false, MuchBetter},
		{"qps", 0.81, false, Worse},
		{"qps", 0.79, false, MuchWorse},
		{"p99", 0.5, false, MuchWorse},
		{"p99", 0.5, true, NoBand},
		{"ips", 1.05, false, NoBand},
		{"ips", 0.95, false, NoBand},
		{"cpups", 2, false, NoBand}, // a rate per second: neither way is better
		{"wKB/o", 0.07, false, MuchBetter},
		{"o/s", 1.83, false, MuchBetter},
	} {
		one := 1.0
		cell := Cell{Text: "x", Value: &one, Band: ratioBand(c.r, betterOf(c.col))}
		cell.setWithinNoise(c.noise)
		if cell.Band != c.want {
			t.Errorf("%s %.2f (within noise %v): band %q, want %q", c.col, c.r, c.noise, cell.Band, c.want)
		}
		if c.noise && !cell.WithinNoise {
			t.Errorf("%s %.2f: within noise lost", c.col, c.r)
		}
	}
	// Every step and direction has its own marker and class, so that the
	// bands read without colour.
	markers, classes := map[string]Band{}, map[string]Band{}
	for _, b := range []Band{Better, MuchBetter, Worse, MuchWorse} {
		if b.Marker() == "" || b.Class() == "" || b.Meaning() == "" {
			t.Errorf("%s: marker %q class %q meaning %q", b, b.Marker(), b.Class(), b.Meaning())
		}
		if o, ok := markers[b.Marker()]; ok {
			t.Errorf("%s and %s share the marker %s", b, o, b.Marker())
		}
		if o, ok := classes[b.Class()]; ok {
			t.Errorf("%s and %s share the class %s", b, o, b.Class())
		}
		markers[b.Marker()], classes[b.Class()] = b, b
	}
}

func TestRelTextCell(t *testing.T) {
	for in, want := range map[string]struct {
		text string
		band Band
	}{
		"1":    {"1.00", NoBand},
		"0.95": {"0.95", NoBand},
		"0.94": {"0.94", Below},
		"1.05": {"1.05", NoBand},
		"1.06": {"1.06", Above},
		"inf":  {"inf", Above},
		"NA":   {"NA", NotANumber},
		"-nan": {"-nan", NotANumber},
	} {
		if got := relTextCell(in); got.Text != want.text || got.Band != want.band {
			t.Errorf("relTextCell(%q) = %q %q, want %+v", in, got.Text, got.Band, want)
		}
	}
}
