package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
	_ "github.com/oraculo/oraculo/internal/golden"
)

// tuning is what the behaviour tests set in either provider's config.
type tuning struct {
	timeout, first, idle time.Duration
	client               *http.Client
}

// provider starts a fake server and a client of it.
type provider struct {
	name   string
	server func(testing.TB, func(chattest.Call) string) *chattest.Server
	model  func(srv *chattest.Server, tn tuning) chat.Model
}

var providers = []provider{
	{"ollama", chattest.NewOllama, func(srv *chattest.Server, tn tuning) chat.Model {
		return chat.NewOllama(chat.OllamaConfig{BaseURL: srv.URL, Model: "m",
			Timeout: tn.timeout, FirstTokenTimeout: tn.first, IdleTimeout: tn.idle, Client: tn.client})
	}},
	{"openai", chattest.NewOpenAI, func(srv *chattest.Server, tn tuning) chat.Model {
		return chat.NewOpenAI(chat.OpenAIConfig{BaseURL: srv.URL, Model: "m",
			Timeout: tn.timeout, FirstTokenTimeout: tn.first, IdleTimeout: tn.idle, Client: tn.client})
	}},
}

// forEach runs test once per provider, in parallel.
func forEach(t *testing.T, test func(t *testing.T, p provider)) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			test(t, p)
		})
	}
}

var question = chat.Request{Messages: []chat.Message{
	{Role: chat.RoleSystem, Content: "Answer from the notes."},
	{Role: chat.RoleUser, Content: "¿Quién fundó Numancia?"},
}}

const answer = "Los arévacos, según [1]."

// collect returns an onDelta that appends to *pieces.
func collect(pieces *[]string) func(string) {
	return func(s string) { *pieces = append(*pieces, s) }
}

// failed checks that err says says and wraps each of wraps.
func failed(t *testing.T, err error, says string, wraps ...error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), says) {
		t.Errorf("err = %v, want one saying %q", err, says)
	}
	for _, w := range wraps {
		if !errors.Is(err, w) {
			t.Errorf("err = %v does not wrap %v", err, w)
		}
	}
}

// calls checks that srv received n requests.
func calls(t *testing.T, srv *chattest.Server, n int) {
	t.Helper()
	if got := len(srv.Calls()); got != n {
		t.Errorf("%d requests, want %d", got, n)
	}
}

// within checks that less than d passed since start.
func within(t *testing.T, start time.Time, d time.Duration) {
	t.Helper()
	if took := time.Since(start); took > d {
		t.Errorf("took %v, want less than %v", took, d)
	}
}

func TestStreamAndWhole(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(c chattest.Call) string {
			if !strings.Contains(c.Text(chat.RoleUser), "Numancia") {
				t.Errorf("user text = %q", c.Text(chat.RoleUser))
			}
			return answer
		})
		m := p.model(srv, tuning{})
		var pieces []string
		got, err := m.Chat(t.Context(), question, collect(&pieces))
		if err != nil || got != answer {
			t.Fatalf("streamed: %q, %v", got, err)
		}
		if want := chattest.Pieces(answer); !slices.Equal(pieces, want) || len(want) < 3 {
			t.Errorf("pieces = %q, want %q", pieces, want)
		}
		req := question
		req.JSON = true
		if got, err = m.Chat(t.Context(), req, nil); err != nil || got != answer {
			t.Fatalf("whole: %q, %v", got, err)
		}
		calls := srv.Calls()
		if len(calls) != 2 || !calls[0].Stream || calls[0].JSON || calls[1].Stream || !calls[1].JSON {
			t.Errorf("calls = %+v", calls)
		}
		if !slices.Equal(calls[0].Messages, question.Messages) || calls[0].Model != "m" {
			t.Errorf("call = %+v", calls[0])
		}
	})
}

func TestRetriesBeforeStreaming(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 502, 503, 504} {
		forEach(t, func(t *testing.T, p provider) {
			srv := p.server(t, func(chattest.Call) string { return answer })
			srv.Fail(chattest.Fault{Status: status, Times: 2, RetryAfter: 10 * time.Millisecond})
			var pieces []string
			got, err := p.model(srv, tuning{}).Chat(t.Context(), question, collect(&pieces))
			if err != nil || got != answer || strings.Join(pieces, "") != answer {
				t.Errorf("HTTP %d twice: %q (%q), %v", status, got, pieces, err)
			}
			calls(t, srv, 3)
		})
	}
}

func TestRetriesGiveUp(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, nil)
		srv.Fail(chattest.Fault{Status: 503, RetryAfter: 10 * time.Millisecond})
		_, err := p.model(srv, tuning{}).Chat(t.Context(), question, nil)
		failed(t, err, "HTTP 503", chat.ErrUnreachable)
		calls(t, srv, 3)
	})
}

func TestNoRetryForOtherFailures(t *testing.T) {
	t.Parallel()
	for _, f := range []chattest.Fault{{Status: 500}, {Status: 400}, {Status: 404}, {Malformed: true}, {Drop: true}} {
		forEach(t, func(t *testing.T, p provider) {
			srv := p.server(t, nil)
			srv.Fail(f)
			if _, err := p.model(srv, tuning{}).Chat(t.Context(), question, nil); err == nil {
				t.Errorf("%+v: no error", f)
			}
			calls(t, srv, 1)
		})
	}
}

// A Retry-After longer than the time left fails at once with the answer
// that asked for it, rather than waiting past the deadline.
func TestRetryAfterBeyondTimeout(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, nil)
		srv.Fail(chattest.Fault{Status: 429, RetryAfter: 5 * time.Second})
		start := time.Now()
		_, err := p.model(srv, tuning{timeout: time.Second}).Chat(t.Context(), question, nil)
		failed(t, err, "HTTP 429", chat.ErrResponse)
		within(t, start, 500*time.Millisecond)
	})
}

func TestNoRetryOnceStreaming(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		srv.Fail(chattest.Fault{Drop: true, After: 2})
		var pieces []string
		got, err := p.model(srv, tuning{}).Chat(t.Context(), question, collect(&pieces))
		failed(t, err, "connection lost", chat.ErrUnreachable)
		want := strings.Join(chattest.Pieces(answer)[:2], "")
		if got != want || strings.Join(pieces, "") != want {
			t.Errorf("reply %q, pieces %q, want %q", got, pieces, want)
		}
		calls(t, srv, 1)
	})
}

// refusingDialer refuses the first n connections, then dials.
func refusingDialer(n int32) *http.Client {
	var refused atomic.Int32
	d := &net.Dialer{}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if refused.Add(1) <= n {
			return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}
		return d.DialContext(ctx, network, addr)
	}}
	return &http.Client{Transport: tr}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		got, err := p.model(srv, tuning{client: refusingDialer(2)}).Chat(t.Context(), question, nil)
		if err != nil || got != answer {
			t.Errorf("refused twice: %q, %v", got, err)
		}
		_, err = p.model(srv, tuning{client: refusingDialer(3)}).Chat(t.Context(), question, nil)
		failed(t, err, "cannot connect", chat.ErrUnreachable, syscall.ECONNREFUSED)
		calls(t, srv, 1)
	})
}

func TestStalledStream(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		srv.Fail(chattest.Fault{Stall: true, After: 1})
		var pieces []string
		start := time.Now()
		got, err := p.model(srv, tuning{idle: 100 * time.Millisecond}).Chat(t.Context(), question, collect(&pieces))
		failed(t, err, "stalled", chat.ErrUnreachable, context.DeadlineExceeded)
		if first := chattest.Pieces(answer)[0]; got != first || !slices.Equal(pieces, []string{first}) {
			t.Errorf("reply %q, pieces %q, want %q", got, pieces, first)
		}
		within(t, start, 2*time.Second)
		calls(t, srv, 1)
	})
}

// A stream that does not start (the server sent nothing, or only its
// headers and, for OpenAI, the empty first chunk with the role) ends at
// the first-token deadline, well before the whole request's.
func TestNoFirstToken(t *testing.T) {
	t.Parallel()
	for _, f := range []chattest.Fault{{Stall: true}, {Delay: time.Minute}} {
		forEach(t, func(t *testing.T, p provider) {
			srv := p.server(t, func(chattest.Call) string { return answer })
			srv.Fail(f)
			var pieces []string
			start := time.Now()
			got, err := p.model(srv, tuning{first: 150 * time.Millisecond, timeout: time.Minute}).Chat(t.Context(), question, collect(&pieces))
			failed(t, err, "did not start within 150ms", chat.ErrUnreachable, context.DeadlineExceeded)
			if got != "" || len(pieces) != 0 {
				t.Errorf("%+v: reply %q, pieces %q", f, got, pieces)
			}
			within(t, start, 2*time.Second)
			calls(t, srv, 1)
		})
	}
}

// By default a stream that does not start is not waited for minutes.
func TestFirstTokenDefault(t *testing.T) {
	if chat.DefaultFirstTokenTimeout > time.Minute || chat.DefaultIdleTimeout > time.Minute {
		t.Errorf("default first-token timeout %v, idle %v: want seconds", chat.DefaultFirstTokenTimeout, chat.DefaultIdleTimeout)
	}
}

// A model that writes forever is bounded by Timeout: the error keeps
// what was written.
func TestEndlessStream(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		srv.Fail(chattest.Fault{Endless: true})
		var pieces []string
		start := time.Now()
		got, err := p.model(srv, tuning{timeout: 300 * time.Millisecond, first: 100 * time.Millisecond, idle: 100 * time.Millisecond}).Chat(t.Context(), question, collect(&pieces))
		failed(t, err, "no complete reply within 300ms", chat.ErrUnreachable, context.DeadlineExceeded)
		if !strings.HasPrefix(got, answer+answer) || got != strings.Join(pieces, "") {
			t.Errorf("reply %q, pieces %q", got, pieces)
		}
		within(t, start, 2*time.Second)
		calls(t, srv, 1)
	})
}

// Only pieces of the reply keep a stream alive: a model that is silent
// while its server sends something else (a comment, an empty delta)
// stalls all the same.
func TestIdleCountsPieces(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Los "},"finish_reason":null}]}`+"\n\n")
		rc.Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
			fmt.Fprint(w, ": keep-alive\n\n"+`data: {"choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`+"\n\n")
			rc.Flush()
		}
	}))
	defer srv.Close()
	m := chat.NewOpenAI(chat.OpenAIConfig{BaseURL: srv.URL + "/v1", Model: "m", IdleTimeout: 150 * time.Millisecond, Timeout: time.Minute})
	start := time.Now()
	got, err := m.Chat(t.Context(), question, func(string) {})
	failed(t, err, "stalled", chat.ErrUnreachable, context.DeadlineExceeded)
	if got != "Los " {
		t.Errorf("reply %q", got)
	}
	within(t, start, 2*time.Second)
}

// A slow start (loading the model) is bounded by FirstTokenTimeout and
// Timeout, not IdleTimeout.
func TestSlowStartIsNotIdle(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		srv.Fail(chattest.Fault{Delay: 300 * time.Millisecond})
		got, err := p.model(srv, tuning{idle: 50 * time.Millisecond}).Chat(t.Context(), question, func(string) {})
		if err != nil || got != answer {
			t.Errorf("%q, %v", got, err)
		}
	})
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		forEach(t, func(t *testing.T, p provider) {
			srv := p.server(t, nil)
			srv.Fail(chattest.Fault{Delay: time.Minute})
			var onDelta func(string)
			if stream {
				onDelta = func(string) {}
			}
			start := time.Now()
			_, err := p.model(srv, tuning{timeout: 200 * time.Millisecond}).Chat(t.Context(), question, onDelta)
			failed(t, err, "no complete reply within 200ms", chat.ErrUnreachable, context.DeadlineExceeded)
			within(t, start, 2*time.Second)
		})
	}
}

func TestCanceled(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, func(chattest.Call) string { return answer })
		srv.Fail(chattest.Fault{Stall: true, After: 1})
		ctx, cancel := context.WithCancel(t.Context())
		var pieces []string
		_, err := p.model(srv, tuning{}).Chat(ctx, question, func(s string) {
			pieces = append(pieces, s)
			cancel() // the user closed the answer
		})
		failed(t, err, "request abandoned", context.Canceled)
		for _, sentinel := range []error{chat.ErrUnreachable, chat.ErrModel, chat.ErrAuth, chat.ErrResponse} {
			if errors.Is(err, sentinel) {
				t.Errorf("err = %v wraps %v", err, sentinel)
			}
		}
		if len(pieces) != 1 {
			t.Errorf("pieces = %q", pieces)
		}
	})
}

// Cancelling while waiting to retry stops at once.
func TestCanceledWhileWaiting(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, nil)
		srv.Fail(chattest.Fault{Status: 503, RetryAfter: 5 * time.Second})
		ctx, cancel := context.WithCancel(t.Context())
		defer time.AfterFunc(200*time.Millisecond, cancel).Stop()
		start := time.Now()
		_, err := p.model(srv, tuning{}).Chat(ctx, question, nil)
		failed(t, err, "request abandoned", context.Canceled)
		within(t, start, 2*time.Second)
	})
}

func TestModelMissing(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, p provider) {
		srv := p.server(t, nil)
		srv.Fail(chattest.Fault{Status: 404})
		_, err := p.model(srv, tuning{}).Chat(t.Context(), question, func(string) {})
		failed(t, err, "HTTP 404", chat.ErrModel)
		var e *chat.Error
		if !errors.As(err, &e) || e.Status != 404 || e.Hint == "" || e.URL == "" {
			t.Errorf("err = %#v", e)
		}
	})
}

func TestMalformed(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		forEach(t, func(t *testing.T, p provider) {
			srv := p.server(t, func(chattest.Call) string { return answer })
			srv.Fail(chattest.Fault{Malformed: true, After: 1})
			var pieces []string
			var onDelta func(string)
			if stream {
				onDelta = collect(&pieces)
			}
			_, err := p.model(srv, tuning{}).Chat(t.Context(), question, onDelta)
			failed(t, err, "malformed", chat.ErrResponse)
			if stream && len(pieces) != 1 {
				t.Errorf("pieces = %q, want the one before the fault", pieces)
			}
		})
	}
}
