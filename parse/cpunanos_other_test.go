//go:build !unix

package parse

// cpuNanos is 0 where the process's CPU time is not asked for here: the
// benchmarks' cpu-ns/op is then 0, their wall time stands.
func cpuNanos() int64 { return 0 }
