package answer

import (
	"strings"
)

// abstentionItems is how many pieces of the closest evidence an abstention
// names.
const abstentionItems = 5

// abstentionGistWords clips what an abstention says of each piece.
const abstentionGistWords = 30

// SaysNotInNotes reports whether text states that the notes (or the
// evidence, the excerpts...) do not hold the answer, in Spanish or English:
// "Las notas no dicen…", "No aparece en las notas", "No hay información
// sobre…", "No se menciona…", "The notes don't mention…", "There is no
// information about…", "I couldn't find anything in the notes". A text that
// answers one part and says another is missing also counts; callers that
// need "nothing was answered" should also look at its valid citations.
func SaysNotInNotes(text string) bool {
	for clause := range strings.FieldsFuncSeq(text, isClauseBreak) {
		if saysMissing(words(clause)) {
			return true
		}
	}
	return false
}

func isClauseBreak(r rune) bool {
	return strings.ContainsRune(".,;:!?¿¡()[]\n", r)
}

// saysMissing looks for the patterns of an abstention in one clause's
// folded words.
func saysMissing(w []string) bool {
	in := func(i int) string {
		if i < 0 || i >= len(w) {
			return ""
		}
		return w[i]
	}
	for i, x := range w {
		switch {
		case abstainSources[x]:
			// "las notas (que tengo) no dicen", "the notes don't mention":
			// a negation before any verb of saying, then the verb.
			for j := i + 1; j <= i+4 && j < len(w) && !isSaying(w[j]); j++ {
				if abstainNegations[w[j]] && anyIn(w, j+1, j+4, isSaying) {
					return true
				}
			}
			// "the notes say nothing", "las notas no dicen nada".
			for j := i + 1; j <= i+3 && j < len(w); j++ {
				if isSaying(w[j]) && (in(j+1) == "nothing" || in(j+1) == "nada") {
					return true
				}
			}
		case abstainNegations[x]:
			// "ninguna de las notas menciona".
			for j := i + 1; j <= i+4 && j < len(w); j++ {
				if abstainSources[w[j]] && anyIn(w, j+1, j+3, isSaying) {
					return true
				}
			}
			// "no aparece en las notas", "nothing in the notes".
			for j := i + 1; j <= i+7 && j < len(w); j++ {
				if abstainIn[w[j]] && anyIn(w, j+1, j+3, func(s string) bool { return abstainSources[s] }) {
					return true
				}
			}
			// "no hay información", "there is no mention", "I have no data".
			// ("not mention" is a verb: "she did not mention the ring").
			if anyIn(w, i+1, i+3, func(s string) bool { return abstainInfo[s] && (x != "not" || !abstainInfoVerbs[s]) }) {
				return true
			}
			// "no se menciona", "no consta", "not mentioned", "no está claro".
			if abstainPassive[in(i+1)] || (in(i+1) == "se" && isSaying(in(i+2))) ||
				(in(i+1) == "esta" || in(i+1) == "queda") && abstainPassive[in(i+2)] {
				return true
			}
			// "no encuentro nada", "no puedo responder", "I can't find".
			if anyIn(w, i+1, i+2, func(s string) bool { return abstainFirstPerson[s] }) {
				return true
			}
			// "no lo sé".
			if x == "no" && in(i+1) == "lo" && in(i+2) == "se" {
				return true
			}
		case x == "i":
			// "I couldn't find", "I cannot answer", "I don't know".
			for j := i + 1; j <= i+3 && j < len(w); j++ {
				if (w[j] == "not" || w[j] == "cannot" || w[j] == "never") &&
					anyIn(w, j+1, j+2, func(s string) bool { return abstainFirstPersonEN[s] }) {
					return true
				}
			}
		}
	}
	return false
}

// anyIn reports whether f holds for one of w[from..to].
func anyIn(w []string, from, to int, f func(string) bool) bool {
	for j := max(from, 0); j <= to && j < len(w); j++ {
		if f(w[j]) {
			return true
		}
	}
	return false
}

// isSaying reports a folded verb form of saying, mentioning, containing
// or showing, Spanish or English.
func isSaying(s string) bool {
	if len(s) < 3 {
		return false
	}
	for _, p := range sayingPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return sayingWords[s]
}

var sayingPrefixes = []string{
	"dic", "dij", "mencion", "habl", "recog", "cuent", "cont", "inclu",
	"especific", "aclar", "indic", "precis", "explic", "reflej", "aparec",
	"aport", "registr", "detall", "describ", "respond", "const", "ofrec",
	"mention", "contain", "includ", "specif", "cover", "state",
	"explain", "describe", "answer", "address", "provid", "record",
	"refer", "talk", "detail",
}

var sayingWords = setOf("say", "says", "tell", "tells", "told", "give",
	"gives", "show", "shows", "silent", "hay", "tienen", "tiene", "have",
	"has", "mencionan")

var (
	abstainSources = setOf("notas", "nota", "pruebas", "evidencia",
		"evidencias", "fragmentos", "apuntes", "textos", "documentos",
		"fuentes", "contexto", "material", "notes", "evidence", "sources",
		"excerpts", "fragments", "documents", "context", "records")
	abstainNegations = setOf("no", "not", "nada", "nothing", "ni", "nunca",
		"never", "ningun", "ninguna", "ninguno", "none", "nowhere")
	abstainIn   = setOf("en", "in", "within", "from")
	abstainInfo = setOf("informacion", "datos", "dato", "mencion",
		"constancia", "referencia", "referencias", "information", "info",
		"data", "mention", "details", "detalles", "record")
	abstainInfoVerbs = setOf("mention", "record")
	abstainPassive   = setOf("consta", "constan", "mentioned", "stated",
		"specified", "recorded", "covered", "described", "documented",
		"indicated", "explained", "detailed", "addressed", "claro",
		"especificado", "mencionado", "indicado", "registrado", "recogido",
		"documentado", "descrito", "explicado", "detallado")
	abstainFirstPerson = setOf("encuentro", "encontre", "hallo", "veo",
		"responder", "contestar", "puedo", "desconozco")
	abstainFirstPersonEN = setOf("find", "found", "answer", "know", "see",
		"tell")
)

// Abstention is the answer to give when the evidence does not answer: it
// says so and names what the notes do cover nearby, the first few delivered
// items with a short gist and their label in brackets, so that it passes
// [Verify] and [SaysNotInNotes]. Spanish when lang is "es", English
// otherwise.
func Abstention(lang string, ctx Context) string {
	return AbstentionWith(lang, ctx, nil)
}

// AbstentionWith is [Abstention] with the lines to show as what comes
// closest (from [Closest]); without any, the gists of the first items.
func AbstentionWith(lang string, ctx Context, closest []string) string {
	es := strings.EqualFold(strings.TrimSpace(lang), "es")
	idx := newLabelIndex(ctx)
	lines := closest
	for _, it := range ctx.Items() {
		if len(closest) > 0 {
			break
		}
		if len(lines) == abstentionItems {
			break
		}
		if !idx.citable(it) {
			continue
		}
		line := "- "
		if g := gist(it); g != "" {
			line += g + " "
		}
		lines = append(lines, line+"["+it.Label+"]")
	}
	switch {
	case len(lines) == 0 && es:
		return "Las notas no dicen eso, y no encuentro en ellas nada cercano."
	case len(lines) == 0:
		return "The notes don't say, and I find nothing close in them."
	case es:
		return "Las notas no dicen eso. Lo más cercano que cubren:\n" + strings.Join(lines, "\n")
	}
	return "The notes don't say. The closest they cover:\n" + strings.Join(lines, "\n")
}

// gist is the first sentence of an item, clipped, safe to quote and without
// a final period (its citation follows).
func gist(it Item) string {
	if it.Gist != "" {
		if qs := quotes(it.Gist); len(qs) > 0 {
			return strings.TrimRight(clipWords(qs[0].text, abstentionGistWords), ". ")
		}
	}
	if qs := quotes(it.Text); len(qs) > 0 {
		return strings.TrimRight(clipWords(qs[0].text, abstentionGistWords), ". ")
	}
	return ""
}
