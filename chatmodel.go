package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/rerank"
)

// ChatConfig chooses the chat model that annotates chunks at ingest,
// reranks candidates and writes answers (see [chat.Config]).
type ChatConfig = chat.Config

// ChatConfigFromEnv reads the chat model's config from the environment
// (see [chat.ConfigFromEnv]).
func ChatConfigFromEnv() ChatConfig { return chat.ConfigFromEnv() }

// NewChat builds the chat model a config names; nil for none.
func NewChat(c ChatConfig) (chat.Model, error) { return chat.New(c) }

// setChat makes annotations, reranking and answers use cfg, or the
// model the index keeps when cfg names none (see [WithChat]).
func (e *Engine) setChat(ctx context.Context, cfg ChatConfig) (err error) {
	if cfg, err = cfg.Resolve(ctx, e.idx); err == nil {
		e.chatCfg = cfg
		e.chat, err = NewChat(cfg)
	}
	return err
}

// saveChatConfig keeps the chat model's config in the index.
func (e *Engine) saveChatConfig(ctx context.Context, c ChatConfig) error {
	return chat.SaveConfig(ctx, e.idx, c)
}

// RerankConfig chooses the reranker (see [rerank.Config]).
type RerankConfig = rerank.Config

// RerankConfigFromEnv reads the reranker's config from the environment
// (see [rerank.ConfigFromEnv]).
func RerankConfigFromEnv() RerankConfig { return rerank.ConfigFromEnv() }

// ConfigError is a model configuration that cannot work as given (a
// reranker that needs a chat model when there is none, a missing server
// URL): the caller's to fix, not the index's.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// configureReranker sets the reranker a config names.
func (e *Engine) configureReranker(c RerankConfig) (err error) {
	if e.reranker, err = rerank.New(c, e.chat != nil); err != nil {
		return &ConfigError{err}
	}
	return nil
}
