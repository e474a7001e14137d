// Package chattest fakes the chat servers package chat talks to, for the
// tests of code that uses a chat.Model:
//
//	srv := chattest.NewOllama(t, func(c chattest.Call) string { return `{"ids":[3,1]}` })
//	model := chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "m"})
//	... // use model
//	calls := srv.Calls() // what was asked: calls[0].Messages, calls[0].JSON
//
// The servers speak the real wire formats, streamed and not: Ollama's POST
// /api/chat (JSON lines) and OpenAI's POST /v1/chat/completions
// (server-sent events). Fail makes them misbehave the way real servers do:
// error statuses with the provider's error bodies, slowness, malformed
// output, a stream that stalls or a connection that drops.
//
// A thinking model is faked either way servers pass its reasoning on:
// inline, by a reply that holds a <think> block (as llama-server with
// --reasoning-format none, vLLM without a reasoning parser, or a model
// whose template Ollama cannot parse send it), or apart, with Reason. Cut
// streams a reply in pieces cut anywhere, tags included.
//
// Like the real servers, they report the tokens of each call (Ollama's
// prompt_eval_count and eval_count; an OpenAI-style usage, in a stream's
// last chunk only when the request asked with stream_options), counted by
// default with [ByteCounts]; Counts changes the counts ([TokenCounts]
// with a real tokenizer) or leaves them out.
package chattest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/internal/tokens"
)

// Call is one request a fake server received.
type Call struct {
	Model    string
	Messages []chat.Message
	// JSON: the client asked for a JSON object (Ollama "format", OpenAI
	// "response_format").
	JSON bool
	// Stream: the client asked for a streamed reply.
	Stream      bool
	Temperature float64
	// MaxTokens is Ollama's options.num_predict or OpenAI's max_tokens, 0
	// when not sent.
	MaxTokens int
	// Think: the client asked Ollama for the model's reasoning apart
	// ("think": true, or a level such as "high").
	Think bool
	// IncludeUsage: an OpenAI-style stream was asked for its usage
	// (stream_options.include_usage).
	IncludeUsage bool
	Header       http.Header
	// Body is the request body as sent.
	Body []byte
}

// Text returns the contents of the messages of role (chat.RoleUser, …),
// joined by blank lines: what to search for the prompt in.
func (c Call) Text(role string) string {
	var parts []string
	for _, m := range c.Messages {
		if m.Role == role {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Fault is how a server misbehaves; see [Server.Fail].
type Fault struct {
	// Status, when not 0, answers that HTTP status with the provider's
	// error body: Message, or what the real server says for that status
	// (for 404, that the model is not found).
	Status  int
	Message string
	// RetryAfter, when > 0, is sent as a Retry-After header (seconds).
	RetryAfter time.Duration
	// Delay waits before answering.
	Delay time.Duration
	// Malformed sends, once After pieces of a streamed reply are out, a
	// line that is not the wire format, and ends the answer; a whole
	// answer is replaced by a body that is not JSON.
	Malformed bool
	// Stall stops a streamed reply after After pieces and keeps the
	// connection open, silent, until the client gives up; a whole answer
	// never comes.
	Stall bool
	// Drop closes the connection after After pieces of a streamed reply,
	// or before a whole answer.
	Drop bool
	// Endless never ends a streamed reply, as a model caught in a loop:
	// its pieces go out, then again and again, one every few milliseconds,
	// until the client gives up; a whole answer never comes.
	Endless bool
	// After is how many pieces of a streamed reply go out before Malformed,
	// Stall or Drop.
	After int
	// Times is how many requests misbehave, after which the server answers
	// normally again; 0 means all that follow.
	Times int
}

// Server is a fake chat server, closed when the test ends.
type Server struct {
	// URL is what to configure the client with: the server's root for
	// Ollama (chat.OllamaConfig.BaseURL), the root followed by /v1 for
	// OpenAI (chat.OpenAIConfig.BaseURL).
	URL string

	reply  func(Call) string
	done   chan struct{} // closed when the test ends, to free stalled handlers
	openAI bool

	mu     sync.Mutex
	calls  []Call
	fault  Fault
	models []string // what GET /api/tags lists (Ollama)
	faults int      // requests left to misbehave, -1 for all
	cut    func(string) []string
	reason func(Call) string
	count  func(Call, string) (prompt, completion int) // nil: no counts
}

// TokenCounts counts a call's tokens as a server would with its own
// tokenizer, here cl100k_base (see package tokens): the messages with a
// chat template's overhead, and the reply (reasoning included, which the
// model wrote too).
func TokenCounts(c Call, reply string) (prompt, completion int) {
	return tokens.Messages(contents(c)), tokens.Count(reply)
}

// ByteCounts counts a call's tokens as one per 4 bytes (rounded up) of
// each message and of the reply, with the same template overhead as
// TokenCounts: plausible counts that cost no tokenizing, which a test
// that bounds a request's time cannot afford on a loaded machine.
func ByteCounts(c Call, reply string) (prompt, completion int) {
	prompt = tokens.PerReply
	for _, m := range contents(c) {
		prompt += tokens.PerMessage + (len(m)+3)/4
	}
	return prompt, (len(reply) + 3) / 4
}

// contents are the contents of c's messages.
func contents(c Call) []string {
	out := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = m.Content
	}
	return out
}

// Counts makes the server report count(call, reply) as the tokens of
// each call, reply being what the model wrote (reasoning included);
// Counts(nil) makes it report none, as a server that does not count or
// an Ollama whose prompt was cached leaves them out. By default it
// reports [ByteCounts].
func (s *Server) Counts(count func(c Call, reply string) (prompt, completion int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count = count
}

// counts returns the counts to report for c and reply, ok false for none.
func (s *Server) counts(c Call, reply string) (prompt, completion int, ok bool) {
	s.mu.Lock()
	count := s.count
	s.mu.Unlock()
	if count == nil {
		return 0, 0, false
	}
	prompt, completion = count(c, reply)
	return prompt, completion, true
}

// NewOllama starts a fake Ollama whose model replies reply(call) to every
// request; a nil reply answers "ok". reply runs on the server's goroutines:
// report problems from it with t.Error, not t.Fatal.
func NewOllama(t testing.TB, reply func(Call) string) *Server {
	return start(t, reply, false)
}

// NewOpenAI starts a fake OpenAI-style server (as llama-server, vLLM or
// OpenAI itself) whose model replies reply(call); see NewOllama.
func NewOpenAI(t testing.TB, reply func(Call) string) *Server {
	return start(t, reply, true)
}

func start(t testing.TB, reply func(Call) string, openAI bool) *Server {
	t.Helper()
	if reply == nil {
		reply = func(Call) string { return "ok" }
	}
	s := &Server{reply: reply, done: make(chan struct{}), openAI: openAI, count: ByteCounts}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = srv.URL
	if openAI {
		s.URL += "/v1"
	}
	t.Cleanup(func() {
		close(s.done)
		srv.Close()
	})
	return s
}

// Calls returns the chat requests received so far, in order, including
// those that Fail made fail (but not those the server refused as
// malformed, with HTTP 400).
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Fail makes the next f.Times requests (all, when 0) misbehave as f says;
// Fail(Fault{}) restores normal answers.
func (s *Server) Fail(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault, s.faults = f, f.Times
	if f.Times <= 0 {
		s.faults = -1
	}
}

// Cut makes streamed replies (and reasoning) go out in the pieces cut
// returns, which must concatenate to its argument: Runes(1), say, for
// pieces that split tags. Cut(nil) restores Pieces.
func (s *Server) Cut(cut func(text string) []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cut = cut
}

// Reason makes the model reason before it replies, reason(call) being its
// reasoning (none when ""), which the server sends apart from the reply,
// before it: in Ollama's message "thinking" when the request asked for it
// ("think": true), and otherwise inline, a <think> block at the start of
// the content, as Ollama passes on a model that reasons when asked not
// to; in the "reasoning_content" of an OpenAI-style message or delta, as
// llama-server and vLLM separate it. Reason(nil) stops the reasoning.
// reason runs on the server's goroutines, like the reply function.
func (s *Server) Reason(reason func(Call) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reason = reason
}

// Runes returns a Cut function that cuts text every n runes (at least 1):
// in places no tokenizer would, but never inside a character, since the
// servers hold back a character's first bytes until it is whole.
func Runes(n int) func(string) []string {
	n = max(n, 1)
	return func(text string) []string {
		var out []string
		for text != "" {
			i, count := 0, 0
			for i < len(text) && count < n {
				_, size := utf8.DecodeRuneInString(text[i:])
				i += size
				count++
			}
			out = append(out, text[:i])
			text = text[i:]
		}
		return out
	}
}

// take records a call and returns the fault it meets, how to cut the
// reply and the reasoning function.
func (s *Server) take(c Call) (Fault, func(string) []string, func(Call) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
	cut := s.cut
	if cut == nil {
		cut = Pieces
	}
	if s.faults == 0 {
		return Fault{}, cut, s.reason
	}
	if s.faults > 0 {
		s.faults--
	}
	return s.fault, cut, s.reason
}

// sleep waits d, or less when the client or the test goes away. It
// reports whether the full time passed.
func (s *Server) sleep(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.done:
	}
	return false
}

// SetModels sets the models an Ollama fake lists at GET /api/tags (by
// default qwen2.5:7b and bge-m3, the defaults Oráculo asks for).
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	s.models = names
	s.mu.Unlock()
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if !s.openAI && r.Method == http.MethodGet && r.URL.Path == "/api/tags" {
		s.mu.Lock()
		names := s.models
		if names == nil {
			names = []string{"qwen2.5:7b", "bge-m3:latest"}
		}
		var f Fault
		if s.faults != 0 { // a stalled server stalls here too
			f = s.fault
		}
		s.mu.Unlock()
		if f.Delay > 0 && !s.sleep(r, f.Delay) {
			return
		}
		// Ollama's shape, trimmed to the fields clients read.
		type model struct {
			Name       string `json:"name"`
			Model      string `json:"model"`
			ModifiedAt string `json:"modified_at"`
			Size       int64  `json:"size"`
			Digest     string `json:"digest"`
		}
		list := struct {
			Models []model `json:"models"`
		}{Models: []model{}}
		for _, n := range names {
			list.Models = append(list.Models, model{Name: n, Model: n, ModifiedAt: "2026-11-30T10:00:00Z", Size: 4_683_087_332, Digest: "845dbda0ea48"})
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(list)
		return
	}
	path := "/api/chat"
	if s.openAI {
		path = "/v1/chat/completions"
	}
	if r.Method != http.MethodPost || r.URL.Path != path {
		// What gin (Ollama) and most OpenAI-style servers answer.
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	call, err := decodeCall(r, s.openAI)
	if err != nil {
		s.writeError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	f, cut, reason := s.take(call)
	if f.Delay > 0 && !s.sleep(r, f.Delay) {
		return
	}
	if f.Status != 0 {
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.FormatFloat(f.RetryAfter.Seconds(), 'f', -1, 64))
		}
		s.writeError(w, f.Status, f.Message, call.Model)
		return
	}
	text, reasoning := "", ""
	if len(call.Messages) > 0 {
		text = s.reply(call)
		if reason != nil {
			reasoning = reason(call)
		}
	}
	if reasoning != "" && !s.openAI && !call.Think {
		text, reasoning = "<think>\n"+reasoning+"\n</think>\n\n"+text, ""
	}
	if !call.Stream {
		s.writeWhole(w, r, f, call, text, reasoning)
		return
	}
	var pieces []piece
	for _, p := range cut(reasoning) {
		pieces = append(pieces, piece{p, true})
	}
	for _, p := range cut(text) {
		pieces = append(pieces, piece{p, false})
	}
	s.writeStream(w, r, f, call, pieces)
}

// endlessEvery is the pace of an endless reply (Fault.Endless).
const endlessEvery = 5 * time.Millisecond

// piece is a piece of a streamed reply: text, or reasoning sent apart.
type piece struct {
	text      string
	reasoning bool
}

// Pieces splits a reply the way the fake servers stream it unless told
// otherwise (see Cut): after each run of white space, so that the pieces concatenate to text.
func Pieces(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if isSpace(text[i-1]) && !isSpace(text[i]) {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// decodeCall reads a request body as the real server would.
func decodeCall(r *http.Request, openAI bool) (Call, error) {
	var raw struct {
		Model    string          `json:"model"`
		Messages []chat.Message  `json:"messages"`
		Stream   *bool           `json:"stream"`
		Format   json.RawMessage `json:"format"`
		Think    json.RawMessage `json:"think"`
		Options  struct {
			Temperature float64 `json:"temperature"`
			NumPredict  int     `json:"num_predict"`
		} `json:"options"`
		Temperature    float64 `json:"temperature"`
		MaxTokens      int     `json:"max_tokens"`
		ResponseFormat struct {
			Type string `json:"type"`
		} `json:"response_format"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return Call{}, err
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Call{}, fmt.Errorf("invalid request body: %v", err)
	}
	if raw.Model == "" {
		return Call{}, fmt.Errorf("model is required")
	}
	c := Call{Model: raw.Model, Messages: raw.Messages, Header: r.Header.Clone(), Body: body}
	if openAI {
		c.Stream = raw.Stream != nil && *raw.Stream
		c.JSON = raw.ResponseFormat.Type == "json_object" || raw.ResponseFormat.Type == "json_schema"
		c.Temperature, c.MaxTokens = raw.Temperature, raw.MaxTokens
		c.IncludeUsage = raw.StreamOptions.IncludeUsage
		if len(c.Messages) == 0 {
			return Call{}, fmt.Errorf("messages must not be empty")
		}
		return c, nil
	}
	// Ollama streams unless told not to.
	c.Stream = raw.Stream == nil || *raw.Stream
	f := strings.TrimSpace(string(raw.Format))
	c.JSON = f != "" && f != "null" && f != `""`
	think := strings.TrimSpace(string(raw.Think))
	c.Think = think != "" && think != "null" && think != "false" && think != `""`
	c.Temperature, c.MaxTokens = raw.Options.Temperature, raw.Options.NumPredict
	return c, nil
}

// writeError answers status with the provider's error body.
func (s *Server) writeError(w http.ResponseWriter, status int, msg, model string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if !s.openAI {
		if msg == "" {
			msg = ollamaMessage(status, model)
		}
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
		return
	}
	typ, code := "server_error", any(nil)
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		typ, code = "invalid_request_error", "invalid_api_key"
	case http.StatusNotFound:
		typ, code = "invalid_request_error", "model_not_found"
	case http.StatusTooManyRequests:
		typ, code = "requests", "rate_limit_exceeded"
	case http.StatusBadRequest:
		typ = "invalid_request_error"
	}
	if msg == "" {
		msg = openAIMessage(status, model)
	}
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "param": nil, "code": code}})
}

// ollamaMessage is what Ollama says with status.
func ollamaMessage(status int, model string) string {
	switch status {
	case http.StatusNotFound:
		return fmt.Sprintf("model '%s' not found, try pulling it first", model)
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusServiceUnavailable:
		return "server busy, please try again.  maximum pending requests exceeded"
	}
	return strings.ToLower(http.StatusText(status))
}

// openAIMessage is what OpenAI says with status.
func openAIMessage(status int, model string) string {
	switch status {
	case http.StatusNotFound:
		return fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)
	case http.StatusUnauthorized:
		return "Incorrect API key provided."
	case http.StatusTooManyRequests:
		return "Rate limit reached for requests. Please try again later."
	}
	return http.StatusText(status)
}

// writeWhole answers a request that did not ask to stream.
func (s *Server) writeWhole(w http.ResponseWriter, r *http.Request, f Fault, c Call, text, reasoning string) {
	switch {
	case f.Stall, f.Endless:
		s.sleep(r, time.Hour)
		return
	case f.Drop:
		panic(http.ErrAbortHandler)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	if f.Malformed {
		fmt.Fprint(w, `{"message": {"role": "assistant", "content": "tru`)
		return
	}
	if s.openAI {
		msg := map[string]any{"role": "assistant", "content": text}
		if reasoning != "" {
			msg["reasoning_content"] = reasoning
		}
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-chattest", "object": "chat.completion", "created": time.Now().Unix(), "model": c.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": msg}},
			"usage":   s.openAIUsage(c, reasoning+text),
		})
		return
	}
	reason := "stop"
	if len(c.Messages) == 0 {
		reason = "load" // an empty conversation only loads the model
	}
	json.NewEncoder(w).Encode(s.withCounts(ollamaLine(c.Model, piece{text, false}, reasoning, true, reason), c, reasoning+text))
}

// openAIUsage is the usage object of a call that wrote reply, nil (JSON
// null) when the server reports none.
func (s *Server) openAIUsage(c Call, reply string) map[string]int {
	prompt, completion, ok := s.counts(c, reply)
	if !ok {
		return nil
	}
	return map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
}

// withCounts adds to Ollama's last line the tokens of a call that wrote
// reply, unless the server reports none or the call only loaded the
// model.
func (s *Server) withCounts(line map[string]any, c Call, reply string) map[string]any {
	if prompt, completion, ok := s.counts(c, reply); ok && len(c.Messages) > 0 {
		line["prompt_eval_count"], line["eval_count"] = prompt, completion
	}
	return line
}

// ollamaLine is one object of Ollama's answer: p's text as the message's
// content (or its thinking, when p is reasoning), and thinking besides.
func ollamaLine(model string, p piece, thinking string, done bool, reason string) map[string]any {
	msg := map[string]any{"role": "assistant", "content": p.text}
	if p.reasoning {
		msg["content"], thinking = "", p.text
	}
	if thinking != "" {
		msg["thinking"] = thinking
	}
	line := map[string]any{
		"model": model, "created_at": time.Now().UTC().Format(time.RFC3339Nano),
		"message": msg, "done": done,
	}
	if done {
		line["done_reason"] = reason
		line["total_duration"], line["load_duration"] = 1_500_000_000, 2_000_000
	}
	return line
}

// openAIChunk is one event of OpenAI's stream.
func openAIChunk(model string, delta map[string]any, finish any) map[string]any {
	return map[string]any{
		"id": "chatcmpl-chattest", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
	}
}

// writeStream streams pieces, misbehaving as f says.
func (s *Server) writeStream(w http.ResponseWriter, r *http.Request, f Fault, c Call, pieces []piece) {
	rc := http.NewResponseController(w)
	write := func(v any) {
		b, _ := json.Marshal(v)
		if s.openAI {
			fmt.Fprintf(w, "data: %s\n\n", b)
		} else {
			fmt.Fprintf(w, "%s\n", b)
		}
		rc.Flush()
	}
	if s.openAI {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		write(openAIChunk(c.Model, map[string]any{"role": "assistant", "content": ""}, nil))
	} else {
		w.Header().Set("Content-Type", "application/x-ndjson")
	}
	send := func(p piece) {
		switch {
		case s.openAI && p.reasoning:
			// llama-server's and vLLM's shape: content null.
			write(openAIChunk(c.Model, map[string]any{"content": nil, "reasoning_content": p.text}, nil))
		case s.openAI:
			write(openAIChunk(c.Model, map[string]any{"content": p.text}, nil))
		default:
			write(ollamaLine(c.Model, p, "", false, ""))
		}
	}
	misbehave := f.Malformed || f.Stall || f.Drop
	for i, p := range pieces {
		if misbehave && i == f.After {
			break
		}
		send(p)
	}
	for f.Endless && len(pieces) > 0 {
		for _, p := range pieces {
			if !s.sleep(r, endlessEvery) {
				return
			}
			send(p)
		}
	}
	switch {
	case f.Malformed:
		if s.openAI {
			fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{\"content\":\"tru\n\n")
		} else {
			fmt.Fprint(w, "{\"message\":{\"role\":\"assistant\",\"content\":\"tru\n")
		}
		return
	case f.Stall:
		rc.Flush()
		s.sleep(r, time.Hour)
		return
	case f.Drop:
		rc.Flush()
		panic(http.ErrAbortHandler) // closes the connection mid-answer
	}
	s.endStream(w, write, c, pieces)
}

// endStream ends a stream of pieces as the real server does: OpenAI's
// finishing chunk, then its usage when the request asked (in a chunk
// without choices) and [DONE]; Ollama's last line, with the counts.
func (s *Server) endStream(w io.Writer, write func(any), c Call, pieces []piece) {
	var reply strings.Builder
	for _, p := range pieces {
		reply.WriteString(p.text)
	}
	if !s.openAI {
		write(s.withCounts(ollamaLine(c.Model, piece{}, "", true, "stop"), c, reply.String()))
		return
	}
	write(openAIChunk(c.Model, map[string]any{}, "stop"))
	if u := s.openAIUsage(c, reply.String()); u != nil && c.IncludeUsage {
		last := openAIChunk(c.Model, nil, nil)
		last["choices"], last["usage"] = []any{}, u
		write(last)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}
