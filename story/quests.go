package story

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/text"
)

// Folded words of a quest's status, of a quest itself, and the front
// matter keys that hold them.
var (
	closedWords = wordSet("completada", "completado", "completa", "completo", "resuelta", "resuelto",
		"cumplida", "cumplido", "cerrada", "cerrado", "terminada", "terminado", "fallida", "fallido",
		"abandonada", "abandonado", "hecha", "hecho", "done", "completed", "complete", "resolved", "closed",
		"finished", "failed", "abandoned", "✅", "✔", "✔️")
	openWords  = wordSet("activa", "activo", "abierta", "abierto", "open", "active", "pendiente", "en curso", "in progress", "ongoing", "nueva", "new", "todo")
	questWords = wordSet("quest", "quests", "mision", "misiones", "mission", "missions", "encargo", "encargos", "sidequest", "subtrama")
	statusKeys = wordSet("status", "estado", "state", "estatus")
	typeKeys   = wordSet("type", "tipo", "kind", "category", "categoria", "clase")
	tagKeys    = wordSet("tags", "tag", "etiquetas", "etiqueta")
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// noteLine is a line of a note with the chunk it was read from.
type noteLine struct {
	line
	chunk store.Chunk
}

// noteLines gives each note's lines in order, by path, from its chunks in
// order; a line two overlapping chunks share is given once.
func noteLines(chunks []store.Chunk) map[string][]noteLine {
	out := map[string][]noteLine{}
	seen := map[string]bool{}
	for _, c := range chunks {
		for _, l := range lines(c.Text) {
			key := c.Path + "\x00" + l.text
			if !l.heading && seen[key] {
				continue
			}
			seen[key] = true
			out[c.Path] = append(out[c.Path], noteLine{line: l, chunk: c})
		}
	}
	return out
}

// openQuests are the quests of the notes without a resolution: notes whose
// front matter makes them a quest (a type or tag "quest"/"misión", a
// status) or that lie in a quest folder, and sections headed "Misión: …"
// or "Quest: …".
func openQuests(ctx context.Context, src ThreadSource, a Audience, chunks []store.Chunk, held []int) ([]Thread, error) {
	byNote := noteLines(chunks)
	var out []Thread
	err := src.EachNoteFacts(ctx, func(nf store.NoteFacts) error {
		ls := byNote[nf.Path]
		if (a.Public && nf.Restricted) || len(ls) == 0 {
			return nil
		}
		quest, status := questMeta(nf.Path, nf.Metadata)
		if quest && !resolved(status, ls) {
			title := nf.Title
			if title == "" {
				title = strings.TrimSuffix(path.Base(nf.Path), path.Ext(nf.Path))
			}
			out = append(out, questThread(title, ls, held))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(byNote))
	for p := range byNote {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		out = append(out, questSections(byNote[p], held)...)
	}
	return out, nil
}

// questThread is an open quest introduced by its first sentence.
func questThread(title string, ls []noteLine, held []int) Thread {
	first := ls[0]
	for _, l := range ls {
		if !l.heading && l.task == notTask {
			first = l
			break
		}
	}
	m := Moment{Text: first.text, Cite: CiteOf(first.chunk)}
	return Thread{Kind: ThreadQuest, Title: title, Introduced: m, Last: m, OpenSessions: openSince(first.chunk, held), Mentions: 1}
}

// questSections are a note's open quest sections: a heading "Misión: X",
// "Quest — X", up to the next heading, without a resolution.
func questSections(ls []noteLine, held []int) []Thread {
	var out []Thread
	for i, l := range ls {
		title, ok := questHeading(l)
		if !ok {
			continue
		}
		end := i + 1
		for end < len(ls) && !ls[end].heading {
			end++
		}
		if containsWord(text.Fold(l.text), closedWords) || resolved("", ls[i+1:end]) {
			continue
		}
		body := ls[i:end]
		if len(body) > 1 {
			body = body[1:]
		}
		out = append(out, questThread(title, body, held))
	}
	return out
}

// questHeading reports a heading that opens a quest section, and the
// quest's name.
func questHeading(l noteLine) (string, bool) {
	if !l.heading {
		return "", false
	}
	f := text.Fold(l.text)
	for w := range questWords {
		if rest, ok := strings.CutPrefix(f, w); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, " —") || strings.HasPrefix(rest, " -")) {
			title := strings.TrimSpace(strings.TrimLeft(l.text[len(l.text)-len(rest):], ":—- "))
			return cmpOr(title, l.text), true
		}
	}
	return "", false
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// questMeta reads a note's front matter: whether it is a quest, and its
// folded status ("" when none).
func questMeta(notePath string, metadata json.RawMessage) (quest bool, status string) {
	var meta map[string]any
	_ = json.Unmarshal(metadata, &meta) // validated at ingest; none is no quest
	for k, v := range meta {
		key := text.Fold(strings.TrimSpace(k))
		for _, s := range valueStrings(v) {
			f := text.Fold(strings.TrimSpace(s))
			switch {
			case statusKeys[key]:
				status = f
				quest = quest || openWords[f] || closedWords[f]
			case typeKeys[key], tagKeys[key]:
				quest = quest || questWords[strings.TrimPrefix(f, "#")]
			}
		}
	}
	for _, dir := range strings.Split(path.Dir(notePath), "/") {
		quest = quest || questWords[text.Fold(dir)]
	}
	return quest, status
}

// valueStrings are the strings a front matter value holds.
func valueStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// resolved reports a quest resolved: by its status, else by a line that
// says so in its first words ("Completada.", "Estado: resuelta", "Done:
// …"), else by its tasks, all checked.
func resolved(status string, ls []noteLine) bool {
	if closedWords[status] {
		return true
	}
	if openWords[status] {
		return false
	}
	done, open := 0, 0
	for _, l := range ls {
		switch {
		case l.task == taskDone:
			done++
		case l.task == taskOpen:
			open++
		case !l.heading && containsWord(strings.Join(firstWords(text.Fold(l.text), 3), " "), closedWords):
			return true
		}
	}
	return done > 0 && open == 0
}

// firstWords are the first n words of s, without punctuation.
func firstWords(s string, n int) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool { return !text.IsWordRune(r) && r != '✅' && r != '✔' })
	return ws[:min(n, len(ws))]
}

// containsWord reports whether one of the words of s is in set.
func containsWord(s string, set map[string]bool) bool {
	return slices.ContainsFunc(strings.FieldsFunc(s, func(r rune) bool { return !text.IsWordRune(r) && r != '✅' && r != '✔' }), func(w string) bool { return set[w] })
}
