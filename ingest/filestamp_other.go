//go:build !linux && !darwin

package ingest

import (
	"io/fs"

	"github.com/oraculo/oraculo/store"
)

// fileStamp is false where the file's change time is not read: every
// file is read and its content hash compared.
func fileStamp(fs.FileInfo) (store.FileStamp, bool) { return store.FileStamp{}, false }
