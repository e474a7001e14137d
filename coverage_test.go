package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/oraculo/oraculo"
)

// A note that only names the question's subject, in short paragraphs
// that repeat it, must not come before the note whose paragraph holds the
// rest of the question too: BM25 sums what each term adds, and the
// repeated name outweighed "administrar" (juanbiancuzzo fa16, fa27). The
// keyword path weighs how much of the question the best paragraph holds
// (retrieve.CoverageWeight); main put the naming note first, BM25 alone
// and default.
func TestCoverageOverRepetition(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Sociedad de capital e industria.md"),
		"# Sociedad de capital e industria\n\nUna sociedad de capital e industria.\n\n## Capital\n\nEl capital de la sociedad.\n\n## Industria\n\nLa industria de la sociedad.\n")
	write(t, filepath.Join(notes, "Gerencia.md"),
		"# Gerencia\n\nEn la sociedad de capital e industria, cualquiera de los socios, sea capitalista o industrial, puede administrar, "+
			"salvo que el contrato social disponga otra cosa sobre quién lleva los libros, firma los contratos, responde ante terceros "+
			"y rinde cuentas a los demás socios al cierre de cada ejercicio.\n")
	for i, s := range []string{
		"Un contrato es un acuerdo de voluntades que crea obligaciones entre las partes.",
		"La obligación es un vínculo jurídico entre un acreedor y un deudor.",
		"La patente protege una invención durante veinte años desde la solicitud.",
		"La marca distingue productos y servicios en el mercado.",
		"El perito dictamina sobre hechos técnicos a pedido del juez.",
		"El usufructo es el derecho de usar y gozar de una cosa ajena.",
		"La prescripción adquisitiva exige posesión continua durante años.",
		"Una laguna de estabilización trata efluentes por acción de bacterias.",
		"El ruido continuo equivalente se mide en decibeles.",
		"Un agente extintor apaga el fuego por enfriamiento o sofocación.",
	} {
		write(t, filepath.Join(notes, fmt.Sprintf("Tema %d.md", i)), "# Definición\n\n"+s+"\n")
	}
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{"bm25"}, nil} {
		hits, err := eng.Search(ctx, "¿Quién puede administrar en una sociedad de capital e industria?", oraculo.SearchOptions{K: 3, Paths: paths})
		if err != nil || len(hits) < 2 {
			t.Fatalf("paths %v: %v, %d hits", paths, err, len(hits))
		}
		if hits[0].File != "Gerencia.md" {
			t.Errorf("paths %v: first hit %q, want the note that holds the whole question: %v", paths, hits[0].File, labels(hits))
		}
	}
}
