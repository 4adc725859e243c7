package chart

import (
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestDecimateKeepsSpikes(t *testing.T) {
	xy := make(plotter.XYs, 100000)
	for i := range xy {
		xy[i] = plotter.XY{X: float64(i), Y: float64(i % 7)}
	}
	xy[54321].Y = 1000 // one spike
	xy[777].Y = -5     // one dip
	got := decimate(xy)
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
	if short := xy[:10]; len(decimate(short)) != 10 {
		t.Error("a short line changed")
	}
}
