//go:build unix

package parse

import "syscall"

// cpuNanos is the CPU time (user and system) of the process so far: on a
// machine shared with other work, the benchmarks report it per operation
// (cpu-ns/op) beside the wall time, which waits for the CPU too.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
