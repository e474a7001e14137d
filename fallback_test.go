package oraculo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/chat/chattest"
)

// A model that hangs still gets an answer: past its first-token,
// inactivity or total deadline (short here, set in the chat config), and
// whatever those are, before the deadline of the answer itself (a
// server's ask timeout), the answer is extracted from the notes and says
// why.
func TestAskAnswersWhenTheModelHangs(t *testing.T) {
	ctx := context.Background()
	srv, _ := fakeModel(t)
	eng, db := openEngine(t)
	if _, err := eng.Ingest(ctx, []string{askNotes(t)}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	short := reopen(t, db, oraculo.WithChat(oraculo.ChatConfig{Provider: oraculo.ProviderOllama, URL: srv.URL, Model: "fake",
		Timeout: time.Second, FirstTokenTimeout: 200 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}))
	long := reopen(t, db, oraculo.WithChat(oraculo.ChatConfig{Provider: oraculo.ProviderOllama, URL: srv.URL, Model: "fake",
		Timeout: time.Hour, FirstTokenTimeout: time.Hour, IdleTimeout: time.Hour}))
	for _, tc := range []struct {
		name     string
		fault    chattest.Fault
		eng      *oraculo.Engine
		deadline time.Duration // of the answer; 0: none
	}{
		{"stalls before its first token", chattest.Fault{Stall: true}, short, 0},
		{"is slow to start", chattest.Fault{Delay: time.Hour}, short, 0},
		{"stalls mid-stream", chattest.Fault{Stall: true, After: 3}, short, 0},
		{"streams forever", chattest.Fault{Endless: true}, short, 0},
		{"hangs past the answer's deadline", chattest.Fault{Stall: true, After: 3}, long, 1500 * time.Millisecond},
		{"streams forever past the answer's deadline", chattest.Fault{Endless: true}, long, 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.Fail(tc.fault)
			actx, cancel := context.WithCancel(ctx)
			if tc.deadline > 0 {
				actx, cancel = context.WithTimeout(ctx, tc.deadline)
			}
			defer cancel()
			var streamed strings.Builder
			start := time.Now()
			a, err := tc.eng.Ask(actx, "¿Qué confiesa Garrik sobre las cajas?", oraculo.AskOptions{OnDelta: func(s string) { streamed.WriteString(s) }})
			took := time.Since(start)
			if err != nil {
				t.Fatalf("after %v: %v", took, err)
			}
			if took > 3*time.Second {
				t.Errorf("took %v", took)
			}
			if a.Mode != "extractive" || a.Fallback != oraculo.FallbackTimeout || !strings.Contains(a.Notice, "no respondió a tiempo") {
				t.Errorf("mode %q fallback %q notice %q", a.Mode, a.Fallback, a.Notice)
			}
			if len(a.Warnings) == 0 || !strings.Contains(a.Warnings[len(a.Warnings)-1], "did not answer in time") {
				t.Errorf("warnings %q", a.Warnings)
			}
			if a.Abstained || !strings.Contains(a.Answer, "Mano Gris") {
				t.Errorf("answer %q", a.Answer)
			}
			if tc.fault.After > 0 && streamed.Len() == 0 {
				t.Error("nothing was streamed before the model stalled")
			}
		})
	}

	// A model that fails otherwise says so, not that it was slow.
	srv.Fail(chattest.Fault{Status: 500})
	a, err := short.Ask(ctx, "What did Garrik confess about the boxes?", oraculo.AskOptions{})
	if err != nil || a.Fallback != oraculo.FallbackError || !strings.Contains(a.Notice, "The model failed") {
		t.Errorf("HTTP 500: fallback %q notice %q, %v", a.Fallback, a.Notice, err)
	}
	// A model that answers leaves no notice.
	srv.Fail(chattest.Fault{})
	if a, err = short.Ask(ctx, "¿Qué confiesa Garrik sobre las cajas?", oraculo.AskOptions{}); err != nil || a.Mode != "generated" || a.Fallback != "" || a.Notice != "" {
		t.Errorf("a model that answers: mode %q fallback %q notice %q, %v", a.Mode, a.Fallback, a.Notice, err)
	}
}

func TestChatTimeoutsFromEnv(t *testing.T) {
	t.Setenv("ORACULO_CHAT", "ollama")
	t.Setenv("ORACULO_CHAT_TIMEOUT", "90s")
	t.Setenv("ORACULO_CHAT_FIRST_TOKEN_TIMEOUT", "5s")
	t.Setenv("ORACULO_CHAT_IDLE_TIMEOUT", "2s")
	c := oraculo.ChatConfigFromEnv()
	if c.Timeout != 90*time.Second || c.FirstTokenTimeout != 5*time.Second || c.IdleTimeout != 2*time.Second {
		t.Errorf("config %+v", c)
	}
	if _, err := oraculo.NewChat(c); err != nil {
		t.Error(err)
	}
	t.Setenv("ORACULO_CHAT_IDLE_TIMEOUT", "quince")
	_, err := oraculo.NewChat(oraculo.ChatConfigFromEnv())
	if err == nil || !strings.Contains(err.Error(), `$ORACULO_CHAT_IDLE_TIMEOUT "quince"`) {
		t.Errorf("a bad duration: %v", err)
	}
	if chat.DefaultFirstTokenTimeout >= time.Minute {
		t.Errorf("default first-token timeout %v", chat.DefaultFirstTokenTimeout)
	}
}
