package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/store"
)

// MaxForgetCandidates is how many entries [Book.Forgettable] offers.
const MaxForgetCandidates = 9

// List returns the entries of scope (every scope when empty) the asker may
// see, only the active ones unless all; never nil.
func (b *Book) List(ctx context.Context, scope string, all bool) ([]Entry, error) {
	if scope != "" {
		if err := store.ValidMemoryScope(scope); err != nil {
			return nil, err
		}
	}
	entries, err := b.Index.Memories(ctx, scope, all)
	if err != nil {
		return nil, err
	}
	return b.visible(ctx, entries)
}

// Chain returns the entry id and those it replaced, newest first, leaving
// out those the asker may not see; an entry the asker may not see is
// [store.ErrNoMemory], as a missing one is.
func (b *Book) Chain(ctx context.Context, id string) ([]Entry, error) {
	chain, err := b.Index.MemoryChain(ctx, id)
	if err != nil {
		return nil, err
	}
	out, err := b.visible(ctx, chain)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 || out[0].ID != id {
		return nil, fmt.Errorf("memory %q: %w", id, store.ErrNoMemory)
	}
	return out, nil
}

// Add stores a new entry as the asker: the DM in any scope, verified or
// not; a player only hypotheses in their own player scope. A note the
// asker may not see is not a source they may name.
func (b *Book) Add(ctx context.Context, in Input) (Entry, error) {
	if err := b.ReadOnly(); err != nil {
		return Entry{}, fmt.Errorf("adding to memory: %w", err)
	}
	if err := store.ValidMemoryScope(in.Scope); err != nil {
		return Entry{}, err
	}
	if err := b.Asker.MayWrite(in.Scope, in.Verified); err != nil {
		return Entry{}, err
	}
	who := b.Asker.Author(in.Author)
	src, err := b.source(ctx, in.Note, in.Chunk, who)
	if err != nil {
		return Entry{}, err
	}
	m, err := b.Index.AddMemory(ctx, store.Memory{Scope: in.Scope, Key: strings.TrimSpace(in.Key), Value: strings.TrimSpace(in.Value), Source: src, Author: who}, in.Verified)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Memory: m}, nil
}

// source is the source of a new entry: the stored version of the note, or
// of the chunk's note, or a statement by author today. A note the asker
// may not see whole is, to a player, a note that is not in the index.
func (b *Book) source(ctx context.Context, note, chunk, author string) (string, error) {
	if chunk != "" {
		file, uid, err := b.Chunk(ctx, chunk)
		switch {
		case errors.Is(err, store.ErrNoChunk):
			return "", store.InvalidMemory(fmt.Errorf("memory source: chunk %q is not in the index", chunk))
		case err != nil:
			return "", err
		case note != "" && note != file:
			return "", store.InvalidMemory(fmt.Errorf("memory source: chunk %q is not of note %q", chunk, note))
		}
		note, chunk = file, uid // an id of before the migration named as now
	}
	if note == "" {
		return store.MemorySource{Role: b.Asker.Role, Name: author, Date: time.Now().UTC().Format(time.DateOnly)}.String(), nil
	}
	if err := b.mayName(ctx, note); err != nil {
		return "", err
	}
	sum, found, err := b.Index.NoteVersion(ctx, note)
	if err != nil {
		return "", err
	}
	if !found {
		return "", store.InvalidMemory(fmt.Errorf("memory source: note %q is not in the index", note))
	}
	return store.MemorySource{Note: note, SHA256: sum, Chunk: chunk}.String(), nil
}

// mayName checks that the asker may name the note as a source: a player
// only a note players may see whole; any other is not in the index.
func (b *Book) mayName(ctx context.Context, note string) error {
	if !b.Asker.Player {
		return nil
	}
	a, err := b.audience(ctx)
	if err != nil {
		return err
	}
	switch ok, err := a.noteVisible(ctx, note); {
	case err != nil:
		return err
	case !ok:
		return store.InvalidMemory(fmt.Errorf("memory source: note %q is not in the index", note))
	}
	return nil
}

// writable returns the entry id when the asker may see it and change it.
func (b *Book) writable(ctx context.Context, id string, verified bool) (store.Memory, error) {
	if err := b.ReadOnly(); err != nil {
		return store.Memory{}, fmt.Errorf("changing memory %q: %w", id, err)
	}
	m, err := b.Index.Memory(ctx, id)
	if err != nil {
		return store.Memory{}, err
	}
	vis, err := b.seen(ctx, []store.Memory{m})
	if err != nil {
		return store.Memory{}, err
	}
	if len(vis) == 0 {
		return store.Memory{}, fmt.Errorf("memory %q: %w", id, store.ErrNoMemory)
	}
	if err := b.Asker.MayWrite(m.Scope, verified); err != nil {
		return store.Memory{}, err
	}
	return m, nil
}

// Verify marks the entry id verified (the DM only). An entry taken from a
// note is verified against the note as stored now: its source moves to
// that version, and it is no longer stale; a note that is gone is an error
// (supersede the entry, or forget it).
func (b *Book) Verify(ctx context.Context, id string) (Entry, error) {
	m, err := b.writable(ctx, id, true)
	if err != nil {
		return Entry{}, err
	}
	source := ""
	if src, err := store.ParseMemorySource(m.Source); err == nil && src.Note != "" {
		if source, err = b.reverified(ctx, id, src); err != nil {
			return Entry{}, err
		}
	}
	if err := b.Index.VerifyMemory(ctx, id, source); err != nil {
		return Entry{}, err
	}
	m, err = b.Index.Memory(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Memory: m}, nil
}

// reverified is the note source src of the entry id moved to the note's
// stored version. The chunk stays named if the note still has it; an
// entry verified again against a note whose chunk is gone names the note
// only.
func (b *Book) reverified(ctx context.Context, id string, src store.MemorySource) (string, error) {
	sum, found, err := b.Index.NoteVersion(ctx, src.Note)
	if err != nil {
		return "", err
	}
	if !found {
		return "", store.MemoryConflict(fmt.Errorf("verifying memory %q: its note %q is no longer in the index: supersede the entry with a new value, or forget it", id, src.Note))
	}
	if src.Chunk != "" {
		if file, uid, err := b.Chunk(ctx, src.Chunk); err != nil || file != src.Note {
			src.Chunk = ""
		} else {
			src.Chunk = uid
		}
	}
	src.SHA256 = sum
	return src.String(), nil
}

// Supersede replaces the active entry id with in.Value, as the asker (a
// player only in their own scope, as a hypothesis); in.Note or in.Chunk,
// when given, is the new value's source, else the asker states it today.
// The new entry is verified when in.Verified (the DM only). in.Scope and
// in.Key are id's and ignored.
func (b *Book) Supersede(ctx context.Context, id string, in Input) (Entry, error) {
	if _, err := b.writable(ctx, id, in.Verified); err != nil {
		return Entry{}, err
	}
	who := b.Asker.Author(in.Author)
	src, err := b.source(ctx, in.Note, in.Chunk, who)
	if err != nil {
		return Entry{}, err
	}
	m, err := b.Index.SupersedeMemory(ctx, id, strings.TrimSpace(in.Value), store.Memory{Source: src, Author: who}, in.Verified)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Memory: m}, nil
}

// Forget deletes the entry id for good (the DM any, a player their own).
func (b *Book) Forget(ctx context.Context, id string) error {
	if _, err := b.writable(ctx, id, false); err != nil {
		return err
	}
	return b.Index.ForgetMemory(ctx, id)
}

// Find returns the active entries the asker may see that share a content
// word with text, best first (see [Match]; terms nil means the analyser's
// for the text's language): the candidates when someone asks to forget
// something.
func (b *Book) Find(ctx context.Context, text string, terms func(string) []string) ([]Entry, error) {
	stored, err := b.Index.Memories(ctx, "", false)
	if err != nil {
		return nil, err
	}
	vis, err := b.seen(ctx, stored)
	if err != nil {
		return nil, err
	}
	entries := make([]Scored, len(vis))
	for i, m := range vis {
		entries[i] = Scored{MemoryEntry: answer.MemoryEntry{Key: m.Key, Value: m.Value, Scope: m.Scope}}
	}
	var found []store.Memory
	for _, i := range Match(text, entries, terms, analysis.QuestionLang(text)) {
		found = append(found, vis[i])
	}
	return b.marked(ctx, found)
}

// Forgettable returns the entries [Book.Find] finds that the asker may
// forget, best first, at most MaxForgetCandidates: what to offer someone
// who says "forget …"; never nil.
func (b *Book) Forgettable(ctx context.Context, text string, terms func(string) []string) ([]Entry, error) {
	found, err := b.Find(ctx, text, terms)
	if err != nil {
		return nil, err
	}
	out := []Entry{}
	for _, m := range found {
		if b.Asker.MayWrite(m.Scope, false) == nil && len(out) < MaxForgetCandidates {
			out = append(out, m)
		}
	}
	return out, nil
}
