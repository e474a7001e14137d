package oraculo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/chat"
	"github.com/oraculo/oraculo/rerank"
)

// ChatConfig chooses the chat model that annotates chunks at ingest,
// reranks candidates and writes answers. With none, answers are
// extractive and the fused order is kept.
type ChatConfig struct {
	// Provider is "ollama", "openai" (any OpenAI-compatible server) or
	// "none".
	Provider string `json:"provider"`
	// Model is the model name (default qwen2.5:7b for Ollama).
	Model string `json:"model,omitempty"`
	// URL is the server's base URL (Ollama: $OLLAMA_HOST or
	// http://127.0.0.1:11434; OpenAI-compatible: required, e.g.
	// http://127.0.0.1:8080/v1).
	URL string `json:"url,omitempty"`
	// APIKey is never stored in the index; default $ORACULO_CHAT_KEY, and
	// $OPENAI_API_KEY for api.openai.com.
	APIKey string `json:"-"`
	// Timeout bounds one answer (default 2 minutes): the bound on a
	// model that never stops writing.
	Timeout time.Duration `json:"-"`
	// FirstTokenTimeout bounds the wait for a streamed answer to start
	// (default chat.DefaultFirstTokenTimeout, 30 s), and IdleTimeout the
	// silence inside it (default chat.DefaultIdleTimeout, 15 s); negative
	// for none. Past either the answer is extracted from the notes.
	FirstTokenTimeout time.Duration `json:"-"`
	IdleTimeout       time.Duration `json:"-"`

	// err is what was wrong with the environment it was read from.
	err error
}

// IsSet reports whether the config names a provider other than none.
func (c ChatConfig) IsSet() bool { return c.Provider != "" && c.Provider != ProviderNone }

// ChatConfigFromEnv reads $ORACULO_CHAT, $ORACULO_CHAT_MODEL,
// $ORACULO_CHAT_URL and the timeouts $ORACULO_CHAT_TIMEOUT,
// $ORACULO_CHAT_FIRST_TOKEN_TIMEOUT and $ORACULO_CHAT_IDLE_TIMEOUT
// (durations such as "20s"). [NewChat] refuses a config whose timeouts
// could not be read.
func ChatConfigFromEnv() ChatConfig {
	c := ChatConfig{
		Provider: strings.ToLower(os.Getenv("ORACULO_CHAT")),
		Model:    os.Getenv("ORACULO_CHAT_MODEL"),
		URL:      os.Getenv("ORACULO_CHAT_URL"),
	}
	for name, dst := range map[string]*time.Duration{"ORACULO_CHAT_TIMEOUT": &c.Timeout,
		"ORACULO_CHAT_FIRST_TOKEN_TIMEOUT": &c.FirstTokenTimeout, "ORACULO_CHAT_IDLE_TIMEOUT": &c.IdleTimeout} {
		v := strings.TrimSpace(os.Getenv(name))
		if v == "" {
			continue
		}
		d, err := time.ParseDuration(v)
		if err != nil && c.err == nil {
			c.err = fmt.Errorf("$%s %q: want a duration such as 20s or 2m", name, v)
		}
		*dst = d
	}
	return c
}

// NewChat builds the chat model a config names; nil for none.
func NewChat(c ChatConfig) (chat.Model, error) {
	if c.err != nil {
		return nil, c.err
	}
	key := apiKey(c.APIKey, "ORACULO_CHAT_KEY", c.URL)
	switch strings.ToLower(c.Provider) {
	case "", ProviderNone:
		return nil, nil
	case ProviderOllama:
		return chat.NewOllama(chat.OllamaConfig{BaseURL: c.URL, Model: c.Model, KeepAlive: "30m",
			Timeout: c.Timeout, FirstTokenTimeout: c.FirstTokenTimeout, IdleTimeout: c.IdleTimeout}), nil
	case ProviderOpenAI:
		if c.URL == "" {
			return nil, errors.New("the openai chat model needs a base URL (--chat-url or $ORACULO_CHAT_URL), e.g. http://127.0.0.1:8080/v1")
		}
		if c.Model == "" {
			return nil, errors.New("the openai chat model needs a model name (--chat-model or $ORACULO_CHAT_MODEL)")
		}
		return chat.NewOpenAI(chat.OpenAIConfig{BaseURL: c.URL, Model: c.Model, APIKey: key,
			Timeout: c.Timeout, FirstTokenTimeout: c.FirstTokenTimeout, IdleTimeout: c.IdleTimeout}), nil
	}
	return nil, fmt.Errorf("unknown chat provider %q (ollama, openai or none)", c.Provider)
}

// setChat makes annotations, reranking and answers use cfg (see
// [WithChat]).
func (e *Engine) setChat(ctx context.Context, cfg ChatConfig) error {
	if cfg.Provider == "" {
		stored, err := e.storedChatConfig(ctx)
		if err != nil {
			return err
		}
		stored.APIKey, stored.Timeout, stored.FirstTokenTimeout, stored.IdleTimeout, stored.err = cfg.APIKey, cfg.Timeout, cfg.FirstTokenTimeout, cfg.IdleTimeout, cfg.err
		cfg = stored
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
			APIKey: apiKey(c.APIKey, "ORACULO_RERANK_KEY", c.URL)})
	default:
		return fmt.Errorf("unknown reranker %q (auto, llm, cross or none)", c.Kind)
	}
	return nil
}
