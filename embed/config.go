package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/internal/openaicompat"
	"github.com/oraculo/oraculo/internal/storedconfig"
)

// Embedding providers a [Config] names.
const (
	ProviderNone    = "none"
	ProviderOllama  = "ollama"
	ProviderOpenAI  = "openai"
	ProviderHashing = "hashing"
)

// Config chooses the embedding model of the dense path.
type Config struct {
	// Provider is "ollama", "openai" (any OpenAI-compatible server),
	// "hashing" (model-free, not semantic: for tests and demos) or "none".
	Provider string `json:"provider"`
	// Model is the model name (default bge-m3 for Ollama).
	Model string `json:"model,omitempty"`
	// URL is the server's base URL (Ollama: $OLLAMA_HOST or
	// http://127.0.0.1:11434; OpenAI-compatible: required, e.g.
	// http://127.0.0.1:8080/v1).
	URL string `json:"url,omitempty"`
	// Dims asks OpenAI-compatible servers for shorter vectors, and sets the
	// size of the hashing embedder (default 1024).
	Dims int `json:"dims,omitempty"`
	// APIKey is never stored in the index; default $ORACULO_EMBED_KEY, and
	// $OPENAI_API_KEY for api.openai.com.
	APIKey string `json:"-"`
}

// IsSet reports whether the config names a provider other than none.
func (c Config) IsSet() bool { return c.Provider != "" && c.Provider != ProviderNone }

// ConfigFromEnv reads ORACULO_EMBEDDER, ORACULO_EMBED_MODEL,
// ORACULO_EMBED_URL and ORACULO_EMBED_DIMS.
func ConfigFromEnv() Config {
	c := Config{
		Provider: strings.ToLower(os.Getenv("ORACULO_EMBEDDER")),
		Model:    os.Getenv("ORACULO_EMBED_MODEL"),
		URL:      os.Getenv("ORACULO_EMBED_URL"),
	}
	c.Dims, _ = strconv.Atoi(os.Getenv("ORACULO_EMBED_DIMS"))
	return c
}

// New builds the embedder a config names; nil for "none".
func New(c Config) (Embedder, error) {
	key := openaicompat.Key(c.APIKey, "ORACULO_EMBED_KEY", c.URL)
	switch strings.ToLower(c.Provider) {
	case "", ProviderNone:
		return nil, nil
	case ProviderOllama:
		return NewOllama(OllamaConfig{BaseURL: c.URL, Model: c.Model, KeepAlive: "30m"}), nil
	case ProviderOpenAI:
		if c.URL == "" {
			return nil, errors.New("the openai embedder needs a base URL (--embed-url or $ORACULO_EMBED_URL), e.g. http://127.0.0.1:8080/v1")
		}
		if c.Model == "" {
			return nil, errors.New("the openai embedder needs a model name (--embed-model or $ORACULO_EMBED_MODEL)")
		}
		return NewOpenAI(OpenAIConfig{BaseURL: c.URL, Model: c.Model, APIKey: key, Dimensions: c.Dims}), nil
	case ProviderHashing:
		dims := c.Dims
		if dims == 0 {
			dims = DefaultHashingTermsDims
		}
		return NewHashing(dims), nil
	}
	return nil, fmt.Errorf("unknown embedder %q (ollama, openai, hashing or none)", c.Provider)
}

// NewAnalysed builds the embedder a config names, as [New] does, for
// notes read through an analyzer (named analyzer, whose terms terms
// returns): the hashing embedder hashes those terms (its analysed
// variant), but for model "v1", which keeps the plain words.
func NewAnalysed(c Config, analyzer string, terms func(string) []string) (Embedder, error) {
	em, err := New(c)
	if h, ok := em.(*Hashing); ok && c.Model != "v1" {
		em = NewHashingTerms(h.Dims(), analyzer, terms)
	}
	return em, err
}

// Settings are where an index keeps its settings (Meta and SetMeta: the
// store's Settings role).
type Settings = storedconfig.Settings

// Resolve returns c when it names a provider; else the provider, model,
// URL and size the index keeps in s ([SaveConfig]'s) with c's key.
func (c Config) Resolve(ctx context.Context, s Settings) (Config, error) {
	err := storedconfig.Resolve(ctx, s, c.Provider, c.stored())
	return c, err
}

// SaveConfig keeps c's provider, model, URL and size in s, for the
// commands that name no model: never its key.
func SaveConfig(ctx context.Context, s Settings, c Config) error {
	return storedconfig.Write(ctx, s, c.stored())
}

// stored are c's fields an index keeps, by meta key.
func (c *Config) stored() storedconfig.Fields {
	return storedconfig.Fields{"embed_provider": &c.Provider, "embed_model": &c.Model, "embed_url": &c.URL, "embed_dims": &c.Dims}
}
