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

// vmstat prints each CPU column (us, sy, id, wa, st) as a whole percent
// rounded to the nearest (procps: (100·ticks + total/2) / total), and the
// columns of one sample share the same 100. Each may be up to 0.5 above its
// true share, so us+sy can print as 101 and the five columns as 102; more
// than that no vmstat prints. gu (procps 4) is left out of the sum: the
// kernel counts guest time in us as well.
const (
	MaxCPUBusy  = 101 // us+sy
	MaxCPUTotal = 102 // us+sy+id+wa+st
)

// MaxUtil is the largest plausible iostat %util. %util is the share of the
// interval the device had I/O in flight, so 100 is the real limit; sysstat
// measures the interval and the busy time at slightly different moments,
// and saturated devices show 100.2 or 100.8. Larger values come from kernels
// that count the busy time of parallel queues more than once (some blk-mq
// releases): that is not a share of the interval, and averaging it would
// shift the step's %util, so such a row is implausible.
const MaxUtil = 101

// PlausibleCPU checks the CPU columns of one vmstat sample against
// MaxCPUBusy and MaxCPUTotal. It returns nil, or an error that says what is
// wrong ("us+sy = 180 is more than 101, ...").
func PlausibleCPU(us, sy, id, wa, st float64) error {
	if busy := us + sy; busy > MaxCPUBusy {
		return fmt.Errorf("us+sy = %s is more than %d, not a percentage of the CPUs", fmtNum(busy), MaxCPUBusy)
	}
	if all := us + sy + id + wa + st; all > MaxCPUTotal {
		return fmt.Errorf("us+sy+id+wa+st = %s is more than %d, not a split of the CPUs' time", fmtNum(all), MaxCPUTotal)
	}
	return nil
}

// PlausibleUtil checks an iostat %util value against MaxUtil.
func PlausibleUtil(v float64) error {
	if err := Plausible(Rate, v); err != nil {
		return err
	}
	if v > MaxUtil {
		return fmt.Errorf("%%util %s is more than %d, not a share of the interval", fmtNum(v), MaxUtil)
	}
	return nil
}
