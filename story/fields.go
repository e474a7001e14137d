package story

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/store"
)

// notAFact are the front-matter fields that describe the note rather than
// its entity (its names, tags, dates, layout): two notes about one entity
// may differ in them without contradicting each other.
var notAFact = set("title", "titulo", "aliases", "alias", "tags", "tag", "cssclass", "cssclasses", "visibility",
	"visibilidad", "date", "fecha", "created", "creado", "updated", "modified", "modificado", "actualizado",
	"published", "publish", "permalink", "id", "uid", "type", "tipo", "kind", "layout", "template", "plantilla",
	"sort", "order", "orden", "source", "fuente", "lang", "language", "idioma", "draft", "banner", "cover",
	"image", "imagen", "icon", "status_note")

// fieldConflicts finds an entity given two values of one front-matter
// field by two notes that describe it (its own note, and any note whose
// title is its name or an alias). When public, DM-only notes are not read.
func fieldConflicts(notes []store.NoteSource, chunks []store.Chunk, ents []store.Entity, public bool) []Contradiction {
	first := map[string]*store.Chunk{}
	for i := range chunks {
		c := &chunks[i]
		if f, ok := first[c.Path]; !ok || c.Ordinal < f.Ordinal {
			first[c.Path] = c
		}
	}
	describes := describer(ents)
	type fact struct {
		note  *store.Chunk
		value string
	}
	facts := map[int]map[string][]fact{}
	for _, n := range notes {
		c := first[n.Path]
		if c == nil || public && (n.Restricted || c.Restricted) {
			continue
		}
		e, ok := describes(n)
		if !ok {
			continue
		}
		for k, v := range frontFacts(n.Metadata) {
			if facts[e] == nil {
				facts[e] = map[string][]fact{}
			}
			facts[e][k] = append(facts[e][k], fact{c, v})
		}
	}
	var out []Contradiction
	for e, fields := range facts {
		for _, k := range sortedKeys(fields) {
			fs := fields[k]
			for j := 1; j < len(fs); j++ {
				if compendium.Normalize(fs[j].value) == compendium.Normalize(fs[0].value) {
					continue
				}
				out = append(out, Contradiction{Kind: KindField, Entity: ents[e].Name, Field: k,
					First:   Moment{Text: k + ": " + fs[0].value, Cite: CiteOf(*fs[0].note)},
					Second:  Moment{Text: k + ": " + fs[j].value, Cite: CiteOf(*fs[j].note)},
					Verdict: VerdictUnjudged, key: fs[0].note.Hash + " " + fs[j].note.Hash + " " + k + "=" + fs[0].value + "|" + fs[j].value})
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// describer returns which entity a note describes: the one whose note it
// is, else the one its title names (by name or alias), if any.
func describer(ents []store.Entity) func(store.NoteSource) (int, bool) {
	byNote, byName := map[string]int{}, map[string]int{}
	for i, e := range ents {
		if e.Note != "" {
			byNote[e.Note] = i
		}
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if _, ok := byName[compendium.Normalize(n)]; !ok {
				byName[compendium.Normalize(n)] = i
			}
		}
	}
	return func(n store.NoteSource) (int, bool) {
		if e, ok := byNote[n.Path]; ok {
			return e, true
		}
		e, ok := byName[compendium.Normalize(n.Title)]
		return e, ok
	}
}

// frontFacts reads a note's front matter into its facts, field by field
// (lowercase names), each value as text: lists joined by ", ", nested
// objects left out.
func frontFacts(meta json.RawMessage) map[string]string {
	var fm map[string]any
	if len(meta) == 0 || json.Unmarshal(meta, &fm) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range fm {
		key := strings.ToLower(strings.TrimSpace(k))
		if notAFact[key] {
			continue
		}
		if s, ok := factText(v); ok && s != "" {
			out[key] = s
		}
	}
	return out
}

func factText(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v), true
	case float64, bool:
		return fmt.Sprint(v), true
	case []any:
		var parts []string
		for _, x := range v {
			s, ok := factText(x)
			if !ok {
				return "", false
			}
			parts = append(parts, s)
		}
		sort.Strings(parts)
		return strings.Join(parts, ", "), true
	}
	return "", false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
