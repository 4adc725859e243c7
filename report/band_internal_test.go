package report

import (
	"math"
	"strconv"
	"testing"

	"github.com/ibreport/ibreport/internal/compat"
	"github.com/ibreport/ibreport/internal/metrics"
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
		text string
		band Band
	}{
		{metrics.Ratio(k(0), k(0)), "1.00", NoBand},
		{k(0.95), "0.95", NoBand},
		{k(0.9449), "0.94", Below},
		{k(0.9451), "0.95", NoBand},
		{k(1.0549), "1.05", NoBand},
		{k(1.0551), "1.06", Above},
		{k(math.Inf(1)), "inf", Above},
		{metrics.NA(metrics.RatioUnit, "base: no o.res"), "NA", NotANumber},
	} {
		got := relCell(c.v)
		if got.Text != c.text || got.Band != c.band {
			t.Errorf("relCell(%v) = %q %q, want %q %q", c.v.V, got.Text, got.Band, c.text, c.band)
		}
		if c.v.OK() != (got.NA == "") || got.Unit != "ratio" {
			t.Errorf("relCell(%v): NA %q unit %q", c.v.V, got.NA, got.Unit)
		}
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
