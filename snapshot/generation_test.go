package snapshot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/oraculo/oraculo/index"
)

// TestGeneration: an index no ingest finished in has no generation and no
// time; a new generation differs from the last and names when it was
// recorded.
func TestGeneration(t *testing.T) {
	ctx := context.Background()
	m, err := index.Open(ctx, filepath.Join(t.TempDir(), "o.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if gen, _ := Generation(ctx, m); gen != "" {
		t.Fatalf("generation of a new index %q, want none", gen)
	}
	if _, ok := (&Snapshot{}).GenerationTime(); ok {
		t.Error("a new index has a generation time")
	}
	before := time.Now()
	if err := NewGeneration(ctx, m); err != nil {
		t.Fatal(err)
	}
	first, _ := Generation(ctx, m)
	at, ok := (&Snapshot{Generation: first}).GenerationTime()
	if !ok || at.Before(before) || at.After(time.Now()) {
		t.Errorf("generation %q recorded at %v (%v), want after %v", first, at, ok, before)
	}
	time.Sleep(time.Millisecond)
	if err := NewGeneration(ctx, m); err != nil {
		t.Fatal(err)
	}
	if second, _ := Generation(ctx, m); second == first {
		t.Errorf("a new generation is the last one, %q", second)
	}
	if _, ok := (&Snapshot{Generation: "not-a-time!"}).GenerationTime(); ok {
		t.Error("a generation that names no time has one")
	}
}
