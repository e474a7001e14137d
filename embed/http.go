package embed

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	// maxResponseBytes bounds a successful answer: 64 MiB holds a batch of
	// 512 vectors of 4096 dimensions written as JSON.
	maxResponseBytes = 64 << 20
	// maxErrorBytes bounds the body read from an error answer.
	maxErrorBytes = 64 << 10
	// defaultTimeout limits one request when the config says nothing.
	defaultTimeout = 60 * time.Second
	userAgent      = "oraculo-embed"
)

// endpoint is one provider's HTTP route, shared by Ollama and OpenAI.
type endpoint struct {
	provider string // "ollama", "openai"
	base     string // base URL for messages, credentials redacted
	url      string // the full URL requests go to
	model    string
	apiKey   string
	timeout  time.Duration // <= 0: none
	client   *http.Client

	// classify maps a non-2xx answer to a sentinel (or nil) and a hint.
	classify func(status int, ae apiError) (kind error, hint string)
	// unreachableHint is appended when the server cannot be reached.
	unreachableHint string
}

// newError returns an *Error about this endpoint.
func (ep *endpoint) newError(kind error, status int, msg, hint string, cause error) *Error {
	return &Error{Provider: ep.provider, URL: ep.base, Model: ep.model, Status: status,
		Message: msg, Hint: hint, Kind: kind, Err: cause}
}

// badResponse is an ErrResponse about a 2xx answer.
func (ep *endpoint) badResponse(format string, args ...any) *Error {
	return ep.newError(ErrResponse, http.StatusOK, fmt.Sprintf(format, args...), "", nil)
}

// httpDefaults fills in the default timeout and client of a provider.
func httpDefaults(timeout time.Duration, client *http.Client) (time.Duration, *http.Client) {
	if timeout == 0 {
		timeout = defaultTimeout
	}
	if client == nil {
		client = http.DefaultClient
	}
	return timeout, client
}

// post sends payload as JSON and returns the body of a 2xx answer. Every
// failure is an *Error.
func (ep *endpoint) post(ctx context.Context, payload any) ([]byte, error) {
	buf, err := json.Marshal(payload)
	if err != nil {
		return nil, ep.newError(nil, 0, "encoding the request: "+err.Error(), "", err)
	}
	reqCtx, cancel := context.WithCancel(ctx)
	if ep.timeout > 0 {
		reqCtx, cancel = context.WithTimeout(ctx, ep.timeout)
	}
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, ep.url, bytes.NewReader(buf))
	if err != nil {
		return nil, ep.newError(nil, 0, "building the request: "+err.Error(), "", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if ep.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+ep.apiKey)
	}
	resp, err := ep.client.Do(req)
	if err != nil {
		return nil, ep.transportError(ctx, reqCtx, err)
	}
	defer resp.Body.Close()

	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	limit := int64(maxErrorBytes)
	if ok {
		limit = maxResponseBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil && ok {
		return nil, ep.transportError(ctx, reqCtx, err)
	}
	if !ok {
		// A truncated or unreadable error body still has its status.
		if int64(len(body)) > limit {
			body = body[:limit]
		}
		return nil, ep.statusError(resp, body)
	}
	if int64(len(body)) > limit {
		return nil, ep.badResponse("answer larger than %d MiB", maxResponseBytes>>20)
	}
	return body, nil
}

// statusError describes a non-2xx answer.
func (ep *endpoint) statusError(resp *http.Response, body []byte) *Error {
	ae := parseAPIError(body)
	msg := ae.Message
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	kind, hint := ep.classify(resp.StatusCode, ae)
	e := ep.newError(kind, resp.StatusCode, msg, hint, nil)
	e.RetryAfter = parseRetryAfter(resp.Header, time.Now())
	return e
}

// transportError describes a request that got no (complete) answer:
// abandoned by the caller's context, timed out, or failed on the network.
func (ep *endpoint) transportError(parent, reqCtx context.Context, err error) *Error {
	if cerr := parent.Err(); cerr != nil {
		return ep.newError(nil, 0, "request abandoned: "+cerr.Error(), "", cerr)
	}
	var ue *url.Error
	if errors.Is(reqCtx.Err(), context.DeadlineExceeded) || (errors.As(err, &ue) && ue.Timeout()) {
		limit := "the client's timeout"
		if ep.timeout > 0 && reqCtx.Err() != nil {
			limit = ep.timeout.String()
		}
		return ep.newError(ErrUnreachable, 0, "no answer within "+limit,
			"the model may still be loading, or the batch is too large: raise the timeout or lower the batch size",
			errors.Join(context.DeadlineExceeded, err))
	}
	inner := err
	if ue != nil {
		inner = ue.Err
	}
	var cert *tls.CertificateVerificationError
	if errors.As(err, &cert) {
		return ep.newError(nil, 0, "TLS: "+inner.Error(), "", err)
	}
	return ep.newError(ErrUnreachable, 0, "cannot connect: "+inner.Error(), ep.unreachableHint, err)
}

// apiError is what an error answer said, whatever its dialect:
//
//	{"error": "..."}                                    Ollama, TEI native
//	{"error": {"message", "type", "code"}}              OpenAI, llama.cpp, LocalAI, vLLM (new)
//	{"object": "error", "message", "type", "code"}      vLLM (old), TEI OpenAI route
//	{"detail": "..."}                                   FastAPI
//	anything else                                       the body's text
type apiError struct {
	Message string
	Type    string
	Code    string // code as text; numbers are written in decimal
}

// parseAPIError reads an error answer's body.
func parseAPIError(body []byte) apiError {
	var raw struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Detail  json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(body, &raw); err == nil {
		ae := apiError{Message: raw.Message, Type: raw.Type, Code: codeText(raw.Code)}
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
			ae = apiError{Message: obj.Message, Type: obj.Type, Code: codeText(obj.Code)}
		case ae.Message == "" && json.Unmarshal(raw.Detail, &s) == nil:
			ae.Message = s
		}
		if ae.Message != "" {
			ae.Message = clip(ae.Message, 500)
			return ae
		}
	}
	return apiError{Message: clip(strings.Join(strings.Fields(string(body)), " "), 300)}
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

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// maxRetryAfter caps how long a server may ask a client to wait.
const maxRetryAfter = time.Minute

// parseRetryAfter reads retry-after-ms (milliseconds, sent by OpenAI) or
// Retry-After (seconds or an HTTP date), capped at maxRetryAfter. It
// returns 0 when neither is usable.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
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
	return min(d, maxRetryAfter)
}

// redact returns u without its password, for messages.
func redact(u *url.URL) string {
	s := u.Redacted()
	return strings.TrimSuffix(s, "/")
}

// modelMissing reports whether an error answer says the model does not
// exist or is not loaded.
func modelMissing(ae apiError) bool {
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

// cannotEmbed reports whether an error answer says the model or server
// does not do embeddings (llama-server without --embeddings, a chat model).
func cannotEmbed(ae apiError) bool {
	m := strings.ToLower(ae.Message)
	return strings.Contains(m, "--embedding") ||
		(strings.Contains(m, "not support") && strings.Contains(m, "embed"))
}
