package oraculo

import (
	"context"
	"strconv"

	"github.com/oraculo/oraculo/dense"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/enrich"
)

// Model providers: of embedders (all four) and chat models (none,
// ollama, openai).
const (
	ProviderNone    = embed.ProviderNone
	ProviderOllama  = embed.ProviderOllama
	ProviderOpenAI  = embed.ProviderOpenAI
	ProviderHashing = embed.ProviderHashing
)

// EmbedderConfig chooses the embedding model of the dense path (see
// [embed.Config]).
type EmbedderConfig = embed.Config

// EmbedderConfigFromEnv reads the embedder's config from the environment
// (see [embed.ConfigFromEnv]).
func EmbedderConfigFromEnv() EmbedderConfig { return embed.ConfigFromEnv() }

// NewEmbedder builds the embedder a config names; nil for "none".
func NewEmbedder(c EmbedderConfig) (embed.Embedder, error) { return embed.New(c) }

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

// EmbedReport says what an ingest did for the dense path.
type EmbedReport = enrich.EmbedReport
