package oraculo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/internal/openaicompat"
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

// RerankConfig chooses the reranker.
type RerankConfig struct {
	// Kind is "auto" (default: the chat model's when there is one, else
	// none), "llm", "cross" (a cross-encoder server) or "none".
	Kind string
	// URL, Model and Shape ("jina" or "tei") name the cross-encoder
	// server; Budget is its latency budget (default 2 s).
	URL, Model, Shape string
	Budget            time.Duration
	// APIKey defaults to $ORACULO_RERANK_KEY.
	APIKey string
}

// RerankConfigFromEnv reads $ORACULO_RERANK, $ORACULO_RERANK_URL,
// $ORACULO_RERANK_MODEL and $ORACULO_RERANK_SHAPE.
func RerankConfigFromEnv() RerankConfig {
	return RerankConfig{
		Kind:  strings.ToLower(os.Getenv("ORACULO_RERANK")),
		URL:   os.Getenv("ORACULO_RERANK_URL"),
		Model: os.Getenv("ORACULO_RERANK_MODEL"),
		Shape: strings.ToLower(os.Getenv("ORACULO_RERANK_SHAPE")),
	}
}

// ConfigError is a model configuration that cannot work as given (a
// reranker that needs a chat model when there is none, a missing server
// URL): the caller's to fix, not the index's.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// configureReranker sets the reranker a config names.
func (e *Engine) configureReranker(c RerankConfig) error {
	if err := e.rerankerFor(c); err != nil {
		return &ConfigError{err}
	}
	return nil
}

func (e *Engine) rerankerFor(c RerankConfig) error {
	switch c.Kind {
	case "", "auto", "llm":
		if c.Kind == "llm" && e.ChatModel() == nil {
			return errors.New("--rerank llm needs a chat model (--chat)")
		}
		e.setReranker(nil)
	case ProviderNone:
		e.setReranker(rerank.None{})
	case "cross":
		if c.URL == "" {
			return errors.New("the cross-encoder reranker needs a server URL (--rerank-url or $ORACULO_RERANK_URL)")
		}
		if c.Shape != "" && c.Shape != rerank.ShapeJina && c.Shape != rerank.ShapeTEI {
			return fmt.Errorf("unknown rerank shape %q (jina or tei)", c.Shape)
		}
		e.setReranker(&rerank.CrossEncoder{BaseURL: c.URL, Model: c.Model, Shape: c.Shape, Budget: c.Budget,
			APIKey: openaicompat.Key(c.APIKey, "ORACULO_RERANK_KEY", c.URL)})
	default:
		return fmt.Errorf("unknown reranker %q (auto, llm, cross or none)", c.Kind)
	}
	return nil
}
