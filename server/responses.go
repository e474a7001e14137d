package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oraculo/oraculo"
)

// responseRequest is the part of an OpenAI Responses API request
// (POST /v1/responses) Oráculo reads.
//
// Input is the conversation: a string (the question) or an array of
// message items, the last one the user's question. Instructions are
// accepted and echoed in the response object, as OpenAI does, but not
// given to the model, like a chat completion's system messages: Oráculo
// answers with its own instructions (answer from the notes, cite every
// sentence, in the question's language), which a client's could
// contradict. Unless store is false, the response's conversation is kept
// for a while (see responseMemory): previous_response_id goes on with it,
// and an item_reference in input names its answer. Model and tools are
// checked as a chat completion's (see checkRequest); other fields
// (temperature, max_output_tokens, text...) are ignored.
type responseRequest struct {
	Model              string            `json:"model"`
	Input              json.RawMessage   `json:"input"`
	Instructions       *string           `json:"instructions"`
	Stream             bool              `json:"stream"`
	PreviousResponseID string            `json:"previous_response_id"`
	Store              *bool             `json:"store"`
	Tools              []json.RawMessage `json:"tools"`
	ToolChoice         json.RawMessage   `json:"tool_choice"`
	// Oraculo holds Oráculo's own options, as in a chat completion.
	Oraculo struct {
		Detail bool `json:"detail"`
	} `json:"oraculo"`
}

// responseObject is OpenAI's response object, with Oráculo's additions:
// the cited sources and, asked for in detail, the whole Answer.
type responseObject struct {
	ID                 string            `json:"id"`
	Object             string            `json:"object"`
	CreatedAt          int64             `json:"created_at"`
	Status             string            `json:"status"`
	Error              *responseFailure  `json:"error"`
	IncompleteDetails  any               `json:"incomplete_details"`
	Instructions       *string           `json:"instructions"`
	MaxOutputTokens    any               `json:"max_output_tokens"`
	Model              string            `json:"model"`
	Output             []responseMessage `json:"output"`
	ParallelToolCalls  bool              `json:"parallel_tool_calls"`
	PreviousResponseID any               `json:"previous_response_id"`
	Store              bool              `json:"store"`
	Temperature        any               `json:"temperature"`
	Text               any               `json:"text"`
	ToolChoice         string            `json:"tool_choice"`
	Tools              []any             `json:"tools"`
	TopP               any               `json:"top_p"`
	Truncation         string            `json:"truncation"`
	Usage              *responseUsage    `json:"usage"`
	Metadata           map[string]string `json:"metadata"`
	Citations          *[]sourceCitation `json:"citations,omitempty"` // set once completed: "[]" when none
	Oraculo            *oraculo.Answer   `json:"oraculo,omitempty"`   // only when asked for in detail
}

// responseFailure is a failed response's error.
type responseFailure struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// responseMessage is the response's output item: the assistant's message.
type responseMessage struct {
	Type    string       `json:"type"`
	ID      string       `json:"id"`
	Status  string       `json:"status"`
	Role    string       `json:"role"`
	Content []outputText `json:"content"`
}

// outputText is the message's text, with its citations as annotations.
type outputText struct {
	Type        string        `json:"type"`
	Text        string        `json:"text"`
	Annotations []urlCitation `json:"annotations"`
	Logprobs    []any         `json:"logprobs"`
}

// urlCitation is one citation link in the text: its span, in characters
// (Unicode code points), the page of the passage it cites, and a title
// (the label and the note's file).
type urlCitation struct {
	Type       string `json:"type"`
	StartIndex int    `json:"start_index"`
	EndIndex   int    `json:"end_index"`
	URL        string `json:"url"`
	Title      string `json:"title"`
}

// responseUsage is the Responses API's usage object, counted as a chat
// completion's (see answerUsage), whose unit and source it says.
type responseUsage struct {
	InputTokens        int `json:"input_tokens"`
	InputTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"input_tokens_details"`
	OutputTokens        int `json:"output_tokens"`
	OutputTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
	TotalTokens int    `json:"total_tokens"`
	Unit        string `json:"oraculo_unit"`
	Source      string `json:"oraculo_source"`
}

func newResponseUsage(u *usage) *responseUsage {
	return &responseUsage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens, Unit: u.Unit, Source: u.Source}
}

// responseCall is what answering a response needs besides the answer.
type responseCall struct {
	req    responseRequest
	msgs   []chatMessage  // the conversation, after the previous response's
	base   responseObject // in progress, without output
	itemID string         // the output message's id
	detail bool
	owner  string // who may refer to the response later
}

// responses answers POST /v1/responses as chatCompletions answers a chat
// completion: the last user message of the input is the question, the
// earlier user and assistant messages the conversation's history, and the
// text is the verified answer followed by its sources, each citation a
// link to its passage and an url_citation annotation; the response also
// carries the citations and, asked for in detail, the Answer. Streamed,
// the text comes in output_text deltas as it is verified, a sentence at a
// time (never the raw generation), with comment heartbeats while nothing
// is ready, in the event sequence the official SDKs read.
func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	var req responseRequest
	if !decode(w, r, &req, false) {
		return
	}
	model, extractive, rerr := checkRequest(req.Model, req.Tools, req.ToolChoice)
	if rerr != nil {
		rerr.write(w)
		return
	}
	call := responseCall{req: req, detail: req.Oraculo.Detail || r.Header.Get("X-Oraculo-Detail") == "1",
		owner: infoFrom(r.Context()).user + "\x00" + oraculo.RoleFrom(r.Context())}
	if call.msgs, rerr = s.responseConversation(call.owner, req); rerr != nil {
		rerr.write(w)
		return
	}
	question, history, err := conversation(call.msgs)
	if err != nil {
		invalidInput(err.Error()).write(w)
		return
	}
	var respID string
	respID, call.itemID = newResponseIDs()
	call.base = responseObject{ID: respID, Object: "response", CreatedAt: time.Now().Unix(), Status: "in_progress",
		Instructions: req.Instructions, Model: model, Output: []responseMessage{}, PreviousResponseID: nilIfEmpty(req.PreviousResponseID),
		Store: req.Store == nil || *req.Store, Text: map[string]any{"format": map[string]string{"type": "text"}},
		ToolChoice: "auto", Tools: []any{}, Truncation: "disabled", Metadata: map[string]string{}}
	// A front end's own chores are answered briefly, as in a chat.
	if reply, ok := taskReply(question); ok {
		s.respond(w, call, reply, nil, nil, answerUsage(nil))
		return
	}
	ctx, cancel := withTimeout(r, s.cfg.AskTimeout)
	defer cancel()
	opts := oraculo.AskOptions{History: history, Extractive: extractive}
	if req.Stream {
		s.streamResponse(ctx, w, r, call, question, opts)
		return
	}
	a, err := s.eng.Ask(ctx, question, opts)
	if err != nil {
		s.engineError(w, r, err)
		return
	}
	content, cites := s.completionContent(r, a, call.detail, s.noteLinks(r, a))
	var full *oraculo.Answer
	if call.detail {
		full = detailed(a)
	}
	s.respond(w, call, content, cites, full, answerUsage(a))
}

// responseConversation is the conversation a request continues: the
// previous response's, if it names one, then its input, whose item
// references are resolved.
func (s *Server) responseConversation(owner string, req responseRequest) ([]chatMessage, *requestError) {
	var msgs []chatMessage
	if id := req.PreviousResponseID; id != "" {
		var ok bool
		if msgs, ok = s.kept.conversation(owner, id); !ok {
			return nil, &requestError{status: http.StatusNotFound, param: "previous_response_id", code: "previous_response_not_found",
				message: fmt.Sprintf("Previous response with id %q not found: Oráculo keeps responses for its caller, in memory, until it restarts or they are many; send the whole conversation in \"input\".", id)}
		}
	}
	input, rerr := responseMessages(req.Input, func(id string) (chatMessage, bool) { return s.kept.answer(owner, id) })
	return append(msgs, input...), rerr
}

// respond answers with content, whole or streamed as the request asked.
func (s *Server) respond(w http.ResponseWriter, call responseCall, content string, cites []sourceCitation, full *oraculo.Answer, use *usage) {
	done := s.completed(call, content, cites, full, use)
	if !call.req.Stream {
		writeJSON(w, http.StatusOK, done)
		return
	}
	rs := startResponseStream(w, call)
	for _, p := range pieces(content, 48) {
		rs.delta(p)
	}
	rs.finish(done)
}

// streamResponse answers the question in a stream (see responses).
func (s *Server) streamResponse(ctx context.Context, w http.ResponseWriter, r *http.Request, call responseCall, question string, opts oraculo.AskOptions) {
	rs := startResponseStream(w, call)
	verified, sent := s.verifiedText(r, rs.delta)
	a, err := s.runAsk(ctx, question, opts, relay{verified: verified, ping: func() { rs.st.comment("keep-alive") }})
	if err != nil {
		rs.fail(s.streamError(r, err))
		return
	}
	_, rest, cites := s.streamedContent(r, a, call.detail, *sent)
	var full *oraculo.Answer
	if call.detail {
		full = detailed(a)
	}
	for _, p := range pieces(rest, 48) {
		rs.delta(p)
	}
	// The text is what was streamed: after a chat model that failed
	// midway, the verified text sent and then the extracted answer.
	done := s.completed(call, *sent+rest, cites, full, answerUsage(a))
	if b, err := marshal(done); err == nil && len(b) > maxLine {
		// As in a chat completion's stream: an Answer too large for one
		// line is left out (a request without stream gets it whole).
		done.Oraculo = nil
	}
	rs.finish(done)
}

// completed is the completed response whose text is content, kept
// unless the request said store false.
func (s *Server) completed(c responseCall, content string, cites []sourceCitation, full *oraculo.Answer, use *usage) responseObject {
	if cites == nil {
		cites = []sourceCitation{}
	}
	if c.base.Store {
		s.kept.keep(c.owner, c.base.ID, c.itemID, append(c.msgs[:len(c.msgs):len(c.msgs)], chatMessage{Role: "assistant", Content: messageText(content)}))
	}
	o := c.base
	o.Status = "completed"
	o.Output = []responseMessage{{Type: "message", ID: c.itemID, Status: "completed", Role: "assistant",
		Content: []outputText{{Type: "output_text", Text: content, Annotations: annotations(content, cites), Logprobs: []any{}}}}}
	o.Usage = newResponseUsage(use)
	o.Citations, o.Oraculo = &cites, full
	return o
}

// annotations are the url_citation annotations of content: one for each
// citation link to a passage page (see passageLink), in the text's order.
func annotations(content string, cites []sourceCitation) []urlCitation {
	out := []urlCitation{}
	for _, m := range passageLink.FindAllStringSubmatchIndex(content, -1) {
		label := content[m[2]:m[3]]
		title := label
		for _, c := range cites {
			if c.Label == label {
				title = label + " · " + c.File
				break
			}
		}
		start := utf8.RuneCountInString(content[:m[0]])
		out = append(out, urlCitation{Type: "url_citation", StartIndex: start, EndIndex: start + utf8.RuneCountInString(content[m[0]:m[1]]),
			URL: content[m[4]:m[5]], Title: title})
	}
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// invalidInput is the 400 of an input Oráculo cannot read.
func invalidInput(msg string) *requestError {
	return &requestError{status: http.StatusBadRequest, param: "input", code: "invalid_value", message: msg}
}

// responseItem is an item of a request's input: a message (type
// "message", or none) with its role and content, or a reference to an
// earlier answer (type "item_reference").
type responseItem struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"` // an item_reference's
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// responseMessages reads a request's input as chat messages: a string is
// the user's question; an array holds message items, whose content is a
// string or input_text/output_text parts (system and developer messages
// are ignored, as in a chat completion), and item references to earlier
// answers, which answer finds. An item Oráculo cannot read (a reference
// it does not find; a function call or its output, which need tools) is
// a 400 that names it.
func responseMessages(raw json.RawMessage, answer func(id string) (chatMessage, bool)) ([]chatMessage, *requestError) {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return nil, invalidInput(`"input" is required: the question, or an array of messages ending with it`)
	}
	var text string
	if err := json.Unmarshal(raw, &text); err == nil {
		return []chatMessage{{Role: "user", Content: messageText(text)}}, nil
	}
	var items []responseItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidInput(`"input" must be a string or an array of message items`)
	}
	if len(items) == 0 {
		return nil, invalidInput(`"input" must not be empty`)
	}
	msgs := make([]chatMessage, 0, len(items))
	for i, it := range items {
		if it.Type == "item_reference" {
			m, ok := answer(it.ID)
			if !ok {
				return nil, invalidInput(fmt.Sprintf("input[%d] refers to %q, which Oráculo does not have (it keeps its answers for their caller, in memory, until it restarts or they are many): send the earlier messages' text", i, it.ID))
			}
			msgs = append(msgs, m)
			continue
		}
		switch {
		case it.Type != "" && it.Type != "message":
			return nil, invalidInput(fmt.Sprintf("input[%d] is of type %q: Oráculo reads messages only (it calls no tools)", i, it.Type))
		case it.Role != "user" && it.Role != "assistant" && it.Role != "system" && it.Role != "developer":
			return nil, invalidInput(fmt.Sprintf("input[%d] has role %q: the roles are user, assistant, system and developer", i, it.Role))
		}
		var content messageText
		if err := json.Unmarshal(it.Content, &content); err != nil {
			return nil, invalidInput(fmt.Sprintf("input[%d]: %v", i, err))
		}
		msgs = append(msgs, chatMessage{Role: it.Role, Content: content})
	}
	return msgs, nil
}

// responseStream writes a Responses API event stream: each event named by
// its type, its data holding the type and the sequence_number, counted
// from 0.
type responseStream struct {
	st   *stream
	seq  int
	call responseCall
}

// eventHead is what every event has.
type eventHead struct {
	Type           string `json:"type"`
	SequenceNumber int    `json:"sequence_number"`
}

func (h *eventHead) head() *eventHead { return h }

// textPlace is where an event's text is: the message's first part.
type textPlace struct {
	ItemID       string `json:"item_id"`
	OutputIndex  int    `json:"output_index"`
	ContentIndex int    `json:"content_index"`
}

type (
	lifecycleEvent struct {
		eventHead
		Response responseObject `json:"response"`
	}
	itemEvent struct {
		eventHead
		OutputIndex int             `json:"output_index"`
		Item        responseMessage `json:"item"`
	}
	partEvent struct {
		eventHead
		textPlace
		Part outputText `json:"part"`
	}
	deltaEvent struct {
		eventHead
		textPlace
		Delta    string `json:"delta"`
		Logprobs []any  `json:"logprobs"`
	}
	textDoneEvent struct {
		eventHead
		textPlace
		Text     string `json:"text"`
		Logprobs []any  `json:"logprobs"`
	}
	annotationEvent struct {
		eventHead
		textPlace
		AnnotationIndex int         `json:"annotation_index"`
		Annotation      urlCitation `json:"annotation"`
	}
)

// send writes ev as the next event, of type typ.
func (rs *responseStream) send(typ string, ev interface{ head() *eventHead }) {
	h := ev.head()
	h.Type, h.SequenceNumber = typ, rs.seq
	rs.seq++
	rs.st.event(typ, ev)
}

// startResponseStream answers 200 with an event stream, and opens the
// response's message and its text.
func startResponseStream(w http.ResponseWriter, call responseCall) *responseStream {
	rs := &responseStream{st: startStream(w), call: call}
	rs.send("response.created", &lifecycleEvent{Response: call.base})
	rs.send("response.in_progress", &lifecycleEvent{Response: call.base})
	rs.send("response.output_item.added", &itemEvent{Item: responseMessage{Type: "message", ID: call.itemID, Status: "in_progress", Role: "assistant", Content: []outputText{}}})
	rs.send("response.content_part.added", &partEvent{textPlace: rs.place(), Part: outputText{Type: "output_text", Annotations: []urlCitation{}, Logprobs: []any{}}})
	return rs
}

func (rs *responseStream) place() textPlace { return textPlace{ItemID: rs.call.itemID} }

// delta sends a piece of the text.
func (rs *responseStream) delta(piece string) {
	rs.send("response.output_text.delta", &deltaEvent{textPlace: rs.place(), Delta: piece, Logprobs: []any{}})
}

// finish closes the text, the message and the response, done: the
// text's annotations first (they count in the whole text).
func (rs *responseStream) finish(done responseObject) {
	item := done.Output[0]
	part := item.Content[0]
	for i, a := range part.Annotations {
		rs.send("response.output_text.annotation.added", &annotationEvent{textPlace: rs.place(), AnnotationIndex: i, Annotation: a})
	}
	rs.send("response.output_text.done", &textDoneEvent{textPlace: rs.place(), Text: part.Text, Logprobs: []any{}})
	rs.send("response.content_part.done", &partEvent{textPlace: rs.place(), Part: part})
	rs.send("response.output_item.done", &itemEvent{Item: item})
	rs.send("response.completed", &lifecycleEvent{Response: done})
}

// fail ends the stream with a failed response (the status line is gone).
func (rs *responseStream) fail(msg string) {
	o := rs.call.base
	o.Status, o.Error = "failed", &responseFailure{Code: "server_error", Message: msg}
	rs.send("response.failed", &lifecycleEvent{Response: o})
}
