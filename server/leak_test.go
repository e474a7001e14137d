package server

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/eval/leakcheck"
)

// TestSampleLeak is the leak test over HTTP: with the sample campaign's
// DM/ folder, hundreds of player requests (questions aimed at the secrets
// in their own words, through search, ask, streamed ask, the chat
// completions endpoint and the Responses API, whole and streamed; every
// compendium lookup; every DM-only chunk id and note path) return no
// DM-only text, label, id or file. The chat model is a fake that repeats
// the evidence it was shown. Under -short and -race, the questions are
// aimed at every eighth secret.
func TestSampleLeak(t *testing.T) {
	ctx := context.Background()
	eng, secrets := leakSetup(t, "../examples/campaign")
	ids, files, questions := secrets.IDs, secrets.Files, secrets.Questions
	if len(ids) == 0 || len(secrets.Sentences) < 20 {
		t.Fatalf("the sample should have DM-only notes: %d chunks, %d sentences", len(ids), len(secrets.Sentences))
	}

	tokens, player, dm := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})
	secret := secrets.Matcher()
	requests := 0
	leaks := func(what string, data []byte) {
		t.Helper()
		requests++
		for _, l := range secret.Find(data) {
			t.Errorf("%s shows a player the DM's %s", what, l)
		}
	}
	for i, q := range leakSample(questions) {
		resp, data := call(t, ts, "POST", "/api/search", player, map[string]any{"question": q, "k": 20})
		wantStatus(t, resp, data, 200)
		leaks("search "+q, stripQuestion(data, q))
		switch i % 4 {
		case 0:
			resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q})
		case 1:
			resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q, "stream": true})
		case 2:
			resp, data = call(t, ts, "POST", "/v1/responses", player, map[string]any{"model": "oraculo", "input": q, "stream": i%8 == 2})
		default:
			resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": "oraculo",
				"messages": []map[string]string{{"role": "user", "content": q}}})
		}
		wantStatus(t, resp, data, 200)
		leaks("ask "+q, stripQuestion(data, q))
	}
	for i, id := range ids {
		resp, data := call(t, ts, "GET", "/api/chunks/"+id, player, nil)
		wantStatus(t, resp, data, 404)
		leaks("chunk "+id, data)
		resp, data = call(t, ts, "GET", "/api/note?file="+url.QueryEscape(files[i]), player, nil)
		wantStatus(t, resp, data, 404)
		leaks("note "+files[i], data)
		// The DM does see them: the check can fail.
		resp, data = call(t, ts, "GET", "/api/chunks/"+id, dm, nil)
		wantStatus(t, resp, data, 200)
	}
	resp, data := call(t, ts, "GET", "/api/compendium", player, nil)
	wantStatus(t, resp, data, 200)
	leaks("compendium", data)
	dmComp, err := eng.Compendium(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range dmComp {
		for _, name := range append([]string{en.Name}, en.Aliases...) {
			resp, data := call(t, ts, "GET", "/api/compendium/"+url.PathEscape(name), player, nil)
			if resp.StatusCode != 200 && resp.StatusCode != 404 {
				t.Fatalf("compendium %q: status %d", name, resp.StatusCode)
			}
			leaks("compendium "+name, data)
		}
	}
	if requests < 200 {
		t.Errorf("%d player requests; the leak test wants at least 200", requests)
	}
	t.Logf("%d player requests over HTTP, %d DM-only chunks, %d secret sentences", requests, len(ids), len(secrets.Sentences))
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

// stripQuestion drops a question from a response before it is checked:
// questions echo back in "question" and "query".
func stripQuestion(data []byte, q string) []byte {
	for _, enc := range []string{q, strings.ReplaceAll(q, `"`, `\"`)} {
		data = bytes.ReplaceAll(data, []byte(enc), nil)
	}
	return data
}

// leakSetup ingests notes into a new engine with an echoing model (see
// echoModel) and returns it with the secrets of its DM/ folder, decided
// without the engine's filter.
func leakSetup(t *testing.T, notes string) (*oraculo.Engine, leakcheck.Secrets) {
	ctx := context.Background()
	db := t.TempDir() + "/o.db"
	ingester, err := oraculo.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ingester.Close() })
	if _, err := ingester.Ingest(ctx, []string{notes}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	eng, err := oraculo.Open(ctx, db, echoModel(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	all, err := eng.Chunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return eng, leakcheck.Collect(all, func(c oraculo.ChunkInfo) bool { return strings.HasPrefix(c.File, "DM/") })
}

// echoModel is a fake chat model that repeats all the evidence it was
// shown (whatever reached the model reaches the answer), as an engine's
// option. Its replies stream in pieces of echoWords words: the echo is
// pages long, and the engine reads the whole text so far at each piece
// (answer.VerifyAsItGoes), so word by word would cost the leak tests most
// of their time without changing what the answer says.
func echoModel(t *testing.T) oraculo.Option {
	srv := chattest.NewOllama(t, func(c chattest.Call) string {
		text := c.Text(chat.RoleUser)
		if i := strings.LastIndex(text, "Pregunta:"); i >= 0 {
			text = text[:i] // the question is the player's own words
		}
		return text
	})
	srv.Cut(func(text string) []string {
		words := chattest.Pieces(text)
		var out []string
		for i := 0; i < len(words); i += echoWords {
			out = append(out, strings.Join(words[i:min(i+echoWords, len(words))], ""))
		}
		return out
	})
	return oraculo.WithChatModel(chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "fake"}))
}

// echoWords is how many words each piece of echoModel's stream holds.
const echoWords = 16

// TestLeakDuringReingest runs the leak test's requests while the serving
// engine re-ingests the sample with its DM notes edited, again and again:
// an edited note is deleted and written anew, and no player request may
// see it at any moment of that (nor after a run that did not finish).
func TestLeakDuringReingest(t *testing.T) {
	ctx := context.Background()
	notes := t.TempDir()
	if err := os.CopyFS(notes, os.DirFS("../examples/campaign")); err != nil {
		t.Fatal(err)
	}
	eng, secrets := leakSetup(t, notes)
	// Every edit adds this sentence to every DM note: it is a secret too.
	const edit = "Revisión secreta del máster para la próxima sesión número"
	secrets.Sentences = append(secrets.Sentences, edit)
	secret := secrets.Matcher()
	dmNotes, err := filepath.Glob(filepath.Join(notes, "DM", "*.md"))
	if err != nil || len(dmNotes) == 0 {
		t.Fatalf("no DM notes to edit: %v", err)
	}
	originals := map[string][]byte{}
	for _, p := range dmNotes {
		if originals[p], err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}

	tokens, player, _ := testTokens(t)
	ts, _ := testServer(t, Config{Engine: eng, Tokens: tokens})

	// Re-ingest edited DM notes until the requests are done.
	var ingesting atomic.Bool
	var runs atomic.Int64
	stop := make(chan struct{})
	ingestErr := make(chan error, 1)
	go func() {
		defer close(ingestErr)
		for n := 1; ; n++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, p := range dmNotes {
				text := append(append([]byte{}, originals[p]...), fmt.Sprintf("\n\n%s %d.\n", edit, n)...)
				if err := os.WriteFile(p, text, 0o644); err != nil {
					ingestErr <- err
					return
				}
			}
			ingesting.Store(true)
			_, err := eng.Ingest(ctx, []string{notes}, oraculo.IngestOptions{})
			ingesting.Store(false)
			if err != nil {
				ingestErr <- err
				return
			}
			runs.Add(1)
		}
	}()

	// 500 requests during re-ingests; under the race detector, which is
	// there to find races rather than leaks, and under -short, 100 do.
	want := 500
	if raceDetector || testing.Short() {
		want = 100
	}
	during, total := 0, 0
	deadline := time.Now().Add(3 * time.Minute)
	for i := 0; during < want && time.Now().Before(deadline); i++ {
		busy := ingesting.Load()
		var resp *http.Response
		var data []byte
		what := ""
		switch q := secrets.Questions[i%len(secrets.Questions)]; i % 6 {
		case 0, 1:
			what = "search " + q
			resp, data = call(t, ts, "POST", "/api/search", player, map[string]any{"question": q, "k": 20})
			data = stripQuestion(data, q)
		case 2:
			what = "ask " + q
			resp, data = call(t, ts, "POST", "/api/ask", player, map[string]any{"question": q, "stream": i%12 == 2})
			data = stripQuestion(data, q)
		case 3:
			what = "openai " + q
			resp, data = call(t, ts, "POST", "/v1/chat/completions", player, map[string]any{"model": "oraculo",
				"messages": []map[string]string{{"role": "user", "content": q}}})
			data = stripQuestion(data, q)
		case 4:
			f := secrets.Files[i%len(secrets.Files)]
			what = "note " + f
			resp, data = call(t, ts, "GET", "/api/note?file="+url.QueryEscape(f), player, nil)
		default:
			what = "compendium"
			resp, data = call(t, ts, "GET", "/api/compendium", player, nil)
		}
		if resp.StatusCode != 200 && resp.StatusCode != 404 {
			t.Fatalf("%s: status %d: %s", what, resp.StatusCode, data)
		}
		for _, l := range secret.Find(data) {
			t.Errorf("%s (ingest running: %v) shows a player the DM's %s", what, busy, l)
		}
		total++
		if busy || ingesting.Load() {
			during++
		}
	}
	close(stop)
	if err := <-ingestErr; err != nil {
		t.Fatal(err)
	}
	if during < want {
		t.Fatalf("only %d of %d player requests overlapped a re-ingest (%d runs); the test wants %d", during, total, runs.Load(), want)
	}
	t.Logf("%d player requests, %d during one of %d re-ingests of edited DM notes", total, during, runs.Load())
}
