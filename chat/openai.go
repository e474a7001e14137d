package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/oraculo/oraculo/internal/httpx"
	"github.com/oraculo/oraculo/internal/openaicompat"
)

// OpenAIConfig is the one configuration of OpenAI-compatible clients;
// the chat client ignores Dimensions.
type OpenAIConfig = openaicompat.Config

// OpenAI chats with POST {BaseURL}/chat/completions. It is safe for
// concurrent use.
type OpenAI struct {
	ep    endpoint
	model string
	id    string
}

// NewOpenAI returns an OpenAI API client. A configuration error (no
// BaseURL or Model, an unparsable BaseURL) is returned by every Chat call.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	base, model, cfgErr := cfg.Check()
	c := &OpenAI{model: model}
	c.id = "openai/" + c.model
	c.ep = endpoint{
		provider:        "openai",
		model:           c.model,
		apiKey:          strings.TrimSpace(cfg.APIKey),
		accept:          "text/event-stream",
		classify:        c.classify,
		unreachableHint: "is the chat server running at that URL?",
		cfgErr:          cfgErr,
	}
	c.ep.route(base, "chat/completions", deadlines{timeout: cfg.Timeout, first: cfg.FirstTokenTimeout, idle: cfg.IdleTimeout}, cfg.Client)
	return c
}

// ID returns "openai/<model>".
func (c *OpenAI) ID() string { return c.id }

// openAIRequest is the body of POST /chat/completions.
type openAIRequest struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Stream         bool            `json:"stream"`
	Temperature    float64         `json:"temperature"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	// StreamOptions asks a stream for its usage, in a last chunk.
	StreamOptions *streamOptions `json:"stream_options,omitempty"`
}

// streamOptions is {"include_usage": true}.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// responseFormat asks for a JSON object: {"type": "json_object"}.
type responseFormat struct {
	Type string `json:"type"`
}

// openAIResponse is a whole answer ("chat.completion") or one event of a
// stream ("chat.completion.chunk", with delta in place of message).
type openAIResponse struct {
	Choices []struct {
		Message openAIMessage `json:"message"`
		Delta   openAIMessage `json:"delta"`
		// FinishReason is null until a stream's last chunk.
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	// Usage is a whole answer's, or a stream's in its last chunk (null in
	// the others).
	Usage *openAIUsage `json:"usage"`
}

// openAIUsage is OpenAI's usage object; prompt_tokens includes the
// tokens read from a cache.
type openAIUsage struct {
	PromptTokens     *int `json:"prompt_tokens"`
	CompletionTokens *int `json:"completion_tokens"`
}

// report passes the counts u carries, if any, to count.
func (u *openAIUsage) report(count func(Usage)) {
	if u != nil {
		reportCounts(u.PromptTokens, u.CompletionTokens, count)
	}
}

// openAIMessage is a whole answer's message or a stream chunk's delta.
type openAIMessage struct {
	Content string `json:"content"`
	// ReasoningContent (llama-server, vLLM, DeepSeek, LM Studio) or
	// Reasoning (newer vLLM, OpenRouter, Groq) is the reasoning of a
	// thinking model when the server separates it from the reply; it is
	// not part of the reply.
	ReasoningContent reasoningField `json:"reasoning_content"`
	Reasoning        reasoningField `json:"reasoning"`
}

// reasoning is the reasoning m carries, if any.
func (m openAIMessage) reasoning() string { return string(m.ReasoningContent + m.Reasoning) }

// reasoningField is a member that only says whether the model reasoned:
// a string, or whatever else a server puts there (never an error, so that
// an unexpected shape does not make the reply malformed).
type reasoningField string

// UnmarshalJSON implements json.Unmarshaler.
func (r *reasoningField) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) != nil && string(b) != "null" {
		s = string(b)
	}
	*r = reasoningField(s)
	return nil
}

// Chat sends the request and returns the reply; see [Model.Chat].
func (c *OpenAI) Chat(ctx context.Context, req Request, onDelta func(string)) (string, error) {
	payload := openAIRequest{
		Model:       c.model,
		Messages:    req.Messages,
		Stream:      onDelta != nil,
		Temperature: req.Temperature,
		MaxTokens:   req.MaxTokens,
	}
	if req.JSON {
		payload.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	if payload.Stream {
		payload.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	return c.ep.chat(ctx, req, payload, onDelta, decodeOpenAIStream, decodeOpenAI)
}

// decodeOpenAI reads a whole answer: choices[0].message.content.
func decodeOpenAI(body io.Reader, emit func(text, reasoning string), count func(Usage)) error {
	var resp openAIResponse
	if err := readWhole(body, &resp); err != nil {
		return err
	}
	if len(resp.Choices) == 0 {
		return errors.New("no choices in the answer")
	}
	m := resp.Choices[0].Message
	emit(m.Content, m.reasoning())
	resp.Usage.report(count)
	return nil
}

// decodeOpenAIStream reads server-sent events up to "data: [DONE]". Each
// data line carries one JSON chunk, as every OpenAI-style server sends
// them; comments, event names and ids are skipped. An error comes as a
// chunk with an "error" member or, from llama-server, as a line
// "error: {...}".
func decodeOpenAIStream(body io.Reader, emit func(text, reasoning string), count func(Usage)) error {
	finished := false
	done, err := eachLine(body, func(line []byte) (bool, error) {
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch string(field) {
		case "data":
		case "error":
			return false, &serverError{httpx.ParseAPIError(value)}
		default:
			return false, nil // "" (a comment), "event", "id", "retry"
		}
		if string(value) == "[DONE]" {
			return true, nil
		}
		var chunk openAIResponse
		if err := decodeJSON(value, &chunk); err != nil {
			return false, err
		}
		// The usage comes in the last chunk, which has no choices (OpenAI,
		// vLLM), or in the one that finishes (llama-server).
		chunk.Usage.report(count)
		if len(chunk.Choices) > 0 {
			d := chunk.Choices[0].Delta
			emit(d.Content, d.reasoning())
			finished = finished || chunk.Choices[0].FinishReason != nil
		}
		return false, nil
	})
	if err == nil && !done && !finished {
		err = errors.New("the stream ended before data: [DONE]")
	}
	return err
}

// classify maps OpenAI-style error answers to sentinels and hints.
func (c *OpenAI) classify(status int, ae httpx.APIError) (hint string, kind error) {
	if hint, kind, ok := openaicompat.Classify(status, ae, c.ep.base, c.ep.apiKey != "", ErrAuth, ErrModel); ok {
		return hint, kind
	}
	switch {
	case status == http.StatusNotFound:
		return openaicompat.NotFoundHint(c.ep.base, "chat/completions"), nil
	case strings.Contains(ae.Message, "response_format"):
		return "the server may not support response_format json_object", nil
	}
	return "", nil
}
