//go:build unix

package cpuclock

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user + system) this process has used, 0
// when the system does not say.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
