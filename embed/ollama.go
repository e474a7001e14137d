package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/httpx"
)

// OllamaConfig configures an Ollama client.
type OllamaConfig struct {
	// BaseURL is the server, in any form OLLAMA_HOST accepts:
	// "http://127.0.0.1:11434", "0.0.0.0:11434", "myhost", ":11435",
	// "https://example.com/ollama". Without a scheme the port defaults to
	// 11434; with "http://" or "https://" to 80 or 443, as Ollama's own
	// client does. An unspecified address (0.0.0.0, ::) is what a server
	// listens on, so the client connects to loopback instead. Empty means
	// $OLLAMA_HOST, else http://127.0.0.1:11434.
	BaseURL string
	// Model is the Ollama model name; default "bge-m3".
	Model string
	// KeepAlive is how long Ollama keeps the model loaded after a request:
	// a duration ("30m", "1h") or a number of seconds ("-1" keeps it
	// forever, "0" unloads it at once). Empty leaves Ollama's default (5m).
	KeepAlive string
	// Dimensions, when > 0, asks Ollama to truncate the vectors to that
	// many dimensions (and renormalise them); it is part of the ID.
	Dimensions int
	// Timeout limits each request; default 60s, negative for none.
	Timeout time.Duration
	// Client sends the requests; default http.DefaultClient.
	Client *http.Client
}

// Ollama embeds texts with an Ollama server's POST /api/embed (Ollama
// 0.3.0 or newer). All texts of one Embed call go in one request, with
// truncate: true (Ollama cuts inputs longer than the model's context) and
// the model family's prefixes applied. It is safe for concurrent use.
type Ollama struct {
	ep        endpoint
	model     string
	dims      int
	keepAlive json.RawMessage
	id        string
	query     string // prefixes
	passage   string
	cfgErr    error
}

// NewOllama returns an Ollama client. A configuration error (an
// unparsable BaseURL or KeepAlive) is returned by every Embed call.
func NewOllama(cfg OllamaConfig) *Ollama {
	o := &Ollama{model: strings.TrimSpace(cfg.Model), dims: max(cfg.Dimensions, 0)}
	if o.model == "" {
		o.model = "bge-m3"
	}
	o.query, o.passage = Prefixes(o.model)
	o.id = "ollama/" + strings.TrimSuffix(strings.ToLower(o.model), ":latest")
	if o.dims > 0 {
		o.id += "@" + strconv.Itoa(o.dims)
	}

	base, err := httpx.OllamaBaseURL(cfg.BaseURL)
	if err != nil {
		o.cfgErr = fmt.Errorf("ollama: %w", err)
	}
	if o.cfgErr == nil {
		o.keepAlive, err = httpx.KeepAlive(cfg.KeepAlive)
		if err != nil {
			o.cfgErr = fmt.Errorf("ollama: KeepAlive %q: %w", cfg.KeepAlive, err)
		}
	}

	timeout, client := httpDefaults(cfg.Timeout, cfg.Client)
	o.ep = endpoint{
		provider:        "ollama",
		base:            httpx.Redact(base),
		url:             base.JoinPath("api", "embed").String(),
		model:           o.model,
		timeout:         timeout,
		client:          client,
		classify:        o.classify,
		unreachableHint: `is Ollama running? start it with "ollama serve", or point OLLAMA_HOST at it`,
	}
	return o
}

// ID returns "ollama/<model>" (lowercase, without a ":latest" tag, which
// names the same model), with "@<dims>" when Dimensions is set.
func (o *Ollama) ID() string { return o.id }

// BaseURL returns the server URL requests go to (without /api/embed).
func (o *Ollama) BaseURL() string { return o.ep.base }

// Model returns the Ollama model name requests ask for.
func (o *Ollama) Model() string { return o.model }

// ollamaRequest is the body of POST /api/embed.
type ollamaRequest struct {
	Model      string          `json:"model"`
	Input      []string        `json:"input"`
	Truncate   bool            `json:"truncate"`
	KeepAlive  json.RawMessage `json:"keep_alive,omitempty"`
	Dimensions int             `json:"dimensions,omitempty"`
}

// ollamaResponse is the answer of POST /api/embed.
type ollamaResponse struct {
	Model           string      `json:"model"`
	Embeddings      [][]float32 `json:"embeddings"`
	TotalDuration   int64       `json:"total_duration"`
	LoadDuration    int64       `json:"load_duration"`
	PromptEvalCount int         `json:"prompt_eval_count"`
}

// Embed returns one vector per text, in order, from one request.
func (o *Ollama) Embed(ctx context.Context, kind Kind, texts []string) ([][]float32, error) {
	if o.cfgErr != nil {
		return nil, o.cfgErr
	}
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	input, err := prepare(kind, texts, o.query, o.passage)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	body, err := o.ep.post(ctx, ollamaRequest{Model: o.model, Input: input, Truncate: true,
		KeepAlive: o.keepAlive, Dimensions: o.dims})
	if err != nil {
		return nil, err
	}
	var resp ollamaResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, o.ep.badResponse("%s", httpx.JSONProblem(body, err))
	}
	if _, err := checkVectors(resp.Embeddings, len(texts), o.dims); err != nil {
		return nil, o.ep.badResponse("%v", err)
	}
	return resp.Embeddings, nil
}

// classify maps Ollama's error answers to sentinels and hints.
func (o *Ollama) classify(status int, ae httpx.APIError) (hint string, kind error) {
	pull := fmt.Sprintf("run %q", "ollama pull "+o.model)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "the server, or a proxy in front of it, wants credentials", ErrAuth
	case status == http.StatusNotFound && (ae.ModelMissing() || strings.Contains(strings.ToLower(ae.Message), "pull")):
		return pull, ErrModel
	case status == http.StatusNotFound:
		// gin's own "404 page not found": the route does not exist.
		return "no /api/embed here: is this Ollama 0.3.0 or newer, and is the URL right?", nil
	case cannotEmbed(ae):
		return fmt.Sprintf("%q cannot embed: use an embedding model such as bge-m3 (run %q)", o.model, "ollama pull bge-m3"), ErrModel
	case ae.ModelMissing():
		return pull, ErrModel
	}
	return "", nil
}
