//go:build unix

package vector

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps the file at path read-only, shared with every process that
// maps it, and keeps it open: file reads the same bytes (the same file,
// even if another is renamed into its place later); unmap releases the
// mapping and closes the file.
func mapFile(path string) (data []byte, file *os.File, unmap func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	size := fi.Size()
	if size == 0 {
		f.Close()
		return nil, nil, func() {}, nil
	}
	if size != int64(int(size)) {
		f.Close()
		return nil, nil, nil, fmt.Errorf("%s: %d bytes cannot be mapped", path, size)
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	// Searches read a few scattered vectors: no read-ahead around each
	// page they touch (which would also map the neighbouring pages and
	// count them as the process's memory).
	// (x/sys/unix, not syscall, which has no Madvise on macOS.)
	_ = unix.Madvise(data, unix.MADV_RANDOM)
	return data, f, func() { syscall.Munmap(data); f.Close() }, nil
}
