package oraculo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/store"
)

// TestUntilSessionRestrictsEveryPath: an "until" filter, explicit or read
// from the question, restricts every path before ranking to the sessions
// up to it (a note of no session is left out), alone and fused; one
// before every session matches nothing.
func TestUntilSessionRestrictsEveryPath(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t, oraculo.WithEmbedder(oraculo.EmbedderConfig{Provider: oraculo.ProviderHashing}))
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	const until = 8
	upTo := func(h oraculo.Hit) bool { return h.Session != nil && *h.Session <= until }
	q := "Rhosyn Calatrava archiduque Guardia de Ceniza"
	for _, paths := range [][]string{{"bm25"}, {"dense"}, {"entity"}, nil} {
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 20, Paths: paths, Filter: store.Filter{UntilSession: until}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if !upTo(h) {
				t.Errorf("paths %v: %s (%s) is after session %d or of none", paths, h.Label, h.File, until)
			}
		}
		if len(hits) == 0 && (paths == nil || paths[0] != "entity") {
			t.Errorf("paths %v: nothing found up to session %d", paths, until)
		}
	}
	// Without it the same search goes elsewhere: the check can fail.
	outside := 0
	hits, _ := eng.Search(ctx, q, oraculo.SearchOptions{K: 20})
	for _, h := range hits {
		if !upTo(h) {
			outside++
		}
	}
	if outside == 0 {
		t.Errorf("unfiltered, every hit is up to session %d anyway: a weak case", until)
	}
	// From the question: the same restriction, shown in the analysis.
	var an oraculo.QueryAnalysis
	hits, err := eng.Search(ctx, "¿Qué sabíamos de Rhosyn hasta la sesión 8?", oraculo.SearchOptions{K: 20, Analysis: &an})
	if err != nil || an.Filters.UntilSession != until || an.Said == "" || len(hits) == 0 {
		t.Errorf("from the question: %d hits, analysis %+v, %v", len(hits), an, err)
	}
	for _, h := range hits {
		if !upTo(h) {
			t.Errorf("from the question: %s is after session %d", h.Label, until)
		}
	}
	// And with another filter, both hold; a range with no session in it
	// matches nothing (not everything).
	hits, err = eng.Search(ctx, q, oraculo.SearchOptions{K: 20, Filter: store.Filter{Sessions: []int{3, 20}, UntilSession: until}})
	for _, h := range hits {
		if h.Session == nil || *h.Session != 3 {
			t.Errorf("sessions 3, 20 until %d: %s", until, h.Label)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []store.Filter{{Sessions: []int{20}, UntilSession: until}, {UntilSession: 1 << 30, Sessions: []int{999}}} {
		if hits, err := eng.Search(ctx, q, oraculo.SearchOptions{Filter: f}); err != nil || len(hits) != 0 {
			t.Errorf("%+v: %d hits, %v; want none", f, len(hits), err)
		}
	}
	// A player's "until" is the player's session filter over the sessions
	// the player may see: the same hits, the DM's notes left out as there.
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	var upToUntil []int
	for n := 1; n <= until; n++ {
		upToUntil = append(upToUntil, n)
	}
	for _, paths := range [][]string{{"bm25"}, nil} {
		got, err := eng.Search(player, q, oraculo.SearchOptions{K: 20, Paths: paths, Filter: store.Filter{UntilSession: until}})
		if err != nil {
			t.Fatal(err)
		}
		want, err := eng.Search(player, q, oraculo.SearchOptions{K: 20, Paths: paths, Filter: store.Filter{Sessions: upToUntil}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 || fmt.Sprint(ids(got)) != fmt.Sprint(ids(want)) {
			t.Errorf("paths %v: a player's until %d finds %v, the sessions up to it %v", paths, until, ids(got), ids(want))
		}
	}
}

// TestStateQuestionLatestFirst: between chunks the ranking cannot tell
// apart, a state question ("¿sigue vivo…?") ranks the latest session
// first, and an extractive answer that finds the state changed cites
// both sessions; another question keeps the fusion's order.
func TestStateQuestionLatestFirst(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// The same words in sessions 3 and 9: BM25 ties them; session 6 tells
	// a different state.
	write(t, dir+"/Sesiones/Sesión 3.md", "# Sesión 3\n\nHarbin Wester sigue vivo en la taberna de Puertogris.\n")
	write(t, dir+"/Sesiones/Sesión 9.md", "# Sesión 9\n\nHarbin Wester sigue vivo en la taberna de Puertogris.\n")
	write(t, dir+"/Sesiones/Sesión 6.md", "# Sesión 6\n\nDicen que Harbin Wester murió en el incendio del puerto.\n")
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	first := func(q string, noAnalysis bool) int {
		t.Helper()
		hits, err := eng.Search(ctx, q, oraculo.SearchOptions{K: 5, Paths: []string{"bm25"}, NoAnalysis: noAnalysis})
		if err != nil || len(hits) < 2 || hits[0].Session == nil {
			t.Fatalf("%q: %d hits, %v", q, len(hits), err)
		}
		return *hits[0].Session
	}
	q := "¿Sigue vivo Harbin Wester en la taberna de Puertogris?"
	if got := first(q, false); got != 9 {
		t.Errorf("a state question ranks session %d first, want the latest tied, 9", got)
	}
	if got := first(q, true); got != 3 {
		t.Errorf("without the analysis session %d is first; the tie-break decides nothing here (want 3)", got)
	}
	// Up to session 6, the latest tied is 3 and the change is in 6.
	a, err := eng.Ask(ctx, "En la sesión 6, ¿seguía vivo Harbin Wester?", oraculo.AskOptions{Extractive: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(a.Answer, "En la sesión 3") || !strings.Contains(a.Answer, "en la sesión 6") || a.Analysis.Filters.UntilSession != 6 {
		t.Errorf("the answer does not say the state changed from session 3 to 6 (analysis %+v):\n%s", a.Analysis, a.Answer)
	}
	for _, e := range a.Evidence {
		if strings.Contains(e.File, "9") {
			t.Errorf("the answer as of session 6 used %s", e.File)
		}
	}
}

func ids(hits []oraculo.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
