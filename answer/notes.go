package answer

import (
	"context"
	"fmt"
)

// Notes is what writing an answer asks of the index about the notes an
// asker may see (a player, when public: never a DM-only note).
type Notes interface {
	// TermUsed reports whether an analysed term occurs in a note.
	TermUsed(ctx context.Context, term string, public bool) (bool, error)
	// Units counts the notes.
	Units(ctx context.Context, public bool) (int, error)
}

// termPrefixUser is a [Notes] that can also tell whether a term starting
// with a prefix occurs in a note (the SQLite index can).
type termPrefixUser interface {
	TermPrefixUsed(ctx context.Context, prefix string, public bool) (bool, error)
}

// termOrKinUsed reports whether an analysed term, or one that shares the
// start of its stem (all but its last two letters, at least four: its
// inflections), occurs in a note the asker may see. A player's lookup
// never counts a DM-only note: such a word reads as absent either way.
func termOrKinUsed(ctx context.Context, notes Notes, public bool, term string) (bool, error) {
	used, err := notes.TermUsed(ctx, term, public)
	if err != nil || used {
		return used, err
	}
	p, ok := notes.(termPrefixUser)
	if !ok {
		return false, nil
	}
	r := []rune(term)
	if len(r) < 4 {
		return false, nil
	}
	return p.TermPrefixUsed(ctx, string(r[:max(4, len(r)-2)]), public)
}

// noNotes reports whether the index holds no note the asker may see.
func noNotes(ctx context.Context, notes Notes, public bool) (bool, error) {
	n, err := notes.Units(ctx, public)
	if err != nil {
		return false, fmt.Errorf("counting the notes: %w", err)
	}
	return n == 0, nil
}
