package oraculo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/retrieve"
)

// Embedding providers.
const (
	ProviderNone    = "none"
	ProviderOllama  = "ollama"
	ProviderOpenAI  = "openai"
	ProviderHashing = "hashing"
)

// EmbedderConfig chooses the embedding model of the dense path.
type EmbedderConfig struct {
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
func (c EmbedderConfig) IsSet() bool { return c.Provider != "" && c.Provider != ProviderNone }

// EmbedderConfigFromEnv reads ORACULO_EMBEDDER, ORACULO_EMBED_MODEL,
// ORACULO_EMBED_URL and ORACULO_EMBED_DIMS.
func EmbedderConfigFromEnv() EmbedderConfig {
	c := EmbedderConfig{
		Provider: strings.ToLower(os.Getenv("ORACULO_EMBEDDER")),
		Model:    os.Getenv("ORACULO_EMBED_MODEL"),
		URL:      os.Getenv("ORACULO_EMBED_URL"),
	}
	c.Dims, _ = strconv.Atoi(os.Getenv("ORACULO_EMBED_DIMS"))
	return c
}

// apiKey is the key to send to url: the explicit one, else $envVar, else
// $OPENAI_API_KEY when url is OpenAI's own (never sent to a local server).
func apiKey(explicit, envVar, url string) string {
	if explicit != "" {
		return explicit
	}
	if k := os.Getenv(envVar); k != "" {
		return k
	}
	if strings.Contains(url, "api.openai.com") {
		return os.Getenv("OPENAI_API_KEY")
	}
	return ""
}

// NewEmbedder builds the embedder a config names; nil for "none".
func NewEmbedder(c EmbedderConfig) (embed.Embedder, error) {
	key := apiKey(c.APIKey, "ORACULO_EMBED_KEY", c.URL)
	switch strings.ToLower(c.Provider) {
	case "", ProviderNone:
		return nil, nil
	case ProviderOllama:
		return embed.NewOllama(embed.OllamaConfig{BaseURL: c.URL, Model: c.Model, KeepAlive: "30m"}), nil
	case ProviderOpenAI:
		if c.URL == "" {
			return nil, errors.New("the openai embedder needs a base URL (--embed-url or $ORACULO_EMBED_URL), e.g. http://127.0.0.1:8080/v1")
		}
		if c.Model == "" {
			return nil, errors.New("the openai embedder needs a model name (--embed-model or $ORACULO_EMBED_MODEL)")
		}
		return embed.NewOpenAI(embed.OpenAIConfig{BaseURL: c.URL, Model: c.Model, APIKey: key, Dimensions: c.Dims}), nil
	case ProviderHashing:
		dims := c.Dims
		if dims == 0 {
			dims = embed.DefaultHashingTermsDims
		}
		return embed.NewHashing(dims), nil
	}
	return nil, fmt.Errorf("unknown embedder %q (ollama, openai, hashing or none)", c.Provider)
}

// setEmbedder makes the dense path use cfg (see [WithEmbedder]).
func (e *Engine) setEmbedder(ctx context.Context, cfg EmbedderConfig) error {
	if cfg.Provider == "" {
		stored, err := e.storedEmbedderConfig(ctx)
		if err != nil {
			return err
		}
		stored.APIKey = cfg.APIKey
		cfg = stored
	}
	em, err := NewEmbedder(cfg)
	if err != nil {
		return err
	}
	e.mu.Lock()
	if h, ok := em.(*embed.Hashing); ok && cfg.Model != "v1" {
		// The hashing embedder reads the notes through their analyzer
		// (v2); model "v1" keeps the plain-words variant.
		em = embed.NewHashingTerms(h.Dims(), e.analyzer.Version(), e.analyzer.Terms)
	}
	e.embedCfg, e.embedder = cfg, em
	e.mu.Unlock()
	e.invalidate()
	return nil
}

// Embedder returns the embedder in use, or nil.
func (e *Engine) Embedder() embed.Embedder {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.embedder
}

func (e *Engine) storedEmbedderConfig(ctx context.Context) (EmbedderConfig, error) {
	var c EmbedderConfig
	for key, dst := range map[string]*string{"embed_provider": &c.Provider, "embed_model": &c.Model, "embed_url": &c.URL} {
		v, err := e.idx.Meta(ctx, key)
		if err != nil {
			return c, err
		}
		*dst = v
	}
	if v, err := e.idx.Meta(ctx, "embed_dims"); err != nil {
		return c, err
	} else if v != "" {
		c.Dims, _ = strconv.Atoi(v)
	}
	return c, nil
}

func (e *Engine) saveEmbedderConfig(ctx context.Context, c EmbedderConfig) error {
	for k, v := range map[string]string{"embed_provider": c.Provider, "embed_model": c.Model, "embed_url": c.URL, "embed_dims": strconv.Itoa(c.Dims)} {
		if err := e.idx.SetMeta(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}

// denseOptions are the dense index's settings (see [WithANNThreshold]).
func (e *Engine) denseOptions() dense.Options { return dense.Options{Threshold: e.annMin} }

// searchVectors makes the dense path among paths find neighbours as mode
// says (see [VectorSearch]).
func (e *Engine) searchVectors(ctx context.Context, paths []retrieve.Path, mode VectorSearch) error {
	if mode != VectorsExact && mode != VectorsApprox {
		return fmt.Errorf("unknown vector search mode %d", mode)
	}
	for i, p := range paths {
		d, ok := p.(retrieve.Dense)
		if !ok {
			continue
		}
		v, err := e.snapshot(ctx)
		if err != nil {
			return err
		}
		ix, err := e.denseOf(ctx, v)
		if err != nil || ix == nil {
			return err
		}
		if mode == VectorsExact {
			paths[i], err = ix.Exact(ctx, d, func() (map[int64]bool, error) { return e.restrictedOf(ctx, v) })
		} else {
			paths[i], err = ix.Approx(ctx, d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// EmbedReport says what an ingest did for the dense path.
type EmbedReport = enrich.EmbedReport
