package chat

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// filtered runs pieces through a reasoningFilter and returns what it
// showed, piece by piece, and how many times it said the model thinks.
func filtered(pieces ...string) (shown []string, thinking int) {
	f := newReasoningFilter(func(s string) {
		if s == "" {
			panic("empty piece shown")
		}
		shown = append(shown, s)
	}, func() { thinking++ })
	for _, p := range pieces {
		f.write(p)
	}
	f.close()
	return shown, thinking
}

// cuts returns text cut into pieces of n bytes (the last shorter).
func cuts(text string, n int) []string {
	var out []string
	for len(text) > n {
		out = append(out, text[:n])
		text = text[n:]
	}
	return append(out, text)
}

func TestReasoningFilter(t *testing.T) {
	for _, tc := range []struct {
		name     string
		in       string
		want     string
		thinking int
	}{
		{"no tags", "Los arévacos [Sesión 1].", "Los arévacos [Sesión 1].", 0},
		{"empty", "", "", 0},
		{"white space only", " \n ", " \n ", 0},
		{"leading white space kept", "\n\n  Hola", "\n\n  Hola", 0},
		{"angle brackets that are no tags", "a <b> c < d <thinker> <think <THINK/> </thinkin>", "a <b> c < d <thinker> <think <THINK/> </thinkin>", 0},
		{"think block", "<think>\nThe user asks who founded it.\n</think>\n\nLos arévacos.", "Los arévacos.", 1},
		{"thinking block", "<thinking>hmm</thinking>Sí.", "Sí.", 1},
		{"reasoning block", "<reasoning>\nhmm\n</reasoning>\nSí.", "Sí.", 1},
		{"case", "<Think>hmm</THINK> Sí.", "Sí.", 1},
		{"white space before the block", "\n <think>hmm</think>\n\nSí.", "Sí.", 1},
		{"empty block (Qwen3 without thinking)", "<think>\n\n</think>\n\nSí.", "Sí.", 1},
		{"unclosed block", "<think>The user asks. Let me see, the notes say", "", 1},
		{"unclosed after text", "Sí. <think>but wait", "Sí. ", 1},
		{"block in the middle", "Uno. <think>hmm</think> Dos.", "Uno. Dos.", 1},
		{"block glued to text", "Uno.<think>hmm</think> Dos.", "Uno. Dos.", 1},
		{"two blocks, one stretch", "<think>a</think><thinking>b</thinking>Sí.", "Sí.", 1},
		{"two stretches", "<think>a</think>Uno. <think>b</think>Dos.", "Uno. Dos.", 2},
		{"only its own closing tag ends a block", "<think>a </thinking> </reasoning> b</think>Sí.", "Sí.", 1},
		{"other opening tags inside", "<think>a <think> b</think>Sí.", "Sí.", 1},
		{"lone closing tag first", "</think>\n\nSí.", "Sí.", 0},
		{"lone closing tag after white space", "\n  </think>\nSí.", "Sí.", 0},
		{"lone closing tag after text keeps the text", "Okay, so.\n</think>\n\nSí.", "Okay, so.\nSí.", 0},
		{"stray closing tag after a block", "<think>a</think>Sí.</think> No.", "Sí. No.", 1},
		{"tag at the very end", "Sí.<think>", "Sí.", 1},
		{"partial tag at the end is text", "Sí. <thi", "Sí. <thi", 0},
		{"partial closing tag at the end of a block", "<think>a</thi", "", 1},
		{"utf-8 around tags", "<think>ñandú</think>¿Qué? «<x>»", "¿Qué? «<x>»", 1},
		{"Kelvin sign is not k", "<thin\u212a>Sí.", "<thin\u212a>Sí.", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Whole, cut at every byte count, and one byte at a time.
			for n := 1; n <= len(tc.in)+1; n++ {
				shown, thinking := filtered(cuts(tc.in, n)...)
				if got := strings.Join(shown, ""); got != tc.want || thinking != tc.thinking {
					t.Fatalf("cut every %d bytes: %q, thinking %d; want %q, thinking %d", n, got, thinking, tc.want, tc.thinking)
				}
			}
		})
	}
}

// The filter holds back only what may be a tag: text is shown in the
// write that brought it.
func TestReasoningFilterIsLive(t *testing.T) {
	var shown strings.Builder
	var thinking int
	f := newReasoningFilter(func(s string) { shown.WriteString(s) }, func() { thinking++ })
	for _, step := range []struct{ in, shown string }{
		{"Los ", "Los "},
		{"aré", "Los aré"},
		{"vacos <", "Los arévacos "},
		{"b> <T", "Los arévacos <b> "},
		{"hink", "Los arévacos <b> "},
		{">\nhm", "Los arévacos <b> "},
		{"m </th", "Los arévacos <b> "},
		{"ink>\n", "Los arévacos <b> "},
		{"\n", "Los arévacos <b> "},
		{"fundaron", "Los arévacos <b> fundaron"},
		{" <", "Los arévacos <b> fundaron "},
		{"3", "Los arévacos <b> fundaron <3"},
	} {
		f.write(step.in)
		if shown.String() != step.shown {
			t.Fatalf("after %q: shown %q, want %q", step.in, shown.String(), step.shown)
		}
	}
	if thinking != 1 {
		t.Errorf("thinking %d times, want 1", thinking)
	}
}

// Reasoning in a separate field says "thinking" once per stretch, and
// answer text ends the stretch.
func TestReasoningFilterField(t *testing.T) {
	var shown strings.Builder
	var thinking int
	f := newReasoningFilter(func(s string) { shown.WriteString(s) }, func() { thinking++ })
	f.reasoning()
	f.reasoning()
	f.write("\n")
	f.reasoning()
	if thinking != 1 {
		t.Fatalf("thinking %d times during one stretch, want 1", thinking)
	}
	f.write("Sí.")
	f.reasoning()
	f.write("<think>")
	f.write("x</think>")
	f.write(" No.")
	f.close()
	if shown.String() != "\nSí. No." || thinking != 2 {
		t.Errorf("shown %q, thinking %d; want %q, 2", shown.String(), thinking, "\nSí. No.")
	}
}

// secret marks reasoning in the fuzz inputs; it never appears otherwise.
const secret = "\x00"

func FuzzReasoningFilter(f *testing.F) {
	for _, seed := range []struct {
		before, reasoning, after string
		tag                      uint8
		cut                      []byte
	}{
		{"", "The user asks.", "Los arévacos.", 0, []byte{3, 1, 7}},
		{"Uno. ", "hmm </thinking>", "\n\nDos.", 0, []byte{1}},
		{"<think>a</think>", "b", "</think>c", 1, []byte{2, 9}},
		{"Okay</think>\n", "", "<thi", 2, []byte{5, 5, 5}},
		{"<b> < </", "x", "<THINK>y", 0, []byte{0, 1, 2}},
	} {
		f.Add(seed.before, seed.reasoning, seed.after, seed.tag, seed.cut)
	}
	f.Fuzz(func(t *testing.T, before, reasoning, after string, tag uint8, cut []byte) {
		before = strings.ReplaceAll(before, secret, "")
		after = strings.ReplaceAll(after, secret, "")
		// No closing tag in the reasoning: it would end the block, or one
		// that before opened.
		for _, t := range reasoningTags {
			for i := indexFold(reasoning, t.close); i >= 0; i = indexFold(reasoning, t.close) {
				reasoning = reasoning[:i] + reasoning[i+len(t.close):]
			}
		}
		tags := reasoningTags[int(tag)%len(reasoningTags)]

		// Text without tags comes out as it went in, however it is cut.
		for _, text := range []string{before, after} {
			if hasTag(text) {
				continue
			}
			shown, thinking := filtered(split(text, cut)...)
			if got := strings.Join(shown, ""); got != text || thinking != 0 {
				t.Fatalf("text without tags %q came out %q (thinking %d)", text, got, thinking)
			}
		}

		// A block's content never comes out, and neither do the tags
		// that held it; cut anywhere, the output is the same as whole.
		in := before + tags.open + secret + reasoning + secret + tags.close + after
		whole, thinking := filtered(in)
		got := strings.Join(whole, "")
		if strings.Contains(got, secret) {
			t.Fatalf("reasoning came out: %q → %q", in, got)
		}
		if thinking < 1 {
			t.Fatalf("%q: no thinking signalled", in)
		}
		if utf8.ValidString(in) && !utf8.ValidString(got) {
			t.Fatalf("%q: invalid UTF-8 out: %q", in, got)
		}
		pieces, thinking2 := filtered(split(in, cut)...)
		if strings.Join(pieces, "") != got || thinking2 != thinking {
			t.Fatalf("%q cut as %q: %q (thinking %d), whole %q (thinking %d)", in, split(in, cut), strings.Join(pieces, ""), thinking2, got, thinking)
		}
	})
}

// split cuts s at the byte counts of cut, taken in turn (0 makes an
// empty piece), the rest in one piece.
func split(s string, cut []byte) []string {
	var out []string
	for _, n := range cut {
		k := min(int(n)%16, len(s))
		out = append(out, s[:k])
		s = s[k:]
	}
	return append(out, s)
}

// hasTag reports whether s holds a reasoning tag, in any case.
func hasTag(s string) bool {
	for _, t := range reasoningTags {
		if indexFold(s, t.open) >= 0 || indexFold(s, t.close) >= 0 {
			return true
		}
	}
	return false
}

// ollamaLines is an Ollama stream of the given message pieces, each
// {"content": ...} or {"thinking": ...}, and its "done" line.
func ollamaLines(pieces ...map[string]string) string {
	var b strings.Builder
	for _, p := range pieces {
		p["role"] = "assistant"
		b.WriteString(jsonOf(map[string]any{"model": "m", "created_at": "2026-03-01T12:00:00Z", "message": p, "done": false}) + "\n")
	}
	b.WriteString(`{"model":"m","created_at":"2026-03-01T12:00:01Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}` + "\n")
	return b.String()
}

// openAIEvents is an OpenAI stream of the given deltas.
func openAIEvents(deltas ...map[string]string) string {
	var b strings.Builder
	b.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n")
	for _, d := range deltas {
		b.WriteString("data: " + jsonOf(map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}}) + "\n\n")
	}
	b.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

func content(s string) map[string]string  { return map[string]string{"content": s} }
func thinking(s string) map[string]string { return map[string]string{"thinking": s} }

// Both providers take the reasoning out of streamed and whole replies,
// inline or sent apart, and say when the model thinks.
func TestChatTakesOutReasoning(t *testing.T) {
	const answer = "Los arévacos [Sesión 1]."
	ollama := func(rec *recorder) Model { return NewOllama(OllamaConfig{BaseURL: rec.URL, Model: "m"}) }
	openAI := func(rec *recorder) Model { return NewOpenAI(OpenAIConfig{BaseURL: rec.URL, Model: "m"}) }
	for _, tc := range []struct {
		name     string
		model    func(*recorder) Model
		ctype    string
		body     string
		stream   bool
		thinking int
	}{
		{name: "ollama inline, cut inside the tags", model: ollama, ctype: "application/x-ndjson", stream: true, thinking: 1,
			body: ollamaLines(content("<"), content("thi"), content("nk>\nThe user asks who, "), content("SECRET.</th"), content("ink>"), content("\n\n"), content("Los aré"), content("vacos [Sesión 1]."))},
		{name: "ollama thinking field", model: ollama, ctype: "application/x-ndjson", stream: true, thinking: 1,
			body: ollamaLines(thinking("The user asks. "), thinking("SECRET."), content("Los arévacos "), content("[Sesión 1]."))},
		{name: "ollama whole", model: ollama, ctype: "application/json",
			body: `{"model":"m","message":{"role":"assistant","content":"<THINK>SECRET</THINK>\n\nLos arévacos [Sesión 1]."},"done":true}`},
		{name: "openai inline, cut inside the tags", model: openAI, ctype: "text/event-stream", stream: true, thinking: 1,
			body: openAIEvents(content("<thinking"), content(">SECRET</"), content("thinking>Los arévacos"), content(" [Sesión 1]."))},
		{name: "openai reasoning_content", model: openAI, ctype: "text/event-stream", stream: true, thinking: 1,
			body: openAIEvents(map[string]string{"reasoning_content": "SECRET"}, map[string]string{"reasoning": "SECRET"}, content(answer))},
		{name: "openai whole", model: openAI, ctype: "application/json",
			body: `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"<reasoning>SECRET</reasoning>` + answer + `","reasoning_content":"SECRET"},"finish_reason":"stop"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, reply(200, tc.ctype, tc.body))
			var deltas strings.Builder
			var onDelta func(string)
			if tc.stream {
				onDelta = func(s string) { deltas.WriteString(s) }
			}
			thinking := 0
			got, err := tc.model(rec).Chat(t.Context(), Request{Messages: conversation, OnThinking: func() {
				thinking++
				if deltas.Len() > 0 {
					t.Error("thinking after the answer started")
				}
			}}, onDelta)
			if err != nil {
				t.Fatal(err)
			}
			if got != answer || (tc.stream && deltas.String() != got) {
				t.Errorf("reply %q, deltas %q; want %q", got, deltas.String(), answer)
			}
			if tc.stream && thinking != tc.thinking {
				t.Errorf("thinking %d times, want %d", thinking, tc.thinking)
			}
		})
	}
}

// A reply that was all reasoning, cut short, is an empty reply.
func TestChatAllReasoningIsEmpty(t *testing.T) {
	for name, m := range map[string]func(string) (Model, string, string){
		"ollama": func(url string) (Model, string, string) {
			return NewOllama(OllamaConfig{BaseURL: url, Model: "m"}), "application/x-ndjson",
				ollamaLines(content("<think>\nThe user asks"), content(" SECRET"))
		},
		"openai": func(url string) (Model, string, string) {
			return NewOpenAI(OpenAIConfig{BaseURL: url, Model: "m"}), "text/event-stream",
				openAIEvents(content("\n<think>\nThe user asks"), content(" SECRET </th"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			var body, ctype string
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { reply(200, ctype, body)(w, r) })
			var model Model
			model, ctype, body = m(rec.URL)
			var deltas []string
			got, err := model.Chat(t.Context(), Request{Messages: conversation}, func(s string) { deltas = append(deltas, s) })
			if !errors.Is(err, ErrResponse) || !strings.Contains(err.Error(), "the reply is empty") || !strings.Contains(err.Error(), "thinking model") {
				t.Errorf("err = %v, want an empty reply", err)
			}
			if got != "" || len(deltas) > 0 {
				t.Errorf("reply %q, deltas %q: want nothing", got, deltas)
			}
		})
	}
}
