package notelink

import (
	"sort"
	"strings"
	"unicode"

	"github.com/oraculo/oraculo/text"
)

// Link is a name an answer shows that a note of its evidence writes as a
// wikilink to another note: where the surface has links, the name links
// to that note (see [Links]).
type Link struct {
	// Text is the wikilink's shown text, as the answer has it ("Ser
	// Morcant").
	Text string `json:"text"`
	// File is the note it names, as in a hit's "file".
	File string `json:"file"`
}

// Written is a passage of evidence as its note has it: its text, links
// and all, and the note's file.
type Written struct {
	File, Text string
}

// Links returns the names in answer that the evidence writes as wikilinks
// to a note of d, each with that note. A name is left out, and stays plain
// text, unless every wikilink of the evidence that shows it names the same
// one note: a link to a note not in d reads exactly as one to no note, and
// either makes the name plain. Only names (a shown text with a capital
// letter) are given: a link shown as "aquí" would link every "aquí" of
// the answer. Longest names first.
func Links(answer string, evidence []Written, d *Directory) []Link {
	files := map[string]string{} // shown text → its note, "" when none or several
	for _, w := range evidence {
		for _, l := range text.Wikilinks(w.Text) {
			if !isName(l.Shown) || strings.ContainsAny(l.Shown, "[]`\n") || text.IndexWord(answer, l.Shown) < 0 {
				continue
			}
			file, ok := d.Resolve(l.Target)
			if l.Target == "" {
				file, ok = w.File, true // [[#Heading]]: a place in the note itself
			}
			if prev, known := files[l.Shown]; !ok || (known && prev != file) {
				file = ""
			}
			files[l.Shown] = file
		}
	}
	var out []Link
	for shown, file := range files {
		if file != "" {
			out = append(out, Link{Text: shown, File: file})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].Text) != len(out[j].Text) {
			return len(out[i].Text) > len(out[j].Text)
		}
		return out[i].Text < out[j].Text
	})
	return out
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
