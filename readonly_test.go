package oraculo_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
)

// An index opened read-only (what Open does by itself on a read-only
// mount) answers as it did when writable, on every path, and every write
// fails saying which index is read-only and why, leaving the file as it
// was.
func TestReadOnlyIndex(t *testing.T) {
	ctx := context.Background()
	opts := []oraculo.Option{oraculo.WithANNThreshold(10), oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: "hashing", Dims: 64})}
	eng, db := openEngine(t, opts...)
	if _, err := eng.Ingest(ctx, []string{copyTree(t, sampleDir)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	mem := mustAdd(t, eng, ctx, oraculo.MemoryInput{Scope: "campaign", Key: "puente", Value: "El puente de Galerna cayó en la sesión 3.", Verified: true})
	q := "¿Qué pasó en el puente?"
	want, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5})
	if err != nil || len(want) == 0 {
		t.Fatalf("search: %v, %v", want, err)
	}
	wantAnswer, err := eng.Ask(ctx, q, oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}

	ix, err := index.OpenReadOnly(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := oraculo.OpenStore(ctx, ix, opts...)
	if err != nil {
		t.Fatalf("opening an engine over a read-only index: %v", err)
	}
	readOnly := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, oraculo.ErrReadOnly) || !strings.Contains(err.Error(), `the index "`+db+`" is read-only: opened read-only`) {
			t.Errorf("%s on a read-only index: %v", what, err)
		}
	}
	readOnly("ReadOnly()", ro.ReadOnly())
	for _, paths := range [][]string{nil, {"dense"}, {"bm25"}, {"entity"}} {
		got, err := ro.Search(ctx, q, oraculo.SearchOptions{K: 5, Paths: paths})
		if err != nil {
			t.Fatalf("search %v: %v", paths, err)
		}
		if paths == nil && !reflect.DeepEqual(labels(got), labels(want)) {
			t.Errorf("search: %v, want %v", labels(got), labels(want))
		}
	}
	a, err := ro.Ask(ctx, q, oraculo.AskOptions{Extractive: true})
	if err != nil || a.Answer != wantAnswer.Answer {
		t.Errorf("ask: %q, %v; want %q", a.Answer, err, wantAnswer.Answer)
	}
	if ms, err := ro.Memories(ctx, "campaign", false); err != nil || len(ms) != 1 {
		t.Errorf("memories: %v, %v", ms, err)
	}
	_, err = ro.Ingest(ctx, []string{copyTree(t, sampleDir)}, oraculo.IngestOptions{})
	readOnly("ingest", err)
	_, err = ro.AddMemory(ctx, oraculo.MemoryInput{Scope: "campaign", Key: "otra", Value: "x"})
	readOnly("adding to memory", err)
	readOnly("forgetting", ro.ForgetMemory(ctx, mem.ID))
	_, err = ro.VerifyMemory(ctx, mem.ID)
	readOnly("verifying", err)
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the read-only index file changed")
	}
}
