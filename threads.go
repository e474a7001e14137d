package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/story"
)

// Threads lists the threads the notes left open, for the asker (see
// [story.OpenThreads]): unchecked tasks, quests without a resolution, and
// entities of several sessions absent from the last quiet ones (0: 5).
func (e *Engine) Threads(ctx context.Context, quiet int) (story.Threads, error) {
	a, err := e.audience(ctx)
	if err != nil {
		return story.Threads{}, err
	}
	return story.OpenThreads(ctx, e.idx, a, quiet)
}
