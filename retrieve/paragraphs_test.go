package retrieve

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

func TestBestParents(t *testing.T) {
	found := []store.Paragraph{
		{Score: 5, ChunkID: 1, Ordinal: 0},
		{Score: 4, ChunkID: 2, Ordinal: 3},
		{Score: 3, ChunkID: 2, Ordinal: 1},
		{Score: 3, ChunkID: 2, Ordinal: 2},
		{Score: 0, ChunkID: 3},
	}
	order, best := bestParents(found, 0.3)
	// Chunk 2: 4 + 0.3 × (3 + 3) = 5.8 passes chunk 1's 5.
	if !slices.Equal(order, []int64{2, 1}) || best[2].child != 3 || best[2].score != 4+0.3*6 {
		t.Errorf("order %v, best %+v", order, best)
	}
	order, _ = bestParents(found, 0)
	if !slices.Equal(order, []int64{1, 2}) {
		t.Errorf("without siblings: order %v", order)
	}
}

// paragraphList is a search whose paragraphs are given, best first; it
// counts the paragraphs Top was asked for.
type paragraphList struct {
	found  []store.Paragraph
	chunks map[int64]store.Chunk
	asked  []int
}

func (p *paragraphList) Top(_ context.Context, limit int) ([]store.Paragraph, error) {
	p.asked = append(p.asked, limit)
	return p.found[:min(limit, len(p.found))], nil
}

func (p *paragraphList) Chunks(_ context.Context, ids []int64) (map[int64]store.Chunk, error) {
	out := map[int64]store.Chunk{}
	for _, id := range ids {
		if c, ok := p.chunks[id]; ok {
			out[id] = c
		}
	}
	return out, nil
}

func (p *paragraphList) Close() error { return nil }

// manyParagraphs is a search of 50 chunks of four paragraphs each, the
// first paragraphs best, every chunk's text its four paragraphs.
func manyParagraphs() *paragraphList {
	p := &paragraphList{chunks: map[int64]store.Chunk{}}
	for id := int64(1); id <= 50; id++ {
		c := store.Chunk{ID: id}
		c.ByteStart = 1000 * int(id)
		c.Text = strings.Repeat("abcd", 4)
		p.chunks[id] = c
	}
	for ord := range 4 {
		for id := int64(1); id <= 50; id++ {
			start := 1000*int(id) + 4*ord
			p.found = append(p.found, store.Paragraph{Score: float64(1000 - 10*ord - int(id)), ChunkID: id, Ordinal: ord, ByteStart: start, ByteEnd: start + 4})
		}
	}
	return p
}

// TestRankParagraphs: the pool grows four times at a time until it holds
// n chunks; the first n of a search are those of any longer one; a
// match's passage is its best paragraph.
func TestRankParagraphs(t *testing.T) {
	ctx := context.Background()
	long, err := RankParagraphs(ctx, manyParagraphs(), 50, 0)
	if err != nil || len(long) != 50 {
		t.Fatalf("50 chunks asked: %d, %v", len(long), err)
	}
	for _, n := range []int{1, 10, 40, 49} {
		p := manyParagraphs()
		got, err := RankParagraphs(ctx, p, n, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].Chunk.ID != long[i].Chunk.ID || got[i].Score != long[i].Score {
				t.Fatalf("n=%d, rank %d: chunk %d (%v); the longer search has %d (%v)", n, i, got[i].Chunk.ID, got[i].Score, long[i].Chunk.ID, long[i].Score)
			}
		}
		if want := []int{BM25Pool}; !slices.Equal(p.asked, want) {
			t.Errorf("n=%d: Top asked for %v, want %v: the first pool holds 50 chunks", n, p.asked, want)
		}
	}
	// The first pool's 80 paragraphs hold 50 chunks; 60 wanted, the pool
	// grows to 320 and stops, all 200 paragraphs read.
	p := manyParagraphs()
	if got, err := RankParagraphs(ctx, p, 60, 0); err != nil || len(got) != 50 || !slices.Equal(p.asked, []int{BM25Pool, 4 * BM25Pool}) {
		t.Errorf("60 chunks asked of 50: %d, %v, Top asked for %v", len(got), err, p.asked)
	}
	m := long[0]
	if m.Chunk.ID != 1 || m.Child != 0 || m.Passage != "abcd" {
		t.Errorf("the best match is chunk %d, paragraph %d, passage %q; want chunk 1's first", m.Chunk.ID, m.Child, m.Passage)
	}
	// The first pool holds chunk 1's first two paragraphs, not its
	// others: they add nothing.
	if want := 999 + DefaultSiblingWeight*989; m.Score != want {
		t.Errorf("the best score is %v, want its paragraph's plus %v of its other one in the pool, %v", m.Score, DefaultSiblingWeight, want)
	}
	if alone, _ := RankParagraphs(ctx, manyParagraphs(), 1, -1); alone[0].Score != 999 {
		t.Errorf("a negative sibling weight scores %v, want the best paragraph's 999", alone[0].Score)
	}
	gone := manyParagraphs()
	delete(gone.chunks, 1)
	if _, err := RankParagraphs(ctx, gone, 5, 0); !errors.Is(err, store.ErrMissingParent) {
		t.Errorf("a paragraph's chunk missing: %v, want an error wrapping ErrMissingParent", err)
	}
}
