// Package notelink follows links between notes for one audience: which
// note a wikilink's (or a Markdown link's) target names among the notes
// the audience may see, resolved as Obsidian resolves it ([Directory]);
// which names of an answer its evidence links to a note ([Links]); and a
// text with every link to a note the audience may not see written as the
// text it shows ([Directory.Redact]). A note the audience may not see is
// not in its directory at all, so a link to it reads exactly as a link to
// no note.
package notelink

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// Name is what a link may name a note by.
type Name struct {
	Path    string // as stored, relative to its folder
	Aliases []string
}

// Directory resolves link targets to notes, as Obsidian does: by path or
// file name without ".md", case-insensitively; by an alias of the front
// matter when no file has that name. It holds the notes of one audience
// only.
type Directory struct {
	// byEnd maps each end of a note's path, as a key, at a folder's
	// boundary ("npcs/harbin", "harbin" for "NPCs/Harbin.md"), to the
	// notes whose path ends so.
	byEnd   map[string][]string
	byAlias map[string][]string // lowercased alias → paths
}

// NewDirectory indexes notes.
func NewDirectory(notes []Name) *Directory {
	d := &Directory{byEnd: map[string][]string{}, byAlias: map[string][]string{}}
	for _, n := range notes {
		k := key(n.Path)
		for end := k; ; {
			addOnce(d.byEnd, end, n.Path)
			i := strings.IndexByte(end, '/')
			if i < 0 {
				break
			}
			end = end[i+1:]
		}
		for _, a := range n.Aliases {
			addOnce(d.byAlias, strings.ToLower(strings.TrimSpace(a)), n.Path)
		}
	}
	return d
}

// addOnce adds p to m[k] unless it is there or k is empty.
func addOnce(m map[string][]string, k, p string) {
	if k == "" {
		return
	}
	for _, x := range m[k] {
		if x == p {
			return
		}
	}
	m[k] = append(m[k], p)
}

// NoteFacts is the store's role a directory is loaded from.
type NoteFacts interface {
	// EachNoteFacts calls fn with the stored facts of every note.
	EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error
}

// Load returns the directory of the notes s holds: for players (public),
// only the notes they may see.
func Load(ctx context.Context, s NoteFacts, public bool) (*Directory, error) {
	var names []Name
	err := s.EachNoteFacts(ctx, func(f store.NoteFacts) error {
		if public && f.Restricted {
			return nil
		}
		names = append(names, Name{Path: f.Path, Aliases: frontAliases(f.Metadata)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return NewDirectory(names), nil
}

// key is a path or link target as it is matched: forward slashes, no
// leading "./" or "/", no ".md", lowercased.
func key(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, `\`, "/"))
	s = strings.TrimLeft(strings.TrimPrefix(s, "./"), "/")
	if len(s) > 3 && strings.EqualFold(s[len(s)-3:], ".md") {
		s = s[:len(s)-3]
	}
	return strings.ToLower(s)
}

// Resolve returns the one note target names: a target with a folder by
// the end of the path ("NPCs/Harbin" names "Campaña/NPCs/Harbin.md"),
// else by file name, else by alias. A target that names no note, or more
// than one at the first of those that names any, resolves to nothing.
func (d *Directory) Resolve(target string) (string, bool) {
	k := key(target)
	if k == "" {
		return "", false
	}
	one := func(ps []string) (string, bool) {
		if len(ps) == 1 {
			return ps[0], true
		}
		return "", false
	}
	if ps := d.byEnd[k]; len(ps) > 0 || strings.Contains(k, "/") {
		return one(ps)
	}
	return one(d.byAlias[k])
}

// frontAliases reads a front matter's "aliases" (one string or a list).
func frontAliases(meta json.RawMessage) []string {
	var fm struct {
		Aliases any `json:"aliases"`
	}
	if json.Unmarshal(meta, &fm) != nil {
		return nil
	}
	switch a := fm.Aliases.(type) {
	case string:
		return []string{a}
	case []any:
		var out []string
		for _, x := range a {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
