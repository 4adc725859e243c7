package report

import "testing"

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
			got := quartileBands(c.vals, ign, c.compat)
			for i, w := range c.want {
				if got[i].Band != w {
					t.Errorf("cell %d (%q): band %q, want %q", i, c.vals[i], got[i].Band, w)
				}
			}
		})
	}
}

func TestRelCell(t *testing.T) {
	for in, want := range map[string]Cell{
		"1":    {Text: "1.00"},
		"0.95": {Text: "0.95"},
		"0.94": {Text: "0.94", Band: Below},
		"1.05": {Text: "1.05"},
		"1.06": {Text: "1.06", Band: Above},
		"inf":  {Text: "inf", Band: Above},
		"NA":   {Text: "NA", Band: NotANumber},
		"-nan": {Text: "-nan", Band: NotANumber},
	} {
		if got := relCell(in); got != want {
			t.Errorf("relCell(%q) = %+v, want %+v", in, got, want)
		}
	}
}
