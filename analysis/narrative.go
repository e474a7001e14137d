package analysis

import (
	"strings"
	"unicode"
)

// FirstPersonPlural reports whether a question speaks in the first person
// plural ("¿quién nos dio el mapa?", "¿qué encontramos?", "what did we
// find?"): in campaign notes, a question about what the party lived,
// which the session notes tell. lang is "es" or "en"; any other language
// gets false.
//
// Spanish: the pronouns and possessives (nos, nosotros, nuestro...), or a
// verb form ending in -amos, -emos or -imos (encontramos, conocimos),
// except for the common nouns and adjectives with those endings (ramos,
// extremos, últimos, primos...). English: we, us, our, ours, ourselves.
func FirstPersonPlural(lang, question string) bool {
	words := strings.FieldsFunc(strings.ToLower(question), func(r rune) bool { return !unicode.IsLetter(r) })
	switch lang {
	case "es":
		for _, w := range words {
			w = fold(w, false)
			if esPlural[w] {
				return true
			}
			if len(w) >= 5 && !esNotVerbs[w] && (strings.HasSuffix(w, "amos") || strings.HasSuffix(w, "emos") || strings.HasSuffix(w, "imos")) {
				return true
			}
		}
	case "en":
		for _, w := range words {
			if enPlural[w] {
				return true
			}
		}
	}
	return false
}

var esPlural = setOf("nos", "nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras")

// esNotVerbs are frequent words ending like a first-person-plural verb
// that are not verbs.
var esNotVerbs = setOf(
	"ramos", "tramos", "gamos", "reclamos", "prestamos", "escamos", "camos",
	"extremos", "supremos", "remos", "blasfemos",
	"ultimos", "proximos", "minimos", "maximos", "intimos", "legitimos", "septimos", "decimos",
	"primos", "racimos", "animos", "optimos", "infimos", "anonimos", "sinonimos", "maritimos",
	"centimos", "legitimos",
)

var enPlural = setOf("we", "us", "our", "ours", "ourselves")
