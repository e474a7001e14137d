package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/chat"
)

// Temporary: the setters stay until every caller passes Open options.

func (e *Engine) SetChatModel(m chat.Model) { e.setChatModel(m) }

func (e *Engine) SetChat(ctx context.Context, cfg ChatConfig) error { return e.setChat(ctx, cfg) }

func (e *Engine) SetEmbedder(ctx context.Context, cfg EmbedderConfig) error {
	return e.setEmbedder(ctx, cfg)
}

func (e *Engine) ConfigureReranker(c RerankConfig) error { return e.configureReranker(c) }

func (e *Engine) SetWarn(f func(string)) { e.warnTo = f }

func (e *Engine) SetANNThreshold(n int) { e.annMin = n }
