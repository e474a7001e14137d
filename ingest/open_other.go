//go:build !unix

package ingest

import "os"

// openNote opens a file for reading; the caller checks what was opened
// before reading it.
func openNote(name string) (*os.File, error) {
	return os.Open(name)
}
