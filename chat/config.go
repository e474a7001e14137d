package chat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/openaicompat"
	"github.com/oraculo/oraculo/internal/storedconfig"
)

// Chat providers a [Config] names.
const (
	ProviderNone   = "none"
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
	// ProviderCustom is a model a program brought rather than named
	// (the root's WithChatModel): [New] cannot build it and
	// [SaveConfig] does not keep it.
	ProviderCustom = "custom"
)

// Config chooses the chat model that annotates chunks at ingest,
// reranks candidates and writes answers. With none, answers are
// extractive and the fused order is kept.
type Config struct {
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
	// (default DefaultFirstTokenTimeout, 30 s), and IdleTimeout the
	// silence inside it (default DefaultIdleTimeout, 15 s); negative
	// for none. Past either the answer is extracted from the notes.
	FirstTokenTimeout time.Duration `json:"-"`
	IdleTimeout       time.Duration `json:"-"`

	// err is what was wrong with the environment it was read from.
	err error
}

// IsSet reports whether the config names a provider other than none.
func (c Config) IsSet() bool { return c.Provider != "" && c.Provider != ProviderNone }

// WithLocal returns c's provider, model and URL (what an index stores)
// with local's key, timeouts and what was wrong with the environment it
// was read from (what is never stored).
func (c Config) WithLocal(local Config) Config {
	c.APIKey, c.Timeout, c.FirstTokenTimeout, c.IdleTimeout, c.err = local.APIKey, local.Timeout, local.FirstTokenTimeout, local.IdleTimeout, local.err
	return c
}

// Settings are where an index keeps its settings (Meta and SetMeta: the
// store's Settings role).
type Settings = storedconfig.Settings

// Resolve returns c when it names a provider; else the provider, model
// and URL the index keeps in s ([SaveConfig]'s) with c's key and
// timeouts (see [Config.WithLocal]).
func (c Config) Resolve(ctx context.Context, s Settings) (Config, error) {
	err := storedconfig.Resolve(ctx, s, c.Provider, c.stored())
	return c, err
}

// SaveConfig keeps c's provider, model and URL in s, for the commands
// that name no model: never its key, and nothing of a [ProviderCustom]
// model.
func SaveConfig(ctx context.Context, s Settings, c Config) error {
	if c.Provider == ProviderCustom {
		return nil
	}
	return storedconfig.Write(ctx, s, c.stored())
}

// stored are c's fields an index keeps, by meta key.
func (c *Config) stored() storedconfig.Fields {
	return storedconfig.Fields{"chat_provider": &c.Provider, "chat_model": &c.Model, "chat_url": &c.URL}
}

// ConfigFromEnv reads $ORACULO_CHAT, $ORACULO_CHAT_MODEL,
// $ORACULO_CHAT_URL and the timeouts $ORACULO_CHAT_TIMEOUT,
// $ORACULO_CHAT_FIRST_TOKEN_TIMEOUT and $ORACULO_CHAT_IDLE_TIMEOUT
// (durations such as "20s"). [New] refuses a config whose timeouts could
// not be read.
func ConfigFromEnv() Config {
	c := Config{
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

// New builds the chat model a config names; nil for none.
func New(c Config) (Model, error) {
	if c.err != nil {
		return nil, c.err
	}
	key := openaicompat.Key(c.APIKey, "ORACULO_CHAT_KEY", c.URL)
	switch strings.ToLower(c.Provider) {
	case "", ProviderNone:
		return nil, nil
	case ProviderOllama:
		return NewOllama(OllamaConfig{BaseURL: c.URL, Model: c.Model, KeepAlive: "30m",
			Timeout: c.Timeout, FirstTokenTimeout: c.FirstTokenTimeout, IdleTimeout: c.IdleTimeout}), nil
	case ProviderOpenAI:
		if c.URL == "" {
			return nil, errors.New("the openai chat model needs a base URL (--chat-url or $ORACULO_CHAT_URL), e.g. http://127.0.0.1:8080/v1")
		}
		if c.Model == "" {
			return nil, errors.New("the openai chat model needs a model name (--chat-model or $ORACULO_CHAT_MODEL)")
		}
		return NewOpenAI(OpenAIConfig{BaseURL: c.URL, Model: c.Model, APIKey: key,
			Timeout: c.Timeout, FirstTokenTimeout: c.FirstTokenTimeout, IdleTimeout: c.IdleTimeout}), nil
	}
	return nil, fmt.Errorf("unknown chat provider %q (ollama, openai or none)", c.Provider)
}
