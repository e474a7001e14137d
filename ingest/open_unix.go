//go:build unix

package ingest

import (
	"os"
	"syscall"
)

// openNote opens a file for reading without blocking on a named pipe or a
// device: the caller checks what was opened before reading it. A symlink as
// the last element of the path is refused.
func openNote(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
