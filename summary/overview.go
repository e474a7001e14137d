package summary

import (
	"context"
	"time"

	"github.com/oraculo/oraculo/store"
)

// Overview is what the caller's role may know of the index at a glance:
// what a chat page shows before the first question.
type Overview struct {
	// Notes and Sessions count the notes and sessions the role sees: a
	// player's leave DM-only notes out.
	Notes    int `json:"notes"`
	Sessions int `json:"sessions"`
	// Updated is when the index last changed (an ingest finished, or notes
	// were decided again); nil before the first ingest.
	Updated *time.Time `json:"updated"`
	// Model is the chat model that writes answers (its ID), "" when
	// answers are extractive.
	Model string `json:"model"`
}

// OverviewSource is what [OverviewOf] reads of the store.
type OverviewSource interface {
	Stats(ctx context.Context) (store.Stats, error)
	DMOnlyCounts(ctx context.Context) (map[string]int, error)
}

// Sessions gives the sessions an audience may see (a snapshot's).
type Sessions interface {
	Sessions(ctx context.Context, public bool) ([]int, error)
}

// OverviewOf counts the notes of src and the sessions of sessions the
// audience sees: a player's, without the DM-only notes. Updated and Model
// are left to the caller.
func OverviewOf(ctx context.Context, src OverviewSource, sessions Sessions, public bool) (Overview, error) {
	s, err := src.Stats(ctx)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Notes: s.Documents}
	if public {
		dm, err := src.DMOnlyCounts(ctx)
		if err != nil {
			return Overview{}, err
		}
		for _, n := range dm {
			o.Notes -= n
		}
	}
	seen, err := sessions.Sessions(ctx, public)
	if err != nil {
		return Overview{}, err
	}
	o.Sessions = len(seen)
	return o, nil
}
