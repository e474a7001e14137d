package oraculo_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/answer"
)

// extractiveVault writes a small campaign: three sessions in which Vesper
// appears, one without him, and a DM-only note that names Morgrath.
func extractiveVault(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sesiones", "campaña.md"), `# Campaña

## Sesión 1

Llegamos a Puertoguijarro bajo la lluvia. Vesper Quillon nos recibe en el Gremio del Farol y nos da un mapa de las criptas.
El posadero nos cobra tres monedas por la cena.

## Sesión 2

Cruzamos el pantano sin novedad. Los mosquitos no dan tregua a nadie.
Vesper Quillon nos traiciona y vende el mapa a la Guardia de Ceniza.

## Sesión 3

Descansamos en la posada y reparamos las armas.
Nadie habla del pantano.

## Sesión 4

Encontramos a Vesper Quillon en la cárcel de la Puerta del Serpa, y lo sacamos escondido en un saco de harina.
`)
	write(t, filepath.Join(dir, "NPCs", "secreto.md"), "---\nvisibility: dm\n---\n# Secreto\n\nMorgrath el Velado mueve los hilos del Gremio del Farol desde las sombras.\n")
	return dir
}

// TestAskExtractiveTimelineAndHonesty asks through the Engine, with a real
// SQLite index and no model: an arc question is answered as a timeline,
// one cited sentence per session that names its subject, in session
// order; question words and inflections are never said to be missing
// from the notes; a name only a DM-only note uses reads to a player as a
// name no note uses, and nothing of that note reaches the answer.
func TestAskExtractiveTimelineAndHonesty(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{extractiveVault(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}

	a, err := eng.Ask(ctx, "¿Qué papel ha jugado Vesper Quillon?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	var cited []string // the sessions cited, in order, each line's once
	for _, c := range a.Citations {
		if c.Valid && (len(cited) == 0 || cited[len(cited)-1] != c.Label) {
			cited = append(cited, c.Label)
		}
	}
	if got, want := strings.Join(cited, ", "), "Sesión 1, Sesión 2, Sesión 4"; got != want {
		t.Errorf("timeline cites %s, want %s:\n%s", got, want, a.Answer)
	}
	if a.Grounding != "direct" {
		t.Errorf("timeline grounding %q, want direct:\n%s", a.Grounding, a.Answer)
	}
	for i := 1; i < len(a.Evidence); i++ {
		if a.Evidence[i].Kind == "full" && a.Evidence[i-1].Kind == "full" && a.Evidence[i].Label < a.Evidence[i-1].Label {
			t.Errorf("evidence not in session order: %q before %q", a.Evidence[i-1].Label, a.Evidence[i].Label)
		}
	}

	for _, q := range []string{
		"¿Adónde llevó el joven Vesper Quillon el mapa cuando nos traicionó?",
		"¿Por qué echaran a Vesper Quillon a la cárcel de la Puerta del Serpa?",
	} {
		a, err := eng.Ask(ctx, q, oraculo.AskOptions{Extractive: true})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(a.Answer, "Ninguna nota menciona") || a.Abstained {
			t.Errorf("%q: answered %q (abstained %v)", q, a.Answer, a.Abstained)
		}
	}

	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	secret, err := eng.Ask(player, "¿Quién es Morgrath?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := eng.Ask(player, "¿Quién es Zarquifol?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(secret.Answer, "Ninguna nota menciona «Morgrath».") || !strings.HasPrefix(unknown.Answer, "Ninguna nota menciona «Zarquifol».") {
		t.Errorf("a player's answers about a DM-only name and an unknown one differ in kind:\n%s\n%s", secret.Answer, unknown.Answer)
	}
	if strings.Contains(secret.Answer, "Velado") || strings.Contains(secret.Answer, "sombras") {
		t.Errorf("a player's answer quotes a DM-only note: %q", secret.Answer)
	}
	dm, err := eng.Ask(oraculo.WithRole(ctx, oraculo.RoleDM), "¿Quién es Morgrath?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dm.Answer, "Ninguna nota menciona") {
		t.Errorf("the DM is told no note mentions a name a DM-only note uses: %q", dm.Answer)
	}
}

// TestAskEmptyIndex: an index with no notes says so, in the question's
// language, rather than that no note mentions the question's words.
func TestAskEmptyIndex(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	for _, tt := range []struct{ q, want string }{
		{"hola", "El índice está vacío"},
		{"¿Quién es Vesper?", "El índice está vacío"},
		{"Who is Vesper?", "The index is empty"},
	} {
		a, err := eng.Ask(ctx, tt.q, oraculo.AskOptions{Extractive: true})
		if err != nil {
			t.Fatalf("%q: %v", tt.q, err)
		}
		if !strings.HasPrefix(a.Answer, tt.want) || strings.Contains(a.Answer, "menciona") || strings.Contains(a.Answer, "mentions") || !a.Abstained {
			t.Errorf("%q on an empty index: %q (abstained %v)", tt.q, a.Answer, a.Abstained)
		}
	}
	player, err := eng.Ask(oraculo.WithRole(ctx, oraculo.RolePlayer), "¿Quién es Vesper?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if player.Answer != "Todavía no hay notas que consultar." {
		t.Errorf("a player on an empty index: %q", player.Answer)
	}
}

// TestAskExtractiveTimelineReadsMoreSessions: without a model, a question
// about a history reads more sessions than a model is shown
// (answer.TimelineFull), in session order, and still answers one line per
// session, at most answer.TimelineSentences.
func TestAskExtractiveTimelineReadsMoreSessions(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	dir := t.TempDir()
	places := []string{"el puerto", "la cripta", "el pantano", "la torre", "el mercado", "la cárcel",
		"el bosque", "la mina", "el templo", "la aldea", "el río", "la muralla"}
	var b strings.Builder
	b.WriteString("# Campaña\n")
	for i, p := range places {
		fmt.Fprintf(&b, "\n## Sesión %d\n\nVesper Quillon nos espera en %s con noticias del gremio.\nEl grupo descansa y sigue su camino.\n", i+1, p)
	}
	write(t, filepath.Join(dir, "sesiones", "campaña.md"), b.String())
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	a, err := eng.Ask(ctx, "¿Qué papel ha jugado Vesper Quillon?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Context.Full <= answer.DefaultFull || a.Context.Full > answer.TimelineFull {
		t.Errorf("timeline read %d full chunks, want more than %d, at most %d", a.Context.Full, answer.DefaultFull, answer.TimelineFull)
	}
	prev := 0
	for _, e := range a.Evidence {
		if e.Kind != "full" {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(e.Label, "Sesión %d", &n); err != nil || n < prev {
			t.Errorf("evidence %q not in session order (after session %d)", e.Label, prev)
		}
		prev = n
	}
	if lines := strings.Count(a.Answer, "\n- ") + 1; lines > answer.TimelineSentences || lines < 2 {
		t.Errorf("timeline of %d lines:\n%s", lines, a.Answer)
	}
}
