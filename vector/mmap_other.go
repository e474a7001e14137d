//go:build !unix

package vector

import "os"

// mapFile reads the file at path: this system's files are not mapped,
// and file is nil (the data is read already).
func mapFile(path string) (data []byte, file *os.File, unmap func(), err error) {
	data, err = os.ReadFile(path)
	return data, nil, func() {}, err
}
