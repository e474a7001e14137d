//go:build unix

package index

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
)

// unwritableReason asks the system whether the file and its folder may be
// written, without opening the file: closing a descriptor of a database
// file drops every POSIX lock this process holds on it, SQLite's among
// them. access(2) answers EROFS on a read-only mount even for root.
func unwritableReason(path string) string {
	const wOK = 0x2 // W_OK
	if err := syscall.Access(path, wOK); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return why(path, err)
	}
	dir := filepath.Dir(path)
	if err := syscall.Access(dir, wOK); err != nil {
		return why(dir, err)
	}
	return ""
}

// folderWritable reports whether files can be created in dir.
func folderWritable(dir string) bool {
	const wOK = 0x2 // W_OK
	return syscall.Access(dir, wOK) == nil
}

func why(path string, err error) string {
	if errors.Is(err, syscall.EROFS) {
		return "it is on a read-only file system"
	}
	return fmt.Sprintf("cannot write %q: %v", path, err)
}
