package notelink

import "github.com/oraculo/oraculo/text"

// Redact returns s with each wikilink (and embed) whose target does not
// resolve to a note of d written as the text it shows (see
// [text.Render]), so that, in a directory of the notes a player may see,
// a public note linking a DM-only one ("[[DM/Plan secreto|el viejo]]")
// names nothing hidden: "el viejo". A target that names no note, or
// several, reads the same, so nothing tells a hidden note from a missing
// one. Links that resolve, and links within the note itself
// ("[[#Arriba]]"), stay as written. Markdown links, images and link
// reference definitions to a note or file ("[el viejo](DM/Plan%20secreto.md)",
// "![](DM/mapa.png)") are redacted the same way (see
// [text.EditMarkdownLinks]); those to an URL ("https://…", "mailto:…") or
// an anchor ("#Arriba") stay.
func (d *Directory) Redact(s string) string {
	// Writing a link as its shown text may leave one around it
	// ("[[[[a]]]]", "[[](DM/x.md)a]]"); each pass removes brackets, none
	// adds any.
	for {
		next := text.EditMarkdownLinks(text.EditWikilinks(s, d.hideWikilink), d.hideMarkdown)
		if next == s {
			return s
		}
		s = next
	}
}

// hideWikilink says whether l is written as its shown text: when it
// links to no note of d.
func (d *Directory) hideWikilink(l text.Wikilink) (string, bool) {
	if l.Target == "" && l.Place != "" {
		return "", false
	}
	if _, ok := d.Resolve(l.Target); ok {
		return "", false
	}
	return l.Shown, true
}

// hideMarkdown says whether l is written as its shown text: when it
// links to a note or file that is no note of d.
func (d *Directory) hideMarkdown(l text.MarkdownLink) (string, bool) {
	p, ok := l.NotePath()
	if !ok {
		return "", false
	}
	if _, ok := d.Resolve(p); ok {
		return "", false
	}
	return l.Shown, true
}

// RedactAll is ss rewritten with redact, in a new slice when any changes.
func RedactAll(ss []string, redact func(string) string) []string {
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
