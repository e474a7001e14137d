package oraculo

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/answer"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// NoteLink is a name an answer shows that a note of its evidence writes
// as a wikilink to another note: where the surface has links, the name
// links to that note (see [Engine.NoteLinks]).
type NoteLink struct {
	// Text is the wikilink's shown text, as the answer has it ("Ser
	// Morcant").
	Text string `json:"text"`
	// File is the note it names, as in a hit's "file".
	File string `json:"file"`
}

// noteName is what a wikilink may name a note by.
type noteName struct {
	path    string // as stored, relative to its folder
	aliases []string
}

// noteDirectory resolves wikilink targets to notes, as Obsidian does:
// by path or file name without ".md", case-insensitively; by an alias
// of the front matter when no file has that name. It holds the notes of
// one audience only: a note the asker may not see is not in it, so that
// a link to it reads as a link to no note.
type noteDirectory struct {
	// byEnd maps each end of a note's path, lowercased, without ".md",
	// at a folder's boundary ("npcs/harbin", "harbin" for
	// "NPCs/Harbin.md"), to the notes whose path ends so.
	byEnd   map[string][]string
	byAlias map[string][]string // lowercased alias → paths
}

// newNoteDirectory indexes notes.
func newNoteDirectory(notes []noteName) *noteDirectory {
	d := &noteDirectory{byEnd: map[string][]string{}, byAlias: map[string][]string{}}
	add := func(m map[string][]string, k, p string) {
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
	for _, n := range notes {
		key := linkKey(n.path)
		for end := key; ; {
			add(d.byEnd, end, n.path)
			i := strings.IndexByte(end, '/')
			if i < 0 {
				break
			}
			end = end[i+1:]
		}
		for _, a := range n.aliases {
			add(d.byAlias, strings.ToLower(strings.TrimSpace(a)), n.path)
		}
	}
	return d
}

// linkKey is a path or link target as it is matched: forward slashes,
// no leading "./" or "/", no ".md", lowercased.
func linkKey(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, `\`, "/"))
	s = strings.TrimLeft(strings.TrimPrefix(s, "./"), "/")
	if len(s) > 3 && strings.EqualFold(s[len(s)-3:], ".md") {
		s = s[:len(s)-3]
	}
	return strings.ToLower(s)
}

// resolve returns the one note target names: a target with a folder by
// the end of the path ("NPCs/Harbin" names "Campaña/NPCs/Harbin.md"),
// else by file name, else by alias. A target that names no note, or more
// than one at the first of those that names any, resolves to nothing.
func (d *noteDirectory) resolve(target string) (string, bool) {
	key := linkKey(target)
	if key == "" {
		return "", false
	}
	one := func(ps []string) (string, bool) {
		if len(ps) == 1 {
			return ps[0], true
		}
		return "", false
	}
	if ps := d.byEnd[key]; len(ps) > 0 || strings.Contains(key, "/") {
		return one(ps)
	}
	return one(d.byAlias[key])
}

// noteDirectoryOf returns the directory of the notes the caller may see,
// built once per view and audience.
func (e *Engine) noteDirectoryOf(ctx context.Context) (*noteDirectory, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	player := isPlayer(ctx)
	d, _, err := v.notes[scopeIndex(player)].Get(func() (*noteDirectory, error) {
		var notes []noteName
		err := e.idx.EachNoteFacts(ctx, func(f store.NoteFacts) error {
			if player && f.Restricted {
				return nil
			}
			notes = append(notes, noteName{path: f.Path, aliases: frontAliases(f.Metadata)})
			return nil
		})
		if err != nil {
			return nil, err
		}
		return newNoteDirectory(notes), nil
	})
	return d, err
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

// NoteLinks returns the names in a's text that its evidence writes as
// wikilinks to a note the caller may see (see [WithRole]), each with
// that note: what a surface with links links to the note. A name is
// left out, and stays plain text, unless every wikilink of the evidence
// that shows it names the same one note: a link to a note the caller may
// not see reads exactly as one to no note, and either makes the name
// plain. Only names (a shown text with a capital letter) are given: a
// link shown as "aquí" would link every "aquí" of the answer. Longest
// names first.
func (e *Engine) NoteLinks(ctx context.Context, a *Answer) ([]NoteLink, error) {
	if a == nil || a.Answer == "" || len(a.Evidence) == 0 {
		return nil, nil
	}
	dir, err := e.noteDirectoryOf(ctx)
	if err != nil {
		return nil, err
	}
	// The notes as written: the candidates' text (what the evidence was
	// taken from, read for the asker), else the chunk's.
	written := make(map[string]Hit, len(a.Candidates))
	for _, h := range a.Candidates {
		written[h.ID] = h
	}
	files := map[string]string{} // shown text → its note, "" when none or several
	seen := map[string]bool{}
	for _, ev := range a.Evidence {
		if ev.Kind == answer.KindMemory || ev.ID == "" || seen[ev.ID] {
			continue
		}
		seen[ev.ID] = true
		c, ok := written[ev.ID]
		if !ok || c.Text == "" {
			ci, err := e.Chunk(ctx, ev.ID)
			if errors.Is(err, store.ErrNoChunk) {
				continue // replaced since: its links are not known
			}
			if err != nil {
				return nil, err
			}
			c = Hit{ID: ci.ID, File: ci.File, Text: ci.Text}
		}
		for _, l := range text.Wikilinks(c.Text) {
			if !isName(l.Shown) || strings.ContainsAny(l.Shown, "[]`\n") || text.IndexWord(a.Answer, l.Shown) < 0 {
				continue
			}
			file, ok := dir.resolve(l.Target)
			if l.Target == "" {
				file, ok = c.File, true // [[#Heading]]: a place in the note itself
			}
			if prev, known := files[l.Shown]; !ok || (known && prev != file) {
				file = ""
			}
			files[l.Shown] = file
		}
	}
	var out []NoteLink
	for shown, file := range files {
		if file != "" {
			out = append(out, NoteLink{Text: shown, File: file})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Text) != len(out[j].Text) {
			return len(out[i].Text) > len(out[j].Text)
		}
		return out[i].Text < out[j].Text
	})
	return out, nil
}

// isName reports a shown text that reads as a name: it has a capital
// letter.
func isName(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// ResolveNote returns the note a wikilink's target names ("Harbin",
// "NPCs/Harbin.md"; see [text.Wikilink]), resolved as Obsidian does among
// the notes the caller may see (see [WithRole]): false when it names
// none of them, or several. A note the caller may not see resolves as a
// note that does not exist.
func (e *Engine) ResolveNote(ctx context.Context, target string) (string, bool, error) {
	dir, err := e.noteDirectoryOf(ctx)
	if err != nil {
		return "", false, err
	}
	file, ok := dir.resolve(target)
	return file, ok, nil
}
