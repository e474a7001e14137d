//go:build !unix

package vector

import "os"

// mapFile reads the file at path: this system's files are not mapped.
func mapFile(path string) (data []byte, unmap func(), err error) {
	data, err = os.ReadFile(path)
	return data, func() {}, err
}
