package oraculo

import "github.com/oraculo/oraculo/index"

// ErrReadOnly: the index cannot be written (it lies on a read-only mount,
// or its file or folder may not be written). Searches and answers work;
// an ingest or a change of memory fails with an error wrapping it that
// names the index and says why.
var ErrReadOnly = index.ErrReadOnly

// ReadOnly returns nil when the index can be written, else the error,
// wrapping [ErrReadOnly], that every write returns.
func (e *Engine) ReadOnly() error {
	if ro, ok := e.idx.(interface{ ReadOnly() error }); ok {
		return ro.ReadOnly()
	}
	return nil
}
