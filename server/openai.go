package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// The models /v1/models offers: Oráculo with its chat model (or
// extractive when it has none), and Oráculo always extractive.
const (
	ModelID           = "oraculo"
	ModelIDExtractive = "oraculo-extractive"
)

// chatCompletionRequest is the part of an OpenAI chat completion request
// Oráculo reads; other fields (temperature, max_tokens...) are ignored,
// but tools are refused (see checkRequest): Oráculo answers from the
// notes and calls no client function.
type chatCompletionRequest struct {
	Model      string            `json:"model"`
	Messages   []chatMessage     `json:"messages"`
	Stream     bool              `json:"stream"`
	Tools      []json.RawMessage `json:"tools"`
	ToolChoice json.RawMessage   `json:"tool_choice"`
	// StreamOptions.IncludeUsage asks for a last chunk with the usage.
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// Oraculo holds Oráculo's own options: Detail asks for the whole
	// Answer (the header X-Oraculo-Detail: 1 does too).
	Oraculo struct {
		Detail bool `json:"detail"`
	} `json:"oraculo"`
}

// maxLine bounds a streamed event's line; citationText the text of a
// source sent with the detailed reply (the whole chunk is at
// /api/chunks/{id}).
const (
	maxLine      = 16 << 10
	citationText = 600
)

// usage is OpenAI's usage object, in tokens of the chat model Oráculo
// called for the answer (see [answerUsage]).
type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
	// Unit is "tokens"; Source says whose count it is: "model" (the model
	// server's), "estimate" (Oráculo's, with the cl100k_base tokenizer) or
	// "none" (no chat model was called: zero).
	Unit   string `json:"oraculo_unit"`
	Source string `json:"oraculo_source"`
}

// answerUsage is the usage of a's chat-model calls: prompt_tokens counts
// everything Oráculo sent the model (system prompt, evidence, history,
// question; the reranking's call too), completion_tokens what it wrote.
// An extractive answer, or none (nil: a front end's chore answered
// without the notes), used no model tokens.
func answerUsage(a *oraculo.Answer) *usage {
	u := oraculo.Usage{Source: oraculo.UsageNone}
	if a != nil && a.Usage.Source != "" {
		u = a.Usage
	}
	return &usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens, Unit: "tokens", Source: u.Source}
}

// detailed returns the Answer a client asked for in detail, without the
// text of the candidates (nor their passage) and of the evidence (each
// can be read from /api/chunks/{id}): the reply stays small however long
// the notes are.
func detailed(a *oraculo.Answer) *oraculo.Answer {
	d := *a
	d.Candidates = make([]oraculo.Hit, len(a.Candidates))
	for i, c := range a.Candidates {
		c.Text, c.Passage = "", ""
		d.Candidates[i] = c
	}
	d.Evidence = make([]oraculo.Evidence, len(a.Evidence))
	for i, ev := range a.Evidence {
		ev.Text = ""
		d.Evidence[i] = ev
	}
	return &d
}

type chatMessage struct {
	Role    string      `json:"role"`
	Content messageText `json:"content"`
}

// messageText is a message's content: a string, null, or an array of
// parts whose text parts ("text"; the Responses API's "input_text" and
// "output_text") are joined (images and the like are ignored).
type messageText string

// UnmarshalJSON implements json.Unmarshaler.
func (t *messageText) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != nil {
			*t = messageText(*s)
		}
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("content must be a string or an array of content parts")
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" || p.Type == "input_text" || p.Type == "output_text" {
			texts = append(texts, p.Text)
		}
	}
	*t = messageText(strings.Join(texts, "\n"))
	return nil
}

// completion is an OpenAI chat.completion or chat.completion.chunk, with
// Oráculo's additions: the cited evidence and the whole Answer.
type completion struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	Created   int64             `json:"created"`
	Model     string            `json:"model"`
	Choices   []any             `json:"choices"`             // messageChoice or deltaChoice
	Citations *[]sourceCitation `json:"citations,omitempty"` // set: "[]" when none
	Oraculo   *oraculo.Answer   `json:"oraculo,omitempty"`   // only when asked for in detail
	Usage     *usage            `json:"usage,omitempty"`
}

// messageChoice is a chat.completion's choice.
type messageChoice struct {
	Index        int            `json:"index"`
	Message      map[string]any `json:"message"`
	FinishReason string         `json:"finish_reason"`
	Logprobs     any            `json:"logprobs"`
}

// deltaChoice is a chat.completion.chunk's choice; FinishReason is null
// until the last chunk.
type deltaChoice struct {
	Index        int            `json:"index"`
	Delta        map[string]any `json:"delta"`
	FinishReason *string        `json:"finish_reason"`
	Logprobs     any            `json:"logprobs"`
}

// sourceCitation is one source an answer cites, numbered as in the
// answer's source list, with the evidence it names.
type sourceCitation struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	ID    string `json:"id"`
	File  string `json:"file"`
	Kind  string `json:"kind"`
	// URL is the page of the passage (GET opens it, no token needed).
	URL string `json:"url"`
	// Obsidian opens the note in the Obsidian vault (serve
	// --obsidian-vault).
	Obsidian string `json:"obsidian,omitempty"`
	Text     string `json:"text,omitempty"`
}

// chatCompletions answers the last user message as a question, the
// earlier user and assistant messages being the conversation's history.
//
// The content is the verified answer followed by a list of the cited
// sources. Streamed, the chunks carry that same verified text, a sentence
// at a time as soon as its citations are checked (with comment heartbeats
// while nothing is ready): the raw generation is never relayed, because
// verification may remove citations from it, and a chat front end cannot
// take back text it has shown. The final chunk carries finish_reason
// "stop", the citations and, when asked for, the Answer.
func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) {
	var req chatCompletionRequest
	if !decode(w, r, &req, false) {
		return
	}
	model, extractive, rerr := checkRequest(req.Model, req.Tools, req.ToolChoice)
	if rerr != nil {
		rerr.write(w)
		return
	}
	question, history, err := conversation(req.Messages)
	if err != nil {
		writeError(w, r, http.StatusBadRequest, err.Error())
		return
	}
	opts := oraculo.AskOptions{History: history, Extractive: extractive}
	detail := req.Oraculo.Detail || r.Header.Get("X-Oraculo-Detail") == "1"
	base := completion{ID: "chatcmpl-" + infoFrom(r.Context()).id, Created: time.Now().Unix(), Model: model}
	// A front end's own chores (a title for the chat, tags, follow-up
	// questions) are answered briefly, without searching the notes.
	if reply, ok := taskReply(question); ok {
		s.reply(w, req, base, reply, nil, nil, answerUsage(nil))
		return
	}
	ctx, cancel := withTimeout(r, s.cfg.AskTimeout)
	defer cancel()
	if !req.Stream {
		a, err := s.eng.Ask(ctx, question, opts)
		if err != nil {
			s.engineError(w, r, err)
			return
		}
		content, cites := s.completionContent(r, a, detail, s.noteLinks(r, a))
		var full *oraculo.Answer
		if detail {
			full = detailed(a)
		}
		s.reply(w, req, base, content, &cites, full, answerUsage(a))
		return
	}
	st, chunk := openStream(w, base)
	verified, sent := s.verifiedText(r, func(p string) { st.data(chunk(map[string]any{"content": p}, nil)) })
	a, err := s.runAsk(ctx, question, opts, relay{verified: verified, ping: func() { st.comment("keep-alive") }})
	if err != nil {
		st.data(openAIError(http.StatusInternalServerError, s.streamError(r, err)))
		st.data("[DONE]")
		return
	}
	_, rest, cites := s.streamedContent(r, a, detail, *sent)
	var full *oraculo.Answer
	if detail {
		full = detailed(a)
	}
	sendContent(st, req, chunk, rest, &cites, full, answerUsage(a))
}

// verifiedText returns a relay's verified callback for a stream, which
// passes each new piece of the verified text to send as the text grows,
// a sentence at a time, from the first valid citation on; *sent is what
// the client has.
func (s *Server) verifiedText(r *http.Request, send func(piece string)) (func([]oraculo.Segment), *string) {
	sent := new(string)
	return func(segs []oraculo.Segment) {
		text := s.links.Text(s.linkCtx(r), segs)
		if !strings.HasPrefix(text, *sent) {
			return // cannot happen (see answer.Settled): wait for the whole
		}
		for _, p := range pieces(text[len(*sent):], 48) {
			send(p)
		}
		*sent = text
	}, sent
}

// streamedContent is the content of a streamed answer a (see
// completionContent), with its citations, and rest, what the client has
// not been sent yet, sent being what it has.
func (s *Server) streamedContent(r *http.Request, a *oraculo.Answer, detail bool, sent string) (content, rest string, cites []sourceCitation) {
	content, cites = s.completionContent(r, a, detail, s.noteLinks(r, a))
	if sent != "" && !strings.HasPrefix(content, sent) {
		// The text streamed so far had no links to notes (they are known
		// once the answer is): its end follows without them too.
		content, cites = s.completionContent(r, a, detail, nil)
	}
	rest = content
	switch {
	case strings.HasPrefix(content, sent):
		rest = content[len(sent):]
	case sent != "":
		// The chat model failed midway (or did not answer in time) and
		// the answer was extracted from the notes: what was sent stays
		// true (it was verified), and the extracted answer follows it,
		// under the notice that says why.
		rest = "\n\n" + content
	}
	return content, rest, cites
}

// sendContent streams rest, the end of the content not sent yet, in
// pieces, then the last chunk (with the citations and, when asked for,
// the Answer), the usage when asked for, and the end.
func sendContent(st *stream, req chatCompletionRequest, chunk func(map[string]any, *string) completion, rest string, cites *[]sourceCitation, full *oraculo.Answer, use *usage) {
	for _, p := range pieces(rest, 48) {
		st.data(chunk(map[string]any{"content": p}, nil))
	}
	stop := "stop"
	last := chunk(map[string]any{}, &stop)
	last.Citations, last.Oraculo = cites, full
	if b, err := marshal(last); err == nil && len(b) > maxLine {
		// Front ends read a stream line by line, some with 64 KiB
		// limits: an Answer too large for one line is left out (the
		// citations stay; a request without stream gets it whole).
		last.Oraculo = nil
	}
	st.data(last)
	if req.StreamOptions.IncludeUsage {
		u := chunk(nil, nil)
		u.Choices, u.Usage = []any{}, use
		st.data(u)
	}
	st.data("[DONE]")
}

// openStream starts an OpenAI stream with the assistant's role, and
// returns it with the maker of its chunks.
func openStream(w http.ResponseWriter, base completion) (*stream, func(map[string]any, *string) completion) {
	st := startStream(w)
	chunk := func(delta map[string]any, finish *string) completion {
		c := base
		c.Object = "chat.completion.chunk"
		c.Choices = []any{deltaChoice{Delta: delta, FinishReason: finish}}
		return c
	}
	st.data(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	return st, chunk
}

// reply answers with content, whole or streamed as the request asked,
// with use as its usage.
func (s *Server) reply(w http.ResponseWriter, req chatCompletionRequest, base completion, content string, cites *[]sourceCitation, full *oraculo.Answer, use *usage) {
	if cites == nil {
		cites = &[]sourceCitation{}
	}
	if !req.Stream {
		c := base
		c.Object = "chat.completion"
		c.Choices = []any{messageChoice{Message: map[string]any{"role": "assistant", "content": content}, FinishReason: "stop"}}
		c.Citations, c.Oraculo, c.Usage = cites, full, use
		writeJSON(w, http.StatusOK, c)
		return
	}
	st, chunk := openStream(w, base)
	sendContent(st, req, chunk, content, cites, full, use)
}

// conversation splits OpenAI messages into the question (the last
// message, the user's) and the earlier turns. System and tool messages
// are ignored: Oráculo has its own instructions.
func conversation(msgs []chatMessage) (string, []oraculo.Turn, error) {
	if len(msgs) == 0 {
		return "", nil, errors.New(`"messages" must not be empty`)
	}
	last := msgs[len(msgs)-1]
	question := strings.TrimSpace(string(last.Content))
	if last.Role != "user" || question == "" {
		return "", nil, errors.New("the last message must be the user's question")
	}
	var turns []oraculo.Turn
	for _, m := range msgs[:len(msgs)-1] {
		text := strings.TrimSpace(string(m.Content))
		switch {
		case text == "":
		case m.Role == "user":
			turns = append(turns, oraculo.Turn{Question: text})
		case m.Role == "assistant" && len(turns) > 0 && turns[len(turns)-1].Answer == "":
			turns[len(turns)-1].Answer = stripSources(text)
		}
	}
	return question, turns, nil
}

// stripSources removes the source list from an answer Oráculo gave
// earlier, so that the model sees its answer, not the list.
func stripSources(text string) string {
	text = passageLink.ReplaceAllString(stripNotice(text), "[$1]")
	text = noteLink.ReplaceAllString(text, "$1")
	for _, lang := range []string{"es", "en"} {
		if i := strings.LastIndex(text, "\n\n"+link.SourcesHeading(lang)+"\n"); i >= 0 {
			return strings.TrimSpace(text[:i])
		}
	}
	return text
}

// completionContent is the message a chat front end shows: the verified
// answer and, when it cites any, the numbered list of cited sources
// (label and file); with the citations behind that list. Each citation is
// a Markdown link to the page of its passage (see package link), which
// marks the sentence closest to the answer's sentence that cites it.
func (s *Server) completionContent(r *http.Request, a *oraculo.Answer, withText bool, notes []oraculo.NoteLink) (string, []sourceCitation) {
	ctx := s.linkCtx(r)
	cites := []sourceCitation{}
	sources := s.links.Sources(ctx, a)
	for _, src := range sources {
		c := sourceCitation{Index: src.Index, Label: src.Label, ID: src.ID, File: src.File, Kind: src.Kind, URL: src.URL, Obsidian: src.Obsidian}
		if withText {
			c.Text = link.Clip(src.Text, citationText)
		}
		cites = append(cites, c)
	}
	content := s.links.AnswerNotes(ctx, a, sources, notes)
	if a.Notice != "" {
		content = noticeText(a.Notice) + content
	}
	return content, cites
}

// noticeText is how a chat front end shows an answer's Notice: a line of
// its own, in italics, above the answer.
func noticeText(notice string) string { return "_" + notice + "_\n\n" }

// stripNotice removes the notice an answer Oráculo gave earlier starts
// with, if any: the model need not read that it once failed.
func stripNotice(text string) string {
	for _, lang := range []string{"es", "en"} {
		for _, why := range []string{oraculo.FallbackTimeout, oraculo.FallbackError} {
			if rest, ok := strings.CutPrefix(text, noticeText(oraculo.FallbackNotice(lang, why))); ok {
				return rest
			}
		}
	}
	return text
}

// passageLink matches a citation link to a passage page, to turn it back
// into the citation it was ("[Sesión 3]"): the label is $1, the URL $2.
var passageLink = regexp.MustCompile(`\[([^\]\n]+)\]\((https?://[^)\s]*/c/[^)\s]*)\)`)

// noteLink matches a name linked to its note's page (see
// [link.Maker.TextNotes]), to turn it back into the name the model wrote.
var noteLink = regexp.MustCompile(`\[([^\]\n]+)\]\(https?://[^)\s]*/n\?[^)\s]*\)`)

// pieces cuts text, after white space, into pieces of about size bytes
// that concatenate to it.
func pieces(text string, size int) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if i-start >= size && isSpace(text[i-1]) && !isSpace(text[i]) {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// models lists the two models, as GET /v1/models does.
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	data := []map[string]any{}
	for _, id := range []string{ModelID, ModelIDExtractive} {
		data = append(data, s.modelObject(id))
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) modelObject(id string) map[string]any {
	return map[string]any{"id": id, "object": "model", "created": s.started.Unix(), "owned_by": "oraculo"}
}

// model describes one model, as GET /v1/models/{id} does.
func (s *Server) model(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id != ModelID && id != ModelIDExtractive {
		modelNotFound(id).write(w)
		return
	}
	writeJSON(w, http.StatusOK, s.modelObject(id))
}

// requestError is an OpenAI client error that names the parameter at
// fault and has a code, as OpenAI's own do: clients read err.status,
// err.param and err.code.
type requestError struct {
	status               int
	message, param, code string
}

// write answers with e in OpenAI's error shape.
func (e *requestError) write(w http.ResponseWriter) {
	writeJSON(w, e.status, map[string]any{"error": map[string]any{
		"message": e.message, "type": "invalid_request_error", "param": e.param, "code": e.code}})
}

// modelNotFound is the 404 of a model id /v1/models does not list.
func modelNotFound(id string) *requestError {
	return &requestError{status: http.StatusNotFound, param: "model", code: "model_not_found",
		message: fmt.Sprintf("The model %q does not exist: the models are %q and %q (GET /v1/models).", id, ModelID, ModelIDExtractive)}
}

// checkRequest resolves the model of a chat completion or a response, and
// refuses what Oráculo cannot do. An empty or omitted model is ModelID
// (OpenAI requires one; a client that sends none is answered as by the
// default model); an id /v1/models does not list is a 404
// model_not_found. Tools are a 400: Oráculo answers from the notes and
// never calls a client's function, and ignoring them would leave the
// client waiting for a call that never comes. A tool_choice of "none" or
// "auto" (with no tools) is accepted.
func checkRequest(model string, tools []json.RawMessage, toolChoice json.RawMessage) (string, bool, *requestError) {
	switch model {
	case "", ModelID:
		model = ModelID
	case ModelIDExtractive:
	default:
		return "", false, modelNotFound(model)
	}
	if len(tools) > 0 {
		return "", false, &requestError{status: http.StatusBadRequest, param: "tools", code: "unsupported_parameter",
			message: "Oráculo does not call tools: it answers from the notes, with citations. Send the request without \"tools\"."}
	}
	switch strings.TrimSpace(string(toolChoice)) {
	case "", "null", `"none"`, `"auto"`:
	default:
		return "", false, &requestError{status: http.StatusBadRequest, param: "tool_choice", code: "unsupported_parameter",
			message: "a tool_choice other than \"none\" or \"auto\" needs tools, which Oráculo does not call: send \"none\" or nothing."}
	}
	return model, model == ModelIDExtractive, nil
}

// openAIError is the OpenAI error body.
func openAIError(status int, msg string) map[string]any {
	typ, code := "invalid_request_error", any(nil)
	switch {
	case status == http.StatusUnauthorized:
		code = "invalid_api_key"
	case status == http.StatusNotFound:
		code = "not_found"
	case status >= 500:
		typ = "server_error"
	}
	return map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
}
