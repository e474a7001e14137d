package oraculo

import (
	"context"
	"errors"
	"fmt"

	"github.com/oraculo/oraculo/visibility"
)

// Roles: who is asking. The DM (the notes' owner) sees everything; a
// player never sees a DM-only note, in any result, count, label or error.
const (
	RoleDM     = "dm"
	RolePlayer = "player"
)

// DefaultSecretFolders are the folders whose notes are DM-only unless an
// ingest says otherwise (IngestOptions.SecretFolders).
var DefaultSecretFolders = []string{"DM"}

type roleKey struct{}

// WithRole returns a context whose requests act as role (RoleDM or
// RolePlayer). Every read of the engine (Search, Ask, Chunk, Note,
// Compendium, FindEntity) applies it where notes are first touched, before
// any ranking.
func WithRole(ctx context.Context, role string) context.Context {
	return context.WithValue(ctx, roleKey{}, role)
}

// RoleFrom returns the role a context carries: RoleDM when none (the local
// owner), RolePlayer for any value other than RoleDM.
func RoleFrom(ctx context.Context) string {
	r, ok := ctx.Value(roleKey{}).(string)
	if !ok || r == RoleDM {
		return RoleDM
	}
	return RolePlayer
}

// isPlayer reports whether ctx's requests must not see DM-only notes.
func isPlayer(ctx context.Context) bool { return RoleFrom(ctx) == RolePlayer }

// ErrNoNote is returned when no note visible to the caller has the path
// asked for.
var ErrNoNote = errors.New("no such note")

// NoteInfo is a whole note: its chunks in order.
type NoteInfo struct {
	File   string      `json:"file"`
	Title  string      `json:"title"`
	Chunks []ChunkInfo `json:"chunks"`
}

// Note returns the note at file (a path as in a hit's "file"), with all
// its chunks; a note the caller may not see is ErrNoNote, as is a missing
// one.
func (e *Engine) Note(ctx context.Context, file string) (NoteInfo, error) {
	chunks, err := e.Chunks(ctx, []string{file})
	if err != nil {
		return NoteInfo{}, err
	}
	n := NoteInfo{File: file}
	for _, c := range chunks {
		if c.File == file {
			n.Chunks = append(n.Chunks, c)
		}
	}
	if len(n.Chunks) == 0 {
		return NoteInfo{}, fmt.Errorf("%w: %q", ErrNoNote, file)
	}
	n.Title = n.Chunks[0].Title
	return n, nil
}

// Roots returns the folders ingested into the index, in order: what a
// re-ingest reads again.
func (e *Engine) Roots(ctx context.Context) ([]string, error) {
	return e.idx.Roots(ctx)
}

// secretFolders resolves the DM-only folders of an ingest: the options',
// else the index's, else DefaultSecretFolders (see [visibility.Folders]).
func (e *Engine) secretFolders(ctx context.Context, opts IngestOptions) ([]string, error) {
	return visibility.Folders(ctx, e.idx, opts.SecretFolders, opts.SecretFoldersSet, DefaultSecretFolders)
}

// settleVisibility makes every stored note follow the secret folders and
// the current visibility rules (see [visibility.Settle]); when a note
// changed audience, every engine serving the index, here or in another
// process, loads the new decisions before its next search.
func (e *Engine) settleVisibility(ctx context.Context, folders []string) error {
	changed, err := visibility.Settle(ctx, e.idx, folders, e.ReadOnly)
	if err != nil || !changed {
		return err
	}
	return e.bumpGeneration(ctx)
}
