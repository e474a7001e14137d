package ingest

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestOverlappingRoots(t *testing.T) {
	if _, err := overlappingRoots([]string{"/v", "/v/a"}, nil); err == nil {
		t.Error("a folder inside another of the same ingest was accepted")
	}
	got, err := overlappingRoots([]string{"/v/a", "/w"}, []string{"/v", "/w", "/x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]string{{"/v/a", "/v"}}; !slices.Equal(got, want) {
		t.Errorf("overlaps %v, want %v", got, want)
	}
}

func TestIndexFiles(t *testing.T) {
	dir := t.TempDir()
	real, err := absRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(real, ".oraculo", "o.db")
	beside := []string{"tokens.yaml"}
	want := []string{db, filepath.Join(real, ".oraculo", "tokens.yaml"), filepath.Join(real, ".oraculo")}
	if got := indexFiles(db, beside, []string{filepath.Join(real, "notes")}); !slices.Equal(got, want) {
		t.Errorf("index beside the notes: %v, want %v", got, want)
	}
	// An index kept in the vault's root leaves its folder readable.
	db = filepath.Join(real, "o.db")
	want = []string{db, filepath.Join(real, "tokens.yaml")}
	if got := indexFiles(db, beside, []string{real}); !slices.Equal(got, want) {
		t.Errorf("index in the notes' root: %v, want %v", got, want)
	}
}
