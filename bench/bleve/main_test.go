package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/oraculo/oraculo"
)

// Bleve's index of chunks finds the chunk that holds a question's rare
// word first, through the Spanish analyser (stop words and accents left out),
// and merges into one segment.
func TestBleveFindsTheChunk(t *testing.T) {
	chunks := []oraculo.ChunkInfo{
		{ID: "a", Title: "Diario", Text: "La compañía cruzó el puente bajo la lluvia."},
		{ID: "b", Title: "Diario", Headings: []string{"La cripta"}, Text: "Encontramos el mapa del archiduque junto a la hoguera."},
		{ID: "c", Title: "Notas", Text: "Los guardias esperaban con antorchas en el río."},
	}
	for _, scoring := range []string{"bm25", "tfidf"} {
		idx, b, err := buildBleve(context.Background(), filepath.Join(t.TempDir(), "ix"), scoring, false, chunks)
		if err != nil {
			t.Fatal(err)
		}
		if b.Docs != 3 || !b.Made {
			t.Errorf("%s: build %+v, want 3 documents made", scoring, b)
		}
		if n := segments(idx); n != 1 {
			t.Errorf("%s: %d segments after the merge, want 1", scoring, n)
		}
		res, err := idx.Search(bleve.NewSearchRequestOptions(bleve.NewMatchQuery("¿Dónde está el ARCHIDUQUE?"), 10, 0, false))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 || res.Hits[0].ID != "b" {
			t.Errorf("%s: hits %v, want only chunk b", scoring, res.Hits)
		}
		idx.Close()
	}
}

// The whole command on a small synthetic index: both engines answer every
// question of every round, the percentiles are ordered, and the report
// says what was built.
func TestRunSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 300 synthetic sessions")
	}
	var out, errs bytes.Buffer
	args := []string{"--size", "300", "--n", "20", "--rounds", "2", "--questions", "tail", "--work", t.TempDir(), "--json"}
	if err := run(context.Background(), args, &out, &errs); err != nil {
		t.Fatalf("%v\n%s", err, errs.String())
	}
	var rep report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if rep.Questions != 20 || rep.Oraculo.Build.Docs != 300 || rep.Bleve.Build.Docs != 300 {
		t.Errorf("questions %d, chunks %d and %d, want 20, 300, 300", rep.Questions, rep.Oraculo.Build.Docs, rep.Bleve.Build.Docs)
	}
	for name, e := range map[string]engine{"oraculo": rep.Oraculo, "bleve": rep.Bleve} {
		if e.Queries != 40 || e.NoHits > 20 {
			t.Errorf("%s: %d queries, %d without hits; want 40, at most half without", name, e.Queries, e.NoHits)
		}
		if !(0 < e.P50 && e.P50 <= e.P95 && e.P95 <= e.P99) {
			t.Errorf("%s: p50 %v, p95 %v, p99 %v: want 0 < p50 ≤ p95 ≤ p99", name, e.P50, e.P95, e.P99)
		}
		if !e.Build.Made || e.Build.Bytes <= 0 {
			t.Errorf("%s: build %+v, want made, with a size", name, e.Build)
		}
	}
}

// A command line that cannot run says so, as a usage error.
func TestParseRefuses(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--db", "x.db", "--size", "10"},
		{"--db", "x.db", "--n", "0"},
		{"--db", "x.db", "--scoring", "dfr"},
		{"--db", "x.db", "extra"},
	} {
		_, err := parse(args, io.Discard)
		if !errors.Is(err, errUsage) {
			t.Errorf("parse(%q) = %v, want a usage error", strings.Join(args, " "), err)
		}
	}
	if _, err := parse([]string{"--db", "x.db"}, io.Discard); err != nil {
		t.Errorf("parse(--db x.db) = %v", err)
	}
}
