//go:build linux || darwin

package ingest

import (
	"io/fs"
	"syscall"

	"github.com/oraculo/oraculo/store"
)

// fileStamp is the stamp of a file found as info (see [store.FileStamp]):
// false where the system does not give it.
func fileStamp(info fs.FileInfo) (store.FileStamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return store.FileStamp{}, false
	}
	mod, change := statTimes(st)
	return store.FileStamp{
		Size: st.Size, ModNS: mod.Nano(), ChangeNS: change.Nano(),
		Device: uint64(st.Dev), Inode: st.Ino, // Dev is not a uint64 everywhere
	}, true
}
