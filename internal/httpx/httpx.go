// Package httpx holds what Oráculo's clients of model servers (the
// embedders in embed, the chat models in chat) share: the error they
// return, reading a server's error answer and its Retry-After, and parsing
// the server addresses users configure.
package httpx

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is a failed request to a model server. Its message names the
// provider, the server's URL and the model, says what was being done (when
// Op is set) and what happened, with the server's own message when there
// was one, and, where known, how to fix it:
//
//	ollama at "http://127.0.0.1:11434": model "bge-m3": model "bge-m3" not found, try pulling it first (HTTP 404; run "ollama pull bge-m3"): model not available
//	ollama at "http://127.0.0.1:11434": chat with model "qwen2.5:7b": cannot connect: … (is Ollama running? …): chat server unreachable
//
// errors.Is matches Kind (one of the calling package's sentinel errors, or
// nil) and Err (the underlying cause, such as a *url.Error or
// context.DeadlineExceeded).
type Error struct {
	Provider string // "ollama" or "openai"
	URL      string // the server's base URL, credentials redacted
	Model    string
	// Op, when set, says what was being done, as in "chat" ("chat with
	// model …").
	Op string
	// Status is the HTTP status of the answer, 0 when there was none.
	Status int
	// Message says what went wrong, quoting the server when it said.
	Message string
	// Hint says how to fix it, or is empty.
	Hint string
	// RetryAfter is how long the server asked to wait (Retry-After or
	// retry-after-ms headers), or 0.
	RetryAfter time.Duration
	// Kind is one of the calling package's sentinel errors, or nil.
	Kind error
	// Err is the underlying cause, or nil.
	Err error
}

// Error implements error.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %q: ", e.Provider, e.URL)
	if e.Op != "" {
		fmt.Fprintf(&b, "%s with ", e.Op)
	}
	fmt.Fprintf(&b, "model %q: %s", e.Model, e.Message)
	var notes []string
	if e.Status != 0 && (e.Status < 200 || e.Status > 299) {
		notes = append(notes, fmt.Sprintf("HTTP %d", e.Status))
	}
	if e.Hint != "" {
		notes = append(notes, e.Hint)
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(notes, "; "))
	}
	if e.Kind != nil {
		b.WriteString(": ")
		b.WriteString(e.Kind.Error())
	}
	return b.String()
}

// Unwrap returns Kind and Err, those that are set.
func (e *Error) Unwrap() []error {
	var errs []error
	if e.Kind != nil {
		errs = append(errs, e.Kind)
	}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

// Failure is why a request got no (complete) answer.
type Failure int

const (
	// Disconnected: refused, reset, DNS failure, or any other network error.
	Disconnected Failure = iota
	// TimedOut: the request's deadline passed, or the client's timeout.
	TimedOut
	// Untrusted: the server's TLS certificate did not verify.
	Untrusted
)

// Unanswered says why a request sent with reqCtx failed with err (from
// http.Client.Do or from reading the body), and what to say about it: for
// TimedOut the limit that struck (timeout, when reqCtx's deadline passed,
// else "the client's timeout"), otherwise the error without its *url.Error
// wrapping.
func Unanswered(reqCtx context.Context, timeout time.Duration, err error) (Failure, string) {
	var ue *url.Error
	if errors.Is(reqCtx.Err(), context.DeadlineExceeded) || (errors.As(err, &ue) && ue.Timeout()) {
		if timeout > 0 && reqCtx.Err() != nil {
			return TimedOut, timeout.String()
		}
		return TimedOut, "the client's timeout"
	}
	inner := err
	if ue != nil {
		inner = ue.Err
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return Untrusted, inner.Error()
	}
	return Disconnected, inner.Error()
}

// APIError is what an error answer said, whatever its dialect:
//
//	{"error": "..."}                                    Ollama, TEI native
//	{"error": {"message", "type", "code"}}              OpenAI, llama.cpp, LocalAI, vLLM (new)
//	{"object": "error", "message", "type", "code"}      vLLM (old), TEI OpenAI route
//	{"detail": "..."}                                   FastAPI
//	anything else                                       the body's text
type APIError struct {
	Message string
	Type    string
	Code    string // code as text; numbers are written in decimal
}

// ParseAPIError reads an error answer's body.
func ParseAPIError(body []byte) APIError {
	var raw struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Detail  json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(body, &raw); err == nil {
		ae := APIError{Message: raw.Message, Type: raw.Type, Code: codeText(raw.Code)}
		var s string
		var obj struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		switch {
		case json.Unmarshal(raw.Error, &s) == nil && s != "":
			ae.Message = s
		case json.Unmarshal(raw.Error, &obj) == nil && obj.Message != "":
			ae = APIError{Message: obj.Message, Type: obj.Type, Code: codeText(obj.Code)}
		case ae.Message == "" && json.Unmarshal(raw.Detail, &s) == nil:
			ae.Message = s
		}
		if ae.Message != "" {
			ae.Message = Clip(ae.Message, 500)
			return ae
		}
	}
	return APIError{Message: Clip(strings.Join(strings.Fields(string(body)), " "), 300)}
}

// codeText renders a JSON string or number code as text.
func codeText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// ModelMissing reports whether the answer says the model does not exist or
// is not loaded.
func (ae APIError) ModelMissing() bool {
	if ae.Code == "model_not_found" {
		return true
	}
	m := strings.ToLower(ae.Message)
	if !strings.Contains(m, "model") {
		return false
	}
	for _, s := range []string{"not found", "does not exist", "not exist", "no such", "not loaded", "unknown model", "not available"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// Clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func Clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// JSONProblem describes why a 2xx body is not the expected JSON, quoting
// its start, and naming NaN or Infinity, which some servers write although
// JSON cannot carry them.
func JSONProblem(body []byte, err error) string {
	s := string(body)
	for _, bad := range []string{"NaN", "Infinity"} {
		if strings.Contains(s, bad) {
			return fmt.Sprintf("the answer holds %s, which is not JSON: the model produced non-finite values (%v)", bad, err)
		}
	}
	return fmt.Sprintf("malformed JSON (%v) in %q", err, Clip(strings.Join(strings.Fields(s), " "), 120))
}

// MaxRetryAfter caps how long a server may ask a client to wait.
const MaxRetryAfter = time.Minute

// RetryAfter reads retry-after-ms (milliseconds, sent by OpenAI) or
// Retry-After (seconds or an HTTP date), capped at MaxRetryAfter. It
// returns 0 when neither is usable.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	var d time.Duration
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			d = time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); d == 0 && v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			if s > 0 {
				d = time.Duration(s * float64(time.Second))
			}
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(now)
		}
	}
	if d < 0 {
		return 0
	}
	return min(d, MaxRetryAfter)
}

// Redact returns u without its password and trailing slash, for messages.
func Redact(u *url.URL) string {
	return strings.TrimSuffix(u.Redacted(), "/")
}

// OllamaBaseURL resolves a configured Ollama address: s, else
// $OLLAMA_HOST, else http://127.0.0.1:11434, read by OllamaHost. When the
// address is unusable it returns http://127.0.0.1:11434 with an error that
// names where the address came from ("BaseURL" or "OLLAMA_HOST").
func OllamaBaseURL(s string) (*url.URL, error) {
	from := "BaseURL"
	if strings.TrimSpace(s) == "" {
		s, from = os.Getenv("OLLAMA_HOST"), "OLLAMA_HOST"
	}
	u, err := OllamaHost(s)
	if err != nil {
		return &url.URL{Scheme: "http", Host: "127.0.0.1:11434"}, fmt.Errorf("%s %q: %w", from, s, err)
	}
	return u, nil
}

// OllamaHost reads a server address the way Ollama reads OLLAMA_HOST
// (envconfig.Host): optional scheme, host, optional port, optional path.
// Without a scheme the port defaults to 11434, with http:// to 80 and with
// https:// to 443; an empty host is 127.0.0.1, and an unspecified address
// (0.0.0.0, ::) becomes loopback, since a client cannot connect to "any".
func OllamaHost(s string) (*url.URL, error) {
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

// KeepAlive encodes an Ollama keep_alive setting as Ollama reads it: a
// number of seconds ("-1", "300") as a JSON number, a duration ("30m") as
// a JSON string. Empty gives nil (leave Ollama's default).
func KeepAlive(s string) (json.RawMessage, error) {
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

// BaseURL checks an OpenAI-style base URL (http or https, a host, no query
// or fragment) and drops a trailing slash.
func BaseURL(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("a base URL such as http://127.0.0.1:8080/v1 is required")
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("want http:// or https:// and a host, e.g. http://127.0.0.1:8080/v1")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("a base URL takes no query or fragment")
	}
	return u, nil
}
