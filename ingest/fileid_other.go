//go:build !unix

package ingest

import "io/fs"

// fileID is false where a file's identity is not a device and an inode:
// the caller compares files with os.SameFile instead.
func fileID(fs.FileInfo) (id [2]uint64, ok bool) { return id, false }
