package chart

import (
	"math"
	"testing"
)

func TestDecimateKeepsSpikes(t *testing.T) {
	l := make([]xy, 100000)
	for i := range l {
		l[i] = xy{X: float64(i), Y: float64(i % 7)}
	}
	l[54321].Y = 1000 // one spike
	l[777].Y = -5     // one dip
	got := decimate(l)
	if len(got) > 1200 {
		t.Fatalf("%d points, want at most 1200", len(got))
	}
	var spike, dip bool
	for i, p := range got {
		spike = spike || p.Y == 1000
		dip = dip || p.Y == -5
		if i > 0 && got[i-1].X >= p.X {
			t.Fatalf("points out of order at %d", i)
		}
	}
	if !spike || !dip {
		t.Errorf("spike kept %v, dip kept %v", spike, dip)
	}
	if short := l[:10]; len(decimate(short)) != 10 {
		t.Error("a short line changed")
	}
}

func TestYRange(t *testing.T) {
	for _, c := range []struct{ lo, hi, ref, wlo, whi float64 }{
		{100, 200, 0, 0, 210},           // rates from 0
		{0.96, 1.01, 1, 0.9, 1.1},       // at least ±10% around the reference: 4% is no cliff
		{1.2, 1.4, 1, 0.9, 1.4 + 0.032}, // the reference is on the axis
		{1, 1, 1, 0.9, 1.1},             // a flat line gets an axis
		{0.3, 1, 1, 0.3 - 0.056, 1.1},   // a fall of 70% keeps its padding
		{math.NaN(), 1, 1, 0, 1.1},      // no data: from 0
	} {
		lo, hi := yRange(c.lo, c.hi, c.ref)
		if math.Abs(lo-c.wlo) > 1e-9 || math.Abs(hi-c.whi) > 1e-9 {
			t.Errorf("yRange(%v, %v, %v) = %v, %v, want %v, %v", c.lo, c.hi, c.ref, lo, hi, c.wlo, c.whi)
		}
	}
}

func TestHidden(t *testing.T) {
	a := []xy{{X: 1, Y: 10}, {X: 2, Y: 20}}
	if !hidden([][]xy{a}, []xy{{X: 1, Y: 10}, {X: 2, Y: 20}}) {
		t.Error("an identical line is not found hidden")
	}
	if hidden([][]xy{a}, []xy{{X: 1, Y: 10}, {X: 2, Y: 21}}) {
		t.Error("a different line is found hidden")
	}
	if hidden(nil, a) {
		t.Error("the first line is found hidden")
	}
}

func TestPaletteDistinct(t *testing.T) {
	if len(palette) < 12 {
		t.Fatalf("%d colours, want at least 12", len(palette))
	}
	for i := range palette {
		for j := range i {
			if palette[i] == palette[j] {
				t.Errorf("colours %d and %d are the same", j, i)
			}
		}
	}
}
