package oraculo

import (
	"context"
	"errors"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/memory"
	"github.com/oraculo/oraculo/snapshot"
	"github.com/oraculo/oraculo/store"
)

// Memory is an entry of long-term memory as a caller sees it: the stored
// entry and whether it is stale (see [memory.Entry]).
type Memory = memory.Entry

// MemoryInput is a new entry for [Engine.AddMemory] (see [memory.Input]).
type MemoryInput = memory.Input

// MemoryUse is an entry of long-term memory an answer was shown (see
// [answer.MemoryUse]).
type MemoryUse = answer.MemoryUse

// Uses of a memory entry in an answer.
const (
	MemoryEvidence    = answer.MemoryEvidence
	MemoryUnconfirmed = answer.MemoryUnconfirmed
)

// Memory intents a chat line may carry (see [MemoryIntent]).
const (
	IntentRemember = memory.IntentRemember
	IntentForget   = memory.IntentForget
)

// MaxForgetCandidates is how many entries [Engine.Forgettable] offers.
const MaxForgetCandidates = memory.MaxForgetCandidates

// Errors of the memory operations.
var (
	// ErrMemoryForbidden is returned when the asker may not make the
	// change: a player verifying, or writing outside their own scope.
	ErrMemoryForbidden = memory.ErrForbidden
	// ErrNoMemory is returned for an id the asker has no entry by (one
	// that does not exist, or that they may not see).
	ErrNoMemory = store.ErrNoMemory
	// ErrInvalidMemory and ErrMemoryConflict are [store.ErrInvalidMemory]
	// and [store.ErrMemoryConflict]: the caller's mistakes.
	ErrInvalidMemory  = store.ErrInvalidMemory
	ErrMemoryConflict = store.ErrMemoryConflict
)

// memoryBook is long-term memory as ctx's asker reads and changes it,
// with the sessions players may see in v (an answer's snapshot), or in
// the current snapshot when v is nil.
func (e *Engine) memoryBook(ctx context.Context, v *snapshot.Snapshot) *memory.Book {
	sessions := func(ctx context.Context) ([]int, error) { return e.playerSessions(ctx, v) }
	return &memory.Book{Index: e.idx, Asker: asker(ctx), Sessions: sessions, Chunk: e.chunkNote, ReadOnly: e.ReadOnly}
}

// playerSessions returns the sessions players may see in v, or in the
// current snapshot when v is nil; none when nothing is indexed.
func (e *Engine) playerSessions(ctx context.Context, v *snapshot.Snapshot) ([]int, error) {
	var err error
	if v == nil {
		v, err = e.indexed(ctx)
	}
	if v == nil {
		return nil, err
	}
	return v.Sessions(ctx, true)
}

// indexed returns the current snapshot, nil when nothing is indexed.
func (e *Engine) indexed(ctx context.Context) (*snapshot.Snapshot, error) {
	v, err := e.snapshot(ctx)
	if errors.Is(err, ErrNotIndexed) {
		return nil, nil
	}
	return v, err
}

// book is long-term memory as ctx's asker reads and changes it now.
func (e *Engine) book(ctx context.Context) *memory.Book { return e.memoryBook(ctx, nil) }

// chunkNote returns the note of the chunk id, and its id now, when the
// asker may see it (see [Engine.Chunk]).
func (e *Engine) chunkNote(ctx context.Context, id string) (note, uid string, err error) {
	c, err := e.Chunk(ctx, id)
	return c.File, c.ID, err
}

// Memories returns the entries of scope (every scope when empty) the asker
// may see, only the active ones unless all; never nil.
func (e *Engine) Memories(ctx context.Context, scope string, all bool) ([]Memory, error) {
	return e.book(ctx).List(ctx, scope, all)
}

// MemoryChain returns the entry id and those it replaced, newest first,
// leaving out those the asker may not see; an entry the asker may not see
// is ErrNoMemory, as a missing one is.
func (e *Engine) MemoryChain(ctx context.Context, id string) ([]Memory, error) {
	return e.book(ctx).Chain(ctx, id)
}

// AddMemory stores a new entry as the asker: the DM in any scope, verified
// or not; a player only hypotheses in their own player scope. A note the
// asker may not see is not a source they may name.
func (e *Engine) AddMemory(ctx context.Context, in MemoryInput) (Memory, error) {
	return e.book(ctx).Add(ctx, in)
}

// VerifyMemory marks the entry id verified (the DM only). An entry taken
// from a note is verified against the note as stored now: its source
// moves to that version, and it is no longer stale; a note that is gone
// is an error (supersede the entry, or forget it).
func (e *Engine) VerifyMemory(ctx context.Context, id string) (Memory, error) {
	return e.book(ctx).Verify(ctx, id)
}

// SupersedeMemory replaces the active entry id with in.Value, as the
// asker (a player only in their own scope, as a hypothesis); in.Note, when
// given, is the new value's source, else the asker states it today. The
// new entry is verified when in.Verified (the DM only). in.Scope and
// in.Key are id's and ignored.
func (e *Engine) SupersedeMemory(ctx context.Context, id string, in MemoryInput) (Memory, error) {
	return e.book(ctx).Supersede(ctx, id, in)
}

// ForgetMemory deletes the entry id for good (the DM any, a player their
// own).
func (e *Engine) ForgetMemory(ctx context.Context, id string) error {
	return e.book(ctx).Forget(ctx, id)
}

// FindMemories returns the active entries the asker may see that share a
// content word with text, best first (see [memory.Match]): the candidates
// when someone asks to forget something.
func (e *Engine) FindMemories(ctx context.Context, text string) ([]Memory, error) {
	terms, err := e.indexTerms(ctx)
	if err != nil {
		return nil, err
	}
	return e.book(ctx).Find(ctx, text, terms)
}

// Forgettable returns the active entries matching text (see
// [Engine.FindMemories]) that the asker may forget, best first, at most
// MaxForgetCandidates: what to offer someone who says "forget …".
func (e *Engine) Forgettable(ctx context.Context, text string) ([]Memory, error) {
	terms, err := e.indexTerms(ctx)
	if err != nil {
		return nil, err
	}
	return e.book(ctx).Forgettable(ctx, text, terms)
}

// indexTerms returns the terms of the index's analyser, nil when nothing
// is indexed.
func (e *Engine) indexTerms(ctx context.Context) (func(string) []string, error) {
	v, err := e.indexed(ctx)
	if v == nil {
		return nil, err
	}
	return v.Analyzer.Terms, nil
}

// MayChangeMemory reports whether the asker may change (supersede, forget)
// the entry m: the DM any, a player their own.
func MayChangeMemory(ctx context.Context, m Memory) bool {
	return asker(ctx).MayWrite(m.Scope, false) == nil
}

// RememberScope is the scope something the asker asks to remember goes
// to: the campaign for the DM, player:NAME for a player with a name;
// false for a player without one, who has no scope to write in.
func RememberScope(ctx context.Context) (string, bool) {
	return asker(ctx).RememberScope()
}

// MemoryIntent reads a chat line that asks to remember something
// ("recuerda que …", "remember that …": [IntentRemember]) or to forget it
// ("olvida …", "forget …": [IntentForget]): the intent and what follows;
// "" when the line is a question like any other (see [memory.Intent]).
func MemoryIntent(line string) (intent, rest string) { return memory.Intent(line) }

// MemoryKey proposes a key for a value to remember (see [memory.Key]).
func MemoryKey(text string) (key, value string) { return memory.Key(text) }

// answerMemory adds to ev the entries of long-term memory the asker may
// see that concern the query (see [memory.Book.ForAnswer]), as of v:
// verified ones as evidence, citable, the others (hypotheses, stale
// entries) as unconfirmed. An index without memory adds nothing.
func (e *Engine) answerMemory(ctx context.Context, v *snapshot.Snapshot, ev *answer.Delivery, query, lang string, terms func(string) []string) ([]MemoryUse, error) {
	shown, err := e.memoryBook(ctx, v).ForAnswer(ctx, query, lang, terms, &v.MemTerms)
	if err != nil || len(shown) == 0 {
		return []MemoryUse{}, err
	}
	var uses []MemoryUse
	ev.Context, uses = memory.Deliver(ev.Context, shown)
	for i, u := range uses {
		if u.Use == MemoryEvidence {
			ev.Refer(shown[i].Entry.ID, u.ID)
		}
	}
	return uses, nil
}
