package parse

import (
	"fmt"
	"math"
	"strconv"
)

// A Quantity is what a number read from a file measures. The plausibility
// rules of all readers (and of the tables diff reads) are kept here, in one
// place: a number that breaks its rule is reported where it was read and
// never used.
type Quantity int

// The quantities the benchmark tools print.
const (
	Rate     Quantity = iota // per second: ≥ 0
	Count                    // events, rows, queries: ≥ 0
	Size                     // bytes, KiB, MiB or GiB: ≥ 0
	Latency                  // response times: ≥ 0
	Percent                  // a share of CPU time: 0 to 100
	Duration                 // seconds of a run or a step: ≥ 0, at most MaxDuration
	Ratio                    // a value relative to a base: ≥ 0 (inf is written as text)
)

// Ceiling is the largest magnitude any number of these tools can have:
// larger ones are garbage (1e300 from a broken writer, an overflow).
const Ceiling = 1e15

// MaxDuration is the longest run or step that is plausible: 100 days.
const MaxDuration = 100 * 86400

func (q Quantity) String() string {
	switch q {
	case Rate:
		return "rate"
	case Count:
		return "count"
	case Size:
		return "size"
	case Latency:
		return "latency"
	case Percent:
		return "percentage"
	case Duration:
		return "duration"
	case Ratio:
		return "ratio"
	}
	return "quantity" + strconv.Itoa(int(q))
}

// Plausible checks v against the rule of its quantity. It returns nil, or
// an error that says what is wrong ("-15000 is negative, not a rate").
func Plausible(q Quantity, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%v is not a finite %s", v, q)
	case v < 0:
		return fmt.Errorf("%s is negative, not a %s", fmtNum(v), q)
	case q == Percent && v > 100:
		return fmt.Errorf("%s is more than 100, not a %s", fmtNum(v), q)
	case q == Duration && v > MaxDuration:
		return fmt.Errorf("%s s is longer than %d days, not a %s", fmtNum(v), MaxDuration/86400, q)
	case v > Ceiling:
		return fmt.Errorf("%s is beyond %g, not a %s", fmtNum(v), Ceiling, q)
	}
	return nil
}

// fmtNum prints a number for a message: short, and never 300 digits.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
