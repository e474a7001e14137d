package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/text"
)

// redactor returns what the note text handed to the caller becomes: for
// the DM, the text as written; for a player, each wikilink (and embed)
// whose target does not resolve to a note the player may see written as
// the text it shows (see [text.Render]), so that a public note linking a
// DM-only one ("[[DM/Plan secreto|el viejo]]") names nothing hidden:
// "el viejo". A target that names no note, or several, reads the same,
// so nothing tells a hidden note from a missing one. Links that resolve,
// and links within the note itself ("[[#Arriba]]"), stay as written.
// Markdown links, images and link reference definitions to a note or
// file ("[el viejo](DM/Plan%20secreto.md)", "![](DM/mapa.png)") are
// redacted the same way (see [text.EditMarkdownLinks]); those to an URL
// ("https://…", "mailto:…") or an anchor ("#Arriba") stay.
func (e *Engine) redactor(ctx context.Context) (func(string) string, error) {
	if !isPlayer(ctx) {
		return func(s string) string { return s }, nil
	}
	dir, err := e.noteDirectoryOf(ctx)
	if err != nil {
		return nil, err
	}
	hide := func(l text.Wikilink) (string, bool) {
		if l.Target == "" && l.Place != "" {
			return "", false
		}
		if _, ok := dir.resolve(l.Target); ok {
			return "", false
		}
		return l.Shown, true
	}
	hideMarkdown := func(l text.MarkdownLink) (string, bool) {
		p, ok := l.NotePath()
		if !ok {
			return "", false
		}
		if _, ok := dir.resolve(p); ok {
			return "", false
		}
		return l.Shown, true
	}
	return func(s string) string {
		// Writing a link as its shown text may leave one around it
		// ("[[[[a]]]]", "[[](DM/x.md)a]]"); each pass removes brackets,
		// none adds any.
		for {
			next := text.EditMarkdownLinks(text.EditWikilinks(s, hide), hideMarkdown)
			if next == s {
				return s
			}
			s = next
		}
	}, nil
}

// redactHits rewrites the note text of hits with redact (see
// [Engine.redactor]).
func redactHits(hits []Hit, redact func(string) string) {
	for i := range hits {
		h := &hits[i]
		h.Text, h.Passage, h.Title = redact(h.Text), redact(h.Passage), redact(h.Title)
		h.Headings = redactAll(h.Headings, redact)
	}
}

// redactChunk rewrites the note text of c with redact (see
// [Engine.redactor]).
func redactChunk(c ChunkInfo, redact func(string) string) ChunkInfo {
	c.Text, c.Title, c.FirstLine = redact(c.Text), redact(c.Title), redact(c.FirstLine)
	c.Headings = redactAll(c.Headings, redact)
	return c
}

// redactAll is ss rewritten with redact, in a new slice when any changes.
func redactAll(ss []string, redact func(string) string) []string {
	var out []string
	for i, s := range ss {
		if r := redact(s); r != s {
			if out == nil {
				out = append([]string(nil), ss...)
			}
			out[i] = r
		}
	}
	if out == nil {
		return ss
	}
	return out
}
