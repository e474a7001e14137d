// Package filelock holds an exclusive lock on a file that the system
// releases when the process ends, however it ends: flock(2) on Unix,
// LockFileEx on Windows.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked is returned by [TryLock] when another holder has the lock.
var ErrLocked = errors.New("the file is locked by another holder")

// TryLock takes the exclusive lock on f without waiting, or returns
// ErrLocked. Two descriptors of one file in one process are two holders.
func TryLock(f *os.File) error { return tryLock(f) }

// Unlock releases the lock on f.
func Unlock(f *os.File) error { return unlock(f) }
