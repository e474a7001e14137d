package oraculo

import (
	"context"

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

// setEmbedder makes the dense path use cfg, or the embedder the index
// keeps when cfg names none (see [WithEmbedder]); the hashing embedder
// reads the notes through their analyzer.
func (e *Engine) setEmbedder(ctx context.Context, cfg EmbedderConfig) (err error) {
	if cfg, err = cfg.Resolve(ctx, e.idx); err == nil {
		e.embedCfg = cfg
		e.embedder, err = embed.NewAnalysed(cfg, e.analyzer.Version(), e.analyzer.Terms)
	}
	e.invalidate()
	return err
}

// saveEmbedderConfig keeps the embedder's config in the index.
func (e *Engine) saveEmbedderConfig(ctx context.Context, c EmbedderConfig) error {
	return embed.SaveConfig(ctx, e.idx, c)
}

// EmbedReport says what an ingest did for the dense path.
type EmbedReport = enrich.EmbedReport
