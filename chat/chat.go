// Package chat talks to the chat model that reranks candidates, annotates
// chunks and writes answers.
//
// Two providers implement Model:
//
//   - Ollama speaks Ollama's native POST /api/chat (streamed NDJSON,
//     keep_alive so the model stays resident, think: false for thinking
//     models).
//   - OpenAI speaks POST {base}/chat/completions (streamed server-sent
//     events), also served by llama.cpp's llama-server, vLLM and LocalAI.
//
// A reply never holds the model's reasoning: inline blocks (<think>,
// <thinking>, <reasoning>, also unclosed at the end, in any case, cut
// anywhere by the stream) are taken out before the text reaches the caller,
// and reasoning a server sends apart (Ollama's "thinking", the
// "reasoning_content" of llama-server, vLLM and others) is never read as
// text. Streaming stays live: only what may be the start of a tag is held
// back. A reply that was all reasoning is an empty reply, an ErrResponse.
// See [Request.OnThinking] to learn when the model is reasoning.
//
// Errors wrap one of the sentinel errors below so that callers can decide
// what to tell the user (and whether to fall back to an extractive answer).
//
// A request is sent again, after a short wait, when the connection was
// refused or the server answered 429, 502, 503 or 504, at most twice and
// only while nothing of the reply has reached the caller: text already
// shown is never taken back. Package chattest fakes both servers for
// tests.
package chat

import (
	"context"
	"errors"
)

// Roles of a message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one turn of a conversation.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one call to the model.
type Request struct {
	Messages []Message
	// JSON asks the server for a JSON object (Ollama "format": "json",
	// OpenAI "response_format": {"type": "json_object"}).
	JSON bool
	// Temperature is sent as is (0 is deterministic decoding, the default
	// for everything Oráculo asks).
	Temperature float64
	// MaxTokens caps the reply (0: the server's default).
	MaxTokens int
	// OnThinking, when not nil, is called when the model starts reasoning
	// (an inline block opens, or the server sends reasoning apart), at
	// the start of the reply or after text was passed to onDelta: once
	// per stretch of reasoning, before the text that follows it, on the
	// same goroutine as onDelta. The reasoning itself is never passed on.
	// A front end can show that the model is thinking until the next
	// delta.
	OnThinking func()
	// OnUsage, when not nil, is called once after a reply that came
	// whole, with the tokens the server says the call read and wrote
	// (Ollama's prompt_eval_count and eval_count, an OpenAI-style usage),
	// a count it did not report being [NotReported]; it is not called when
	// the server reported neither. [Meter] counts with it.
	OnUsage func(Usage)
}

// Model is a chat model behind a server.
type Model interface {
	// ID names the provider and model, e.g. "ollama/qwen2.5:7b" or
	// "openai/gpt-4o-mini": part of the annotation cache key.
	ID() string
	// Chat sends the request and returns the whole reply. When onDelta is
	// not nil the reply is streamed and each piece of text is passed to
	// onDelta as it arrives (in order, concatenating to the returned
	// string, on the calling goroutine). It honours ctx's deadline and
	// cancellation.
	//
	// On failure it returns the reply received so far (what onDelta was
	// given) with an error that wraps one of the sentinel errors below,
	// or ctx.Err() when ctx ended the request.
	Chat(ctx context.Context, req Request, onDelta func(string)) (string, error)
}

// Sentinel errors; a provider's errors wrap exactly one of them (see
// Error), except when the caller's context ended the request or the
// request or configuration was invalid before anything was sent.
var (
	// ErrUnreachable: no connection, DNS failure, refused, or timed out
	// (the whole request, a stream that did not start or went silent:
	// these also wrap context.DeadlineExceeded); also a 502, 503
	// or 504 answer, a proxy's way of saying so.
	ErrUnreachable = errors.New("chat server unreachable")
	// ErrModel: the server does not have the model (not pulled, wrong name).
	ErrModel = errors.New("chat model not available")
	// ErrAuth: the server refused the credentials (401/403).
	ErrAuth = errors.New("chat server refused the credentials")
	// ErrResponse: the server answered something that is not a valid reply
	// (bad status, malformed body or stream, empty reply).
	ErrResponse = errors.New("invalid chat response")
)
