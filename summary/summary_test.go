package summary

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/store"
)

// fakeStore counts as an index of 10 notes, 3 of them DM-only, would.
type fakeStore struct {
	stale bool
	fail  string // the method that fails
	calls []string
}

var errFake = errors.New("fake")

func (f *fakeStore) call(name string) error {
	f.calls = append(f.calls, name)
	if name == f.fail {
		return errFake
	}
	return nil
}

func (f *fakeStore) Stats(context.Context) (store.Stats, error) {
	return store.Stats{Documents: 10}, f.call("Stats")
}
func (f *fakeStore) Path() string { return "x.db" }
func (f *fakeStore) EntityCount(_ context.Context, scope string) (int, error) {
	return map[string]int{store.ScopeDM: 7}[scope], f.call("EntityCount")
}
func (f *fakeStore) EmbeddingCounts(context.Context) (map[string]int, error) {
	return map[string]int{"m": 4}, f.call("EmbeddingCounts")
}
func (f *fakeStore) AnnotationCounts(context.Context) (map[string]int, error) {
	return map[string]int{"c v1": 2}, f.call("AnnotationCounts")
}
func (f *fakeStore) DMOnlyCounts(context.Context) (map[string]int, error) {
	return map[string]int{"folder": 2, "tag": 1}, f.call("DMOnlyCounts")
}
func (f *fakeStore) PlayersCompendiumStale(context.Context) (bool, error) {
	return f.stale, f.call("PlayersCompendiumStale")
}

// fakeSnapshot has sessions 1-3, of which players see 1 and 2, and a
// compendium of one entity for the DM, none for players.
type fakeSnapshot struct{}

func (fakeSnapshot) Sessions(_ context.Context, public bool) ([]int, error) {
	if public {
		return []int{1, 2}, nil
	}
	return []int{1, 2, 3}, nil
}

func (fakeSnapshot) Entities(_ context.Context, public bool) (*compendium.State, error) {
	if public {
		return &compendium.State{}, nil
	}
	return &compendium.State{Entities: []store.Entity{{Name: "Harbin"}}}, nil
}

func engine(f *fakeStore) Engine {
	return Engine{
		Settings:      func() ingest.Settings { return ingest.Settings{Lang: "es"} },
		SecretFolders: func(context.Context) ([]string, error) { return []string{"DM"}, f.call("SecretFolders") },
		Retrieval: func(context.Context) (Retrieval, error) {
			return Retrieval{Paths: []string{"bm25"}}, f.call("Retrieval")
		},
	}
}

// TestRead: every figure, read in order; the first error stops the rest.
func TestRead(t *testing.T) {
	f := &fakeStore{stale: true}
	got, err := Read(context.Background(), f, engine(f))
	want := Stats{
		Stats: store.Stats{Documents: 10}, Path: "x.db", Settings: ingest.Settings{Lang: "es"},
		Entities: 7, Vectors: map[string]int{"m": 4}, Annotations: map[string]int{"c v1": 2},
		DMOnly:    DMOnly{Notes: 3, ByReason: map[string]int{"folder": 2, "tag": 1}, SecretFolders: []string{"DM"}, PlayersCompendium: "withheld"},
		Retrieval: Retrieval{Paths: []string{"bm25"}},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Read = %+v, %v\nwant %+v", got, err, want)
	}
	order := []string{"Stats", "EntityCount", "EmbeddingCounts", "AnnotationCounts", "DMOnlyCounts", "SecretFolders", "PlayersCompendiumStale", "Retrieval"}
	if !reflect.DeepEqual(f.calls, order) {
		t.Errorf("read %v, want %v", f.calls, order)
	}
	for i, name := range order {
		f := &fakeStore{fail: name}
		if got, err := Read(context.Background(), f, engine(f)); !errors.Is(err, errFake) || !reflect.DeepEqual(got, Stats{}) || len(f.calls) != i+1 {
			t.Errorf("%s failing: Read = %+v, %v after %v", name, got, err, f.calls)
		}
	}
	if dm, _ := DMOnlyOf(context.Background(), &fakeStore{}, engine(&fakeStore{}).SecretFolders); dm.PlayersCompendium != "ok" {
		t.Errorf("a fresh players' compendium is %q, want ok", dm.PlayersCompendium)
	}
}

// TestOverview: a player's counts leave the DM-only notes and the
// sessions only they hold out; the DM's count everything.
func TestOverview(t *testing.T) {
	for _, tc := range []struct {
		public          bool
		notes, sessions int
	}{{false, 10, 3}, {true, 7, 2}} {
		o, err := OverviewOf(context.Background(), &fakeStore{}, fakeSnapshot{}, tc.public)
		if err != nil || o.Notes != tc.notes || o.Sessions != tc.sessions {
			t.Errorf("public %v: OverviewOf = %+v, %v; want %d notes, %d sessions", tc.public, o, err, tc.notes, tc.sessions)
		}
	}
	if _, err := OverviewOf(context.Background(), &fakeStore{fail: "DMOnlyCounts"}, fakeSnapshot{}, true); !errors.Is(err, errFake) {
		t.Errorf("a player's overview without the DM-only counts: %v, want the error", err)
	}
}

// TestRetrievalOf: without an embedder, BM25 alone, and the entity path
// only when the audience's compendium has entities.
func TestRetrievalOf(t *testing.T) {
	for public, want := range map[bool][]string{false: {"bm25", "entity"}, true: {"bm25"}} {
		r, err := RetrievalOf(context.Background(), nil, nil, dense.Options{}, fakeSnapshot{}, public)
		if err != nil || !reflect.DeepEqual(r.Paths, want) || r.DenseModel != "" {
			t.Errorf("public %v: RetrievalOf = %+v, %v; want paths %v", public, r, err, want)
		}
	}
}
