package answer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/oraculo/oraculo/query"
	txt "github.com/oraculo/oraculo/text"
)

// Kinds of answer a question asks for (see [QuestionKinds]).
const (
	// AskWho asks for a person: "¿quién…?", "who…?", "¿cómo se llama…?".
	AskWho = "who"
	// AskWhere asks for a place: "¿dónde…?", "¿adónde…?", "where…?".
	AskWhere = "where"
	// AskWhen asks for a moment: "¿cuándo…?", "¿en qué sesión…?", "when…?".
	AskWhen = "when"
	// AskHowMany asks for a number or an amount: "¿cuánto…?", "how many…?".
	AskHowMany = "how many"
	// AskWhy asks for a cause: "¿por qué…?", "why…?".
	AskWhy = "why"
)

// interrogatives are the question words, folded, Spanish and English: they
// say what kind of answer is wanted, never what it is about, so no answer
// claims that the notes lack them.
var interrogatives = setOf("que", "quien", "quienes", "donde", "adonde", "cuando", "cuanto",
	"cuanta", "cuantos", "cuantas", "cual", "cuales", "como", "porque", "por",
	"what", "who", "whom", "whose", "where", "when", "which", "why", "how")

// QuestionKinds returns the kinds of answer question asks for (AskWho,
// AskWhere...), in the order it asks them, each once. Spanish interrogatives
// count with their accent ("¿cuándo…?", not "cuando volvimos"); English
// ones where a clause starts with them ("when did…", not "what happened
// when…").
func QuestionKinds(question string) []string {
	var out []string
	add := func(k string) {
		for _, have := range out {
			if have == k {
				return
			}
		}
		out = append(out, k)
	}
	toks := questionTokens(question)
	for i, t := range toks {
		f := txt.Fold(t.word)
		next := ""
		if i+1 < len(toks) {
			next = txt.Fold(toks[i+1].word)
		}
		accented := f != strings.ToLower(t.word)
		switch {
		case (f == "quien" || f == "quienes") && accented,
			f == "como" && accented && next == "se" && i+2 < len(toks) && strings.HasPrefix(txt.Fold(toks[i+2].word), "llam"),
			t.opens && (f == "who" || f == "whom" || f == "whose"),
			t.opens && f == "what" && next == "is" && i+3 < len(toks) && txt.Fold(toks[i+3].word) == "name":
			add(AskWho)
		case (f == "donde" || f == "adonde") && accented, t.opens && f == "where":
			add(AskWhere)
		case f == "cuando" && accented, t.opens && f == "when",
			(f == "que" || f == "cual") && accented && (strings.HasPrefix(next, "sesion") || next == "dia" || next == "ano" || next == "momento"),
			t.opens && (f == "what" || f == "which") && (strings.HasPrefix(next, "session") || next == "day" || next == "year"):
			add(AskWhen)
		case strings.HasPrefix(f, "cuant") && accented,
			t.opens && f == "how" && (next == "many" || next == "much"):
			add(AskHowMany)
		case f == "por" && next == "que" && i+1 < len(toks) && txt.Fold(toks[i+1].word) != strings.ToLower(toks[i+1].word),
			t.opens && f == "why":
			add(AskWhy)
		}
	}
	return out
}

// AsksForTimeline reports whether question asks about a history over
// several sessions or notes ("¿qué papel ha jugado X?", "what has X done
// across the sessions", "Resume la historia de X: quién era, qué le pasó y
// cómo acabó"): its answer is a timeline, one cited sentence per session
// in session order. A question that asks three things or more at once
// counts too: its evidence is spread.
func AsksForTimeline(question string) bool {
	toks := questionTokens(question)
	folded := make([]string, len(toks))
	for i, t := range toks {
		folded[i] = txt.Fold(t.word)
	}
	has := func(phrase ...string) bool {
		for i := 0; i+len(phrase) <= len(folded); i++ {
			ok := true
			for j, w := range phrase {
				if w != "*" && folded[i+j] != w {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	}
	if query.IsArc(question) {
		return true
	}
	for _, w := range folded {
		if timelineWords[w] {
			return true
		}
	}
	for _, p := range timelinePhrases {
		if has(strings.Fields(p)...) {
			return true
		}
	}
	return questionAsks(question) >= 3
}

// questionAsks counts the questions question asks at once: its
// interrogatives that open a clause, or Spanish ones written with their
// accent ("¿quién…? ¿y dónde…?", "who…, and where…?").
func questionAsks(question string) int {
	asks := 0
	for _, t := range questionTokens(question) {
		f := txt.Fold(t.word)
		if interrogatives[f] && f != "por" && (t.opens || f != strings.ToLower(t.word)) {
			asks++
		}
	}
	return asks
}

// timelineWords and timelinePhrases (folded) make a question one about a
// history, besides the arc phrases of [query.IsArc]: they are the ones
// that ask for a history without making the question an arc for search
// ("qué sabemos de X", "en total", "how has X...").
var timelineWords = setOf("trayectoria", "evolucion", "compara", "comparame", "comparar",
	"role", "evolved", "evolution", "throughout", "compare")

var timelinePhrases = []string{
	"que sabemos", "que pistas", "ha aparecido", "han aparecido", "en total", "diferencia entre", "diferencias entre",
	"what do we know", "what have we learned", "in total", "difference between",
	"a lo largo", "cada vez", "desde que", "ha cambiado",
	"que ha hecho", "que han hecho",
	"over the", "what has become", "what has * done", "what have * done",
	"from when", "how has", "how have", "across the",
}

// questionToken is one word of a question, and whether it opens a clause
// (the question's first word, or the first after "¿", "¡", ":", ";", ",",
// ".", "?" or "!", or after "and" / "y").
type questionToken struct {
	word  string
	opens bool
}

func questionTokens(q string) []questionToken {
	var out []questionToken
	opens := true
	i := 0
	for i < len(q) {
		r, n := utf8.DecodeRuneInString(q[i:])
		if !isQuestionWordRune(r) {
			if strings.ContainsRune("¿¡:;,.?!", r) {
				opens = true
			}
			i += n
			continue
		}
		j := i
		for j < len(q) {
			r2, n2 := utf8.DecodeRuneInString(q[j:])
			if !isQuestionWordRune(r2) {
				break
			}
			j += n2
		}
		w := q[i:j]
		out = append(out, questionToken{word: w, opens: opens})
		f := txt.Fold(w)
		opens = f == "and" || f == "y" || f == "e"
		i = j
	}
	return out
}

func isQuestionWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '\''
}

// questionNames returns the words of question that are names: capitalised
// words that do not open a clause and are not question words ("¿Adónde
// fue Nix?" names Nix, not "Adónde").
func questionNames(question string) []string {
	var out []string
	for _, t := range questionTokens(question) {
		if t.opens || interrogatives[txt.Fold(t.word)] {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(t.word); unicode.IsUpper(r) {
			out = append(out, t.word)
		}
	}
	return out
}

// holdsKind reports whether sentence holds what a question of one of
// kinds asks for: a name the question does not use (asked holds its folded
// words) for who; that or a word of place for where; a number or a word of
// time for when; a number for how many; a word of cause for why.
//
// A capitalised word opening a clause is a name only when it is not a stop
// word and shares no term with the question (terms is the analyser's):
// "Vesper les da un mapa" names Vesper, "Allí" and "Abandonada" (for
// "¿quién abandonó…?") name no one.
func holdsKind(sentence string, kinds []string, asked map[string]bool, terms func(string) []string) bool {
	if len(kinds) == 0 {
		return false
	}
	var toks []questionToken
	newName, number := false, false
	for _, t := range questionTokens(sentence) {
		toks = append(toks, t)
		f := txt.Fold(t.word)
		if r, _ := utf8.DecodeRuneInString(t.word); !newName && unicode.IsUpper(r) && !asked[f] && !interrogatives[f] {
			ts := terms(t.word)
			fresh := len(ts) > 0
			for _, w := range ts {
				if asked[w] {
					fresh = false
				}
			}
			newName = fresh && (!t.opens || !stopOpening(t.word, terms))
		}
		if strings.ContainsFunc(t.word, unicode.IsDigit) || numberWords[f] {
			number = true
		}
	}
	for _, k := range kinds {
		switch k {
		case AskWho:
			if newName {
				return true
			}
		case AskHowMany:
			if number {
				return true
			}
		case AskWhere, AskWhen, AskWhy:
			if k == AskWhere && newName || k == AskWhen && number {
				return true
			}
			cues := map[string]map[string]bool{AskWhere: placeWords, AskWhen: timeWords, AskWhy: causeWords}[k]
			for i, t := range toks {
				f := txt.Fold(t.word)
				if cues[f] || i+1 < len(toks) && cues[f+" "+txt.Fold(toks[i+1].word)] {
					return true
				}
			}
		}
	}
	return false
}

// stopOpening reports whether a capitalised word that opens a clause is
// just the clause's first word: what the analyser keeps of it, lowercased,
// is what it keeps of it capitalised (a name keeps its own term either
// way, so this only says the word is an ordinary one when the analyser
// drops it).
func stopOpening(word string, terms func(string) []string) bool {
	return len(terms(strings.ToLower(word))) == 0
}

// The words (folded) that hold what a question asks for.
var (
	numberWords = setOf("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
		"once", "doce", "quince", "veinte", "treinta", "cuarenta", "cincuenta", "cien", "ciento",
		"cientos", "doscientos", "trescientos", "quinientos", "mil", "docena", "mitad", "primero", "primera",
		"segundo", "segunda", "tercero", "tercera", "two", "three", "four", "five", "six", "seven",
		"eight", "nine", "ten", "eleven", "twelve", "fifteen", "twenty", "thirty", "forty", "fifty",
		"hundred", "hundreds", "thousand", "dozen", "half", "twice", "first", "second", "third")
	placeWords = setOf("norte", "sur", "este", "oeste", "dentro", "fuera", "bajo", "debajo",
		"encima", "junto", "cerca", "lejos", "hacia", "desde", "camino", "ciudad", "pueblo", "casa",
		"north", "south", "east", "west", "inside", "outside", "under", "beneath", "above",
		"near", "towards", "toward", "city", "town", "village", "house")
	timeWords = setOf("sesion", "dia", "dias", "noche", "noches", "manana", "tarde", "ano", "anos",
		"mes", "meses", "semana", "semanas", "antes", "despues", "luego", "mientras", "durante",
		"hace", "entonces", "ayer", "hoy", "session", "day", "days", "night", "nights", "morning",
		"evening", "year", "years", "month", "months", "week", "weeks", "before", "after", "later",
		"while", "during", "ago", "then", "yesterday", "today", "dawn", "amanecer", "alba")
	causeWords = setOf("porque", "para", "pues", "debido", "causa", "motivo", "razon", "culpa",
		"por eso", "ya que", "asi que", "because", "since", "reason", "due", "so that", "in order",
		"order to", "so", "therefore", "caused")
)
