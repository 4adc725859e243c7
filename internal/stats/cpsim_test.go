package stats

import (
	"math"
	"math/rand/v2"
)

// cpNoise draws one member's relative noise: Gaussian, or Student's t with
// 3 degrees of freedom (heavy tails: a run now and then far off) scaled to
// the same standard deviation.
func cpNoise(rng *rand.Rand, t3 bool) float64 {
	z := rng.NormFloat64()
	if !t3 {
		return z
	}
	a, b, c := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	return z / math.Sqrt((a*a+b*b+c*c)/3) / math.Sqrt(3)
}

// cpSeries is a seeded series of n members around 1000 with relative noise
// sd; level shifts multiply the level from member at[i] on by 1+shift[i],
// and outliers multiply the single member out[i] by 1+outShift[i].
type cpCase struct {
	n        int
	sd       float64
	t3       bool
	at       []int
	shift    []float64
	out      []int
	outShift []float64
}

func (c cpCase) draw(rng *rand.Rand) []float64 {
	y := make([]float64, c.n)
	level := 1000.0
	for i := range y {
		for j, a := range c.at {
			if i == a {
				level *= 1 + c.shift[j]
			}
		}
		y[i] = level * (1 + c.sd*cpNoise(rng, c.t3))
		for j, o := range c.out {
			if i == o {
				y[i] *= 1 + c.outShift[j]
			}
		}
	}
	return y
}
