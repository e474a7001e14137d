package oraculo

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/store"
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

// normalizeFolders cleans a secret-folder list: slashes trimmed, empty
// entries dropped, sorted, unique.
func normalizeFolders(fs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		f = strings.Trim(strings.TrimSpace(strings.ReplaceAll(f, "\\", "/")), "/")
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// secretFolders resolves the DM-only folders of an ingest: the options',
// else the index's, else DefaultSecretFolders.
func (e *Engine) secretFolders(ctx context.Context, opts IngestOptions) ([]string, error) {
	folders := []string{}
	if opts.SecretFolders != nil || opts.SecretFoldersSet {
		return append(folders, normalizeFolders(opts.SecretFolders)...), nil
	}
	switch stored, err := e.idx.Meta(ctx, "secret_folders"); {
	case err != nil:
		return nil, err
	case stored != "":
		if err := json.Unmarshal([]byte(stored), &folders); err != nil {
			return nil, fmt.Errorf("reading the secret folders stored in the index: %w", err)
		}
		return folders, nil
	}
	return append(folders, normalizeFolders(DefaultSecretFolders)...), nil
}

// settleVisibility makes every stored note follow the secret folders and
// the current visibility rules. When either changed, every note is decided
// again in one transaction (which also stores the folders), before anything
// else is written; until it commits, readers keep the previous decisions,
// and notes never decided (an index from an older version) stay DM-only.
func (e *Engine) settleVisibility(ctx context.Context, folders []string) (visibility.Rules, error) {
	rules := visibility.NewRules(folders)
	data, err := json.Marshal(folders)
	if err != nil {
		return rules, err
	}
	stored, err := e.idx.Meta(ctx, "secret_folders")
	if err != nil {
		return rules, err
	}
	version, err := e.idx.Meta(ctx, "visibility_rules")
	if err != nil {
		return rules, err
	}
	if stored == string(data) && version == visibility.Version {
		return rules, nil
	}
	if err := e.ReadOnly(); err != nil {
		return rules, fmt.Errorf("deciding again who may see each note: %w", err)
	}
	changed, err := e.idx.Redecide(ctx, func(r store.VisibilityRecord) (bool, string, string) {
		d := decideStored(rules, r)
		return d.DMOnly, d.Reason, d.Detail
	}, map[string]string{"secret_folders": string(data), "visibility_rules": visibility.Version})
	if err != nil {
		return rules, err
	}
	if changed > 0 {
		// Engines serving this index, here or in another process, load
		// the new decisions before their next search.
		if err := e.bumpGeneration(ctx); err != nil {
			return rules, err
		}
	}
	return rules, nil
}

// decideStored decides a note from what the index keeps of it: the same
// inputs, and so the same decision, as at ingest.
func decideStored(rules visibility.Rules, r store.VisibilityRecord) visibility.Decision {
	var fm map[string]any
	// Stored front matter is always a JSON object (or "{}"); a note whose
	// metadata cannot be read is DM-only.
	if len(r.Metadata) > 0 && json.Unmarshal(r.Metadata, &fm) != nil {
		return visibility.Decision{DMOnly: true, Reason: visibility.ReasonUnclear, Detail: "unreadable stored front matter"}
	}
	return rules.Decide(visibility.Note{Path: r.Path, Link: r.Link, FrontMatter: fm, RawFrontMatter: r.FrontRaw})
}
