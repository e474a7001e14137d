package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/oraculo/oraculo/internal/httpx"
)

// Error is a failed chat request. Its message names the provider, the
// server's URL and the model, says what happened (quoting the server when
// it said) and, where known, how to fix it:
//
//	ollama at "http://127.0.0.1:11434": chat with model "qwen2.5:7b": model 'qwen2.5:7b' not found, try pulling it first (HTTP 404; run "ollama pull qwen2.5:7b"): chat model not available
//
// Its Kind is ErrUnreachable, ErrModel, ErrAuth or ErrResponse, or nil
// when the caller's context ended the request (Err is then ctx.Err()).
type Error = httpx.Error

const (
	// DefaultTimeout limits a whole chat request when the config says
	// nothing: for a streamed reply, the bound on a model that never
	// stops writing.
	DefaultTimeout = 2 * time.Minute
	// DefaultFirstTokenTimeout limits, when the config says nothing, the
	// wait for the first piece of a streamed reply (text, or reasoning the
	// server sends apart) from when the request is sent: a model that is
	// loading, reading a long prompt or hung.
	DefaultFirstTokenTimeout = 30 * time.Second
	// DefaultIdleTimeout limits the silence between two pieces of a
	// streamed reply when the config says nothing.
	DefaultIdleTimeout = 15 * time.Second

	// maxRetries is how many times a request is sent again after a failure
	// worth retrying (connection refused, 429, 502, 503, 504), and only
	// while nothing of the reply has reached onDelta.
	maxRetries = 2
	// retryBackoff is the wait before the first retry, doubled for each next
	// one, when the server does not say (Retry-After).
	retryBackoff = 250 * time.Millisecond
	// maxRetryWait caps the wait a server may ask for: the user is waiting.
	maxRetryWait = 10 * time.Second

	// maxReplyBytes bounds a whole (not streamed) answer.
	maxReplyBytes = 16 << 20
	// maxLineBytes bounds one line of a stream.
	maxLineBytes = 1 << 20
	// maxErrorBytes bounds the body read from an error answer.
	maxErrorBytes = 64 << 10
	userAgent     = "oraculo-chat"
)

// errStalled ends a request whose stream went silent for the idle timeout;
// errNoFirstToken one whose stream did not start within the first-token
// timeout.
var (
	errStalled      = errors.New("stream stalled")
	errNoFirstToken = errors.New("no first token")
)

// endpoint is one provider's chat route, shared by Ollama and OpenAI.
type endpoint struct {
	provider string // "ollama", "openai"
	base     string // base URL for messages, credentials redacted
	url      string // the full URL requests go to
	model    string
	apiKey   string
	accept   string        // Accept header of a streamed request
	timeout  time.Duration // whole request; <= 0: none
	first    time.Duration // wait for a stream's first piece; <= 0: none
	idle     time.Duration // silence inside a stream; <= 0: none
	client   *http.Client

	// classify maps an error answer (a non-2xx status, or an error the
	// server put in a 2xx answer or stream) to a hint and a sentinel; a nil
	// sentinel means ErrResponse.
	classify func(status int, ae httpx.APIError) (hint string, kind error)
	// unreachableHint is appended when the server cannot be reached.
	unreachableHint string
	// cfgErr is the configuration's error, returned by every call.
	cfgErr error
}

// deadlines are an endpoint's limits on a request's time; 0 is the
// default, negative none.
type deadlines struct {
	timeout, first, idle time.Duration
}

// route sets where requests go (path under base) and how: the deadlines,
// and client, nil for http.DefaultClient.
func (ep *endpoint) route(base *url.URL, path string, d deadlines, client *http.Client) {
	ep.base = httpx.Redact(base)
	ep.url = base.JoinPath(path).String()
	ep.timeout, ep.first, ep.idle, ep.client = d.timeout, d.first, d.idle, client
	if d.timeout == 0 {
		ep.timeout = DefaultTimeout
	}
	if d.first == 0 {
		ep.first = DefaultFirstTokenTimeout
	}
	if d.idle == 0 {
		ep.idle = DefaultIdleTimeout
	}
	if client == nil {
		ep.client = http.DefaultClient
	}
}

// decoder reads the body of a 2xx answer, passing the reply to emit piece
// by piece (a whole answer in one piece): its text, and the reasoning the
// server sent apart, if any; and the token counts the server reported, if
// any, to count. An error it returns that is not a *serverError describes
// a malformed answer.
type decoder func(body io.Reader, emit func(text, reasoning string), count func(Usage)) error

// serverError is an error the server wrote in a 2xx answer or a stream.
type serverError struct{ httpx.APIError }

func (e *serverError) Error() string { return e.Message }

// checkRequest rejects what no server should be sent.
func checkRequest(req Request) error {
	if len(req.Messages) == 0 {
		return errors.New("no messages to send")
	}
	if math.IsNaN(req.Temperature) || math.IsInf(req.Temperature, 0) || req.Temperature < 0 {
		return fmt.Errorf("temperature %v: want a number from 0 up", req.Temperature)
	}
	if req.MaxTokens < 0 {
		return fmt.Errorf("max tokens %d: want 0 (the server's default) or more", req.MaxTokens)
	}
	return nil
}

// chat posts payload, the provider's form of req, and returns the reply,
// decoded by stream when onDelta is set (unless the server answered one
// JSON object) and by whole otherwise, the model's reasoning taken out. It
// retries what is worth retrying until a piece of the reply has reached
// onDelta, never after. On failure it returns what was received so far
// (what onDelta was given) with an *Error.
func (ep *endpoint) chat(ctx context.Context, req Request, payload any, onDelta func(string), stream, whole decoder) (string, error) {
	if ep.cfgErr != nil {
		return "", ep.cfgErr
	}
	if err := checkRequest(req); err != nil {
		return "", fmt.Errorf("%s: %w", ep.provider, err)
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return "", fmt.Errorf("%s: encoding the request: %w", ep.provider, err)
	}
	callCtx, cancel := ctx, context.CancelFunc(func() {})
	if ep.timeout > 0 {
		callCtx, cancel = context.WithTimeout(ctx, ep.timeout)
	}
	defer cancel()

	var reply strings.Builder
	delivered := false
	show := func(s string) {
		reply.WriteString(s)
		if onDelta != nil {
			delivered = true
			onDelta(s)
		}
	}
	if onDelta == nil {
		stream = nil
	}
	for attempt := 0; ; attempt++ {
		used, err := ep.filtered(ctx, callCtx, body, stream, whole, show, req.OnThinking)
		if err == nil && strings.TrimSpace(reply.String()) == "" {
			err = ep.newError(ErrResponse, http.StatusOK, "the reply is empty",
				"a thinking model may have spent the tokens on reasoning, or MaxTokens is too small", nil)
		}
		if err == nil {
			if used != nil && req.OnUsage != nil {
				req.OnUsage(*used)
			}
			return reply.String(), nil
		}
		if delivered || attempt >= maxRetries || !retryable(err) {
			return reply.String(), err
		}
		reply.Reset()
		if werr := ep.wait(ctx, callCtx, backoff(attempt, err)); werr != nil {
			if werr == errNoTime {
				return "", err
			}
			return "", werr
		}
	}
}

// filtered sends the request once (see [endpoint.attempt]), passing the
// reply to show without the model's reasoning (see reasoningFilter), and
// returns the token counts the server reported, nil for none.
func (ep *endpoint) filtered(parent, callCtx context.Context, body []byte, stream, whole decoder, show func(string), onThinking func()) (*Usage, error) {
	rf := newReasoningFilter(show, onThinking)
	var used *Usage
	err := ep.attempt(parent, callCtx, body, stream, whole, func(text, reasoning string) {
		if reasoning != "" {
			rf.reasoning()
		}
		rf.write(text)
	}, func(u Usage) { used = &u })
	if err == nil {
		rf.close()
	}
	return used, err
}

// errNoTime says a retry would start after the request's deadline.
var errNoTime = errors.New("no time left to retry")

// wait sleeps d before a retry. It returns errNoTime when the request's
// deadline would pass first, and the abandonment when ctx ends.
func (ep *endpoint) wait(parent, callCtx context.Context, d time.Duration) error {
	if dl, ok := callCtx.Deadline(); ok && time.Until(dl) < d {
		return errNoTime
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-callCtx.Done():
		if parent.Err() != nil {
			return ep.abandoned(parent.Err())
		}
		return errNoTime
	}
}

// backoff is the wait before retry number attempt+1: what the server asked
// for (capped), else a doubling backoff.
func backoff(attempt int, err error) time.Duration {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return min(e.RetryAfter, maxRetryWait)
	}
	return retryBackoff << attempt
}

// retryable reports whether a failed attempt may be sent again: the
// connection was refused, or the server answered 429, 502, 503 or 504.
func retryable(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	case 0:
		return errors.Is(e.Err, syscall.ECONNREFUSED)
	}
	return false
}

// attempt sends the request once and decodes a 2xx answer. Every failure
// is an *Error.
func (ep *endpoint) attempt(parent, callCtx context.Context, body []byte, stream, whole decoder, emit func(text, reasoning string), count func(Usage)) error {
	reqCtx, cancel := context.WithCancelCause(callCtx)
	defer cancel(nil)
	var wd *watchdog
	if stream != nil {
		// The first-token clock starts before the request is sent: a
		// streaming server sends its headers with the first piece.
		wd = ep.watch(cancel)
		defer wd.stop()
	}
	accept := "application/json"
	if stream != nil {
		accept = ep.accept
	}
	req, err := httpx.NewPost(reqCtx, ep.url, body, accept, userAgent, ep.apiKey)
	if err != nil {
		return ep.newError(ErrUnreachable, 0, "building the request: "+err.Error(), "", err)
	}
	resp, err := ep.client.Do(req)
	if err != nil {
		return ep.transportError(parent, callCtx, reqCtx, err, false)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBytes))
		return ep.statusError(resp, b)
	}

	decode, streaming := whole, stream != nil && !isJSON(resp.Header.Get("Content-Type"))
	if streaming {
		decode = stream
	} else {
		wd.stop() // a whole answer comes at once: only the timeout bounds it
	}
	r := &watchedBody{r: resp.Body}
	err = decode(r, func(text, reasoning string) {
		if text != "" || reasoning != "" {
			wd.piece()
		}
		emit(text, reasoning)
	}, count)
	switch {
	case r.err != nil:
		return ep.transportError(parent, callCtx, reqCtx, r.err, true)
	case err == nil:
		return nil
	}
	var se *serverError
	if errors.As(err, &se) {
		hint, kind := ep.classify(resp.StatusCode, se.APIError)
		if kind == nil {
			kind = ErrResponse
		}
		return ep.newError(kind, resp.StatusCode, "the server reported: "+se.Message, hint, nil)
	}
	return ep.newError(ErrResponse, resp.StatusCode, err.Error(), "", nil)
}

// isJSON reports whether a Content-Type is a single JSON document.
func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json"
}

// watchdog ends a streamed request, with a cause, when its first piece
// does not come within the first-token timeout (errNoFirstToken) or when
// no piece comes for the idle timeout after one did (errStalled). A piece
// is text or reasoning: bytes that carry neither (an empty delta, a
// comment, a role) are not the model writing. Its methods run on the
// goroutine that decodes the stream; a nil watchdog does nothing.
type watchdog struct {
	idle    time.Duration
	cancel  context.CancelCauseFunc
	timer   *time.Timer // the first-token timer, then the idle one
	started bool
}

// watch starts a watchdog over a request that cancel ends.
func (ep *endpoint) watch(cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{idle: ep.idle, cancel: cancel}
	if ep.first > 0 {
		w.timer = time.AfterFunc(ep.first, func() { cancel(errNoFirstToken) })
	}
	return w
}

// piece records that a piece of the reply came.
func (w *watchdog) piece() {
	switch {
	case w == nil:
	case !w.started:
		w.started = true
		w.stop()
		if w.idle > 0 {
			w.timer = time.AfterFunc(w.idle, func() { w.cancel(errStalled) })
		}
	case w.timer != nil:
		w.timer.Reset(w.idle)
	}
}

// stop stops the watchdog's clock.
func (w *watchdog) stop() {
	if w != nil && w.timer != nil {
		w.timer.Stop()
	}
}

// watchedBody records the first read error of a body (other than io.EOF).
type watchedBody struct {
	r   io.Reader
	err error
}

func (w *watchedBody) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if err != nil && err != io.EOF && w.err == nil {
		w.err = err
	}
	return n, err
}

// newError returns an *Error about this endpoint.
func (ep *endpoint) newError(kind error, status int, msg, hint string, cause error) *Error {
	return &Error{Provider: ep.provider, URL: ep.base, Model: ep.model, Op: "chat", Status: status,
		Message: msg, Hint: hint, Kind: kind, Err: cause}
}

// abandoned is the error of a request the caller's context ended.
func (ep *endpoint) abandoned(cause error) *Error {
	return ep.newError(nil, 0, "request abandoned: "+cause.Error(), "", cause)
}

// statusError describes a non-2xx answer.
func (ep *endpoint) statusError(resp *http.Response, body []byte) *Error {
	ae := httpx.ParseAPIError(body)
	msg := ae.Message
	if msg == "" {
		msg = strings.ToLower(http.StatusText(resp.StatusCode))
	}
	hint, kind := ep.classify(resp.StatusCode, ae)
	if kind == nil {
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			kind = ErrUnreachable
			if hint == "" {
				hint = "the server, or a proxy in front of it, is unavailable: try again later"
			}
		default:
			kind = ErrResponse
		}
	}
	e := ep.newError(kind, resp.StatusCode, msg, hint, nil)
	e.RetryAfter = httpx.RetryAfter(resp.Header, time.Now())
	return e
}

// transportError describes a request that got no (complete) answer:
// abandoned by the caller's context, timed out, stalled, or failed on the
// network before the answer (reading false) or while reading it.
func (ep *endpoint) transportError(parent, callCtx, reqCtx context.Context, err error, reading bool) *Error {
	if cerr := parent.Err(); cerr != nil {
		return ep.abandoned(cerr)
	}
	switch context.Cause(reqCtx) {
	case errStalled:
		return ep.newError(ErrUnreachable, 0, fmt.Sprintf("the reply stalled: nothing came for %s", ep.idle),
			"the server may be overloaded: try again, or raise IdleTimeout",
			errors.Join(context.DeadlineExceeded, err))
	case errNoFirstToken:
		return ep.newError(ErrUnreachable, 0, fmt.Sprintf("the reply did not start within %s", ep.first),
			"the model may be loading, reading a long prompt, or hung: try again, or raise FirstTokenTimeout",
			errors.Join(context.DeadlineExceeded, err))
	}
	switch failure, what := httpx.Unanswered(callCtx, ep.timeout, err); {
	case failure == httpx.TimedOut:
		return ep.newError(ErrUnreachable, 0, "no complete reply within "+what,
			"the model may still be loading, or the reply is long: raise Timeout or lower MaxTokens",
			errors.Join(context.DeadlineExceeded, err))
	case failure == httpx.Untrusted:
		return ep.newError(ErrUnreachable, 0, "TLS: "+what, "the server's certificate is not trusted", err)
	case reading:
		return ep.newError(ErrUnreachable, 0, "connection lost while reading the reply: "+what, "", err)
	default:
		return ep.newError(ErrUnreachable, 0, "cannot connect: "+what, ep.unreachableHint, err)
	}
}

// readWhole reads a whole answer, bounded by maxReplyBytes, into v; see
// decodeJSON.
func readWhole(r io.Reader, v any) error {
	b, err := io.ReadAll(io.LimitReader(r, maxReplyBytes+1))
	if err != nil {
		return err
	}
	if len(b) > maxReplyBytes {
		return fmt.Errorf("answer larger than %d MiB", maxReplyBytes>>20)
	}
	return decodeJSON(b, v)
}

// decodeJSON decodes an answer, or one line or event of a stream, into v.
// An "error" member in it is the server reporting a failure: a
// *serverError.
func decodeJSON(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("malformed JSON (%v) in %q", err, httpx.Clip(strings.Join(strings.Fields(string(b)), " "), 120))
	}
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil {
		if raw := bytes.TrimSpace(e.Error); len(raw) > 0 && string(raw) != "null" && string(raw) != `""` {
			return &serverError{httpx.ParseAPIError(b)}
		}
	}
	return nil
}

// eachLine calls fn with each non-blank line of r, without its end of
// line, until fn says stop or returns an error. It reports whether fn said
// stop (false: the body ended first).
func eachLine(r io.Reader, fn func(line []byte) (stop bool, err error)) (bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		stop, err := fn(line)
		if err != nil || stop {
			return stop, err
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return false, fmt.Errorf("a line of the stream is longer than %d KiB", maxLineBytes>>10)
	}
	return false, sc.Err()
}
