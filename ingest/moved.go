package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
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

// adoptMoved gives a folder of this ingest (among roots) that holds no
// notes yet the notes of a folder ingested before (among known) that no
// longer exists, when it holds them (see [Holds]): the vault moved, and
// its notes keep their ids, vectors and annotations. It returns the
// folders known then, and a warning for each move. A store that cannot
// move notes (see [store.RootMover]) writes them anew, under the same ids.
func adoptMoved(ctx context.Context, s store.DocumentWriter, roots, known []string) ([]string, []Problem, error) {
	mover, ok := s.(store.RootMover)
	if !ok {
		return known, nil, nil
	}
	var moved []Problem
	for _, to := range roots {
		if slices.Contains(known, to) {
			continue
		}
		for i, from := range known {
			if _, err := os.Stat(from); slices.Contains(roots, from) || !errors.Is(err, fs.ErrNotExist) {
				continue
			}
			states, err := s.DocumentStates(ctx, from)
			if err != nil {
				return nil, nil, err
			}
			if !Holds(to, states) {
				continue
			}
			if err := mover.MoveRoot(ctx, from, to); err != nil {
				return nil, nil, fmt.Errorf("ingest: %w", err)
			}
			known[i] = to
			moved = append(moved, Problem{Root: to, Reason: "moved", Detail: fmt.Sprintf(
				"%q, ingested earlier, no longer exists and %q holds its notes: the vault moved; its notes keep their ids", from, to)})
			break
		}
	}
	return known, moved, nil
}
