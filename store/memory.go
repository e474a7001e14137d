package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Memory statuses: what the table has settled is verified; anything else,
// including every entry not asked verified, is a hypothesis.
const (
	MemoryHypothesis = "hypothesis"
	MemoryVerified   = "verified"
)

// Memory scopes other than player:NAME and session:N.
const (
	// MemoryCampaign is the whole index: what every asker may be told
	// once it is verified.
	MemoryCampaign = "campaign"
	// MemoryDM is the DM's own memory: never shown to a player, verified
	// or not.
	MemoryDM = "dm"
)

// ErrNoMemory is returned for a memory id that is not in the store.
var ErrNoMemory = errors.New("no such memory entry")

// ErrInvalidMemory is what a bad entry's error wraps (a bad scope, an
// empty key or value, a bad or unresolvable source), and ErrMemoryConflict
// a change the entries in force do not allow (a second active value for a
// (scope, key), a supersede of an inactive entry): the caller's mistake,
// not the store's. Their messages are the detailed error's alone.
var (
	ErrInvalidMemory  = errors.New("invalid memory entry")
	ErrMemoryConflict = errors.New("memory entry conflict")
)

type memoryError struct {
	error
	kind error
}

func (e memoryError) Is(target error) bool { return target == e.kind }
func (e memoryError) Unwrap() error        { return e.error }

// InvalidMemory marks err as wrapping [ErrInvalidMemory], its message
// unchanged.
func InvalidMemory(err error) error { return memoryError{err, ErrInvalidMemory} }

// MemoryConflict marks err as wrapping [ErrMemoryConflict], its message
// unchanged.
func MemoryConflict(err error) error { return memoryError{err, ErrMemoryConflict} }

// ActiveEntryError is every store's refusal of a second active entry for
// m's (scope, key), naming the active one.
func ActiveEntryError(m Memory, active string) error {
	return MemoryConflict(fmt.Errorf("memory %q in scope %q already has an active entry, %s: supersede it instead", m.Key, m.Scope, active))
}

// InactiveEntryError is every store's refusal to supersede the entry id,
// which is no longer active.
func InactiveEntryError(id string) error {
	return MemoryConflict(fmt.Errorf("superseding memory %q: it is no longer active", id))
}

// Memory is one entry of long-term memory: a value for a key in a scope,
// with where it came from, whether it is verified and the entry it
// replaced. Its JSON shape is public (`memory list --json`).
type Memory struct {
	ID    string `json:"id"`
	Scope string `json:"scope"` // campaign, dm, player:NAME or session:N
	Key   string `json:"key"`
	Value string `json:"value"`
	// Source is note:PATH@SHA256 (the note's stored version when the
	// entry was made or last verified; #CHUNK after it names the chunk)
	// or stated:ROLE:NAME@DATE.
	Source     string `json:"source"`
	Status     string `json:"status"`
	Supersedes string `json:"supersedes"` // the id of the entry this one replaced, or ""
	Created    string `json:"created"`    // RFC 3339, UTC
	Author     string `json:"author"`
	Active     bool   `json:"active"`
}

// MemoryStore keeps long-term memory. Every implementation keeps these
// invariants: ids are "m" and a number, counted up and never reused, even
// after a forget; a (scope, key) has at most one active entry; a supersede
// makes the old entry inactive and the new one active at once, the new one
// naming the old in Supersedes; a forget deletes the entry for good and
// clears every Supersedes that names it, bringing no older entry back.
// Sources are checked as [CheckMemorySource] says, a note against the
// version stored now.
type MemoryStore interface {
	// AddMemory stores a new active entry (a hypothesis unless verified)
	// and returns it with its id and creation time. A (scope, key) that
	// already has an active entry is an error naming that entry.
	AddMemory(ctx context.Context, m Memory, verified bool) (Memory, error)
	// Memory returns the entry with the given id, or an error wrapping
	// [ErrNoMemory].
	Memory(ctx context.Context, id string) (Memory, error)
	// Memories returns the entries of scope (every scope when it is
	// empty), only the active ones unless all, by scope, key and id
	// number.
	Memories(ctx context.Context, scope string, all bool) ([]Memory, error)
	// MemoryChain returns the entry with the given id and those it
	// replaced, one after another through Supersedes, newest first.
	MemoryChain(ctx context.Context, id string) ([]Memory, error)
	// VerifyMemory marks an entry verified; a source that is not empty
	// replaces the entry's (a note's version read again).
	VerifyMemory(ctx context.Context, id, source string) error
	// SupersedeMemory replaces the active entry id with a new one holding
	// value: the new entry keeps id's scope and key, takes m.Source (id's
	// when empty) and m.Author, is verified only when verified says so,
	// and names id in Supersedes; id becomes inactive.
	SupersedeMemory(ctx context.Context, id, value string, m Memory, verified bool) (Memory, error)
	// ForgetMemory deletes an entry for good, with every link to it.
	ForgetMemory(ctx context.Context, id string) error
	// NoteVersion returns the SHA-256 of the note stored at path (a
	// note's path as in Chunk.Path), found false when there is none: what
	// a note source is checked against, and how an entry is found stale.
	NoteVersion(ctx context.Context, path string) (sha string, found bool, err error)
}

// MemoryChain returns the entry id and those it replaced, one after
// another through Supersedes, newest first, each read by read: what every
// store's MemoryChain is. A missing id is read's error; a missing link
// further on ends the chain (a forget cleared it, or is under way).
func MemoryChain(ctx context.Context, id string, read func(context.Context, string) (Memory, error)) ([]Memory, error) {
	var chain []Memory
	seen := map[string]bool{}
	for id != "" && !seen[id] {
		seen[id] = true
		m, err := read(ctx, id)
		if err != nil {
			if len(chain) > 0 && errors.Is(err, ErrNoMemory) {
				break
			}
			return nil, err
		}
		chain = append(chain, m)
		id = m.Supersedes
	}
	return chain, nil
}

// MemorySeq returns N of the memory id "mN", false for an id of any
// other form.
func MemorySeq(id string) (int64, bool) {
	n, ok := strings.CutPrefix(id, "m")
	v, err := strconv.ParseInt(n, 10, 64)
	if !ok || err != nil || v <= 0 {
		return 0, false
	}
	return v, true
}

// ValidMemoryScope reports whether scope is campaign, dm, player:NAME or
// session:N with N a positive integer; the error names the scope.
func ValidMemoryScope(scope string) error {
	if scope == MemoryCampaign || scope == MemoryDM {
		return nil
	}
	if name, ok := strings.CutPrefix(scope, "player:"); ok && strings.TrimSpace(name) != "" && strings.TrimSpace(name) == name {
		return nil
	}
	if _, ok := MemorySession(scope); ok {
		return nil
	}
	return InvalidMemory(fmt.Errorf("memory scope %q: want campaign, dm, player:NAME or session:N (N a positive integer)", scope))
}

// MemorySession returns N of a session:N scope.
func MemorySession(scope string) (int, bool) {
	n, ok := strings.CutPrefix(scope, "session:")
	if !ok {
		return 0, false
	}
	v, err := strconv.Atoi(n)
	if err != nil || v <= 0 || strconv.Itoa(v) != n {
		return 0, false
	}
	return v, true
}

// MemorySource is a parsed source: a note's version, or a statement.
type MemorySource struct {
	// Note is the note's path and SHA256 its version, for a note source;
	// Chunk the public id of the chunk of that version it came from, when
	// the source names one.
	Note, SHA256, Chunk string
	// Role, Name and Date say who stated it when, for a statement.
	Role, Name, Date string
}

// String writes the source back as ParseMemorySource reads it.
func (s MemorySource) String() string {
	if s.Note == "" {
		return "stated:" + s.Role + ":" + s.Name + "@" + s.Date
	}
	out := "note:" + s.Note + "@" + s.SHA256
	if s.Chunk != "" {
		out += "#" + s.Chunk
	}
	return out
}

// ParseMemorySource parses note:PATH@SHA256 (with #CHUNK after it when
// the source names the chunk) or stated:ROLE:NAME@YYYY-MM-DD; the error
// names the source and the form wanted.
func ParseMemorySource(source string) (MemorySource, error) {
	if rest, ok := strings.CutPrefix(source, "note:"); ok {
		at := strings.LastIndex(rest, "@")
		if at <= 0 || at == len(rest)-1 {
			return MemorySource{}, InvalidMemory(fmt.Errorf("memory source %q: want note:PATH@SHA256", source))
		}
		sum, chunk, hasChunk := strings.Cut(rest[at+1:], "#")
		if sum == "" || hasChunk && chunk == "" {
			return MemorySource{}, InvalidMemory(fmt.Errorf("memory source %q: want note:PATH@SHA256 or note:PATH@SHA256#CHUNK", source))
		}
		return MemorySource{Note: rest[:at], SHA256: sum, Chunk: chunk}, nil
	}
	if rest, ok := strings.CutPrefix(source, "stated:"); ok {
		who, date, ok := strings.Cut(rest, "@")
		role, name, ok2 := strings.Cut(who, ":")
		if ok && ok2 && role != "" && name != "" {
			if _, err := time.Parse(time.DateOnly, date); err == nil {
				return MemorySource{Role: role, Name: name, Date: date}, nil
			}
		}
		return MemorySource{}, InvalidMemory(fmt.Errorf("memory source %q: want stated:ROLE:NAME@YYYY-MM-DD", source))
	}
	return MemorySource{}, InvalidMemory(fmt.Errorf("memory source %q: want note:PATH@SHA256 or stated:ROLE:NAME@DATE", source))
}

// CheckMemorySource checks a source: a statement with a role, a name and a
// date, or a note whose stored version, read by stored (the SHA-256 of the
// note at path, found false when the store has no such note), is the one
// the source names.
func CheckMemorySource(source string, stored func(path string) (sha string, found bool, err error)) error {
	s, err := ParseMemorySource(source)
	if err != nil || s.Note == "" {
		return err
	}
	sum, found, err := stored(s.Note)
	if err != nil {
		return fmt.Errorf("checking memory source %q: %w", source, err)
	}
	if !found {
		return InvalidMemory(fmt.Errorf("memory source %q: note %q is not in the index", source, s.Note))
	}
	if sum != s.SHA256 {
		return InvalidMemory(fmt.Errorf("memory source %q: the stored version of %q has sha256 %s", source, s.Note, sum))
	}
	return nil
}

// CheckMemory checks what every new entry needs: a valid scope, a key and
// a value.
func CheckMemory(m Memory) error {
	if err := ValidMemoryScope(m.Scope); err != nil {
		return err
	}
	if strings.TrimSpace(m.Key) == "" {
		return InvalidMemory(errors.New("adding memory: the key is empty"))
	}
	if strings.TrimSpace(m.Value) == "" {
		return InvalidMemory(fmt.Errorf("adding memory %q: the value is empty", m.Key))
	}
	return nil
}
