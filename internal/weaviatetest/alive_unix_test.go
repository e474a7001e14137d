//go:build unix

package weaviatetest

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the given id exists.
func processAlive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
