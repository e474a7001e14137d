package oraculo_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/oraculo/oraculo"
)

// chunkIDs is every chunk's id by its note and ordinal in the note.
func chunkIDs(t *testing.T, eng *oraculo.Engine) map[string]string {
	t.Helper()
	chunks, err := eng.Chunks(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	n := map[string]int{}
	for _, c := range chunks {
		key := c.File + "#" + strconv.Itoa(n[c.File])
		n[c.File]++
		if _, dup := out[key]; dup {
			t.Fatalf("%s twice: the notes of two folders", key)
		}
		out[key] = c.ID
	}
	return out
}

// TestChunkIDsSurviveAMove: a vault ingested, then moved to another
// folder and ingested there, keeps every chunk id, in a fresh index and
// in the same one (which takes the notes over from the folder that no
// longer exists, re-reading nothing, and says so).
func TestChunkIDsSurviveAMove(t *testing.T) {
	ctx := context.Background()
	a := copyTree(t, sampleDir)
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{a}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	before := chunkIDs(t, eng)
	if len(before) < 10 {
		t.Fatalf("only %d chunks", len(before))
	}
	b := filepath.Join(t.TempDir(), "la campaña movida")
	if err := os.Rename(a, b); err != nil {
		t.Fatal(err)
	}

	fresh, _ := openEngine(t)
	if _, err := fresh.Ingest(ctx, []string{b}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if after := chunkIDs(t, fresh); !maps.Equal(before, after) {
		t.Errorf("a fresh index of the moved vault has other ids:\nbefore %v\nafter  %v", before, after)
	}

	rep, err := eng.Ingest(ctx, []string{b}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after := chunkIDs(t, eng); !maps.Equal(before, after) {
		t.Errorf("the same index, the vault moved: other ids:\nbefore %v\nafter  %v", before, after)
	}
	if rep.Indexed != 0 || rep.Unchanged == 0 {
		t.Errorf("the moved vault was read again: %d indexed, %d unchanged", rep.Indexed, rep.Unchanged)
	}
	moved := false
	for _, w := range rep.Warnings {
		moved = moved || w.Reason == "moved"
	}
	if !moved {
		t.Errorf("no word of the move: %+v", rep.Warnings)
	}
}
