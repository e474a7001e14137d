package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
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

	raw, from := cfg.BaseURL, "BaseURL"
	if strings.TrimSpace(raw) == "" {
		raw, from = os.Getenv("OLLAMA_HOST"), "OLLAMA_HOST"
	}
	base, err := parseOllamaHost(raw)
	if err != nil {
		o.cfgErr = fmt.Errorf("ollama: %s %q: %w", from, raw, err)
		base = &url.URL{Scheme: "http", Host: "127.0.0.1:11434"}
	}
	if o.cfgErr == nil {
		o.keepAlive, err = keepAliveJSON(cfg.KeepAlive)
		if err != nil {
			o.cfgErr = fmt.Errorf("ollama: KeepAlive %q: %w", cfg.KeepAlive, err)
		}
	}

	timeout, client := httpDefaults(cfg.Timeout, cfg.Client)
	o.ep = endpoint{
		provider:        "ollama",
		base:            redact(base),
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
		return nil, o.ep.badResponse("%s", jsonProblem(body, err))
	}
	if _, err := checkVectors(resp.Embeddings, len(texts), o.dims); err != nil {
		return nil, o.ep.badResponse("%v", err)
	}
	return resp.Embeddings, nil
}

// classify maps Ollama's error answers to sentinels and hints.
func (o *Ollama) classify(status int, ae apiError) (error, string) {
	pull := fmt.Sprintf("run %q", "ollama pull "+o.model)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth, "the server, or a proxy in front of it, wants credentials"
	case status == http.StatusNotFound && (modelMissing(ae) || strings.Contains(strings.ToLower(ae.Message), "pull")):
		return ErrModel, pull
	case status == http.StatusNotFound:
		// gin's own "404 page not found": the route does not exist.
		return nil, "no /api/embed here: is this Ollama 0.3.0 or newer, and is the URL right?"
	case cannotEmbed(ae):
		return ErrModel, fmt.Sprintf("%q cannot embed: use an embedding model such as bge-m3 (run %q)", o.model, "ollama pull bge-m3")
	case modelMissing(ae):
		return ErrModel, pull
	}
	return nil, ""
}

// keepAliveJSON encodes KeepAlive as Ollama reads it: a number of seconds
// as a JSON number, a duration as a JSON string.
func keepAliveJSON(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return json.Marshal(n)
	}
	if _, err := time.ParseDuration(s); err != nil {
		return nil, fmt.Errorf("want a duration such as %q or seconds such as %q", "30m", "-1")
	}
	return json.Marshal(s)
}

// parseOllamaHost reads a server address the way Ollama reads OLLAMA_HOST
// (envconfig.Host): optional scheme, host, optional port, optional path.
// Without a scheme the port defaults to 11434, with http:// to 80 and with
// https:// to 443; an empty host is 127.0.0.1, and an unspecified address
// (0.0.0.0, ::) becomes loopback, since a client cannot connect to "any".
func parseOllamaHost(s string) (*url.URL, error) {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), `"'`))
	scheme, hostport, ok := strings.Cut(s, "://")
	port := "11434"
	switch {
	case !ok:
		scheme, hostport = "http", s
	case strings.EqualFold(scheme, "http"):
		scheme, port = "http", "80"
	case strings.EqualFold(scheme, "https"):
		scheme, port = "https", "443"
	default:
		return nil, fmt.Errorf("scheme %q: want http or https", scheme)
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host := hostport
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host = h
		if p != "" {
			port = p
		}
	} else {
		host = strings.Trim(hostport, "[]")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return nil, fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	if strings.ContainsAny(host, " /?#@") {
		return nil, fmt.Errorf("host %q is not a host name or address", host)
	}
	if ip := net.ParseIP(host); ip != nil {
		switch {
		case ip.Equal(net.IPv4zero):
			host = "127.0.0.1"
		case ip.Equal(net.IPv6unspecified):
			host = "::1"
		default:
			host = ip.String()
		}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	u := &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)}
	if path = strings.Trim(path, "/"); path != "" {
		u.Path = "/" + path
	}
	return u, nil
}

// jsonProblem describes why a 2xx body is not the expected JSON, quoting
// its start, and naming NaN or Infinity, which some servers write although
// JSON cannot carry them.
func jsonProblem(body []byte, err error) string {
	s := string(body)
	for _, bad := range []string{"NaN", "Infinity"} {
		if strings.Contains(s, bad) {
			return fmt.Sprintf("the answer holds %s, which is not JSON: the model produced non-finite values (%v)", bad, err)
		}
	}
	return fmt.Sprintf("malformed JSON (%v) in %q", err, clip(strings.Join(strings.Fields(s), " "), 120))
}
