package oraculo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/index"
)

// dmSecrets returns what a player must never see of the sample campaign:
// every DM-only chunk (id, label, file) and the sentences of DM-only notes
// that no note players may see also says.
type dmSecrets struct {
	ids, labels, files []string
	sentences          []string
	questions          []string
}

var sentenceEnd = regexp.MustCompile(`[.!?\n]+`)

func collectSecrets(t *testing.T, ctx context.Context, eng *oraculo.Engine) dmSecrets {
	t.Helper()
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The sample's secrets are its DM/ folder (the default secret folder),
	// decided here without asking the engine.
	seen := map[string]bool{}
	var publicText strings.Builder
	for _, c := range all {
		if !strings.HasPrefix(c.File, "DM/") {
			seen[c.ID] = true
			publicText.WriteString(strings.ToLower(c.Text))
		}
	}
	var s dmSecrets
	for _, c := range all {
		if seen[c.ID] {
			continue
		}
		s.ids = append(s.ids, c.ID)
		s.labels = append(s.labels, c.Label)
		s.files = append(s.files, c.File)
		for _, sent := range sentenceEnd.Split(c.Text, -1) {
			sent = strings.TrimSpace(strings.Trim(sent, "-*#> "))
			if len(strings.Fields(sent)) >= 6 && !strings.Contains(publicText.String(), strings.ToLower(sent)) {
				s.sentences = append(s.sentences, sent)
				// Questions aimed at the secret: its own words.
				s.questions = append(s.questions, sent, "¿Qué sabemos de esto? "+sent)
			}
		}
		s.questions = append(s.questions, c.Label, strings.Join(c.Headings, " "))
	}
	if len(s.ids) == 0 || len(s.sentences) < 20 {
		t.Fatalf("the sample should have DM-only notes: %d chunks, %d secret sentences", len(s.ids), len(s.sentences))
	}
	return s
}

// leaks returns what of the secrets appears in v's JSON.
func (s dmSecrets) leaks(v any) []string {
	data, _ := json.Marshal(v)
	text := string(data)
	var out []string
	for _, id := range s.ids {
		if strings.Contains(text, `"`+id+`"`) {
			out = append(out, "id "+id)
		}
	}
	for i, f := range s.files {
		if strings.Contains(text, f) {
			out = append(out, "file "+f)
		}
		if l := s.labels[i]; strings.HasPrefix(l, "DM") && strings.Contains(text, `"`+l) {
			out = append(out, "label "+l)
		}
	}
	var plain string
	_ = json.Unmarshal(data, &plain)
	lower := strings.ToLower(text)
	for _, sent := range s.sentences {
		b, _ := json.Marshal(strings.ToLower(sent))
		if strings.Contains(lower, strings.Trim(string(b), `"`)) {
			out = append(out, "text "+sent)
		}
	}
	return out
}

// TestPlayersNeverSeeDMNotes asks, as a player, hundreds of questions aimed
// at the sample's DM-only notes (their own sentences, labels and
// headings), looks up every entity and every DM-only chunk id, and checks
// that no DM-only id, file, label or sentence comes back: not in search
// hits, answers, evidence, summaries, candidates, citations, the
// compendium or errors. The chat model is a fake that cites everything it
// was shown, so a leak into the context would surface.
func TestPlayersNeverSeeDMNotes(t *testing.T) {
	ctx := context.Background()
	eng, _ := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{sampleDir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	secrets := collectSecrets(t, ctx, eng)
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		// Repeat everything the model was shown: a leak into the prompt
		// becomes a leak into the answer.
		text := c.Text(chat.RoleUser)
		if i := strings.LastIndex(text, "Pregunta:"); i >= 0 {
			text = text[:i] // the question is the player's own
		}
		return text
	})
	player := oraculo.WithRole(ctx, oraculo.RolePlayer)
	requests := 0
	check := func(what string, v any) {
		t.Helper()
		requests++
		if l := secrets.leaks(v); len(l) > 0 {
			t.Errorf("%s leaks %d secrets, e.g. %q", what, len(l), l[0])
		}
	}
	for i, q := range secrets.questions {
		hits, err := eng.Search(player, q, oraculo.SearchOptions{K: 20})
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("search %q", q), hits)
		if i%3 == 0 {
			eng.SetChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))
		} else {
			eng.SetChatModel(nil)
		}
		a, err := eng.Ask(player, q, oraculo.AskOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The question is the player's own words: what comes back is checked.
		a.Question, a.Query = "", ""
		check(fmt.Sprintf("ask %q", q), a)
	}
	for _, id := range secrets.ids {
		_, err := eng.Chunk(player, id)
		if !errors.Is(err, index.ErrNoChunk) {
			t.Errorf("chunk %s as a player: %v, want ErrNoChunk", id, err)
		}
		check("chunk error", err.Error())
		if _, err := eng.Chunk(ctx, id); err != nil {
			t.Errorf("chunk %s as the DM: %v", id, err)
		}
	}
	for _, f := range secrets.files {
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
	t.Logf("%d player requests, %d DM-only chunks, %d secret sentences", requests, len(secrets.ids), len(secrets.sentences))

	// The same questions as the DM do reach the secrets (the test can fail).
	hits, err := eng.Search(ctx, secrets.sentences[0], oraculo.SearchOptions{K: 5})
	if err != nil || len(secrets.leaks(hits)) == 0 {
		t.Errorf("the DM's search for %q finds no DM note: the leak check would see nothing", secrets.sentences[0])
	}
}
