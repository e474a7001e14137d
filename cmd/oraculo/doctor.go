package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/embed"
)

// errDoctorFailed ends doctor with exit status 1 once it has said what
// does not work.
var errDoctorFailed = errors.New("doctor found problems")

// ollamaModel is what an Ollama client says of itself.
type ollamaModel interface {
	BaseURL() string
	Model() string
}

// cmdDoctor checks what Oráculo needs, one line each: the index, the
// embedding server and the chat model (for Ollama, whether the model is
// pulled, with the command that pulls it), each tried once, with how long
// it took. It exits 1 when something configured does not work.
func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, ix := newIndexFlags("doctor", stderr)
	models := newModelFlags(fs)
	timeout := fs.Duration("timeout", 30*time.Second, "longest wait for each server")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError{errors.New(msg("doctor-args", strings.Join(rest, " ")))}
	}
	failed := false
	say := func(state, what, detail string) {
		fmt.Fprintf(stdout, "%s %s: %s\n", state, what, detail)
		if state == "✗" {
			failed = true
		}
	}
	// Where the index is, and for a cluster whether it answers, before
	// the index: "cannot reach" is told apart from "no index there".
	l, err := ix.location()
	if err != nil {
		return err
	}
	if l.cluster() {
		t0 := time.Now()
		tctx, cancel := context.WithTimeout(ctx, *timeout)
		ws, err := ix.connect(tctx, l, true)
		switch {
		case errors.Is(err, oraculo.ErrNotIndexed):
			say("✓", msg("doctor-backend"), l.describe())
		case err != nil:
			cancel()
			say("✗", msg("doctor-backend"), l.describe()+": "+err.Error())
			return errDoctorFailed
		default:
			nodes, healthy, err := ws.Nodes(tctx)
			if err != nil {
				say("✗", msg("doctor-backend"), l.describe()+": "+err.Error())
			} else {
				say("✓", msg("doctor-backend"), l.describe()+": "+msg("doctor-weaviate-ok", ws.Version(), healthy, nodes, time.Since(t0).Round(time.Millisecond)))
			}
		}
		cancel()
	} else {
		say("✓", msg("doctor-backend"), l.describe())
	}
	var warnings []string
	eng, err := models.open(ctx, ix, func(s string) { warnings = append(warnings, engineText(s)) })
	if err != nil {
		say("✗", msg("doctor-index"), err.Error())
		return errDoctorFailed
	}
	defer eng.Close()
	st, err := eng.Stats(ctx)
	if err != nil {
		say("✗", msg("doctor-index"), err.Error())
		return errDoctorFailed
	}
	say("✓", msg("doctor-index"), msg("doctor-index-ok", st.Path, st.Documents, st.Chunks, strings.Join(st.Retrieval.Paths, ", ")))
	if st.Documents > 0 && len(st.Langs) > 0 {
		say("✓", msg("doctor-langs"), langDoctor(st.Settings.Lang, st.Langs))
	}

	if em := eng.Embedder(); em == nil {
		say("–", msg("doctor-embedder"), msg("doctor-embedder-off"))
	} else if checkOllama(ctx, *timeout, em, msg("doctor-embedder"), say) {
		tctx, cancel := context.WithTimeout(ctx, *timeout)
		t0 := time.Now()
		vecs, err := em.Embed(tctx, embed.Query, []string{"¿Quién cruzó el puente?"})
		cancel()
		switch {
		case err != nil:
			say("✗", msg("doctor-embedder"), err.Error())
		case len(vecs) != 1 || len(vecs[0]) == 0:
			say("✗", msg("doctor-embedder"), msg("doctor-embedder-empty", em.ID()))
		default:
			say("✓", msg("doctor-embedder"), msg("doctor-embedder-ok", em.ID(), len(vecs[0]), time.Since(t0).Round(time.Millisecond)))
		}
	}
	if cm := eng.ChatModel(); cm == nil {
		say("–", msg("doctor-chat"), msg("doctor-chat-off"))
	} else if checkOllama(ctx, *timeout, cm, msg("doctor-chat"), say) {
		tctx, cancel := context.WithTimeout(ctx, *timeout)
		t0 := time.Now()
		reply, err := cm.Chat(tctx, chat.Request{Messages: []chat.Message{{Role: chat.RoleUser, Content: "Responde solo con la palabra: listo"}}, MaxTokens: 16}, nil)
		cancel()
		if err != nil {
			say("✗", msg("doctor-chat"), err.Error())
		} else {
			say("✓", msg("doctor-chat"), msg("doctor-chat-ok", cm.ID(), time.Since(t0).Round(time.Millisecond), clipLine(reply, 40)))
		}
	}
	for _, w := range warnings {
		if w != engineText(msg("no-chat-model")) { // said above
			fmt.Fprintln(stdout, msg("warning", w))
		}
	}
	if failed {
		return errDoctorFailed
	}
	return nil
}

// checkOllama lists an Ollama server's models (GET /api/tags) and says
// when the one configured is not among them, with the command that pulls
// it; false when the server cannot be reached (nothing more to try).
// Other servers are left to the call that follows.
func checkOllama(ctx context.Context, timeout time.Duration, m any, what string, say func(state, what, detail string)) bool {
	o, ok := m.(ollamaModel)
	if !ok {
		return true
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, strings.TrimSuffix(o.BaseURL(), "/")+"/api/tags", nil)
	if err != nil {
		return true
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		say("✗", what, msg("doctor-ollama-down", o.BaseURL(), err))
		return false
	}
	defer resp.Body.Close()
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&tags) != nil {
		say("✗", what, msg("doctor-ollama-tags", o.BaseURL(), resp.Status))
		return true
	}
	var names []string
	for _, t := range tags.Models {
		names = append(names, t.Name)
	}
	slices.Sort(names)
	want := o.Model()
	if !slices.Contains(names, want) && !slices.Contains(names, want+":latest") {
		say("✗", what, msg("doctor-ollama-missing", want, o.BaseURL(), strings.Join(names, ", "), want))
	}
	return true
}

// clipLine is s on one line, cut to n runes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
