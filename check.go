package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/story"
)

// Continuity is the continuity check's result (see [story.Continuity]).
type Continuity = story.Continuity

// Check finds the notes' contradictions across sessions (an entity said
// to die and later acting, two values of one front-matter field), each
// pair cited and judged by the chat model when there is one; a player's
// check reads only what players may see.
func (e *Engine) Check(ctx context.Context) (Continuity, error) {
	return story.Check(ctx, e.idx, e.chat, isPlayer(ctx))
}
