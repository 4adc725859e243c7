package metrics

// floors are the magnitudes below which a metric's value is too small to
// compare by ratio: tiny values flap by large percentages, and 0.010 vs
// 0.000 reads per query is no change in what a query costs. They follow the
// printed precision and what is physically meaningful: a context switch per
// 20 operations, 0.1 KiB or 0.01 I/O per operation, a CPU microsecond per
// operation, 50 ms of maximum response time, 1 GiB of database, 0.5 GiB of
// RSS and 1 operation per second. The sysbench names (cpu/o … cs/o) take
// the floors of their insert-benchmark peers, cpu/o that of its printed
// precision (a millionth of a CPU percent per operation).
var floors = map[string]float64{
	"ips": 1, "qps": 1, "p50": 1, "p99": 1,
	"rpq": 0.01, "rkbpq": 0.1, "wpi": 0.01, "wkbpi": 0.1,
	"cspq": 0.05, "cpupq": 1,
	"dbgb1": 1, "dbgb2": 1, "rss": 0.5, "maxop": 0.05,
	"cpu/o": 1e-6, "r/o": 0.01, "rKB/o": 0.1, "wKB/o": 0.1, "cs/o": 0.05,
}

// Floor is the magnitude below which a value of the named metric is too
// small for its ratio to mean anything (package diff ignores a change when
// both values are below it; Attribute cites a metric only when both are at
// or above it). 0 for a metric without a floor.
func Floor(name string) float64 { return floors[name] }
