package retrieve_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// filterStore is a memStore that also tells which chunks a filter lets
// through, counting how often it is asked.
type filterStore struct {
	*memStore
	filtered int
}

func (s *filterStore) FilterChunks(_ context.Context, f store.Filter) (map[int64]bool, error) {
	s.filtered++
	out := map[int64]bool{}
	for id, c := range s.chunks {
		if visible(c, false, f) {
			out[id] = true
		}
	}
	return out, nil
}

func (s *filterStore) RestrictedChunks(context.Context) (map[int64]bool, error) {
	out := map[int64]bool{}
	for id, c := range s.chunks {
		if c.Restricted {
			out[id] = true
		}
	}
	return out, nil
}

func names(ps []retrieve.Path) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name()
	}
	return out
}

// TestAssemblySelect chooses a search's paths: every available one by
// default, those named in their order and once, an error that says why
// for one that cannot run; the dense path's state is not loaded for a
// search that does not want it; the filter's chunks are read once.
func TestAssemblySelect(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := &filterStore{memStore: newMemStore(t, a, []store.Chunk{sessionChunk(1, 1, "Harbin sirve cerveza.", false), sessionChunk(2, 2, "Dorn bebe.", false)})}
	s.mention(10, 1, 1)
	densed := 0
	asm := retrieve.Assembly{
		Index: s, Analyzer: a, Filter: store.Filter{Sessions: []int{1}},
		Dense: func(func() (map[int64]bool, error)) (retrieve.Path, error) { densed++; return nil, nil },
		Entity: func() (retrieve.Entity, error) {
			return retrieve.Entity{Index: s, Matcher: compendium.NewMatcher([]compendium.Entity{{Name: "Harbin", Kind: compendium.KindNPC}}), Entities: []store.Entity{{ID: 10, Name: "Harbin"}}, Units: 2}, nil
		},
	}
	for _, tc := range []struct {
		ask, want []string
		dense     int
	}{
		{nil, []string{"bm25", "entity"}, 1},
		{[]string{" BM25", "bm25", ""}, []string{"bm25"}, 0},
		{[]string{"entity", "bm25"}, []string{"entity", "bm25"}, 0},
	} {
		densed, s.filtered = 0, 0
		got, err := asm.Select(ctx, tc.ask)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), tc.want) || densed != tc.dense {
			t.Errorf("%q: paths %v (dense loaded %d times), want %v (%d)", tc.ask, names(got), densed, tc.want, tc.dense)
		}
		for _, p := range got {
			if e, ok := p.(retrieve.Entity); ok && (e.NamesOnly != (len(got) > 1) || len(e.Allow) != 1 || s.filtered != 1) {
				t.Errorf("%q: entity path NamesOnly %v, Allow %v (filter read %d times)", tc.ask, e.NamesOnly, e.Allow, s.filtered)
			}
		}
	}
	for _, tc := range []struct {
		ask  string
		want error
		says string
	}{
		{"dense", retrieve.ErrPathUnavailable, "(available: bm25, entity)"},
		{"bogus", retrieve.ErrUnknownPath, "(known: bm25, dense, entity)"},
	} {
		if _, err := asm.Select(ctx, []string{"bm25", tc.ask}); !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %v, want %v saying %q", tc.ask, err, tc.want, tc.says)
		}
	}
	if _, err := asm.Select(ctx, []string{"dense"}); err == nil || !strings.Contains(err.Error(), "needs an embedding model") {
		t.Errorf("dense without an embedder: %v", err)
	}
	asm.Embedder = embed.NewHashing(8)
	if _, err := asm.Select(ctx, []string{"dense"}); err == nil || !strings.Contains(err.Error(), "no vectors for") {
		t.Errorf("dense without vectors: %v", err)
	}
}

// TestAssemblyPlayerEntityPath: a player's entity path runs on an empty
// compendium, a DM's is not available.
func TestAssemblyPlayerEntityPath(t *testing.T) {
	ctx := context.Background()
	a := spanish(t)
	s := &filterStore{memStore: newMemStore(t, a, nil)}
	asm := retrieve.Assembly{Index: s, Analyzer: a,
		Dense:  func(func() (map[int64]bool, error)) (retrieve.Path, error) { return nil, nil },
		Entity: func() (retrieve.Entity, error) { return retrieve.Entity{Index: s}, nil },
	}
	if got, err := asm.Select(ctx, nil); err != nil || !slices.Equal(names(got), []string{"bm25"}) {
		t.Errorf("DM: %v, %v", names(got), err)
	}
	asm.Public = true
	got, err := asm.Select(ctx, nil)
	if err != nil || !slices.Equal(names(got), []string{"bm25", "entity"}) || !got[1].(retrieve.Entity).Public {
		t.Errorf("player: %v, %v", names(got), err)
	}
}
