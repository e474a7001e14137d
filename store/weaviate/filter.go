package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// FilterChunks returns the ids of the chunks f lets through, with
// SQLite's semantics: the chunks of the given sessions, of notes whose
// path is one of the folders or lies under one (whatever the case), of
// notes whose front matter carries one of the tags (whatever the case, in
// a list or a comma-separated string); every non-empty field must hold.
// A chunk whose note's object is missing matches no tag.
func (s *Store) FilterChunks(ctx context.Context, f store.Filter) (map[int64]bool, error) {
	var tagged map[string]bool // note keys whose tags match
	if len(f.Tags) > 0 {
		want := map[string]bool{}
		for _, t := range f.Tags {
			t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#"))
			want[t], want[strings.ReplaceAll(t, " ", "")] = true, true
		}
		tagged = map[string]bool{}
		err := s.each(ctx, documentClass, []string{propDocKey, propRoot, propPath, propMetadata}, func(o object) error {
			meta := o.text(propMetadata)
			if meta == "" {
				return nil
			}
			tags, err := noteTags(json.RawMessage(meta))
			if err != nil {
				return fmt.Errorf("note %q: %w", o.text(propPath), err)
			}
			if slices.ContainsFunc(tags, func(t string) bool { return want[t] }) {
				key := o.text(propDocKey)
				if key == "" {
					key = documentKey(o.text(propRoot), o.text(propPath))
				}
				tagged[key] = true
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("filtering chunks: %w", err)
		}
	}
	folders := make([]string, len(f.Folders))
	for i, p := range f.Folders {
		folders[i] = strings.ToLower(strings.Trim(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"), "/"))
	}
	out := map[int64]bool{}
	err := s.chunkRows(ctx, false, func(r chunkRow) error {
		if len(f.Sessions) > 0 && (!r.inSession || !slices.Contains(f.Sessions, r.session)) {
			return nil
		}
		if len(folders) > 0 && !under(strings.ToLower(r.path), folders) {
			return nil
		}
		if tagged != nil && !tagged[r.key] {
			return nil
		}
		out[r.id] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("filtering chunks: %w", err)
	}
	return out, nil
}

// RestrictedChunks returns the ids of the chunks of DM-only notes: every
// chunk not marked public, whose note is not marked public, is changing
// audience or is missing. Fail closed.
func (s *Store) RestrictedChunks(ctx context.Context) (map[int64]bool, error) {
	notes, err := s.notes(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing DM-only chunks: %w", err)
	}
	out := map[int64]bool{}
	err = s.chunkRows(ctx, false, func(r chunkRow) error {
		if r.restricted(notes) {
			out[r.id] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing DM-only chunks: %w", err)
	}
	return out, nil
}
