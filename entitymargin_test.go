package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
)

// entityVault writes a campaign where Harbin Wester, an NPC with a note
// of his own, is named in three sessions, and a market note answers a
// question that names him only in passing.
func entityVault(t *testing.T) string {
	t.Helper()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "NPCs", "Harbin Wester.md"), "---\naliases: [Harbin]\n---\n# Harbin Wester\n\nTabernero de Puertogris, viejo y desconfiado.\n")
	write(t, filepath.Join(notes, "Lugares", "Mercado de Puertogris.md"),
		"# Mercado de Puertogris\n\nEl barril de cerveza negra costó cuatro coronas de plata en el puesto del enano; el barril de vino, dos.\n")
	var b strings.Builder
	b.WriteString("# Diario\n\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "## Sesión %d\n\nLa compañía siguió el camino del norte hasta el paso %d.", i, i)
		switch i {
		case 3, 17:
			b.WriteString(" En la posada, Harbin Wester habló del camino y de los lobos.")
		case 11:
			b.WriteString(" Harbin Wester compró un barril para la posada. Harbin Wester discutió con el enano. Harbin Wester se fue enfadado.")
		}
		b.WriteString("\n\n")
	}
	write(t, filepath.Join(notes, "Sesiones", "Diario.md"), b.String())
	return notes
}

// The entity path never costs BM25's top hit on a lookup question: a
// chunk that names the question's entity rises only over one BM25 scored
// within EntityMargin of it. Fused by rank (before issue 27), session 11,
// BM25's second that names Harbin three times, passed the market note.
func TestEntityPathKeepsBM25TopForLookup(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{entityVault(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	q := "¿Cuánto costó el barril de cerveza negra que compró Harbin Wester?"
	bm25, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5, Paths: []string{"bm25"}})
	if err != nil || len(bm25) < 2 || bm25[0].File != "Lugares/Mercado de Puertogris.md" {
		t.Fatalf("BM25 alone should rank the market first: %v %v", labels(bm25), err)
	}
	var an oraculo.QueryAnalysis
	def, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5, Analysis: &an})
	if err != nil || len(def) == 0 {
		t.Fatal(err)
	}
	if an.Kind != "lookup" || len(an.Entities) == 0 {
		t.Fatalf("the question should be a lookup naming Harbin: %+v", an)
	}
	if def[0].ID != bm25[0].ID {
		t.Errorf("default first hit %q (paths %v), BM25's first is %q", def[0].Label, def[0].Paths, bm25[0].Label)
	}
	// The entity path still reorders below the top and says by how much.
	lifted := false
	for _, h := range def {
		if _, ok := h.Paths["entity"]; ok && h.Fusion.Lift > 0 {
			lifted = lifted || h.Fusion.Lift <= oraculo.EntityMargin+1e-9
			if h.Fusion.Lift > oraculo.EntityMargin+1e-9 {
				t.Errorf("%q lifted by %.3f, more than the margin %.3f", h.Label, h.Fusion.Lift, oraculo.EntityMargin)
			}
		}
	}
	if !lifted {
		t.Errorf("no hit carries the entity path's lift: %v", labels(def))
	}
}

// An arc question is about the entity it names: its evidence weighs as
// much as BM25's, and the sessions that name Harbin come before any
// session that does not.
func TestEntityPathLeadsArcQuestions(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{entityVault(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	var an oraculo.QueryAnalysis
	hits, err := eng.Search(ctx, "¿Qué papel ha jugado Harbin Wester en la campaña?", oraculo.SearchOptions{K: 6, Analysis: &an})
	if err != nil || an.Kind != "arc" {
		t.Fatalf("arc: %+v %v", an, err)
	}
	top := map[string]bool{}
	for _, h := range hits[:min(4, len(hits))] {
		top[h.Label] = true
	}
	for _, want := range []string{"NPCs: Harbin Wester", "Sesión 3", "Sesión 11", "Sesión 17"} {
		if !top[want] {
			t.Errorf("the first four hits miss %q: %v", want, labels(hits))
		}
	}
}

// A note is found by its name: an Obsidian note named for its subject
// ("Consejo de vigilancia.md") under a generic heading ("# Definición")
// comes before a longer note that only mentions the subject. Before issue
// 27 the file name was in no index, and the longer note came first.
func TestNoteFoundByItsName(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Societario", "Consejo de vigilancia.md"),
		"# Definición\n\nÓrgano de fiscalización de la sociedad anónima, integrado por tres a quince accionistas elegidos por la asamblea.\n")
	write(t, filepath.Join(notes, "Societario", "Sociedad Anónima.md"),
		"# Definición\n\nLa sociedad anónima tiene un directorio y una asamblea de accionistas, y puede tener un consejo de vigilancia que controla la gestión del directorio.\n")
	write(t, filepath.Join(notes, "Societario", "Directorio.md"),
		"# Definición\n\nÓrgano de administración de la sociedad anónima.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{"bm25"}, nil} {
		hits, err := eng.Search(ctx, "¿Cuántos accionistas integran el consejo de vigilancia?", oraculo.SearchOptions{K: 3, Paths: paths})
		if err != nil || len(hits) == 0 {
			t.Fatal(err)
		}
		if hits[0].File != "Societario/Consejo de vigilancia.md" {
			t.Errorf("paths %v: first hit %q, want the note named for the question's subject: %v", paths, hits[0].File, labels(hits))
		}
	}
}

// A question in the first person plural asks what the party lived: the
// narrative prior puts the session that tells it before a note outside
// sessions that BM25 ranks first, BM25 alone as in the default search. On
// BM25's scores (before issue 27, BM25 alone) a lead of more than half
// kept the place note first.
func TestNarrativePriorActsOnRanks(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Lugares", "Molino de Tobías.md"),
		"# Molino de Tobías\n\nEl molino de Tobías tiene una puerta de roble con una marca de ceniza; el molino de Tobías muele trigo, y la puerta del molino de Tobías da al río.\n")
	var b strings.Builder
	b.WriteString("# Diario\n\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "## Sesión %d\n\nViajamos hacia el norte por el camino %d.", i, i)
		if i == 4 {
			b.WriteString(" En la puerta encontramos una llave envuelta en un paño.")
		}
		b.WriteString("\n\n")
	}
	write(t, filepath.Join(notes, "Sesiones", "Diario.md"), b.String())
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	q := "¿Qué encontramos en la puerta del molino de Tobías?"
	plain, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 3, Paths: []string{"bm25"}, NoPrior: true})
	if err != nil || len(plain) < 2 || plain[0].File != "Lugares/Molino de Tobías.md" || plain[0].Score < 1.5*plain[1].Score {
		t.Fatalf("without the prior BM25 should rank the mill note first by more than half: %v %v", labels(plain), err)
	}
	for _, paths := range [][]string{{"bm25"}, nil} {
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 3, Paths: paths})
		if err != nil || len(hits) == 0 {
			t.Fatal(err)
		}
		if hits[0].Label != "Sesión 4" || hits[0].Prior != 1+oraculo.NarrativeBoost {
			t.Errorf("paths %v: first hit %q (prior %v), want Sesión 4: %v", paths, hits[0].Label, hits[0].Prior, labels(hits))
		}
	}
}

// A note named by a common word ("Trabajador.md") is not named by a
// question that uses the word in lower case: in the default search the
// entity path lifts nothing for "un trabajador expuesto" (juanbiancuzzo
// fa11, where it lifted a neighbour over the answer), while the note's
// name written as a name, or the entity path alone, still finds it.
func TestCommonWordNamesNoEntity(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	write(t, filepath.Join(notes, "Trabajador.md"), "# Trabajador\n\nPersona que presta servicios bajo dependencia de un empleador.\n")
	write(t, filepath.Join(notes, "Monitoreo personal.md"), "# Monitoreo personal\n\nEl dosímetro mide la dosis de cada [[Trabajador]] expuesto a radiación.\n")
	write(t, filepath.Join(notes, "Límites laborales.md"), "# Límites laborales\n\nEl límite anual de dosis efectiva de un [[Trabajador|trabajador]] expuesto es 20 mSv.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	entityPaths := func(q string, paths []string) int {
		t.Helper()
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5, Paths: paths})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, h := range hits {
			if _, ok := h.Paths["entity"]; ok {
				n++
			}
		}
		return n
	}
	if n := entityPaths("¿Cuál es el límite anual de dosis de un trabajador expuesto?", nil); n != 0 {
		t.Errorf("default search: %d hits found by the entity path for a common word, want 0", n)
	}
	if n := entityPaths("¿Qué dice la nota Trabajador?", nil); n == 0 {
		t.Errorf("default search: the entity path found nothing for the name written as a name")
	}
	if n := entityPaths("¿Cuál es el límite anual de dosis de un trabajador expuesto?", []string{"entity"}); n == 0 {
		t.Errorf("the entity path alone found nothing for the common word")
	}
}
