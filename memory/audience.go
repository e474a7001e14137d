package memory

import (
	"context"

	"github.com/oraculo/oraculo/store"
)

// audience decides, once per call, what an asker may see of memory (see
// the package's guarantee).
type audience struct {
	b        *Book
	sessions map[int]bool    // the sessions players may see, read at the first entry of a session
	notes    map[string]bool // note path → players may see all of it
}

func (b *Book) audience(context.Context) (*audience, error) {
	return &audience{b: b, notes: map[string]bool{}}, nil
}

// playerSession reports whether players may see session n, reading the
// sessions they may see once, when first asked (most entries are not a
// session's, and every session is a long list).
func (a *audience) playerSession(ctx context.Context, n int) (bool, error) {
	if a.sessions == nil {
		ss, err := a.b.Sessions(ctx)
		if err != nil {
			return false, err
		}
		a.sessions = make(map[int]bool, len(ss))
		for _, s := range ss {
			a.sessions[s] = true
		}
	}
	return a.sessions[n], nil
}

// sees reports whether the asker may see m.
func (a *audience) sees(ctx context.Context, m store.Memory) (bool, error) {
	own := a.b.Asker.OwnScope()
	if !a.b.Asker.Player || (own != "" && m.Scope == own) {
		return true, nil
	}
	if m.Status != store.MemoryVerified {
		return false, nil
	}
	switch n, isSession := store.MemorySession(m.Scope); {
	case m.Scope == store.MemoryCampaign:
	case isSession:
		if ok, err := a.playerSession(ctx, n); err != nil || !ok {
			return false, err
		}
	default:
		return false, nil
	}
	src, err := store.ParseMemorySource(m.Source)
	if err != nil {
		return false, nil
	}
	if src.Note == "" {
		return true, nil
	}
	return a.noteVisible(ctx, src.Note)
}

// noteVisible reports whether players may see every chunk of the note at
// path: an entry taken from a note that is DM-only, even in part, may tell
// what that part says. A note with no chunk is not visible.
func (a *audience) noteVisible(ctx context.Context, path string) (bool, error) {
	if v, ok := a.notes[path]; ok {
		return v, nil
	}
	chunks, err := a.b.Index.ListChunks(ctx, []string{path})
	if err != nil {
		return false, err
	}
	v := false
	for _, c := range chunks {
		if c.Path != path {
			continue
		}
		if c.Restricted {
			v = false
			break
		}
		v = true
	}
	a.notes[path] = v
	return v, nil
}

// seen keeps the entries the asker may see.
func (b *Book) seen(ctx context.Context, entries []store.Memory) ([]store.Memory, error) {
	a, err := b.audience(ctx)
	if err != nil {
		return nil, err
	}
	var out []store.Memory
	for _, m := range entries {
		ok, err := a.sees(ctx, m)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// stale reports whether m's note source names a version that is no longer
// the stored one.
func (b *Book) stale(ctx context.Context, m store.Memory) (bool, error) {
	src, err := store.ParseMemorySource(m.Source)
	if err != nil || src.Note == "" {
		return false, nil
	}
	sum, found, err := b.Index.NoteVersion(ctx, src.Note)
	if err != nil {
		return false, err
	}
	return !found || sum != src.SHA256, nil
}

// marked returns the entries marked stale or not (a read per entry taken
// from a note); never nil.
func (b *Book) marked(ctx context.Context, entries []store.Memory) ([]Entry, error) {
	out := make([]Entry, 0, len(entries))
	for _, m := range entries {
		st, err := b.stale(ctx, m)
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Memory: m, Stale: st})
	}
	return out, nil
}

// visible keeps the entries the asker may see, marked stale or not.
func (b *Book) visible(ctx context.Context, entries []store.Memory) ([]Entry, error) {
	vis, err := b.seen(ctx, entries)
	if err != nil {
		return nil, err
	}
	return b.marked(ctx, vis)
}
