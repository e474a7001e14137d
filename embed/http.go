package embed

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

	// classify maps a non-2xx answer to a hint and a sentinel (or nil).
	classify func(status int, ae httpx.APIError) (hint string, kind error)
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
	req, err := httpx.NewPost(reqCtx, ep.url, buf, "application/json", userAgent, ep.apiKey)
	if err != nil {
		return nil, ep.newError(nil, 0, "building the request: "+err.Error(), "", err)
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
	ae := httpx.ParseAPIError(body)
	msg := ae.Message
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	hint, kind := ep.classify(resp.StatusCode, ae)
	e := ep.newError(kind, resp.StatusCode, msg, hint, nil)
	e.RetryAfter = httpx.RetryAfter(resp.Header, time.Now())
	return e
}

// transportError describes a request that got no (complete) answer:
// abandoned by the caller's context, timed out, or failed on the network.
func (ep *endpoint) transportError(parent, reqCtx context.Context, err error) *Error {
	if cerr := parent.Err(); cerr != nil {
		return ep.newError(nil, 0, "request abandoned: "+cerr.Error(), "", cerr)
	}
	switch failure, what := httpx.Unanswered(reqCtx, ep.timeout, err); failure {
	case httpx.TimedOut:
		return ep.newError(ErrUnreachable, 0, "no answer within "+what,
			"the model may still be loading, or the batch is too large: raise the timeout or lower the batch size",
			errors.Join(context.DeadlineExceeded, err))
	case httpx.Untrusted:
		return ep.newError(nil, 0, "TLS: "+what, "", err)
	default:
		return ep.newError(ErrUnreachable, 0, "cannot connect: "+what, ep.unreachableHint, err)
	}
}

// cannotEmbed reports whether an error answer says the model or server
// does not do embeddings (llama-server without --embeddings, a chat model).
func cannotEmbed(ae httpx.APIError) bool {
	m := strings.ToLower(ae.Message)
	return strings.Contains(m, "--embedding") ||
		(strings.Contains(m, "not support") && strings.Contains(m, "embed"))
}
