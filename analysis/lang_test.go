package analysis

import (
	"strings"
	"testing"
	"unicode"
)

func TestQuestionLang(t *testing.T) {
	for q, want := range map[string]string{
		"¿Qué pasó con el archiduque?":            "es",
		"que paso con el archiduque":              "es",
		"What happened to the archduke?":          "en",
		"Who gave us the map of the crypts?":      "en",
		"Garrik":                                  "es", // a tie goes to Spanish
		"What did Garrik confess about the boxes": "en",
	} {
		if got := QuestionLang(q); got != want {
			t.Errorf("QuestionLang(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestNoteLang(t *testing.T) {
	for _, c := range []struct {
		text string
		lang string
		sure bool
	}{
		{"El grupo llegó a la aldea y habló con el alcalde sobre los lobos que atacan los rebaños.", "es", true},
		{"Los aventureros cruzan el puente. Garrik dice que la cripta está al norte.", "es", true},
		{"The party reached the village and spoke with the mayor about the wolves that attack the herds.", "en", true},
		{"# Session 4\n\nWe met Gundren Rockseeker in Neverwinter; he asked us to escort a wagon of supplies to Phandalin.", "en", true},
		// Names and lists: too little to tell, so not sure.
		{"Lorem ipsum\n\n## Members\n- a\n- b", "es", false},
		{"The Zentarum\nLorem ipsum", "en", false},
		{"Gundren Rockseeker, Sildar Hallwinter, Phandalin", "es", false},
		{"¿Quién?", "es", false},
		{"", "es", false},
	} {
		lang, sure := NoteLang(c.text)
		if lang != c.lang || sure != c.sure {
			t.Errorf("NoteLang(%q) = %q, %v; want %q, %v", c.text, lang, sure, c.lang, c.sure)
		}
	}
}

func FuzzNoteLang(f *testing.F) {
	f.Add("El grupo llegó a la aldea.")
	f.Add("The party reached the village.")
	f.Fuzz(func(t *testing.T, text string) {
		if lang, _ := NoteLang(text); lang != "es" && lang != "en" {
			t.Fatalf("NoteLang(%q) = %q", text, lang)
		}
	})
}

// noteLangBefore is NoteLang as it was before its ASCII words took a
// path without allocation: what NoteLang must still return.
func noteLangBefore(text string) (lang string, sure bool) {
	es, en := 0.0, 0.0
	words := 0
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' }) {
		if words++; words > noteLangWords {
			break
		}
		lw := strings.ToLower(strings.Trim(w, "'’"))
		switch {
		case noteSpanishWords[lw]:
			es++
		case noteEnglishWords[lw]:
			en++
		}
		if strings.ContainsAny(lw, "ñáéíóú") {
			es += 0.5
		}
	}
	es += float64(strings.Count(text, "¿")+strings.Count(text, "¡")) / 2
	lang = "es"
	if en > es {
		lang = "en"
	}
	hi, lo := max(es, en), min(es, en)
	return lang, hi >= 4 && hi >= 2*lo
}

// TestNoteLangAsBefore: NoteLang gives what it gave before on texts that
// go through both of its paths, and no function word is longer than the
// ASCII path reads.
func TestNoteLangAsBefore(t *testing.T) {
	for w := range noteSpanishWords {
		if len(w) > noteWordMax {
			t.Errorf("%q is longer than noteWordMax", w)
		}
	}
	for w := range noteEnglishWords {
		if len(w) > noteWordMax {
			t.Errorf("%q is longer than noteWordMax", w)
		}
	}
	for _, text := range []string{
		"", "'", "''the''", "THE Of AND", "The party reached the village. ¿Qué pasó? El grupo llegó",
		"'DE' 'la' QUE los Él ÉL él MÁS", "x\xffthe\xffde of", "supercalifragilisticexpialidocious the the the the",
		"it's don't DIDN'T where's ’the’ ’de’", "İstanbul the of and to", "ǅemal de la que",
	} {
		l1, s1 := NoteLang(text)
		l2, s2 := noteLangBefore(text)
		if l1 != l2 || s1 != s2 {
			t.Errorf("NoteLang(%q) = %q, %v; before %q, %v", text, l1, s1, l2, s2)
		}
	}
}

func FuzzNoteLangAsBefore(f *testing.F) {
	f.Add("The party reached the village. ¿Qué pasó? El grupo llegó")
	f.Add("it's DIDN'T ’the’ İstanbul")
	f.Fuzz(func(t *testing.T, text string) {
		l1, s1 := NoteLang(text)
		l2, s2 := noteLangBefore(text)
		if l1 != l2 || s1 != s2 {
			t.Fatalf("NoteLang(%q) = %q, %v; before %q, %v", text, l1, s1, l2, s2)
		}
	})
}
