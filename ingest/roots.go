package ingest

import (
	"context"
	"fmt"
	"path/filepath"
)

// absRoot makes an ingested folder's identity stable however it was typed:
// absolute, clean, its symlinks resolved.
func absRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolving folder %q: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return filepath.Clean(abs), nil
}

// roots resolves the folders of the run, adopts the notes of vaults that
// moved (see [adoptMoved]), refuses folders that lie inside one another,
// and warns of each that overlaps a folder ingested before.
func (r *run) roots(ctx context.Context) ([]string, []Problem, error) {
	roots := make([]string, len(r.Dirs))
	for i, d := range r.Dirs {
		root, err := absRoot(d)
		if err != nil {
			return nil, nil, err
		}
		roots[i] = root
	}
	known, err := r.Store.Roots(ctx)
	if err != nil {
		return nil, nil, err
	}
	known, warnings, err := adoptMoved(ctx, r.Store, roots, known)
	if err != nil {
		return nil, nil, err
	}
	overlaps, err := overlappingRoots(roots, known)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range overlaps {
		warnings = append(warnings, Problem{Root: w[0], Reason: "warning", Detail: fmt.Sprintf(
			"%q and %q, ingested earlier, overlap: the notes they share are indexed once per folder; ingest one folder that holds all your notes into a fresh index", w[0], w[1])})
	}
	return roots, warnings, nil
}

// overlappingRoots refuses folders of one ingest that lie inside one
// another (their shared notes would be indexed twice), and returns the
// pairs (new, earlier) where a folder overlaps one ingested before.
func overlappingRoots(roots, known []string) ([][2]string, error) {
	for _, a := range roots {
		for _, b := range roots {
			if a != b && inside(a, b) {
				return nil, fmt.Errorf("ingest: %q lies inside %q: its notes would be indexed twice; give only %q", a, b, b)
			}
		}
	}
	var out [][2]string
	for _, a := range roots {
		for _, b := range known {
			if a != b && (inside(a, b) || inside(b, a)) {
				out = append(out, [2]string{a, b})
			}
		}
	}
	return out, nil
}
