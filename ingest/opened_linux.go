//go:build linux

package ingest

import (
	"os"
	"strconv"
	"strings"
)

// openedPath is the path the system says file was opened at, every
// symlink resolved: false when it cannot tell (no /proc, a file since
// removed).
func openedPath(file *os.File) (string, bool) {
	rc, err := file.SyscallConn()
	if err != nil {
		return "", false
	}
	var p string
	cerr := rc.Control(func(fd uintptr) {
		p, err = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	})
	if cerr != nil || err != nil || !strings.HasPrefix(p, "/") || strings.HasSuffix(p, " (deleted)") {
		return "", false
	}
	return p, true
}
