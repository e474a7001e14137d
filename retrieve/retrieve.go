// Package retrieve holds the retrieval paths: each turns a question into a
// ranked list of chunks on its own. Fusion of the lists happens downstream.
package retrieve

import (
	"context"
	"errors"
	"fmt"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/index"
)

// Names of the retrieval paths.
const (
	PathBM25   = "bm25"
	PathDense  = "dense"
	PathEntity = "entity"
)

// KnownPaths lists every path name the engine knows, available or not.
var KnownPaths = []string{PathBM25, PathDense, PathEntity}

// ErrUnknownPath is returned for a path name the engine does not know.
var ErrUnknownPath = errors.New("unknown retrieval path")

// ErrPathUnavailable is returned for a known path that cannot run here.
var ErrPathUnavailable = errors.New("retrieval path not available")

// Result is one chunk found by a path.
type Result struct {
	Chunk index.StoredChunk
	// Score is the path's own score: comparable only within the path.
	Score float64
	// Passage is the part of the chunk that made the path pick it (the best
	// paragraph for BM25), or "" when the path has no such notion.
	Passage string
}

// Path is one way of finding chunks for a question.
type Path interface {
	// Name is the path's name, as used in --paths and in a hit's "paths".
	Name() string
	// Retrieve returns up to n chunks, best first.
	Retrieve(ctx context.Context, question string, n int) ([]Result, error)
}

// Depth is how many results each path is asked for when k are wanted:
// max(2k, k+5), which gives fusion room to work.
func Depth(k int) int {
	return max(2*k, k+5)
}

// BM25 is the keyword path: paragraphs ranked by BM25 over the analysed
// text, each parent chunk returned once.
type BM25 struct {
	Index    *index.Index
	Analyzer *analysis.Analyzer
	Options  index.BM25Options
}

// Name implements [Path].
func (BM25) Name() string { return PathBM25 }

// Retrieve implements [Path].
func (p BM25) Retrieve(ctx context.Context, question string, n int) ([]Result, error) {
	matches, err := p.Index.SearchBM25(ctx, p.Analyzer.Terms(question), n, p.Options)
	if err != nil {
		return nil, fmt.Errorf("bm25 path: %w", err)
	}
	out := make([]Result, len(matches))
	for i, m := range matches {
		out[i] = Result{Chunk: m.Chunk, Score: m.Score, Passage: m.Passage}
	}
	return out, nil
}
