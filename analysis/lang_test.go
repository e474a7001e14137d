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
