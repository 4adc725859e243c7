package compat

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
)

// sortTok is a line of a rate list with its text.
type sortTok struct {
	v   float64
	tok string
}

// TestSortDescAsBefore compares descList with sorting every line with its
// text, as `sort -rn` does, on lists with many ties, zeros of both signs
// and header tokens: every position must hold the same text.
func TestSortDescAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 1))
	pool := []float64{0, math.Copysign(0, -1), 1, 1.5, 1000.25, 7, 7, 0.001, 123456789, -1, -2.5}
	for trial := range 500 {
		n := 1 + r.IntN(60)
		if trial%50 == 0 {
			n = 1000 + r.IntN(2000) // long enough for the selection's partitions to matter
		}
		var fast []float64
		var slow []sortTok
		for range n {
			v := pool[r.IntN(len(pool))]
			if r.IntN(4) == 0 {
				v = float64(r.IntN(1000)) / 8
			}
			fast = append(fast, v)
			slow = append(slow, sortTok{v, strconv.FormatFloat(v, 'f', -1, 64)})
		}
		h, has := "", trial%3 == 0
		if has {
			h = []string{"d_ips", "q_ips", "0", "-0", "1", "-", "-1", "00", "", "+"}[r.IntN(10)]
			slow = append(slow, sortTok{0, h})
		}
		l := newDescList(fast, h, has)
		sort.SliceStable(slow, func(i, j int) bool {
			if slow[i].v != slow[j].v {
				return slow[i].v > slow[j].v
			}
			return slow[i].tok > slow[j].tok
		})
		for off := 0; off <= len(slow)+1; off++ {
			want := ""
			if off > 0 {
				want = slow[min(off, len(slow))-1].tok
			}
			if got := l.nth(off); got != want {
				t.Fatalf("trial %d: nth(%d) = %q, sorted with texts %q", trial, off, got, want)
			}
		}
	}
}
