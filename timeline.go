package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/story"
)

// Timeline is an entity's story in the notes (see [story.Timeline]).
type Timeline = story.Timeline

// Timeline is the timeline of the entity whose name or an alias is name,
// for the asker: a player's from the notes players may see only. The
// error wraps [story.ErrUnknownEntity] when no entity has that name.
func (e *Engine) Timeline(ctx context.Context, name string) (Timeline, error) {
	redact, err := e.askerRedactor(ctx)
	if err != nil {
		return Timeline{}, err
	}
	return story.BuildTimeline(ctx, e.idx, name, isPlayer(ctx), redact)
}
