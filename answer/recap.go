package answer

import (
	"strings"

	"github.com/oraculo/oraculo/query"
	"github.com/oraculo/oraculo/story"
)

// recapWords (folded) ask for a session told in short.
var recapWords = setOf("resumen", "resume", "resumeme", "resumir", "recap", "recapitulacion", "recapitulame",
	"summary", "summarize", "summarise", "previously")

// recapFiller (folded) are the words a recap question may hold besides
// the session it names, a recap word and stop words: "¿qué pasó en la
// última sesión?", "what happened in session 12?".
var recapFiller = setOf("que", "paso", "pasaron", "ocurrio", "sucedio", "hicimos", "hicieron", "dame", "hazme",
	"un", "una", "what", "happened", "happen", "did", "we", "do", "give", "me", "a", "an", "on", "of", "in", "the", "la", "el", "de", "en")

// AsksForRecap reports whether question asks for one session told in
// short ("¿qué pasó en la última sesión?", "resumen de la sesión 12",
// "previously on…", "recap of session 3"), and which of known (the
// sessions the asker may see, ascending): the one it names, or the last
// one for "previously". A question that brings a subject of its own
// ("¿qué pasó con Anika en la sesión 12?") is no recap.
func AsksForRecap(question string, known []int) (int, bool) {
	n, ok, _ := AsksForRecapLazily(question, func() ([]int, error) { return known, nil })
	return n, ok
}

// AsksForRecapLazily is [AsksForRecap] calling known for the sessions
// only when the question names some or says "previously". An error of
// known is returned as is.
func AsksForRecapLazily(question string, known func() ([]int, error)) (int, bool, error) {
	var held []int
	read := func() ([]int, error) {
		var err error
		if held == nil {
			held, err = known()
		}
		return held, err
	}
	a, err := query.AnalyzeLazily(question, "", read)
	if err != nil {
		return 0, false, err
	}
	rest := question
	for _, said := range strings.Split(a.Said, "; ") {
		rest = strings.Replace(rest, said, " ", 1)
	}
	asked := false
	for _, w := range words(rest) {
		switch {
		case recapWords[w]:
			asked = true
		case recapFiller[w], isStopWord(w):
		default:
			return 0, false, nil
		}
	}
	switch {
	case len(a.Sessions) == 1:
		return a.Sessions[0], true, nil
	case len(a.Sessions) == 0 && asked && strings.Contains(strings.ToLower(question), "previously"):
		if _, err := read(); err != nil || len(held) == 0 {
			return 0, false, err
		}
		return held[len(held)-1], true, nil
	}
	return 0, false, nil
}

// TellMoments writes moments (a recap's events) as an extractive answer:
// a line each, in order, citing the delivered item of its chunk (by
// public id); a moment whose chunk was not delivered is left out.
func (d *Delivery) TellMoments(moments []story.Moment) string {
	label := map[string]string{}
	for _, it := range d.Context.Items() {
		if ref, ok := d.ids[it.ID]; ok {
			label[ref] = it.Label
		}
	}
	var lines []string
	for _, m := range moments {
		if l, ok := label[m.ID]; ok {
			lines = append(lines, "- "+unbracket(m.Text)+" ["+l+"]")
		}
	}
	return strings.Join(lines, "\n")
}

// RecapInstruction is what a model telling one session is asked besides
// the question, in lang (English for anything but "es").
func RecapInstruction(lang string) string {
	if lang == "es" {
		return "Resume la sesión en el orden en que ocurrió, citando cada hecho, y di qué quedó pendiente."
	}
	return "Summarize the session in the order it happened, citing each event, and say what was left open."
}
