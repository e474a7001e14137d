package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
)

// errDoctorFailed ends doctor with exit status 1 once it has said what
// does not work.
var errDoctorFailed = errors.New("doctor found problems")

// ollamaModel is what an Ollama client says of itself.
type ollamaModel interface {
	BaseURL() string
	Model() string
}

// doctorFlags are doctor's flags.
type doctorFlags struct {
	index   *indexFlags
	models  *modelFlags
	timeout *time.Duration
}

func newDoctorFlags(name string, stderr io.Writer) (*flag.FlagSet, *doctorFlags) {
	fs, ix := newIndexFlags(name, stderr)
	f := &doctorFlags{index: ix, models: newModelFlags(fs)}
	f.timeout = fs.Duration("timeout", 30*time.Second, "longest wait for each server")
	return fs, f
}

// cmdDoctor checks what Oráculo needs, one line each: the index, the
// embedding server and the chat model (for Ollama, whether the model is
// pulled, with the command that pulls it), each tried once, with how long
// it took. It exits 1 when something configured does not work.
func cmdDoctor(ctx context.Context, f *doctorFlags, rest []string, s stdio) error {
	if len(rest) > 0 {
		return usageError{errors.New(msg("doctor-args", strings.Join(rest, " ")))}
	}
	d := &doctor{out: s.out, timeout: *f.timeout}
	if err := d.checkBackend(ctx, f.index); err != nil {
		return err
	}
	var warnings []string
	eng, err := f.models.open(ctx, f.index, func(s string) { warnings = append(warnings, engineText(s)) })
	if err != nil {
		d.say("✗", msg("doctor-index"), err.Error())
		return errDoctorFailed
	}
	defer eng.Close()
	if !d.checkIndex(ctx, eng) {
		return errDoctorFailed
	}
	d.tryEmbedder(ctx, eng)
	d.tryChat(ctx, eng)
	for _, w := range warnings {
		if w != engineText(msg("no-chat-model")) { // said above
			fmt.Fprintln(s.out, msg("warning", w))
		}
	}
	if d.failed {
		return errDoctorFailed
	}
	return nil
}

// doctor says what works, one line each, and remembers a failure.
type doctor struct {
	out     io.Writer
	timeout time.Duration
	failed  bool
}

func (d *doctor) say(state, what, detail string) {
	fmt.Fprintf(d.out, "%s %s: %s\n", state, what, detail)
	if state == "✗" {
		d.failed = true
	}
}

// checkBackend says where the index is, and for a cluster whether it
// answers, before the index: "cannot reach" is told apart from "no index
// there". It fails with errDoctorFailed when the cluster cannot be
// opened.
func (d *doctor) checkBackend(ctx context.Context, ix *indexFlags) error {
	l, err := ix.location()
	if err != nil {
		return err
	}
	if !l.cluster() {
		d.say("✓", msg("doctor-backend"), l.describe())
		return nil
	}
	t0 := time.Now()
	tctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	ws, err := ix.connect(tctx, l, true)
	switch {
	case errors.Is(err, oraculo.ErrNotIndexed):
		d.say("✓", msg("doctor-backend"), l.describe())
	case err != nil:
		d.say("✗", msg("doctor-backend"), l.describe()+": "+err.Error())
		return errDoctorFailed
	default:
		nodes, healthy, err := ws.Nodes(tctx)
		if err != nil {
			d.say("✗", msg("doctor-backend"), l.describe()+": "+err.Error())
		} else {
			d.say("✓", msg("doctor-backend"), l.describe()+": "+msg("doctor-weaviate-ok", ws.Version(), healthy, nodes, time.Since(t0).Round(time.Millisecond)))
		}
	}
	return nil
}

// checkIndex says what the index holds; false when it cannot be read.
func (d *doctor) checkIndex(ctx context.Context, eng *oraculo.Engine) bool {
	st, err := eng.Stats(ctx)
	if err != nil {
		d.say("✗", msg("doctor-index"), err.Error())
		return false
	}
	d.say("✓", msg("doctor-index"), msg("doctor-index-ok", st.Path, st.Documents, st.Chunks, strings.Join(st.Retrieval.Paths, ", ")))
	if st.Documents > 0 && len(st.Langs) > 0 {
		d.say("✓", msg("doctor-langs"), langDoctor(st.Settings.Lang, st.Langs))
	}
	return true
}

// tryEmbedder embeds a question once, saying how long it took.
func (d *doctor) tryEmbedder(ctx context.Context, eng *oraculo.Engine) {
	em := eng.Embedder()
	if em == nil {
		d.say("–", msg("doctor-embedder"), msg("doctor-embedder-off"))
		return
	}
	if !checkOllama(ctx, d.timeout, em, msg("doctor-embedder"), d.say) {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, d.timeout)
	t0 := time.Now()
	dims, err := oraculo.ProbeEmbedder(tctx, em, "¿Quién cruzó el puente?")
	cancel()
	switch {
	case err != nil:
		d.say("✗", msg("doctor-embedder"), err.Error())
	case dims == 0:
		d.say("✗", msg("doctor-embedder"), msg("doctor-embedder-empty", em.ID()))
	default:
		d.say("✓", msg("doctor-embedder"), msg("doctor-embedder-ok", em.ID(), dims, time.Since(t0).Round(time.Millisecond)))
	}
}

// tryChat asks the chat model for one word, saying how long it took.
func (d *doctor) tryChat(ctx context.Context, eng *oraculo.Engine) {
	cm := eng.ChatModel()
	if cm == nil {
		d.say("–", msg("doctor-chat"), msg("doctor-chat-off"))
		return
	}
	if !checkOllama(ctx, d.timeout, cm, msg("doctor-chat"), d.say) {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, d.timeout)
	t0 := time.Now()
	reply, err := oraculo.ProbeChat(tctx, cm, "Responde solo con la palabra: listo")
	cancel()
	if err != nil {
		d.say("✗", msg("doctor-chat"), err.Error())
		return
	}
	d.say("✓", msg("doctor-chat"), msg("doctor-chat-ok", cm.ID(), time.Since(t0).Round(time.Millisecond), clipLine(reply, 40)))
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
