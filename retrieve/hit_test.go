package retrieve_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/fuse"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// TestHitFrom: a hit carries its chunk's row id, never in its JSON; a
// chunk without headings has an empty list, a session chunk its number,
// one outside sessions a null session.
func TestHitFrom(t *testing.T) {
	c := store.Chunk{ID: 42, Path: "S3.md", ChunkData: store.ChunkData{UID: "c42", Label: "Sesión 3",
		Text: "El grupo cruzó el paso.", InSession: true, Session: 3, WordEnd: 5}}
	h := retrieve.HitFrom(c, 1, 0.5, map[string]int{"bm25": 1})
	if h.Chunk != 42 || h.ID != "c42" || h.Session == nil || *h.Session != 3 || h.Headings == nil {
		t.Fatalf("HitFrom = %+v", h)
	}
	h.Fusion, h.Coverage = fuse.Explanation{Boost: 1.2}, 0.7
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"rank":1,"id":"c42","file":"S3.md","label":"Sesión 3","headings":[],"session":3,"words":5,` +
		`"text":"El grupo cruzó el paso.","score":0.5,"paths":{"bm25":1},"title":""}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	c.InSession = false
	if h := retrieve.HitFrom(c, 0, 0, nil); h.Session != nil || !strings.Contains(mustJSON(t, h), `"session":null`) {
		t.Errorf("outside sessions: %+v", h)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFoundRank: the lists fused into hits ranked from 1, each with its
// chunk, the passage of the path that had one and the ranks of the paths
// that found it, cut to k.
func TestFoundRank(t *testing.T) {
	f := retrieve.Found{
		Lists: []fuse.List{
			{Path: retrieve.PathBM25, IDs: []int64{1, 2, 3}, Scores: []float64{3, 2, 1}},
			{Path: retrieve.PathDense, IDs: []int64{2, 1}, Scores: []float64{0.9, 0.8}},
		},
		ByID: map[int64]retrieve.Result{
			1: {Chunk: store.Chunk{ID: 1, ChunkData: store.ChunkData{UID: "a"}}, Passage: "uno"},
			2: {Chunk: store.Chunk{ID: 2, ChunkData: store.ChunkData{UID: "b"}}},
			3: {Chunk: store.Chunk{ID: 3, ChunkData: store.ChunkData{UID: "c"}}},
		},
	}
	hits := f.Rank(false, false, false, 10, 2)
	if len(hits) != 2 {
		t.Fatalf("got %d hits, want 2", len(hits))
	}
	for i, h := range hits {
		if h.Rank != i+1 || h.Chunk == 3 || len(h.Paths) != 2 || h.Score <= 0 {
			t.Errorf("hit %d = %+v", i, h)
		}
		if h.Chunk == 1 && h.Passage != "uno" {
			t.Errorf("chunk 1's passage %q", h.Passage)
		}
	}
	if got := retrieve.FuseStage(len(f.Lists)); got != "fuse" {
		t.Errorf("FuseStage(2) = %q", got)
	}
}
