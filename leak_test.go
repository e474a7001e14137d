package oraculo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/eval/leakcheck"
	"github.com/oraculo/oraculo/store"
)

// TestPlayersNeverSeeDMNotes asks, as a player, hundreds of questions aimed
// at the sample's DM-only notes (their own sentences, labels and
// headings), looks up every entity and every DM-only chunk id, and checks
// that no DM-only id, file, label or sentence comes back: not in search
// hits, answers, evidence, summaries, candidates, citations, the
// compendium or errors. The chat model is a fake that cites everything it
// was shown, so a leak into the context would surface. Under -short and
// -race, the questions are aimed at every eighth secret.
func TestPlayersNeverSeeDMNotes(t *testing.T) {
	ctx := context.Background()
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The sample's secrets are its DM/ folder (the default secret folder),
	// decided here without asking the engine.
	secrets := leakcheck.Collect(all, func(c oraculo.ChunkInfo) bool { return strings.HasPrefix(c.File, "DM/") })
	if len(secrets.IDs) == 0 || len(secrets.Sentences) < 20 {
		t.Fatalf("the sample should have DM-only notes: %d chunks, %d secret sentences", len(secrets.IDs), len(secrets.Sentences))
	}
	// Questions aimed at the secrets: their own words, and asked outright.
	var questions []string
	for _, q := range leakSample(secrets.Questions) {
		questions = append(questions, q, "¿Qué sabemos de esto? "+q)
	}
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		// Repeat everything the model was shown: a leak into the prompt
		// becomes a leak into the answer.
		text := c.Text(chat.RoleUser)
		if i := strings.LastIndex(text, "Pregunta:"); i >= 0 {
			text = text[:i] // the question is the player's own
		}
		return text
	})
	// Every third question is answered by the model, the others extractively.
	withModel := reopen(t, db, oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"})))
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	leaks := secrets.Matcher()
	requests := 0
	check := func(what string, v any) {
		t.Helper()
		requests++
		data, _ := json.Marshal(v)
		if l := leaks.Find(data); len(l) > 0 {
			t.Errorf("%s leaks %d secrets, e.g. %q", what, len(l), l[0])
		}
	}
	for i, q := range questions {
		hits, err := eng.Search(player, q, oraculo.SearchOptions{K: 20})
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("search %q", q), hits)
		asker := eng
		if i%3 == 0 {
			asker = withModel
		}
		a, err := asker.Ask(player, q, oraculo.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The question is the player's own words: what comes back is checked.
		a.Question, a.Query = "", ""
		check(fmt.Sprintf("ask %q", q), a)
	}
	for _, id := range secrets.IDs {
		_, err := eng.Chunk(player, id)
		if !errors.Is(err, store.ErrNoChunk) {
			t.Errorf("chunk %s as a player: %v, want ErrNoChunk", id, err)
		}
		check("chunk error", err.Error())
		if _, err := eng.Chunk(ctx, id); err != nil {
			t.Errorf("chunk %s as the DM: %v", id, err)
		}
	}
	for _, f := range secrets.Files {
		_, err := eng.Note(player, f)
		if !errors.Is(err, oraculo.ErrNoNote) {
			t.Errorf("note %s as a player: %v", f, err)
		}
	}
	comp, err := eng.Compendium(player)
	if err != nil {
		t.Fatal(err)
	}
	check("compendium", comp)
	dmComp, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range dmComp {
		for _, name := range append([]string{en.Name}, en.Aliases...) {
			got, ok, err := eng.FindEntity(player, name)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				check("entity "+name, got)
			} else {
				requests++
			}
		}
	}
	if _, ok, _ := eng.FindEntity(player, "El traidor"); ok {
		t.Error("the entity defined only by a DM note reaches players")
	}
	if requests < 200 {
		t.Errorf("only %d player requests; the leak test wants at least 200", requests)
	}
	t.Logf("%d player requests, %d DM-only chunks, %d secret sentences", requests, len(secrets.IDs), len(secrets.Sentences))

	// The same questions as the DM do reach the secrets (the test can fail).
	hits, err := eng.Search(ctx, secrets.Sentences[0], oraculo.SearchOptions{K: 5})
	data, _ := json.Marshal(hits)
	if err != nil || len(leaks.Find(data)) == 0 {
		t.Errorf("the DM's search for %q finds no DM note: the leak check would see nothing", secrets.Sentences[0])
	}
}

// leakSample keeps every eighth of xs under -short and under the race
// detector (there to find races, not leaks), all of them otherwise: the
// leak tests aim questions at every secret in a full run.
func leakSample[T any](xs []T) []T {
	if !testing.Short() && !raceDetector {
		return xs
	}
	var out []T
	for i := 0; i < len(xs); i += 8 {
		out = append(out, xs[i])
	}
	return out
}
