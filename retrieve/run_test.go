package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/oraculo/oraculo/retrieve"
)

// fixedPath returns its results, or its error: a new slice each time,
// as a path does.
type fixedPath struct {
	name    string
	results []retrieve.Result
	err     error
}

func (p fixedPath) Name() string { return p.name }

func (p fixedPath) Retrieve(context.Context, string, int) ([]retrieve.Result, error) {
	return slices.Clone(p.results), p.err
}

// TestRunAll runs the paths and takes them in their order: a failing path
// other than BM25 is left out with a warning, BM25's or a lone path's
// failure is the search's; a player never gets a DM-only row; each chunk
// keeps the first result with a passage.
func TestRunAll(t *testing.T) {
	ctx := context.Background()
	secret := sessionChunk(3, 3, "secreto", true)
	bm25 := fixedPath{name: retrieve.PathBM25, results: []retrieve.Result{
		{Chunk: sessionChunk(1, 1, "uno", false), Score: 2, Passage: "uno"},
		{Chunk: secret, Score: 1, Passage: "secreto"},
	}}
	entity := fixedPath{name: retrieve.PathEntity, results: []retrieve.Result{
		{Chunk: noteChunk(2, "NPCs/a.md", "dos"), Score: 3},
		{Chunk: sessionChunk(1, 1, "uno", false), Score: 1},
	}}
	down := errors.New("model down")
	dense := fixedPath{name: retrieve.PathDense, err: down}
	var warned []error
	var took []string
	found, err := retrieve.RunAll(ctx, "q", []retrieve.Path{bm25, dense, entity}, retrieve.Run{
		Depth: 10, Public: true,
		Took: func(p string, _ time.Duration) { took = append(took, p) },
		Warn: func(err error) { warned = append(warned, err) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(found.Lists) != "[{bm25 [1] [2] 0} {entity [2 1] [3 1] 0}]" {
		t.Errorf("lists %v", found.Lists)
	}
	if len(warned) != 1 || !errors.Is(warned[0], down) || !slices.Equal(took, []string{"bm25", "dense", "entity"}) {
		t.Errorf("warned %v, took %v", warned, took)
	}
	if found.ByID[1].Passage != "uno" || found.Unit(1) != "s1" || found.Unit(2) != "fNPCs/a.md" || !found.InSession(1) || found.InSession(2) {
		t.Errorf("chunk 1 %+v, units %q %q", found.ByID[1], found.Unit(1), found.Unit(2))
	}
	for _, paths := range [][]retrieve.Path{{fixedPath{name: retrieve.PathBM25, err: down}, entity}, {dense}} {
		if _, err := retrieve.RunAll(ctx, "q", paths, retrieve.Run{Depth: 10}); !errors.Is(err, down) {
			t.Errorf("%v: error %v, want %v", names(paths), err, down)
		}
	}
	found, _ = retrieve.RunAll(ctx, "q", []retrieve.Path{bm25}, retrieve.Run{Depth: 10})
	if !slices.Equal(found.Lists[0].IDs, []int64{1, 3}) || found.ByID[3].Chunk.ID != secret.ID {
		t.Errorf("the DM's list %v", found.Lists)
	}
}
