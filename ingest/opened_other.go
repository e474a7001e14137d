//go:build !linux

package ingest

import "os"

// openedPath is false where the system does not say the path a file was
// opened at: the caller resolves the name it opened instead.
func openedPath(*os.File) (string, bool) { return "", false }
