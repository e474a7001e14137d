package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound how many requests of each route class run at once, and how
// many more may wait for a slot and for how long; a request past them is
// answered 503 with Retry-After at once, instead of queueing until every
// client is slow. A zero field takes its [DefaultLimits] value.
type Limits struct {
	// Search bounds the searches running at once (POST /api/search, the
	// MCP search tool).
	Search int
	// Ask bounds the answers made without a chat model (extractive) at
	// once: POST /api/ask, POST /v1/chat/completions and the MCP ask
	// tool, when they will not call the chat model.
	Ask int
	// Model bounds the requests that will call the chat model at once
	// (the same routes, when a chat model answers them).
	Model int
	// Queue is how many requests of each class may wait for a slot;
	// negative: none may.
	Queue int
	// QueueWait is the longest a request waits for a slot.
	QueueWait time.Duration
}

// DefaultLimits are the limits for a machine of runtime.GOMAXPROCS(0)
// processors. Searches and extractive answers are CPU work: as many run
// at once as there are processors (at least two), since more would only
// make each slower. Answers from a chat model mostly wait for it: four
// times the processors. Each class may queue eight times the processors,
// for a quarter of a second at most, so that a served request never
// waits long and a burst shorter than that is absorbed.
func DefaultLimits() Limits {
	p := runtime.GOMAXPROCS(0)
	return Limits{Search: max(2, p), Ask: max(2, p), Model: 4 * p, Queue: 8 * p, QueueWait: 250 * time.Millisecond}
}

// withDefaults fills the zero fields of l from [DefaultLimits]; a negative
// queue is none.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct{ v, def *int }{{&l.Search, &d.Search}, {&l.Ask, &d.Ask}, {&l.Model, &d.Model}} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	switch {
	case l.Queue == 0:
		l.Queue = d.Queue
	case l.Queue < 0:
		l.Queue = 0
	}
	if l.QueueWait <= 0 {
		l.QueueWait = d.QueueWait
	}
	return l
}

// routeClass is a kind of request with a bound of its own.
type routeClass int

const (
	classNone   routeClass = iota // not bounded
	classSearch                   // a search
	classAsk                      // an answer without a chat model
	classModel                    // a request that calls the chat model
	numClasses
)

// classNames name the classes in messages.
var classNames = [numClasses]string{"", "searches", "answers", "answers from the chat model"}

// errBusy is a request refused because its class is full.
var errBusy = errors.New("busy")

// gate bounds one class: slots running at once, and a queue of at most
// queue requests waiting, each for at most wait.
type gate struct {
	slots   chan struct{}
	queue   int32
	wait    time.Duration
	waiting atomic.Int32
}

func newGate(n, queue int, wait time.Duration) *gate {
	return &gate{slots: make(chan struct{}, n), queue: int32(queue), wait: wait}
}

// enter takes a slot, waiting in the queue if there is room in it; it
// returns errBusy when there is none or the wait ran out, ctx's error when
// ctx ended first. Callers call release once done.
func (g *gate) enter(ctx context.Context) error {
	select {
	case g.slots <- struct{}{}:
		return nil
	default:
	}
	if g.waiting.Add(1) > g.queue {
		g.waiting.Add(-1)
		return errBusy
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return errBusy
	}
}

func (g *gate) release() { <-g.slots }

// running is how many slots are taken.
func (g *gate) running() int { return len(g.slots) }

// retryAfter is the Retry-After of a refused request, in whole seconds:
// the queue's wait, at least one.
func (l Limits) retryAfter() int {
	return max(1, int(math.Ceil(l.QueueWait.Seconds())))
}

// shed runs h within the bound of the class classify gives the request
// (none: unbounded). A request that finds its class full, and no room or
// no time in its queue, is answered 503 with Retry-After in the shape of
// its API; one whose client leaves while it waits is dropped. The slot is
// held until h returns: a stream holds it until it ends, or until its
// client goes away and the answer is cancelled.
func (s *Server) shed(classify func(*http.Request) routeClass, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := classify(r)
		if c == classNone {
			h(w, r)
			return
		}
		g := s.gates[c]
		if err := g.enter(r.Context()); err != nil {
			if r.Context().Err() != nil {
				infoFrom(r.Context()).status = statusClientClosed
				return
			}
			s.busy(w, r, c)
			return
		}
		defer g.release()
		h(w, r)
	}
}

// busy answers a request shed from class c: 503, Retry-After, and the
// error in the shape its client reads (JSON-RPC for MCP).
func (s *Server) busy(w http.ResponseWriter, r *http.Request, c routeClass) {
	after := s.limits.retryAfter()
	w.Header().Set("Retry-After", strconv.Itoa(after))
	msg := fmt.Sprintf("the server is busy (too many %s at once): retry in %d s", classNames[c], after)
	if isMCP(r) {
		// A JSON-RPC error answering the request's id, which MCP
		// clients match to their call.
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{
			"jsonrpc": "2.0", "id": mcpID(r),
			"error": map[string]any{"code": mcpBusyCode, "message": msg},
		})
		return
	}
	writeError(w, r, http.StatusServiceUnavailable, msg)
}

// mcpBusyCode is the JSON-RPC error code of a shed MCP request: one of
// the codes JSON-RPC leaves to the server (-32000 to -32099).
const mcpBusyCode = -32000

func isMCP(r *http.Request) bool {
	return r.URL.Path == "/mcp" || strings.HasPrefix(r.URL.Path, "/mcp/")
}

// peekBody decodes the request's JSON body into v and puts the body back
// for the handler, unchanged, with the error reading it gave (a body over
// the limit still gets its 413). It reports whether v was decoded.
func peekBody(r *http.Request, v any) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	data, err := io.ReadAll(r.Body)
	r.Body = &replayBody{Reader: bytes.NewReader(data), err: err, Closer: r.Body}
	return err == nil && json.Unmarshal(data, v) == nil
}

// replayBody gives back a body already read, then the error reading it
// ended with (io.EOF when none).
type replayBody struct {
	*bytes.Reader
	err error
	io.Closer
}

func (b *replayBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF && b.err != nil {
		err = b.err
	}
	return n, err
}

// answerClass is the class of an answer: the chat model's unless the
// request asked for an extractive one or there is no chat model.
func (s *Server) answerClass(extractive bool) routeClass {
	if extractive || s.eng.ChatModel() == nil {
		return classAsk
	}
	return classModel
}

func searchClass(*http.Request) routeClass { return classSearch }

// askClass classes POST /api/ask by its "extractive".
func (s *Server) askClass(r *http.Request) routeClass {
	var req struct {
		Extractive bool `json:"extractive"`
	}
	peekBody(r, &req)
	return s.answerClass(req.Extractive)
}

// openAIClass classes POST /v1/chat/completions and /v1/responses by
// their model.
func (s *Server) openAIClass(r *http.Request) routeClass {
	var req struct {
		Model string `json:"model"`
	}
	peekBody(r, &req)
	return s.answerClass(req.Model == ModelIDExtractive)
}

// mcpClass classes an MCP message: a call of the search tool is a search,
// one of the ask tool an answer; anything else is unbounded.
func (s *Server) mcpClass(r *http.Request) routeClass {
	if r.Method != http.MethodPost {
		return classNone
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if !peekBody(r, &msg) || msg.Method != "tools/call" {
		return classNone
	}
	switch msg.Params.Name {
	case "search":
		return classSearch
	case "ask":
		return s.answerClass(false)
	}
	return classNone
}

// mcpID is the id of the JSON-RPC request in r's body (already peeked),
// or null.
func mcpID(r *http.Request) json.RawMessage {
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	if b, ok := r.Body.(*replayBody); ok {
		data := make([]byte, b.Size())
		if _, err := b.ReadAt(data, 0); err == nil || err == io.EOF {
			if json.Unmarshal(data, &msg) == nil && len(msg.ID) > 0 {
				return msg.ID
			}
		}
	}
	return json.RawMessage("null")
}

// healthProbeEvery is how long /healthz reuses what it learnt of the
// index, so that a flood of probes costs the index nothing.
var healthProbeEvery = time.Second

// healthState is the last probe of the index.
type healthState struct {
	mu   sync.Mutex
	at   time.Time
	open bool
}

// healthz answers whether the server can serve: 200 {"status": "ok",
// "index": "open"} when the index answers a read, else 503 {"status":
// "unavailable", "index": "unavailable"}. It needs no token and says
// nothing else: no version, no path, no error.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	open := s.indexOpen(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	if !open {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "index": "unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "index": "open"})
}

// indexOpen reports whether the index answers a cheap read, probing it at
// most once every healthProbeEvery.
func (s *Server) indexOpen(ctx context.Context) bool {
	s.probe.mu.Lock()
	defer s.probe.mu.Unlock()
	if !s.probe.at.IsZero() && time.Since(s.probe.at) < healthProbeEvery {
		return s.probe.open
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := s.eng.Roots(ctx)
	s.probe.open, s.probe.at = err == nil, time.Now()
	return s.probe.open
}
