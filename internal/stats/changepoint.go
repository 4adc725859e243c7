package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// ChangePointOptions set the change-point search of ChangePoints. The zero
// value means the defaults.
type ChangePointOptions struct {
	// MinSegment is the fewest members of a level found by the level
	// search: no level shift leaves fewer on either side. Default 2, the
	// least the thresholds are calibrated for; a level of one member is a
	// dip or spike (Single), found by its own test.
	MinSegment int
	// Resolution is the unit of the last printed digit of the members (1
	// for integer-printed rates), 0 when they were not printed. A series
	// whose members span at most one unit is flat, and a level shift of
	// at most one unit between the medians of its levels is no change:
	// printing alone can move a member that far.
	Resolution float64
}

// DefaultMinSegment is the default of ChangePointOptions.MinSegment.
const DefaultMinSegment = 2

// WithDefaults fills in the options left zero.
func (o ChangePointOptions) WithDefaults() ChangePointOptions {
	if o.MinSegment < DefaultMinSegment {
		o.MinSegment = DefaultMinSegment
	}
	return o
}

// MinMembers is the shortest series searched: two levels of MinSegment
// members each, 4 with the defaults. A one-member dip needs
// SingleNeighbours members on either side, 5 in all.
func (o ChangePointOptions) MinMembers() int { return 2 * o.WithDefaults().MinSegment }

// SingleNeighbours is how many members on either side of a one-member
// dip or spike it is judged against: they must agree with each other and
// the member must be far from both.
const SingleNeighbours = 2

// The false-alarm rates the thresholds are calibrated for by simulation
// of flat series, per number of members: a level shift in FalseAlarmLevel
// of flat series of Gaussian noise; a one-member dip or spike in at most
// FalseAlarmSingle of them and at most FalseAlarmSingleT3 of series of
// Student-t(3) noise (a run far off now and then), whichever threshold is
// higher. The heavy-tailed case sets it: one far-off run in such noise
// cannot be told from a real one-release dip, and Otava's own rate on
// such series (3–7%) is the budget.
const (
	FalseAlarmLevel    = 0.015
	FalseAlarmArc      = 0.002
	FalseAlarmSingle   = 0.004
	FalseAlarmSingleT3 = 0.01
)

// ChangePoint is a member of a series at which its level shifted.
type ChangePoint struct {
	// Index is the first member of the new level, an index into the series
	// given (missing members included).
	Index int
	// Single is set when the new level is this member alone: a dip or a
	// spike of one release that the next member left again (to the level
	// before, or to the next level when a change point follows it).
	Single bool
	// Before and After are the levels on either side: the medians of the
	// members from the previous change point (or the start) to this one,
	// and from this one to the next (or the end), one-member levels left
	// out; for a Single, After is the member's value.
	Before, After float64
	// Shift is After/Before − 1 (+0.12 for 12% higher); NaN when Before is 0.
	Shift float64
	// P is the two-sided p-value of Student's t-test (pooled variance)
	// between the levels on either side; for a Single, of the member
	// against the level it sits in (a prediction test, with the pooled
	// spread of all levels). It describes the final levels; the search
	// itself uses calibrated thresholds (see ChangePoints).
	P float64
	// Stat is the search statistic that kept it: the t of the split for
	// a level shift, the distance from its neighbours in units of the
	// series' noise for a Single.
	Stat float64
}

// ChangePoints finds the members of a series at which its level shifted.
// It is circular binary segmentation (Olshen et al., Biostatistics 2004)
// with thresholds calibrated by simulation, preceded by a test for
// one-member dips and spikes; it answers the same question as Apache Otava
// (E-divisive means located, Student's t-test judged: Fleming et al., ICPE
// 2023) and is compared with Otava's own algorithm on seeded series in the
// tests (otava_test.go re-implements it).
//
//  1. One-member levels. A member whose two neighbours on either side
//     (SingleNeighbours) both lie on the same side of it, at more than
//     c(n)·σ from the mean of each pair, is a level of its own (Single):
//     a release that regressed and the next repaired, or a run that went
//     wrong. σ is the root mean square of the successive differences
//     without those touching the member or crossing a level shift
//     (singleScale). The farthest is taken first and the test repeated
//     without it; it runs again once the level shifts are known. c(n) is
//     calibrated on flat series of n members (see FalseAlarmSingle): on
//     seeded series a −25% member at 2% noise is found 0.59–0.72 of the
//     time at 10–20 members, a −15% one only 0.04–0.17, the price of not
//     calling far-off runs of heavy-tailed noise dips (Otava finds
//     neither: it tests a one-member level as part of a longer one).
//  2. Level shifts, without the one-member levels. In a segment of m
//     members E-divisive means (α = 1, as Otava) locates the split, and
//     the two-sample t (pooled sample variance) of the members before it
//     against those after judges it; every part has at least MinSegment
//     members.
//     The split is kept when |t| exceeds the critical value for m
//     members, calibrated so that flat Gaussian series of m members pass
//     with probability FalseAlarmLevel; when E-divisive located a stretch
//     in the middle and the split fails, the stretch against the members
//     outside it is tried at its own threshold (FalseAlarmArc), so that a
//     level between two others is found. Each part is searched again.
//
// Where it differs from Otava, and why:
//   - Otava keeps a split when its t-test gives p ≤ 0.001, whatever the
//     number of members, so its false alarms vary with the length of the
//     series (1.8–3.6% on flat Gaussian series of 8–35, 3.2–6.9% with
//     Student-t(3) noise, in the tests); here the threshold is calibrated
//     per number of members (1.4–2.0% and 2.4–5.2% on the same series).
//   - Otava passes population standard deviations (numpy's default) to a
//     test that expects sample ones, which shrinks the spread and makes
//     short levels look significant; this uses sample deviations.
//   - Otava tests a candidate split of an interval as the whole interval
//     cut in two, even when E-divisive located it as the start of a
//     stretch in the middle; it stops at the first candidate that fails,
//     and its 0.01 first pass over 50-member windows is pruned by a merge
//     at 0.001. Here the split tested is the one located (single or arc),
//     every segment is searched on its own, and there is no merge: the
//     calibration already accounts for the number of splits.
//   - Otava lets either part be a single member, judged by the same
//     t-test, so one odd run can make a change point, and one far-off run
//     inflates the spread of its level enough to hide a real shift next
//     to it; here a single member is a level only when its neighbours on
//     both sides agree and it is far from both, and it is left out of the
//     level search.
//   - A single member at either end is never a level here (nothing after
//     it to say the level returned or stayed): the newest release alone
//     cannot be told from a noisy run until the next one.
//
// Members that are NaN or infinite are left out and cannot be change
// points. There is no randomness: a series always gives the same change
// points. Significant means the levels differ by more than the noise
// explains, not that the shift matters: read Shift.
func ChangePoints(y []float64, opt ChangePointOptions) []ChangePoint {
	opt = opt.WithDefaults()
	var idx []int
	var x []float64
	for i, v := range y {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			idx = append(idx, i)
			x = append(x, v)
		}
	}
	if len(x) < opt.MinMembers() || flat(x, opt.Resolution) {
		return nil
	}
	// Singles, then levels without them; then singles again with the
	// differences across the levels found left out of the noise (a shift
	// no longer hides a dip next to it), and levels again if that found
	// more.
	single, z := make([]bool, len(x)), make([]float64, len(x))
	atCut := make([]bool, len(x))
	singles(x, single, atCut, z)
	type cut struct {
		at int // in lx
		t  float64
	}
	var pos []int // positions in x of the members searched for levels
	var lx []float64
	var cuts []cut
	levels := func() {
		pos, lx, cuts = nil, nil, nil
		for i, v := range x {
			if !single[i] {
				pos = append(pos, i)
				lx = append(lx, v)
			}
		}
		var search func(lo, hi int)
		search = func(lo, hi int) {
			a, k, ts, ta := bestCut(lx[lo:hi], opt.MinSegment)
			switch {
			case a < 0:
			case ts > levelCrit(hi-lo):
				cuts = append(cuts, cut{lo + a, ts})
				search(lo, lo+a)
				search(lo+a, hi)
			case ta > crit(arcCritTable, hi-lo):
				// A stretch in the middle at a level of its own.
				cuts = append(cuts, cut{lo + a, ta}, cut{lo + k, ta})
				search(lo, lo+a)
				search(lo+a, lo+k)
				search(lo+k, hi)
			}
		}
		search(0, len(lx))
	}
	levels()
	for _, c := range cuts {
		atCut[pos[c.at]] = true
	}
	before := slices.Clone(single)
	singles(x, single, atCut, z)
	if !slices.Equal(before, single) {
		levels()
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	// The levels: lx between cuts, and the pooled spread of all of them
	// for the singles' p-values.
	bounds := []int{0}
	for _, c := range cuts {
		bounds = append(bounds, c.at)
	}
	bounds = append(bounds, len(lx))
	ss, df := 0.0, 0
	for k := 0; k+1 < len(bounds); k++ {
		part := lx[bounds[k]:bounds[k+1]]
		if _, v := stat.MeanVariance(part, nil); len(part) > 1 {
			ss += v * float64(len(part)-1)
			df += len(part) - 1
		}
	}
	var out []ChangePoint
	for k, c := range cuts {
		before, after := lx[bounds[k]:bounds[k+1]], lx[bounds[k+1]:bounds[k+2]]
		cp := ChangePoint{Index: idx[pos[c.at]], Before: MedianUnsorted(before), After: MedianUnsorted(after), P: tTestP(before, after), Stat: c.t}
		out = append(out, cp)
	}
	for i, s := range single {
		if !s {
			continue
		}
		// The level it sits in: the one holding the next member searched
		// (there is one: a single is never last).
		next, _ := slices.BinarySearch(pos, i)
		k, _ := slices.BinarySearch(bounds, next+1)
		level := lx[bounds[k-1]:bounds[k]]
		cp := ChangePoint{Index: idx[i], Single: true, Before: MedianUnsorted(level), After: x[i], P: 1, Stat: z[i]}
		if next > 0 && next == bounds[k-1] {
			// A level shift right after it: the single interrupts the level
			// before, which it is judged against.
			level = lx[bounds[k-2]:bounds[k-1]]
			cp.Before = MedianUnsorted(level)
		}
		if df > 0 {
			mean := stat.Mean(level, nil)
			se := math.Sqrt(ss / float64(df) * (1 + 1/float64(len(level))))
			cp.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Survival(math.Abs(x[i]-mean)/se)
		}
		out = append(out, cp)
	}
	for i := range out {
		out[i].Shift = math.NaN()
		if out[i].Before != 0 {
			out[i].Shift = out[i].After/out[i].Before - 1
		}
	}
	if opt.Resolution > 0 {
		out = slices.DeleteFunc(out, func(c ChangePoint) bool {
			return math.Abs(c.After-c.Before) <= opt.Resolution*(1+1e-9)
		})
	}
	slices.SortFunc(out, func(a, b ChangePoint) int { return a.Index - b.Index })
	return out
}

// flat reports whether the members of x span at most the resolution, or,
// without one, differ only in the last bits of their float64 values (the
// same quotient computed along two paths): the t statistics of such a
// series are ratios of rounding errors, not of levels.
func flat(x []float64, resolution float64) bool {
	lo, hi := slices.Min(x), slices.Max(x)
	tol := 1e-9 * math.Max(math.Abs(lo), math.Abs(hi))
	if resolution > 0 {
		tol = math.Max(tol, resolution*(1+1e-9))
	}
	return hi-lo <= tol
}

// singles marks the one-member levels of x (step 1 of ChangePoints) in
// marked, with each one's distance from its neighbours in units of the
// noise in z; cut marks the members at which a level shift found starts.
// The farthest member is taken first and the others judged again without
// it, so that two dips are two singles and neither hides the other.
func singles(x []float64, marked, cut []bool, z []float64) {
	crit := singleCrit(len(x))
	for {
		best, top := -1, crit
		for i := range x {
			if marked[i] {
				continue
			}
			if d := singleZ(x, marked, cut, i); d > top {
				best, top = i, d
			}
		}
		if best < 0 {
			return
		}
		marked[best], z[best] = true, top
	}
}

// singleZ is how far x[i] lies from the means of its SingleNeighbours
// nearest unmarked members on either side, on the same side of both, in
// units of the noise (singleScale): the nearer of the two distances; 0
// when it lies between them or lacks neighbours.
func singleZ(x []float64, marked, cut []bool, i int) float64 {
	side := func(step int) (float64, bool) {
		sum, k := 0.0, 0
		for j := i + step; j >= 0 && j < len(x) && k < SingleNeighbours; j += step {
			if !marked[j] {
				sum += x[j]
				k++
			}
		}
		return sum / float64(k), k == SingleNeighbours
	}
	l, okL := side(-1)
	r, okR := side(1)
	if !okL || !okR {
		return 0
	}
	dl, dr := x[i]-l, x[i]-r
	if dl*dr <= 0 {
		return 0
	}
	sigma := singleScale(x, marked, cut, i)
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return 0
	}
	return min(math.Abs(dl), math.Abs(dr)) / sigma
}

// singleScale is the noise σ a candidate single x[i] is judged against:
// the root mean square of the successive differences of the unmarked
// members, over √2, leaving out the two that touch x[i] (its own dip
// would inflate it) and those across a level shift found (cut[j]: a level
// starts at x[j]). A root mean square rather than a median: heavy-tailed
// noise (a run far off now and then) shows in it and raises the bar,
// where a median would ignore it and call every far-off run a dip. NaN
// with fewer than two differences left.
func singleScale(x []float64, marked, cut []bool, i int) float64 {
	sum, k := 0.0, 0
	prev := -1
	across := false
	for j := range x {
		across = across || cut[j]
		if marked[j] {
			continue
		}
		if prev >= 0 && prev != i && j != i && !across {
			d := x[j] - x[prev]
			sum += d * d
			k++
		}
		prev, across = j, false
	}
	if k < 2 {
		return math.NaN()
	}
	return math.Sqrt(sum / float64(k) / 2)
}

// bestCut locates the split of x by E-divisive means (bestSplit): the
// first member a of a part and the end k of that part (k < len(x) for a
// stretch in the middle). It returns the two-sample t (pooled variance,
// as |t|) of the members before a against all those after (ts), and, when
// the stretch ends at least min members before the end, of the stretch
// [a, k) against the members outside it (ta; 0 otherwise). With
// w = j(m−j)/m for a part of j of the m members and Δ the difference of
// the means, t² = (m−2)·wΔ² / (SS − wΔ²), SS the sum of squares about the
// mean. a is −1 when x is too short or flat.
func bestCut(x []float64, min int) (a, k int, ts, ta float64) {
	m := len(x)
	a, k, _ = bestSplit(x, min)
	if a < 0 {
		return -1, -1, 0, 0
	}
	mean := stat.Mean(x, nil)
	s := make([]float64, m+1) // prefix sums of the centred members
	ss := 0.0
	for i, v := range x {
		s[i+1] = s[i] + (v - mean)
		ss += (v - mean) * (v - mean)
	}
	if !(ss > 0) || math.IsInf(ss, 0) {
		return -1, -1, 0, 0
	}
	fm := float64(m)
	t := func(lo, hi int) float64 {
		j := float64(hi - lo)
		sum := s[hi] - s[lo]
		d := sum/j + sum/(fm-j)
		w := j * (fm - j) / fm * d * d
		if w >= ss {
			return math.Inf(1)
		}
		return math.Sqrt((fm - 2) * w / (ss - w))
	}
	ts = t(a, m)
	if k < m && m-k >= min {
		ta = t(a, k)
	}
	return a, k, ts, ta
}

// bestSplit returns the split τ of x (the first member of the second part)
// with the largest E-statistic
//
//	Q(τ,κ) = m·k/(m+k) · (2/(m·k) Σ|a−b| − 1/C(m,2) Σ|a−a'| − 1/C(k,2) Σ|b−b'|)
//
// of the members a = x[0:τ] (m of them) and b = x[τ:κ] (k), at least min
// each, over every κ: as in Matteson and James, the second part may stop
// before the end, so that a level between two others (a release that was
// faster than those before and after it) is found. It returns that
// statistic and κ; τ is −1 when x is too short. Sums of distances over any
// two ranges come from a prefix-sum table, so the search is O(len(x)²).
func bestSplit(x []float64, min int) (int, int, float64) {
	n := len(x)
	if n < 2*min {
		return -1, -1, 0
	}
	// p[i][j] = Σ_{a<i, b<j} |x_a − x_b|, stored row-major with stride n+1.
	w := n + 1
	p := make([]float64, w*w)
	for i := 1; i <= n; i++ {
		row := 0.0
		for j := 1; j <= n; j++ {
			row += math.Abs(x[i-1] - x[j-1])
			p[i*w+j] = p[(i-1)*w+j] + row
		}
	}
	sum := func(a0, a1, b0, b1 int) float64 {
		return p[a1*w+b1] - p[a0*w+b1] - p[a1*w+b0] + p[a0*w+b0]
	}
	at, end, top := -1, -1, math.Inf(-1)
	for t := min; t <= n-min; t++ {
		m := float64(t)
		withinA := sum(0, t, 0, t) / (m * (m - 1))
		for e := t + min; e <= n; e++ {
			k := float64(e - t)
			between := 2 * sum(0, t, t, e) / (m * k)
			q := m * k / (m + k) * (between - withinA - sum(t, e, t, e)/(k*(k-1)))
			if q > top {
				at, end, top = t, e, q
			}
		}
	}
	return at, end, top
}

// levelCrit is the critical |t| of the level search for a segment of m
// members: the 1 − FalseAlarmLevel quantile of bestArc's t on flat
// Gaussian series of m members (levelCritTable, from TestCritTables). Past
// the table the per-split p-value of its last entry is divided by
// (m/last)², the growth of the number of arcs: conservative.
func levelCrit(m int) float64 { return crit(levelCritTable, m) }

// crit is the critical t of table (levelCritTable, arcCritTable) for m
// members, extrapolated past its end as levelCrit says.
func crit(table []float64, m int) float64 {
	if m < len(table)+4 {
		if m < 4 {
			return math.Inf(1)
		}
		return table[m-4]
	}
	last := len(table) + 3
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(last - 2)}
	p := 2 * st.Survival(table[len(table)-1])
	p *= float64(last*last) / float64(m*m)
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m - 2)}.Quantile(1 - p/2)
}

// singleCrit is the critical distance of the one-member test for a series
// of n members: the 1 − FalseAlarmSingle quantile of the largest
// singleZ on flat Gaussian series of n members (singleCritTable, from
// TestCritTables); past the table, that of its last entry.
func singleCrit(n int) float64 {
	if n < 2*SingleNeighbours+1 {
		return math.Inf(1)
	}
	return singleCritTable[min(n-(2*SingleNeighbours+1), len(singleCritTable)-1)]
}

// tTestP is the two-sided p-value of Student's t-test of the means of a
// and b with pooled variance (one benchmark's noise is about the same in
// every release; pooling gives the short part at either end of a series
// the degrees of freedom of both): 0 when neither has spread and they
// differ, 1 when the means are equal.
func tTestP(a, b []float64) float64 {
	na, nb := float64(len(a)), float64(len(b))
	if na+nb < 3 || na == 0 || nb == 0 {
		return 1
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	if na == 1 {
		va = 0
	}
	if nb == 1 {
		vb = 0
	}
	df := na + nb - 2
	pooled := ((na-1)*va + (nb-1)*vb) / df
	se := math.Sqrt(pooled * (1/na + 1/nb))
	switch {
	case ma == mb:
		return 1
	case se == 0:
		return 0
	}
	t := math.Abs(ma-mb) / se
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
}

// MedianUnsorted is the median of x, taken on a sorted copy (x is left
// as it is): the middle value, or the mean of the two middle ones; NaN
// for none.
func MedianUnsorted(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return Median(s)
}

// String prints a change point for logs and tests.
func (c ChangePoint) String() string {
	one := ""
	if c.Single {
		one = " (one member)"
	}
	return fmt.Sprintf("at %d%s: %.4g → %.4g (%+.1f%%, p=%.3f)", c.Index, one, c.Before, c.After, 100*c.Shift, c.P)
}
