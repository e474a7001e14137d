package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/httpx"
)

// DefaultOllamaModel is the model an Ollama client asks for when the
// config names none.
const DefaultOllamaModel = "qwen2.5:7b"

// OllamaConfig configures an Ollama client.
type OllamaConfig struct {
	// BaseURL is the server, in any form OLLAMA_HOST accepts:
	// "http://127.0.0.1:11434", "0.0.0.0:11434", "myhost", ":11435",
	// "https://example.com/ollama". Empty means $OLLAMA_HOST, else
	// http://127.0.0.1:11434.
	BaseURL string
	// Model is the Ollama model name; default DefaultOllamaModel.
	Model string
	// KeepAlive is how long Ollama keeps the model loaded after a request,
	// so that the next question does not wait for it to load: a duration
	// ("30m", "1h") or a number of seconds ("-1" keeps it forever, "0"
	// unloads it at once). Default "30m".
	KeepAlive string
	// Think is sent as "think". Nil sends false: a thinking model answers
	// at once instead of reasoning first (Oráculo's prompts do not need
	// it, and the user is waiting). Ollama refuses true for a model that
	// cannot think.
	Think *bool
	// Timeout limits a whole request, retries included; default
	// DefaultTimeout, negative for none.
	Timeout time.Duration
	// FirstTokenTimeout limits the wait for the first piece of a streamed
	// reply (text, or reasoning sent apart), from when the request is
	// sent; default DefaultFirstTokenTimeout, negative for none. A reply
	// not streamed is bounded by Timeout alone.
	FirstTokenTimeout time.Duration
	// IdleTimeout limits the silence between two pieces of a streamed
	// reply, once the first has come; default DefaultIdleTimeout, negative
	// for none.
	IdleTimeout time.Duration
	// Client sends the requests; default http.DefaultClient.
	Client *http.Client
}

// Ollama chats with an Ollama server's POST /api/chat. It is safe for
// concurrent use.
type Ollama struct {
	ep        endpoint
	model     string
	think     bool
	keepAlive json.RawMessage
	id        string
}

// NewOllama returns an Ollama client. A configuration error (an
// unparsable BaseURL or KeepAlive) is returned by every Chat call.
func NewOllama(cfg OllamaConfig) *Ollama {
	o := &Ollama{model: strings.TrimSpace(cfg.Model)}
	if o.model == "" {
		o.model = DefaultOllamaModel
	}
	o.id = "ollama/" + strings.TrimSuffix(strings.ToLower(o.model), ":latest")
	if cfg.Think != nil {
		o.think = *cfg.Think
	}
	var cfgErr error
	base, err := httpx.OllamaBaseURL(cfg.BaseURL)
	if err != nil {
		cfgErr = fmt.Errorf("ollama: %w", err)
	}
	keepAlive := cfg.KeepAlive
	if strings.TrimSpace(keepAlive) == "" {
		keepAlive = "30m"
	}
	if o.keepAlive, err = httpx.KeepAlive(keepAlive); err != nil && cfgErr == nil {
		cfgErr = fmt.Errorf("ollama: KeepAlive %q: %w", cfg.KeepAlive, err)
	}
	o.ep = endpoint{
		provider:        "ollama",
		model:           o.model,
		accept:          "application/x-ndjson",
		classify:        o.classify,
		unreachableHint: `is Ollama running? start it with "ollama serve", or point OLLAMA_HOST at it`,
		cfgErr:          cfgErr,
	}
	o.ep.route(base, "api/chat", deadlines{timeout: cfg.Timeout, first: cfg.FirstTokenTimeout, idle: cfg.IdleTimeout}, cfg.Client)
	return o
}

// BaseURL returns the server URL requests go to (without /api/chat),
// credentials redacted.
func (o *Ollama) BaseURL() string { return o.ep.base }

// Model returns the Ollama model name requests ask for.
func (o *Ollama) Model() string { return o.model }

// ID returns "ollama/<model>" (lowercase, without a ":latest" tag, which
// names the same model).
func (o *Ollama) ID() string { return o.id }

// ollamaRequest is the body of POST /api/chat.
type ollamaRequest struct {
	Model     string          `json:"model"`
	Messages  []Message       `json:"messages"`
	Stream    bool            `json:"stream"`
	Think     bool            `json:"think"`
	Format    string          `json:"format,omitempty"`
	KeepAlive json.RawMessage `json:"keep_alive,omitempty"`
	Options   ollamaOptions   `json:"options"`
}

// ollamaOptions are the model parameters Oráculo sets.
type ollamaOptions struct {
	Temperature float64 `json:"temperature"`
	NumPredict  int     `json:"num_predict,omitempty"`
}

// ollamaResponse is a whole answer of POST /api/chat, or one line of its
// stream. An error the server meets once the stream has begun comes as a
// line {"error": "..."}.
type ollamaResponse struct {
	Model   string `json:"model"`
	Message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
		// Thinking is the reasoning of a thinking model, when it thinks;
		// it is not part of the reply.
		Thinking string `json:"thinking"`
	} `json:"message"`
	Done       bool   `json:"done"`
	DoneReason string `json:"done_reason"`
	// PromptEvalCount and EvalCount, on the last line, are the tokens the
	// model read and wrote. Ollama leaves out (or, before 0.30, lowers)
	// PromptEvalCount when the prompt was in its cache.
	PromptEvalCount *int `json:"prompt_eval_count"`
	EvalCount       *int `json:"eval_count"`
}

// Chat sends the request and returns the reply; see [Model.Chat].
func (o *Ollama) Chat(ctx context.Context, req Request, onDelta func(string)) (string, error) {
	payload := ollamaRequest{
		Model:     o.model,
		Messages:  req.Messages,
		Stream:    onDelta != nil,
		Think:     o.think,
		KeepAlive: o.keepAlive,
		Options:   ollamaOptions{Temperature: req.Temperature, NumPredict: req.MaxTokens},
	}
	if req.JSON {
		payload.Format = "json"
	}
	return o.ep.chat(ctx, req, payload, onDelta, decodeOllamaStream, decodeOllama)
}

// decodeOllama reads a whole answer.
func decodeOllama(body io.Reader, emit func(text, reasoning string), count func(Usage)) error {
	var resp ollamaResponse
	if err := readWhole(body, &resp); err != nil {
		return err
	}
	emit(resp.Message.Content, resp.Message.Thinking)
	reportCounts(resp.PromptEvalCount, resp.EvalCount, count)
	return nil
}

// decodeOllamaStream reads a stream of JSON lines up to the one with
// "done": true.
func decodeOllamaStream(body io.Reader, emit func(text, reasoning string), count func(Usage)) error {
	done, err := eachLine(body, func(line []byte) (bool, error) {
		var chunk ollamaResponse
		if err := decodeJSON(line, &chunk); err != nil {
			return false, err
		}
		emit(chunk.Message.Content, chunk.Message.Thinking)
		if chunk.Done {
			reportCounts(chunk.PromptEvalCount, chunk.EvalCount, count)
		}
		return chunk.Done, nil
	})
	if err == nil && !done {
		err = errors.New(`the stream ended before its last line ("done": true)`)
	}
	return err
}

// classify maps Ollama's error answers to sentinels and hints.
func (o *Ollama) classify(status int, ae httpx.APIError) (hint string, kind error) {
	m := strings.ToLower(ae.Message)
	pull := fmt.Sprintf("run %q", "ollama pull "+o.model)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "the server, or a proxy in front of it, wants credentials", ErrAuth
	case ae.ModelMissing() || (status == http.StatusNotFound && strings.Contains(m, "pull")):
		return pull, ErrModel
	case status == http.StatusNotFound:
		// gin's own "404 page not found": the route does not exist.
		return "no /api/chat here: is this Ollama, and is the URL right?", nil
	case strings.Contains(m, "does not support thinking"):
		return "this model cannot think: leave Think unset", ErrModel
	case strings.Contains(m, "does not support chat") || strings.Contains(m, "does not support generate"):
		return fmt.Sprintf("%q is not a chat model (an embedding model?): use one such as %s", o.model, DefaultOllamaModel), ErrModel
	case strings.Contains(m, "requires more system memory"):
		return "the model does not fit in memory: choose a smaller one, or unload others", ErrModel
	}
	return "", nil
}
