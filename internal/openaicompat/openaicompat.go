// Package openaicompat holds what Oráculo's clients of OpenAI-compatible
// servers (chat completions in package chat, embeddings in package embed)
// share: one configuration, its checks, the API key each is sent, and the
// meaning of the error answers such servers give alike. Failed requests
// are [httpx.Error]s, whose messages name the provider, the server and
// the model.
//
// It guarantees that a client configured wrongly says so with the same
// words whichever API it speaks, and that a cloud key from the
// environment is only ever sent to OpenAI's own servers.
package openaicompat

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/httpx"
)

// Config configures a client of an OpenAI-compatible API: it is both
// chat.OpenAIConfig and embed.OpenAIConfig. Each client reads the fields
// of its API and ignores the others.
type Config struct {
	// BaseURL is the API root the client's path (/chat/completions,
	// /embeddings) is added to, e.g. "https://api.openai.com/v1" or, for
	// llama.cpp's llama-server, vLLM, TEI or LocalAI,
	// "http://127.0.0.1:8080/v1". Required.
	BaseURL string
	// Model is the model name the server knows. Required.
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer <key>". Local
	// servers need none; it is never read from the environment, so that a
	// cloud key is not sent to a local server by accident.
	APIKey string
	// Dimensions (embeddings), when > 0, asks for vectors of that many
	// dimensions (text-embedding-3 models); it is part of the embedder's
	// ID, and answers of any other length are rejected.
	Dimensions int
	// Timeout limits a chat request, retries included (default
	// chat.DefaultTimeout), or each embedding request (default 60s);
	// negative for none.
	Timeout time.Duration
	// FirstTokenTimeout (chat) limits the wait for the first piece of a
	// streamed reply (text, or reasoning sent apart), from when the
	// request is sent; default chat.DefaultFirstTokenTimeout, negative for
	// none. A reply not streamed is bounded by Timeout alone.
	FirstTokenTimeout time.Duration
	// IdleTimeout (chat) limits the silence between two pieces of a
	// streamed reply, once the first has come; default
	// chat.DefaultIdleTimeout, negative for none.
	IdleTimeout time.Duration
	// Client sends the requests; default http.DefaultClient.
	Client *http.Client
}

// Check returns the config's base URL and model, trimmed, and what is
// wrong with them: a base URL that is not one, or no model. The base URL
// is never nil: a client whose config is wrong returns err from every
// call instead of sending anything.
func (c Config) Check() (base *url.URL, model string, err error) {
	model = strings.TrimSpace(c.Model)
	base, berr := httpx.BaseURL(c.BaseURL)
	switch {
	case berr != nil:
		err = fmt.Errorf("openai: BaseURL %q: %w", c.BaseURL, berr)
	case model == "":
		err = fmt.Errorf("openai at %q: no model configured", httpx.Redact(base))
	}
	if base == nil {
		base = &url.URL{Scheme: "http", Host: "invalid"}
	}
	return base, model, err
}

// Key is the API key to send to url: the explicit one, else $envVar, else
// $OPENAI_API_KEY when url is OpenAI's own (never sent to a local server).
func Key(explicit, envVar, url string) string {
	if explicit != "" {
		return explicit
	}
	if k := os.Getenv(envVar); k != "" {
		return k
	}
	if strings.Contains(url, "api.openai.com") {
		return os.Getenv("OPENAI_API_KEY")
	}
	return ""
}

// Classify reads the error answers every OpenAI-compatible server gives
// alike: refused credentials (401, 403: auth) and a model it does not
// serve (model), with a hint for each; base is the redacted base URL and
// keyed whether a key was sent. ok is false for any other answer, which
// is the client's to read.
func Classify(status int, ae httpx.APIError, base string, keyed bool, auth, model error) (hint string, kind error, ok bool) {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		if !keyed {
			return "no API key is configured: set one", auth, true
		}
		return "check the API key", auth, true
	case ae.ModelMissing():
		return fmt.Sprintf("check the model name: GET %s lists what the server serves", base+"/models"), model, true
	}
	return "", nil, false
}

// NotFoundHint is the hint of a 404 at base/path: usually a base URL
// without its /v1.
func NotFoundHint(base, path string) string {
	return fmt.Sprintf("no %s here: base URLs usually end in /v1, e.g. http://127.0.0.1:8080/v1", base+"/"+path)
}
