package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/rerank"
)

// An Option configures an engine when it is opened: the models it uses
// and where its warnings go are fixed for its lifetime, so that searches
// never race a change of them.
type Option func(*options)

// options are what the options chose, for configure.
type options struct {
	warn         func(string)
	embedder     *EmbedderConfig
	chat         *ChatConfig
	chatModel    chat.Model
	chatModelSet bool
	rerank       *RerankConfig
	reranker     rerank.Reranker
	annThreshold int
}

// WithWarnings sends the warnings that do not stop an operation (an
// unreachable embedding server during a search, a stale vector graph) to
// warn. Without it they are dropped.
func WithWarnings(warn func(string)) Option {
	return func(o *options) { o.warn = warn }
}

// WithEmbedder makes the dense path use cfg: Ingest embeds with it and
// Search asks it for the question's vector. A config with no provider
// uses the one stored in the index by the last ingest that had one;
// "none" turns the dense path off. Without the option there is no dense
// path.
func WithEmbedder(cfg EmbedderConfig) Option {
	return func(o *options) { o.embedder = &cfg }
}

// WithChat makes annotations, reranking and answers use the chat model
// cfg names. A config with no provider uses the one stored in the index by
// the last ingest that had one; "none" turns the model off. Without the
// option (or WithChatModel) answers are extractive.
func WithChat(cfg ChatConfig) Option {
	return func(o *options) { o.chat, o.chatModel, o.chatModelSet = &cfg, nil, false }
}

// WithChatModel makes the engine use m as its chat model: for programs
// (and tests) that bring their own client. It replaces WithChat.
func WithChatModel(m chat.Model) Option {
	return func(o *options) { o.chat, o.chatModel, o.chatModelSet = nil, m, true }
}

// WithReranker chooses the reranker by configuration (by default the
// chat model's, when there is one, else none).
func WithReranker(cfg RerankConfig) Option {
	return func(o *options) { o.rerank, o.reranker = &cfg, nil }
}

// WithRerankerModel makes the engine rerank with r. It replaces
// WithReranker.
func WithRerankerModel(r rerank.Reranker) Option {
	return func(o *options) { o.rerank, o.reranker = nil, r }
}

// WithANNThreshold sets the number of vectors from which the dense path
// searches an HNSW graph instead of scanning exactly (default
// vector.DefaultThreshold); ingest builds and stores the graph.
func WithANNThreshold(n int) Option {
	return func(o *options) { o.annThreshold = n }
}

// configure applies the options to a freshly opened engine, before
// anyone else holds it (so without e.mu); the reranker last, as it may
// be the chat model's.
func (e *Engine) configure(ctx context.Context, opts []Option) (err error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	e.warnTo, e.annMin, e.reranker = o.warn, o.annThreshold, o.reranker
	if o.chatModelSet {
		e.chat, e.chatCfg = o.chatModel, ChatConfig{Provider: chat.ProviderCustom}
	}
	if o.embedder != nil {
		err = e.setEmbedder(ctx, *o.embedder)
	}
	if err == nil && o.chat != nil {
		err = e.setChat(ctx, *o.chat)
	}
	if err == nil && o.rerank != nil {
		err = e.configureReranker(*o.rerank)
	}
	return err
}
