package ingest

import (
	"reflect"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
)

// TestChunkRecordAppendTerms checks that a chunk's paragraphs analysed
// with AppendTerms, into one string, store the terms Terms gives.
func TestChunkRecordAppendTerms(t *testing.T) {
	an, err := analysis.New("es")
	if err != nil {
		t.Fatal(err)
	}
	doc := chunk.Document{Path: "s.md", Title: "Sesiones", Text: "## Sesión 1\n\nEl grupo cruzó el puente de Galerna.\n\nNorkiel cojeaba.\n\n" +
		"## Sesión 2\n\nLa cancelación del torneo.\n\n¿Qué pasó con el archiduque?\n\n—\n"}
	chunks, err := chunk.Split(doc, chunk.Options{MaxWords: 200, Lang: "es"})
	if err != nil {
		t.Fatal(err)
	}
	plain := LangAnalysis{Terms: an.Terms}
	fused := LangAnalysis{Terms: an.Terms, AppendTerms: an.AppendTerms}
	paragraphs := 0
	for _, c := range chunks {
		want, got := chunkRecord(doc.Path, c, plain), chunkRecord(doc.Path, c, fused)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("chunk %d with AppendTerms:\n%+v\nwant\n%+v", c.Ordinal, got, want)
		}
		paragraphs += len(got.Children)
	}
	if len(chunks) != 2 || paragraphs < 4 {
		t.Fatalf("%d chunks, %d paragraphs: the test needs 2 chunks of several paragraphs", len(chunks), paragraphs)
	}
}
