package stats

import "sync"

// floats holds slices for the temporaries of the tests on long series (a
// copy to select in, prefix sums): a step of the insert benchmark has
// tens of thousands of intervals, and each such temporary allocated anew
// is cleared and, as the heap grows, page-faulted in.
var floats = sync.Pool{New: func() any { return new([]float64) }}

// Floats returns a slice of n float64 whose values are unspecified, to be
// handed back with PutFloats when it is no longer used.
func Floats(n int) *[]float64 {
	p := floats.Get().(*[]float64)
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return p
}

// PutFloats hands back a slice from Floats; neither it nor any slice of it
// may be used after.
func PutFloats(p *[]float64) {
	if p != nil {
		floats.Put(p)
	}
}
