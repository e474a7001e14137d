package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/chat/chattest"
	"github.com/oraculo/oraculo/mcpserver"
)

// hungReply is what the hung model starts to write: a first sentence
// whose citation is valid, which a streamed reply may have sent verified
// before the model stalls (hungAfter pieces).
const (
	hungReply = "Norkiel cayó en combate contra los trolls [Sesión 1]. Después cruzaron el puente [Sesión 1]."
	hungFirst = "Norkiel cayó en combate contra los trolls [Sesión 1]."
	hungAfter = 10
)

// hungNotice is what the answer says when the model did not answer in
// time.
const hungNotice = "El modelo no respondió a tiempo"

// surface asks through one of the server's faces and checks the answer
// that comes back: extractive, from the notes, saying that the model did
// not answer in time; sentOnFirst says that a streamed reply had sent
// the model's first verified sentence when the model stalled.
type surface struct {
	name  string
	check func(t *testing.T, ts *httptest.Server, sentFirst bool)
}

// TestHungModelStillAnswers: a model that stalls before its first token,
// stalls mid-stream or streams forever yields, within its deadlines (the
// chat config's, short here), the extractive answer on every surface of
// the real server: /api/ask (whole and streamed), /v1/chat/completions
// (whole and streamed) and MCP's ask, each saying that the model did not
// answer in time; never a 504, never an answer that does not come.
func TestHungModelStillAnswers(t *testing.T) {
	defer func(d time.Duration) { heartbeat = d }(heartbeat)
	heartbeat = 50 * time.Millisecond
	faults := []struct {
		name  string
		fault chattest.Fault
		// sent: a streamed OpenAI reply had sent the first sentence.
		sent bool
	}{
		{"stalls before its first token", chattest.Fault{Stall: true}, false},
		{"is slow to start", chattest.Fault{Delay: time.Hour}, false},
		{"stalls mid-stream", chattest.Fault{Stall: true, After: hungAfter}, true},
		{"streams forever", chattest.Fault{Endless: true}, true},
	}
	for _, provider := range []string{oraculo.ProviderOllama, oraculo.ProviderOpenAI} {
		t.Run(provider, func(t *testing.T) {
			start := chattest.NewOllama
			if provider == oraculo.ProviderOpenAI {
				start = chattest.NewOpenAI
			}
			srv := start(t, func(c chattest.Call) string {
				if c.JSON {
					return `{"ids":[]}`
				}
				return hungReply
			})
			eng := testEngine(t, oraculo.WithChat(oraculo.ChatConfig{Provider: provider, URL: srv.URL, Model: "fake",
				Timeout: 800 * time.Millisecond, FirstTokenTimeout: 250 * time.Millisecond, IdleTimeout: 250 * time.Millisecond}))
			ts, _ := testServer(t, Config{Engine: eng, MCP: mcpserver.HTTPHandler(eng, "test")})
			for _, f := range faults {
				t.Run(f.name, func(t *testing.T) {
					srv.Fail(f.fault)
					for _, s := range surfaces {
						t.Run(s.name, func(t *testing.T) {
							t.Parallel()
							begin := time.Now()
							s.check(t, ts, f.sent)
							if took := time.Since(begin); took > 5*time.Second {
								t.Errorf("the answer took %v", took)
							}
						})
					}
				})
			}
		})
	}
}

// TestHungModelInsideAskTimeout: whatever the chat model's own deadlines
// (an hour here), an answer comes before the server's ask timeout, so
// that a hung model is never a 504.
func TestHungModelInsideAskTimeout(t *testing.T) {
	srv := chattest.NewOllama(t, func(c chattest.Call) string { return hungReply })
	eng := testEngine(t, oraculo.WithChat(oraculo.ChatConfig{Provider: oraculo.ProviderOllama, URL: srv.URL, Model: "fake",
		Timeout: time.Hour, FirstTokenTimeout: time.Hour, IdleTimeout: time.Hour}))
	ts, _ := testServer(t, Config{Engine: eng, AskTimeout: 2 * time.Second, MCP: mcpserver.HTTPHandler(eng, "test")})
	for _, f := range []chattest.Fault{{Stall: true}, {Stall: true, After: hungAfter}, {Endless: true}} {
		t.Run("", func(t *testing.T) {
			srv.Fail(f)
			for _, s := range surfaces[:4] { // MCP has no ask timeout of the server's
				t.Run(s.name, func(t *testing.T) {
					t.Parallel()
					begin := time.Now()
					s.check(t, ts, f.After > 0 || f.Endless)
					if took := time.Since(begin); took > 2*time.Second {
						t.Errorf("the answer took %v, longer than the ask timeout", took)
					}
				})
			}
		})
	}
}

// checkFallback checks an Answer that the model did not write in time.
func checkFallback(t *testing.T, a *oraculo.Answer) {
	t.Helper()
	if a.Mode != "extractive" || a.Fallback != oraculo.FallbackTimeout || !strings.HasPrefix(a.Notice, hungNotice) {
		t.Errorf("mode %q fallback %q notice %q", a.Mode, a.Fallback, a.Notice)
	}
	if a.Abstained || !strings.Contains(a.Answer, "Norkiel") {
		t.Errorf("answer %q (abstained %v)", a.Answer, a.Abstained)
	}
}

// checkContent checks what a chat front end shows: the notice, then the
// extracted answer and its sources, after the model's first verified
// sentence when a stream had sent it.
func checkContent(t *testing.T, content string, sentFirst bool) {
	t.Helper()
	text := passageLink.ReplaceAllString(content, "[$1]")
	notice := "_" + hungNotice
	if sentFirst {
		// What was verified stays (a model that writes forever may have
		// had more verified), and the notice follows it.
		notice = "\n\n" + notice
		if !strings.HasPrefix(text, hungFirst) {
			t.Errorf("content:\n%s\nwant it to start with the sentence sent before the model stalled", text)
		}
	}
	i := strings.Index(text, notice)
	if i < 0 || (!sentFirst && i > 0) || !strings.Contains(text[i:], "Norkiel") || !strings.Contains(text[i:], "**Fuentes:**") {
		t.Errorf("content:\n%s\nwant %q, then the extracted answer and its sources", text, notice)
	}
}

var surfaces = []surface{
	{"api ask", func(t *testing.T, ts *httptest.Server, _ bool) {
		resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?"})
		wantStatus(t, resp, data, 200)
		checkFallback(t, decodeJSON[*oraculo.Answer](t, data))
	}},
	{"api ask stream", func(t *testing.T, ts *httptest.Server, _ bool) {
		resp, data := call(t, ts, "POST", "/api/ask", "", map[string]any{"question": "¿Quién cayó en combate?", "stream": true})
		wantStatus(t, resp, data, 200)
		events := readSSE(t, bytes.NewReader(data))
		last := events[len(events)-1]
		if last.Name != "answer" {
			t.Fatalf("last event %+v, want the answer", last)
		}
		checkFallback(t, decodeJSON[*oraculo.Answer](t, []byte(last.Data)))
	}},
	{"openai", func(t *testing.T, ts *httptest.Server, _ bool) {
		resp, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(false))
		wantStatus(t, resp, data, 200)
		c := decodeJSON[completionBody](t, data)
		if len(c.Choices) != 1 || c.Choices[0].Message == nil {
			t.Fatalf("completion %s", data)
		}
		checkContent(t, c.Choices[0].Message.Content, false)
	}},
	{"openai stream", func(t *testing.T, ts *httptest.Server, sentFirst bool) {
		resp, data := call(t, ts, "POST", "/v1/chat/completions", "", conversationBody(true))
		wantStatus(t, resp, data, 200)
		chunks, errs, done := readChunks(t, data)
		if !done || len(errs) > 0 {
			t.Fatalf("stream: %s", data)
		}
		var content strings.Builder
		for _, c := range chunks {
			if len(c.Choices) == 1 && c.Choices[0].Delta != nil && c.Choices[0].Delta.Content != nil {
				content.WriteString(*c.Choices[0].Delta.Content)
			}
		}
		checkContent(t, content.String(), sentFirst)
	}},
	{"mcp ask", func(t *testing.T, ts *httptest.Server, _ bool) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: ts.Client()}, nil)
		if err != nil {
			t.Fatalf("connecting to /mcp: %v", err)
		}
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "¿Quién cayó en combate?"}})
		if err != nil || res.IsError {
			t.Fatalf("ask: %v %+v", err, res)
		}
		b, _ := json.Marshal(res.StructuredContent)
		out := decodeJSON[mcpserver.AskOutput](t, b)
		if out.Mode != "extractive" || out.Fallback != oraculo.FallbackTimeout || !strings.HasPrefix(out.Notice, hungNotice) || !strings.Contains(out.Answer, "Norkiel") {
			t.Errorf("ask: %s", b)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !strings.HasPrefix(text, "("+hungNotice) || !strings.Contains(text, "Norkiel") {
			t.Errorf("ask's text:\n%s", text)
		}
	}},
}

// An earlier answer's notice is not part of the history the model reads.
func TestConversationDropsTheNotice(t *testing.T) {
	notice := noticeText(oraculo.FallbackNotice("es", oraculo.FallbackTimeout))
	_, turns, err := conversation([]chatMessage{
		{Role: "user", Content: "¿Quién cayó?"},
		{Role: "assistant", Content: messageText(notice + "- Norkiel cayó en combate. [Sesión 1](http://h/c/x?s=y)\n\n**Fuentes:**\n1. [Sesión 1] · `Sesiones/Campaña.md`")},
		{Role: "user", Content: "¿Y después?"},
	})
	if err != nil || len(turns) != 1 || turns[0].Answer != "- Norkiel cayó en combate. [Sesión 1]" {
		t.Errorf("turns %+v, %v", turns, err)
	}
}
