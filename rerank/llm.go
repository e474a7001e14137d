package rerank

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/chat"
)

// DefaultLLMTimeout is how long [LLM] waits for the model by default.
const DefaultLLMTimeout = 20 * time.Second

// LLM reranks with one call to a chat model, which is shown each
// candidate's annotation, never its text: measured on the design's bench
// (seed 000), recall was 0.93 with annotations, 0.87 with annotation and
// text, 0.73 with text alone, worse than not reranking. Use the model that
// writes the answers, so that the server keeps one model loaded.
//
// It keeps the fused order (see [Result.Fallback]) when a candidate has no
// annotation (without calling the model), when the model errs or does not
// answer within Timeout, and when the reply does not parse or names a
// candidate that is not in the list.
type LLM struct {
	Model chat.Model
	// Timeout bounds the call to the model; default DefaultLLMTimeout.
	Timeout time.Duration
	// Lang is the language of the prompt: "es" for Spanish, anything else
	// for English.
	Lang string
}

var _ Reranker = LLM{}

// Name implements [Reranker]: "llm/" and the model's ID.
func (r LLM) Name() string {
	if r.Model == nil {
		return "llm"
	}
	return "llm/" + r.Model.ID()
}

// Rerank implements [Reranker]. The model is asked for the ids of the best
// n candidates; ids it repeats are ignored, ids beyond the first n are
// dropped, and when it names fewer than n the rest follow in fused order.
// With fewer than two candidates the model is not called.
func (r LLM) Rerank(ctx context.Context, question string, cands []Candidate, n int) Result {
	start := time.Now()
	if len(cands) < 2 {
		return fallback(cands, "", start)
	}
	for _, c := range cands {
		if strings.TrimSpace(c.Annotation) == "" {
			return fallback(cands, "missing annotations", start)
		}
	}
	if r.Model == nil {
		return fallback(cands, "no model", start)
	}
	k := wanted(n, len(cands))
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultLLMTimeout
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reply, err := chatWithin(callCtx, r.Model, chat.Request{
		Messages: rerankPrompt(r.Lang, question, cands, k),
		JSON:     true,
		// Room for k ids however the model spaces them.
		MaxTokens: 32 + 8*k,
	})
	if err != nil {
		return fallback(cands, callFailure(callCtx, err), start)
	}
	best, reason := parseChoice(reply, len(cands), k)
	if reason != "" {
		return fallback(cands, reason, start)
	}
	return Result{Order: promote(cands, best), Reranked: true, Took: time.Since(start)}
}

// chatWithin calls the model and returns when it answers or when ctx is
// done, whichever comes first, so that the timeout holds even for a model
// that does not honour ctx.
func chatWithin(ctx context.Context, m chat.Model, req chat.Request) (string, error) {
	type answer struct {
		reply string
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		reply, err := m.Chat(ctx, req, nil)
		done <- answer{reply, err}
	}()
	select {
	case a := <-done:
		return a.reply, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// callFailure is the fallback reason for a failed call under ctx.
func callFailure(ctx context.Context, err error) string {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timeout"
	case ctx.Err() != nil:
		return "canceled"
	}
	return "model error: " + err.Error()
}

// rerankPrompt asks for the k best of cands for question, listing each
// candidate by its 1-based position and its annotation on one line. The
// format is described without example numbers, which models copy.
func rerankPrompt(lang, question string, cands []Candidate, k int) []chat.Message {
	var list strings.Builder
	for i, c := range cands {
		fmt.Fprintf(&list, "[%d] %s\n", i+1, strings.Join(strings.Fields(c.Annotation), " "))
	}
	question = strings.TrimSpace(question)
	if lang == "es" {
		task := fmt.Sprintf("Elige los %d fragmentos más útiles para responder a la pregunta, del más útil al menos útil.", k)
		if k == len(cands) {
			task = fmt.Sprintf("Ordena los %d fragmentos del más útil al menos útil para responder a la pregunta.", k)
		}
		return []chat.Message{
			{Role: chat.RoleSystem, Content: "Ordenas fragmentos de las notas de un usuario según lo útiles que son para responder a una pregunta. " +
				"Cada fragmento se presenta con un número y un resumen. Respondes solo con JSON."},
			{Role: chat.RoleUser, Content: "Pregunta: " + question + "\n\nFragmentos:\n" + list.String() + "\n" + task +
				` Usa solo números de la lista, cada uno una vez. Responde con un objeto JSON cuya clave "ids" sea la lista de esos números, como enteros y en ese orden.`},
		}
	}
	task := fmt.Sprintf("Choose the %d passages most useful for answering the question, most useful first.", k)
	if k == len(cands) {
		task = fmt.Sprintf("Order the %d passages from most to least useful for answering the question.", k)
	}
	return []chat.Message{
		{Role: chat.RoleSystem, Content: "You rank passages from a user's notes by how useful they are for answering a question. " +
			"Each passage is shown as a number and a summary. You reply with JSON only."},
		{Role: chat.RoleUser, Content: "Question: " + question + "\n\nPassages:\n" + list.String() + "\n" + task +
			` Use only numbers from the list, each once. Reply with a JSON object whose key "ids" is the list of those numbers, as integers, in that order.`},
	}
}

// parseChoice reads a reply holding {"ids": [...]}, possibly in a code
// fence or among prose, where each id is a 1-based position among total
// candidates. It returns up to k distinct 0-based positions in the order
// given, or a fallback reason: the reply holds no such object, an id is
// not an integer, or an id is not in the list.
func parseChoice(reply string, total, k int) ([]int, string) {
	ids, ok := findIDs(reply)
	if !ok {
		return nil, "unparseable reply"
	}
	seen := make([]bool, total)
	var best []int
	for _, raw := range ids {
		text, ok := idText(raw)
		if !ok {
			return nil, "unparseable reply"
		}
		id, err := strconv.Atoi(text)
		if err != nil || id < 1 || id > total {
			return nil, "unknown id " + text
		}
		if seen[id-1] {
			continue
		}
		seen[id-1] = true
		best = append(best, id-1)
	}
	if len(best) == 0 {
		return nil, "no ids in reply"
	}
	return best[:min(len(best), k)], ""
}

// findIDs returns the "ids" array of the first JSON object in s that has
// one.
func findIDs(s string) ([]json.RawMessage, bool) {
	for i := strings.IndexByte(s, '{'); i >= 0; {
		var v struct {
			IDs []json.RawMessage `json:"ids"`
		}
		// A Decoder reads one value and leaves whatever follows it.
		if err := json.NewDecoder(strings.NewReader(s[i:])).Decode(&v); err == nil && v.IDs != nil {
			return v.IDs, true
		}
		next := strings.IndexByte(s[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return nil, false
}

// idText returns an id written as a JSON integer or a string holding one
// (as some models write them), as decimal text.
func idText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		s = strings.TrimSpace(s)
	} else {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		s = n.String()
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s, true
	}
	// 3.0 is 3; 3.5 is no id.
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}
