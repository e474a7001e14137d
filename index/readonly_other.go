//go:build !unix

package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// unwritableReason opens the file for writing to learn whether it may be
// written (Windows locks belong to a handle: closing this one leaves
// SQLite's alone). A folder that refuses new files is not detected here:
// SQLite then fails at its first write.
func unwritableReason(path string) string {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return fmt.Sprintf("cannot write %q: %v", path, err)
	}
	f.Close()
	return ""
}

// folderWritable reports whether files can be created in dir: not known
// here, so SQLite is let try.
func folderWritable(dir string) bool { return true }
