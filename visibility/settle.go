package visibility

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// The index settings that record what the stored decisions were taken
// with: the secret folders (a JSON list) and the rules' [Version].
const (
	foldersKey = "secret_folders"
	versionKey = "visibility_rules"
)

// Records is what settlement needs of a store: its settings, and the
// decision of every stored note taken again in one write.
type Records interface {
	Meta(ctx context.Context, key string) (string, error)
	Redecide(ctx context.Context, decide store.Decider, meta map[string]string) (int, error)
}

// NormalizeFolders cleans a secret-folder list: slashes trimmed, empty
// entries dropped, sorted, unique.
func NormalizeFolders(fs []string) []string {
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

// Folders resolves the secret folders: given (normalized) when set, else
// those stored in s, else defaults (normalized). The list is never nil.
func Folders(ctx context.Context, s Records, given []string, set bool, defaults []string) ([]string, error) {
	folders := []string{}
	if given != nil || set {
		return append(folders, NormalizeFolders(given)...), nil
	}
	switch stored, err := s.Meta(ctx, foldersKey); {
	case err != nil:
		return nil, err
	case stored != "":
		if err := json.Unmarshal([]byte(stored), &folders); err != nil {
			return nil, fmt.Errorf("reading the secret folders stored in the index: %w", err)
		}
		return folders, nil
	}
	return append(folders, NormalizeFolders(defaults)...), nil
}

// Settle makes every note stored in s follow folders and these rules.
// When either changed since the stored decisions were taken, every note is
// decided again in one write (which also stores folders and [Version]),
// before anything else is written; until it commits, readers keep the
// previous decisions, and notes never decided (an index from an older
// version) stay DM-only. writable returns nil when s may be written, else
// why not. changed reports that a note changed audience.
func Settle(ctx context.Context, s Records, folders []string, writable func() error) (changed bool, err error) {
	data, err := json.Marshal(folders)
	if err != nil {
		return false, err
	}
	stored, err := s.Meta(ctx, foldersKey)
	if err != nil {
		return false, err
	}
	version, err := s.Meta(ctx, versionKey)
	if err != nil {
		return false, err
	}
	if stored == string(data) && version == Version {
		return false, nil
	}
	if err := writable(); err != nil {
		return false, fmt.Errorf("deciding again who may see each note: %w", err)
	}
	rules := NewRules(folders)
	n, err := s.Redecide(ctx, func(r store.VisibilityRecord) (bool, string, string) {
		d := DecideStored(rules, r)
		return d.DMOnly, d.Reason, d.Detail
	}, map[string]string{foldersKey: string(data), versionKey: Version})
	return n > 0, err
}

// DecideStored decides a note from what the index keeps of it: the same
// inputs, and so the same decision, as at ingest.
func DecideStored(rules Rules, r store.VisibilityRecord) Decision {
	var fm map[string]any
	// Stored front matter is always a JSON object (or "{}"); a note whose
	// metadata cannot be read is DM-only.
	if len(r.Metadata) > 0 && json.Unmarshal(r.Metadata, &fm) != nil {
		return Decision{DMOnly: true, Reason: ReasonUnclear, Detail: "unreadable stored front matter"}
	}
	return rules.Decide(Note{Path: r.Path, Link: r.Link, FrontMatter: fm, RawFrontMatter: r.FrontRaw})
}
