package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"

	"github.com/oraculo/oraculo/store"
)

// movedSample is how many of a folder's notes Holds reads at most.
const movedSample = 64

// Holds reports whether the folder root holds the notes whose stored
// states are given (those of a folder ingested before): most of them, up
// to movedSample taken in path order, lie at the same path under root
// with the same content. It is how an ingest tells that a vault moved.
func Holds(root string, states map[string]store.DocumentState) bool {
	paths := make([]string, 0, len(states))
	for p := range states {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if len(paths) > movedSample {
		// Spread the sample over the whole folder, not its first notes.
		step := len(paths) / movedSample
		sample := make([]string, 0, movedSample)
		for i := 0; i < len(paths) && len(sample) < movedSample; i += step {
			sample = append(sample, paths[i])
		}
		paths = sample
	}
	same := 0
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if fi, err := os.Stat(full); err != nil || !fi.Mode().IsRegular() {
			continue // a FIFO would block the read
		}
		data, err := os.ReadFile(full)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) == states[p].SHA256 {
			same++
		}
	}
	return len(paths) > 0 && 2*same > len(paths)
}
