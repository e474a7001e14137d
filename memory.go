package oraculo

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

// Memory is an entry of long-term memory as a caller sees it: the stored
// entry and whether it is stale. Its JSON shape is public (`memory list
// --json`, /api/memory): the fields of [store.Memory] and "stale".
type Memory struct {
	store.Memory
	// Stale is true when the entry's source is a note whose stored version
	// is no longer the one the entry names (or that is gone): the entry is
	// not used as evidence until it is verified again.
	Stale bool `json:"stale"`
}

// MemoryInput is a new entry for [Engine.AddMemory].
type MemoryInput struct {
	Scope string `json:"scope"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// Note is the path of the note it comes from (as in a hit's "file"):
	// its source is the version stored now. Empty: stated by the asker
	// today.
	Note string `json:"note,omitempty"`
	// Chunk is the id of the chunk it comes from (a hit's or a citation's
	// "id"): its note is the source, and the chunk is named in it.
	Chunk    string `json:"chunk,omitempty"`
	Verified bool   `json:"verified,omitempty"`
	// Author names who made it (default: the asker's name, else the role).
	Author string `json:"author,omitempty"`
}

// Errors of the memory operations.
var (
	// ErrMemoryForbidden is returned when the asker may not make the
	// change: a player verifying, or writing outside their own scope.
	ErrMemoryForbidden = errors.New("not allowed for this role")
	// ErrNoMemory is returned for an id the asker has no entry by (one
	// that does not exist, or that they may not see).
	ErrNoMemory = store.ErrNoMemory
	// ErrInvalidMemory and ErrMemoryConflict are [store.ErrInvalidMemory]
	// and [store.ErrMemoryConflict]: the caller's mistakes.
	ErrInvalidMemory  = store.ErrInvalidMemory
	ErrMemoryConflict = store.ErrMemoryConflict
)

type playerKey struct{}

// WithPlayer returns a context whose requests act as the player name:
// the role of [RolePlayer], and the owner of the memory scope
// player:NAME. An empty name is a player with no scope of their own.
func WithPlayer(ctx context.Context, name string) context.Context {
	return context.WithValue(WithRole(ctx, RolePlayer), playerKey{}, strings.TrimSpace(name))
}

// PlayerFrom returns the name a context's player acts as, "" for the DM
// or a player without a name.
func PlayerFrom(ctx context.Context) string {
	if !isPlayer(ctx) {
		return ""
	}
	name, _ := ctx.Value(playerKey{}).(string)
	return name
}

// ownScope is the asker's own player scope, "" when they have none.
func ownScope(ctx context.Context) string {
	if name := PlayerFrom(ctx); name != "" {
		return "player:" + name
	}
	return ""
}

// memoryAudience decides, once per call, what an asker may see of memory:
// the DM everything; a player their own scope, and otherwise only
// verified entries of the campaign and of sessions players may see whose
// source, when a note, players may see whole now. Anything not known to be
// visible is hidden (fail closed).
type memoryAudience struct {
	e        *Engine
	dm       bool
	own      string
	sessions map[int]bool
	notes    map[string]bool // note path → players may see all of it
}

func (e *Engine) audience(ctx context.Context) (*memoryAudience, error) {
	a := &memoryAudience{e: e, dm: !isPlayer(ctx), own: ownScope(ctx), notes: map[string]bool{}}
	if a.dm {
		return a, nil
	}
	vw, err := e.snapshot(ctx)
	if err != nil && !errors.Is(err, ErrNotIndexed) {
		return nil, err
	}
	a.sessions = map[int]bool{}
	if vw != nil {
		ss, err := e.sessionsOf(ctx, vw)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			a.sessions[s] = true
		}
	}
	return a, nil
}

// sees reports whether the asker may see m.
func (a *memoryAudience) sees(ctx context.Context, m store.Memory) (bool, error) {
	if a.dm || (a.own != "" && m.Scope == a.own) {
		return true, nil
	}
	if m.Status != store.MemoryVerified {
		return false, nil
	}
	switch n, isSession := store.MemorySession(m.Scope); {
	case m.Scope == store.MemoryCampaign:
	case isSession && a.sessions[n]:
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
// what that part says.
func (a *memoryAudience) noteVisible(ctx context.Context, path string) (bool, error) {
	if v, ok := a.notes[path]; ok {
		return v, nil
	}
	chunks, err := a.e.idx.ListChunks(ctx, []string{path})
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

// stale reports whether m's note source names a version that is no
// longer the stored one.
func (e *Engine) stale(ctx context.Context, m store.Memory) (bool, error) {
	src, err := store.ParseMemorySource(m.Source)
	if err != nil || src.Note == "" {
		return false, nil
	}
	sum, found, err := e.idx.NoteVersion(ctx, src.Note)
	if err != nil {
		return false, err
	}
	return !found || sum != src.SHA256, nil
}

// seen keeps the entries the asker may see.
func (e *Engine) seen(ctx context.Context, entries []store.Memory) ([]store.Memory, error) {
	a, err := e.audience(ctx)
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

// marked returns the entries marked stale or not (a read per entry taken
// from a note); never nil.
func (e *Engine) marked(ctx context.Context, entries []store.Memory) ([]Memory, error) {
	out := make([]Memory, 0, len(entries))
	for _, m := range entries {
		st, err := e.stale(ctx, m)
		if err != nil {
			return nil, err
		}
		out = append(out, Memory{Memory: m, Stale: st})
	}
	return out, nil
}

// visibleMemories keeps the entries the asker may see, marked stale or not.
func (e *Engine) visibleMemories(ctx context.Context, entries []store.Memory) ([]Memory, error) {
	vis, err := e.seen(ctx, entries)
	if err != nil {
		return nil, err
	}
	return e.marked(ctx, vis)
}

// Memories returns the entries of scope (every scope when empty) the asker
// may see, only the active ones unless all; never nil.
func (e *Engine) Memories(ctx context.Context, scope string, all bool) ([]Memory, error) {
	if scope != "" {
		if err := store.ValidMemoryScope(scope); err != nil {
			return nil, err
		}
	}
	entries, err := e.idx.Memories(ctx, scope, all)
	if err != nil {
		return nil, err
	}
	return e.visibleMemories(ctx, entries)
}

// MemoryChain returns the entry id and those it replaced, newest first,
// leaving out those the asker may not see; an entry the asker may not see
// is ErrNoMemory, as a missing one is.
func (e *Engine) MemoryChain(ctx context.Context, id string) ([]Memory, error) {
	chain, err := e.idx.MemoryChain(ctx, id)
	if err != nil {
		return nil, err
	}
	out, err := e.visibleMemories(ctx, chain)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 || out[0].ID != id {
		return nil, fmt.Errorf("memory %q: %w", id, ErrNoMemory)
	}
	return out, nil
}

// memorySource is the source of a new entry: the stored version of the
// note at path, or a statement by the asker today. A note the asker may
// not see whole is, to a player, a note that is not in the index.
func (e *Engine) memorySource(ctx context.Context, note, chunk, author string) (string, error) {
	if chunk != "" {
		c, err := e.Chunk(ctx, chunk)
		switch {
		case errors.Is(err, store.ErrNoChunk):
			return "", store.InvalidMemory(fmt.Errorf("memory source: chunk %q is not in the index", chunk))
		case err != nil:
			return "", err
		case note != "" && note != c.File:
			return "", store.InvalidMemory(fmt.Errorf("memory source: chunk %q is not of note %q", chunk, note))
		}
		note, chunk = c.File, c.ID // an id of before the migration named as now
	}
	if note == "" {
		return store.MemorySource{Role: RoleFrom(ctx), Name: author, Date: time.Now().UTC().Format(time.DateOnly)}.String(), nil
	}
	if isPlayer(ctx) {
		a, err := e.audience(ctx)
		if err != nil {
			return "", err
		}
		switch ok, err := a.noteVisible(ctx, note); {
		case err != nil:
			return "", err
		case !ok:
			return "", store.InvalidMemory(fmt.Errorf("memory source: note %q is not in the index", note))
		}
	}
	sum, found, err := e.idx.NoteVersion(ctx, note)
	if err != nil {
		return "", err
	}
	if !found {
		return "", store.InvalidMemory(fmt.Errorf("memory source: note %q is not in the index", note))
	}
	return store.MemorySource{Note: note, SHA256: sum, Chunk: chunk}.String(), nil
}

// author is who makes a change: the input's, else the player's name, else
// the role.
func author(ctx context.Context, given string) string {
	if isPlayer(ctx) {
		// A player is always themselves: the name is not theirs to choose.
		if name := PlayerFrom(ctx); name != "" {
			return name
		}
		return RolePlayer
	}
	if given = strings.TrimSpace(given); given != "" {
		return given
	}
	return RoleDM
}

// mayWrite checks that the asker may change an entry of scope: the DM
// any, a player only their own, and only as a hypothesis.
func mayWrite(ctx context.Context, scope string, verified bool) error {
	if !isPlayer(ctx) {
		return nil
	}
	own := ownScope(ctx)
	if own == "" || scope != own {
		return fmt.Errorf("memory scope %q: a player may write only in their own scope (%s): %w", scope, orNone(own), ErrMemoryForbidden)
	}
	if verified {
		return fmt.Errorf("memory: only the DM verifies entries: %w", ErrMemoryForbidden)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// AddMemory stores a new entry as the asker: the DM in any scope, verified
// or not; a player only hypotheses in their own player scope. A note the
// asker may not see is not a source they may name.
func (e *Engine) AddMemory(ctx context.Context, in MemoryInput) (Memory, error) {
	if err := e.ReadOnly(); err != nil {
		return Memory{}, fmt.Errorf("adding to memory: %w", err)
	}
	if err := store.ValidMemoryScope(in.Scope); err != nil {
		return Memory{}, err
	}
	if err := mayWrite(ctx, in.Scope, in.Verified); err != nil {
		return Memory{}, err
	}
	who := author(ctx, in.Author)
	src, err := e.memorySource(ctx, in.Note, in.Chunk, who)
	if err != nil {
		return Memory{}, err
	}
	m, err := e.idx.AddMemory(ctx, store.Memory{Scope: in.Scope, Key: strings.TrimSpace(in.Key), Value: strings.TrimSpace(in.Value), Source: src, Author: who}, in.Verified)
	if err != nil {
		return Memory{}, err
	}
	return Memory{Memory: m}, nil
}

// writable returns the entry id when the asker may see it and change it.
func (e *Engine) writable(ctx context.Context, id string, verified bool) (store.Memory, error) {
	if err := e.ReadOnly(); err != nil {
		return store.Memory{}, fmt.Errorf("changing memory %q: %w", id, err)
	}
	m, err := e.idx.Memory(ctx, id)
	if err != nil {
		return store.Memory{}, err
	}
	vis, err := e.seen(ctx, []store.Memory{m})
	if err != nil {
		return store.Memory{}, err
	}
	if len(vis) == 0 {
		return store.Memory{}, fmt.Errorf("memory %q: %w", id, ErrNoMemory)
	}
	if err := mayWrite(ctx, m.Scope, verified); err != nil {
		return store.Memory{}, err
	}
	return m, nil
}

// VerifyMemory marks the entry id verified (the DM only). An entry taken
// from a note is verified against the note as stored now: its source
// moves to that version, and it is no longer stale; a note that is gone
// is an error (supersede the entry, or forget it).
func (e *Engine) VerifyMemory(ctx context.Context, id string) (Memory, error) {
	m, err := e.writable(ctx, id, true)
	if err != nil {
		return Memory{}, err
	}
	source := ""
	if src, err := store.ParseMemorySource(m.Source); err == nil && src.Note != "" {
		sum, found, err := e.idx.NoteVersion(ctx, src.Note)
		if err != nil {
			return Memory{}, err
		}
		if !found {
			return Memory{}, store.MemoryConflict(fmt.Errorf("verifying memory %q: its note %q is no longer in the index: supersede the entry with a new value, or forget it", id, src.Note))
		}
		// The chunk stays named if the note still has it; an entry
		// verified again against a note whose chunk is gone names the
		// note only.
		if src.Chunk != "" {
			if c, err := e.Chunk(ctx, src.Chunk); err != nil || c.File != src.Note {
				src.Chunk = ""
			} else {
				src.Chunk = c.ID
			}
		}
		src.SHA256 = sum
		source = src.String()
	}
	if err := e.idx.VerifyMemory(ctx, id, source); err != nil {
		return Memory{}, err
	}
	m, err = e.idx.Memory(ctx, id)
	if err != nil {
		return Memory{}, err
	}
	return Memory{Memory: m}, nil
}

// SupersedeMemory replaces the active entry id with in.Value, as the
// asker (a player only in their own scope, as a hypothesis); in.Note, when
// given, is the new value's source, else the asker states it today. The
// new entry is verified when in.Verified (the DM only). in.Scope and
// in.Key are id's and ignored.
func (e *Engine) SupersedeMemory(ctx context.Context, id string, in MemoryInput) (Memory, error) {
	if _, err := e.writable(ctx, id, in.Verified); err != nil {
		return Memory{}, err
	}
	who := author(ctx, in.Author)
	src, err := e.memorySource(ctx, in.Note, in.Chunk, who)
	if err != nil {
		return Memory{}, err
	}
	m, err := e.idx.SupersedeMemory(ctx, id, strings.TrimSpace(in.Value), store.Memory{Source: src, Author: who}, in.Verified)
	if err != nil {
		return Memory{}, err
	}
	return Memory{Memory: m}, nil
}

// ForgetMemory deletes the entry id for good (the DM any, a player their
// own).
func (e *Engine) ForgetMemory(ctx context.Context, id string) error {
	if _, err := e.writable(ctx, id, false); err != nil {
		return err
	}
	return e.idx.ForgetMemory(ctx, id)
}

// MemoryUse is an entry of long-term memory an answer was shown. Its JSON
// shape is public (`ask --json`, "memory").
type MemoryUse struct {
	ID     string `json:"id"`
	Scope  string `json:"scope"`
	Key    string `json:"key"`
	Value  string `json:"value"`
	Status string `json:"status"`
	Stale  bool   `json:"stale"`
	// Use is "evidence" (delivered under Label, citable) or "unconfirmed"
	// (shown as not settled: a hypothesis, or stale; never citable).
	Use   string `json:"use"`
	Label string `json:"label,omitempty"`
}

// Uses of a memory entry in an answer.
const (
	MemoryEvidence    = "evidence"
	MemoryUnconfirmed = "unconfirmed"
)

// memoryID is the evidence id of the entry "mN": -N, never a chunk's.
func memoryID(id string) (int64, bool) {
	n, ok := store.MemorySeq(id)
	return -n, ok
}

// answerMemory adds to ev the entries of long-term memory the asker may
// see that concern the query (see answer.RelevantMemory): verified ones
// as evidence, the others (hypotheses, stale entries) as unconfirmed. An
// index without memory adds nothing.
func (e *Engine) answerMemory(ctx context.Context, ev *assembled, query, lang string, terms func(string) []string) ([]MemoryUse, error) {
	uses := []MemoryUse{}
	stored, err := e.idx.Memories(ctx, "", false)
	if err != nil || len(stored) == 0 {
		return uses, err
	}
	vis, err := e.seen(ctx, stored)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]store.Memory, len(vis))
	var entries []answer.MemoryEntry
	for _, m := range vis {
		id, ok := memoryID(m.ID)
		if !ok {
			continue
		}
		byID[id] = m
		src, _ := store.ParseMemorySource(m.Source)
		entries = append(entries, answer.MemoryEntry{ID: id, Key: m.Key, Value: m.Value, Scope: m.Scope, Verified: m.Status == store.MemoryVerified, File: src.Note})
	}
	memoryTerms(ctx, entries, terms)
	// Staleness costs a read per entry: it is looked up for the relevant
	// ones only, and the choice made again with it.
	var chosen []answer.MemoryEntry
	for _, i := range answer.RelevantMemory(query, entries, terms, lang) {
		st, err := e.stale(ctx, byID[entries[i].ID])
		if err != nil {
			return nil, err
		}
		entries[i].Stale = st
		chosen = append(chosen, entries[i])
	}
	var final []answer.MemoryEntry
	for _, i := range answer.RelevantMemory(query, chosen, terms, lang) {
		final = append(final, chosen[i])
	}
	if len(final) == 0 {
		return uses, nil
	}
	ev.evidence = answer.WithMemory(ev.evidence, final)
	labels := map[int64]string{}
	for _, it := range ev.evidence.Memory {
		labels[it.ID] = it.Label
	}
	for _, f := range final {
		m := byID[f.ID]
		u := MemoryUse{ID: m.ID, Scope: m.Scope, Key: m.Key, Value: m.Value, Status: m.Status, Stale: f.Stale, Use: MemoryUnconfirmed}
		if l, ok := labels[f.ID]; ok {
			u.Use, u.Label = MemoryEvidence, l
			ev.byChunk[f.ID] = Hit{ID: m.ID, Label: l, File: f.File}
		}
		uses = append(uses, u)
	}
	return uses, nil
}

// FindMemories returns the active entries the asker may see that share a
// content word with text, best first (see answer.MatchMemory): the
// candidates when someone asks to forget something.
func (e *Engine) FindMemories(ctx context.Context, text string) ([]Memory, error) {
	stored, err := e.idx.Memories(ctx, "", false)
	if err != nil {
		return nil, err
	}
	vis, err := e.seen(ctx, stored)
	if err != nil {
		return nil, err
	}
	vw, err := e.snapshot(ctx)
	var terms func(string) []string
	switch {
	case err == nil:
		terms = vw.analyzer.Terms
	case !errors.Is(err, ErrNotIndexed):
		return nil, err
	}
	entries := make([]answer.MemoryEntry, len(vis))
	for i, m := range vis {
		entries[i] = answer.MemoryEntry{Key: m.Key, Value: m.Value, Scope: m.Scope}
	}
	var found []store.Memory
	for _, i := range answer.MatchMemory(text, entries, terms, analysis.QuestionLang(text)) {
		found = append(found, vis[i])
	}
	return e.marked(ctx, found)
}

// MayChangeMemory reports whether the asker may change (supersede, forget)
// the entry m: the DM any, a player their own.
func MayChangeMemory(ctx context.Context, m Memory) bool {
	return mayWrite(ctx, m.Scope, false) == nil
}

// MaxForgetCandidates is how many entries [Engine.Forgettable] offers.
const MaxForgetCandidates = 9

// RememberScope is the scope something the asker asks to remember goes
// to: the campaign for the DM, player:NAME for a player with a name;
// false for a player without one, who has no scope to write in.
func RememberScope(ctx context.Context) (string, bool) {
	if !isPlayer(ctx) {
		return store.MemoryCampaign, true
	}
	own := ownScope(ctx)
	return own, own != ""
}

// Forgettable returns the active entries matching text (see
// [Engine.FindMemories]) that the asker may forget, best first, at most
// MaxForgetCandidates: what to offer someone who says "forget …".
func (e *Engine) Forgettable(ctx context.Context, text string) ([]Memory, error) {
	found, err := e.FindMemories(ctx, text)
	if err != nil {
		return nil, err
	}
	out := []Memory{}
	for _, m := range found {
		if MayChangeMemory(ctx, m) && len(out) < MaxForgetCandidates {
			out = append(out, m)
		}
	}
	return out, nil
}

// memoryTerms fills in the entries' terms, from the view's cache when an
// entry's text is unchanged, and leaves in the cache only these entries.
// Without a view (a context that carries none) nothing is cached.
func memoryTerms(ctx context.Context, entries []answer.MemoryEntry, terms func(string) []string) {
	vw, ok := ctx.Value(viewKey{}).(*view)
	if !ok || terms == nil {
		return
	}
	vw.memMu.Lock()
	defer vw.memMu.Unlock()
	next := make(map[int64]cachedTerms, len(entries))
	for i := range entries {
		m := &entries[i]
		text := m.Key + "\x00" + m.Value + "\x00" + m.Scope
		c, ok := vw.memTerms[m.ID]
		if !ok || c.text != text {
			c = cachedTerms{text: text, terms: answer.MemoryEntryTerms(*m, terms)}
		}
		next[m.ID] = c
		m.Terms = c.terms
	}
	vw.memTerms = next
}
