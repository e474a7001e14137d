package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/oraculo/oraculo"
)

// stream writes server-sent events, flushing each. Write errors are
// ignored: a client that left cancels the request's context, which stops
// the work behind the stream.
type stream struct {
	w  io.Writer
	rc *http.ResponseController
}

// startStream answers 200 with an event stream.
func startStream(w http.ResponseWriter) *stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	st := &stream{w: w, rc: http.NewResponseController(w)}
	st.flush()
	return st
}

// event writes one named event whose data is v as JSON.
func (st *stream) event(name string, v any) {
	b, err := marshal(v)
	if err != nil {
		name, b = "error", []byte(`{"error":"encoding the event failed"}`)
	}
	fmt.Fprintf(st.w, "event: %s\ndata: %s\n\n", name, b)
	st.flush()
}

// data writes one unnamed event (the OpenAI stream's shape): v as JSON,
// or a string as is.
func (st *stream) data(v any) {
	b, ok := v.(string)
	if !ok {
		enc, err := marshal(v)
		if err != nil {
			enc = []byte(`{"error":{"message":"encoding the event failed","type":"server_error"}}`)
		}
		b = string(enc)
	}
	fmt.Fprintf(st.w, "data: %s\n\n", b)
	st.flush()
}

// comment writes a comment line, which clients ignore: a heartbeat.
func (st *stream) comment(text string) {
	fmt.Fprintf(st.w, ": %s\n\n", text)
	st.flush()
}

func (st *stream) flush() { _ = st.rc.Flush() }

// relay is what runAsk passes on, each from the goroutine that writes the
// response: the news that the model is thinking, the verified text so
// far (see oraculo.AskOptions), and a heartbeat; the raw generation is
// never relayed. Nil callbacks are not asked for.
type relay struct {
	thinking func()
	verified func([]oraculo.Segment)
	ping     func()
}

// runAsk runs Ask while the caller's goroutine, the only one that writes
// the response, relays what rl asks for, in order, all before returning,
// and calls rl.ping every heartbeat while waiting. A panic in the engine
// is an error here, not a crash.
func (s *Server) runAsk(ctx context.Context, question string, opts oraculo.AskOptions, rl relay) (*oraculo.Answer, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := make(chan func(), 64)
	send := func(f func()) {
		select {
		case events <- f:
		case <-ctx.Done():
		}
	}
	if rl.thinking != nil {
		opts.OnThinking = func() { send(rl.thinking) }
	}
	if rl.verified != nil {
		opts.OnVerified = func(segs []oraculo.Segment) { send(func() { rl.verified(segs) }) }
	}
	type result struct {
		a   *oraculo.Answer
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{err: fmt.Errorf("panic in the engine: %v", v)}
			}
		}()
		a, err := s.eng.Ask(ctx, question, opts)
		done <- result{a, err}
	}()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case f := <-events:
			f()
		case <-tick.C:
			if rl.ping != nil {
				rl.ping()
			}
		case res := <-done:
			// Every callback returned before Ask did: what is left is buffered.
			for len(events) > 0 {
				(<-events)()
			}
			return res.a, res.err
		}
	}
}

// streamError is the message of an error event, once the status line is
// gone.
func (s *Server) streamError(r *http.Request, err error) string {
	_, msg := s.failure(r, err)
	return msg
}
