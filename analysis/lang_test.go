package analysis

import "testing"

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
