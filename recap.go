package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/story"
)

// Recap is the recap of a session for the asker (see [story.Recap]): its
// events in order and what it left open; session 0 is the last session
// the asker may see. A session the asker may not see is [story.ErrNoSession].
func (e *Engine) Recap(ctx context.Context, session int) (story.Recap, error) {
	a, err := e.audience(ctx)
	if err != nil {
		return story.Recap{}, err
	}
	return story.RecapSession(ctx, e.idx, a, session)
}

// audience is who ctx's requests tell the story to.
func (e *Engine) audience(ctx context.Context) (story.Audience, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return story.Audience{}, err
	}
	names, err := v.Entities(ctx, isPlayer(ctx))
	if err != nil {
		return story.Audience{}, err
	}
	redact, err := e.redactor(ctx, v)
	return story.Audience{Public: isPlayer(ctx), Names: names, Entities: names.Entities, Redact: redact}, err
}
