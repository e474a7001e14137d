//go:build unix

package ingest

import (
	"io/fs"
	"syscall"
)

// fileID is the device and inode of a file found as info: the same for
// every path to the file, hard links included.
func fileID(info fs.FileInfo) (id [2]uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return id, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, true // their types differ between systems
}
