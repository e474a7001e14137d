package oraculo

import (
	"context"
	"strings"

	"github.com/oraculo/oraculo/memory"
	"github.com/oraculo/oraculo/snapshot"
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

// asker is who ctx's requests act as, to memory.
func asker(ctx context.Context) memory.Asker {
	return memory.Asker{Player: isPlayer(ctx), Role: RoleFrom(ctx), Name: PlayerFrom(ctx)}
}

// secretFolders resolves the DM-only folders of an ingest: the options',
// else the index's, else DefaultSecretFolders (see [visibility.Folders]).
func (e *Engine) secretFolders(ctx context.Context, opts IngestOptions) ([]string, error) {
	return visibility.Folders(ctx, e.idx, opts.SecretFolders, opts.SecretFoldersSet, DefaultSecretFolders)
}

// settleVisibility makes every stored note follow the secret folders opts
// resolve to (see [Engine.secretFolders]) and the current visibility
// rules (see [visibility.Settle]), and returns the folders; when a note
// changed audience, every engine serving the index, here or in another
// process, loads the new decisions before its next search.
func (e *Engine) settleVisibility(ctx context.Context, opts IngestOptions) ([]string, error) {
	folders, err := e.secretFolders(ctx, opts)
	if err != nil {
		return nil, err
	}
	changed, err := visibility.Settle(ctx, e.idx, folders, e.ReadOnly)
	if err == nil && changed {
		err = e.bumpGeneration(ctx)
	}
	if err != nil {
		return nil, err
	}
	return folders, nil
}

// redactor returns what the note text handed to the caller becomes: for
// the DM, the text as written; for a player, each link to a note the
// player may not see written as the text it shows, so that it names
// nothing hidden (see [notelink.Directory.Redact]).
func (e *Engine) redactor(ctx context.Context, v *snapshot.Snapshot) (func(string) string, error) {
	if !isPlayer(ctx) {
		return func(s string) string { return s }, nil
	}
	dir, err := v.Notes(ctx, true)
	if err != nil {
		return nil, err
	}
	return dir.Redact, nil
}

// askerRedactor is [Engine.redactor] for ctx's asker, reading the
// snapshot only for a player (the DM's text is as written).
func (e *Engine) askerRedactor(ctx context.Context) (func(string) string, error) {
	var v *snapshot.Snapshot
	if isPlayer(ctx) {
		var err error
		if v, err = e.snapshot(ctx); err != nil {
			return nil, err
		}
	}
	return e.redactor(ctx, v)
}
