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
	cf := compileFilter(f)
	var tagged map[string]bool // note keys whose tags match
	if cf.tags != nil {
		tagged = map[string]bool{}
		err := s.each(ctx, documentClass, []string{propDocKey, propRoot, propPath, propMetadata}, func(o object) error {
			n := note{key: o.text(propDocKey), path: o.text(propPath), metadata: o.text(propMetadata)}
			if n.key == "" {
				n.key = documentKey(o.text(propRoot), n.path)
			}
			ok, err := cf.tagged(n)
			tagged[n.key] = ok
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("filtering chunks: %w", err)
		}
	}
	out := map[int64]bool{}
	err := s.chunkRows(ctx, false, func(r chunkRow) error {
		if cf.placed(r) && (tagged == nil || tagged[r.key]) {
			out[r.id] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("filtering chunks: %w", err)
	}
	return out, nil
}

// chunkFilter is a [store.Filter] ready to test chunks with, by
// [Store.FilterChunks]' rules.
type chunkFilter struct {
	sessions []int
	// folders are lowercased, without "./" and slashes around.
	folders []string
	// tags holds each tag asked for lowercased, with and without its
	// spaces; nil when none is.
	tags map[string]bool
}

func compileFilter(f store.Filter) chunkFilter {
	cf := chunkFilter{sessions: f.Sessions}
	for _, p := range f.Folders {
		cf.folders = append(cf.folders, strings.ToLower(strings.Trim(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"), "/")))
	}
	if len(f.Tags) > 0 {
		cf.tags = map[string]bool{}
		for _, t := range f.Tags {
			t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#"))
			cf.tags[t], cf.tags[strings.ReplaceAll(t, " ", "")] = true, true
		}
	}
	return cf
}

// placed reports whether a chunk is in the sessions and folders asked
// for.
func (f chunkFilter) placed(r chunkRow) bool {
	if len(f.sessions) > 0 && (!r.inSession || !slices.Contains(f.sessions, r.session)) {
		return false
	}
	return len(f.folders) == 0 || under(strings.ToLower(r.path), f.folders)
}

// tagged reports whether a note's front matter carries a tag asked for
// (true when none is).
func (f chunkFilter) tagged(n note) (bool, error) {
	if f.tags == nil {
		return true, nil
	}
	if n.metadata == "" {
		return false, nil
	}
	tags, err := noteTags(json.RawMessage(n.metadata))
	if err != nil {
		return false, fmt.Errorf("note %q: %w", n.path, err)
	}
	return slices.ContainsFunc(tags, func(t string) bool { return f.tags[t] }), nil
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
