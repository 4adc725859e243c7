package report

import (
	"math"
	"testing"

	"github.com/ibreport/ibreport/internal/stats"
	"github.com/ibreport/ibreport/metrics"
)

// TestSweepCellBand: the thread-sweep cell is banded by the efficiency,
// not by the ratio: 1.22× at 2 threads is 61% of linear, worse by far.
func TestSweepCellBand(t *testing.T) {
	q := func(v float64) metrics.Value { return metrics.Known(v, metrics.QueriesPerSec) }
	for _, c := range []struct {
		qps, base float64
		nt, n0    int
		text      string
		band      Band
	}{
		{122, 100, 2, 1, "1.22× (0.61)", MuchWorse},
		{198, 100, 2, 1, "1.98× (0.99)", NoBand},
		{180, 100, 2, 1, "1.80× (0.90)", Worse},
		{700, 100, 4, 1, "7.00× (1.75)", MuchBetter},
		{300, 100, 8, 2, "3.00× (0.75)", MuchWorse},
	} {
		got := sbSweepCell(q(c.qps), q(c.base), c.nt, c.n0)
		if got.Text != c.text || got.Band != c.band {
			t.Errorf("%v at %d vs %v at %d: got %q band %v, want %q band %v", c.qps, c.nt, c.base, c.n0, got.Text, got.Band, c.text, c.band)
		}
	}
	if got := sbSweepCell(q(100), metrics.NA(metrics.QueriesPerSec, "no run"), 2, 1); got.Band != NotANumber || got.Text != "NA" {
		t.Errorf("NA base: got %+v", got)
	}
	if e := efficiency(10, 0, 2, 1); !math.IsNaN(e) {
		t.Errorf("efficiency over a 0 base = %v, want NaN", e)
	}
}

// TestSeriesLevels: the levels split at change points, not at a one-release
// dip, each the median of its members.
func TestSeriesLevels(t *testing.T) {
	pts := []Point{{X: 1, Y: 1}, {X: 2, Y: 1.02}, {X: 3, Y: 0.98}, {X: 4, Y: 1.5}, {X: 5, Y: 1.52}, {X: 6, Y: 0.7}, {X: 7, Y: 1.49}}
	got := seriesLevels(pts, []stats.ChangePoint{{Index: 3}, {Index: 5, Single: true}})
	want := []Level{{X0: 1, X1: 3, Y: 1}, {X0: 4, X1: 7, Y: 1.495}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].X0 != want[i].X0 || got[i].X1 != want[i].X1 || math.Abs(float64(got[i].Y-want[i].Y)) > 1e-9 {
			t.Errorf("level %d: got %v, want %v", i, got[i], want[i])
		}
	}
	if l := seriesLevels(pts, []stats.ChangePoint{{Index: 5, Single: true}}); l != nil {
		t.Errorf("only a dip: got %v, want no levels", l)
	}
}
