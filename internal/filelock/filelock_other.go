//go:build !unix && !windows

package filelock

import "os"

// Elsewhere (wasm, plan9) there is no lock: every TryLock succeeds.
func tryLock(*os.File) error { return nil }

func unlock(*os.File) error { return nil }
