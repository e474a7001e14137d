package rerank

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/oraculo/oraculo/internal/openaicompat"
)

// Config chooses the reranker.
type Config struct {
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

// ConfigFromEnv reads $ORACULO_RERANK, $ORACULO_RERANK_URL,
// $ORACULO_RERANK_MODEL and $ORACULO_RERANK_SHAPE.
func ConfigFromEnv() Config {
	return Config{
		Kind:  strings.ToLower(os.Getenv("ORACULO_RERANK")),
		URL:   os.Getenv("ORACULO_RERANK_URL"),
		Model: os.Getenv("ORACULO_RERANK_MODEL"),
		Shape: strings.ToLower(os.Getenv("ORACULO_RERANK_SHAPE")),
	}
}

// New returns the reranker c names: nil for the default ("", "auto" and
// "llm": the chat model's when there is one), [None] for "none", a
// [CrossEncoder] for "cross". chat says whether there is a chat model,
// which "llm" needs. The error says what to fix in the config.
func New(c Config, chat bool) (Reranker, error) {
	switch c.Kind {
	case "", "auto", "llm":
		if c.Kind == "llm" && !chat {
			return nil, errors.New("--rerank llm needs a chat model (--chat)")
		}
		return nil, nil
	case "none":
		return None{}, nil
	case "cross":
		if c.URL == "" {
			return nil, errors.New("the cross-encoder reranker needs a server URL (--rerank-url or $ORACULO_RERANK_URL)")
		}
		if c.Shape != "" && c.Shape != ShapeJina && c.Shape != ShapeTEI {
			return nil, fmt.Errorf("unknown rerank shape %q (jina or tei)", c.Shape)
		}
		return &CrossEncoder{BaseURL: c.URL, Model: c.Model, Shape: c.Shape, Budget: c.Budget,
			APIKey: openaicompat.Key(c.APIKey, "ORACULO_RERANK_KEY", c.URL)}, nil
	}
	return nil, fmt.Errorf("unknown reranker %q (auto, llm, cross or none)", c.Kind)
}
