//go:build unix

package oraculo_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) this process has used,
// for benchmarks on a shared machine where wall time depends on the
// neighbours' load.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
