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

// setChat makes annotations, reranking and answers use cfg (see
// [WithChat]).
func (e *Engine) setChat(ctx context.Context, cfg ChatConfig) error {
	if cfg.Provider == "" {
		stored, err := e.storedChatConfig(ctx)
		if err != nil {
			return err
		}
		cfg = stored.WithLocal(cfg)
	}
	m, err := NewChat(cfg)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.chatCfg, e.chat = cfg, m
	return nil
}

// setChatModel makes the engine use m as its chat model (see
// [WithChatModel]).
func (e *Engine) setChatModel(m chat.Model) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.chat = m
	e.chatCfg = ChatConfig{}
	if m != nil {
		e.chatCfg.Provider = "custom"
	}
}

// ChatModel returns the chat model in use, or nil.
func (e *Engine) ChatModel() chat.Model {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.chat
}

// setReranker replaces the reranker (by default the chat model's, when
// there is one). nil restores the default.
func (e *Engine) setReranker(r rerank.Reranker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reranker = r
}

func (e *Engine) storedChatConfig(ctx context.Context) (ChatConfig, error) {
	var c ChatConfig
	for key, dst := range map[string]*string{"chat_provider": &c.Provider, "chat_model": &c.Model, "chat_url": &c.URL} {
		v, err := e.idx.Meta(ctx, key)
		if err != nil {
			return c, err
		}
		*dst = v
	}
	return c, nil
}

func (e *Engine) saveChatConfig(ctx context.Context, c ChatConfig) error {
	if c.Provider == "custom" {
		return nil
	}
	for k, v := range map[string]string{"chat_provider": c.Provider, "chat_model": c.Model, "chat_url": c.URL} {
		if err := e.idx.SetMeta(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
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
func (e *Engine) configureReranker(c RerankConfig) error {
	r, err := rerank.New(c, e.ChatModel() != nil)
	if err != nil {
		return &ConfigError{err}
	}
	e.setReranker(r)
	return nil
}
