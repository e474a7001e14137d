package analysis

import (
	"slices"
	"testing"
)

// TestForNotes: the notes' languages, most notes first, Spanish first on
// a tie; a language without notes or not analysed is left out, and with
// none left the fallback stands alone.
func TestForNotes(t *testing.T) {
	fallback, err := New("es")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		counts map[string]int
		want   []string
	}{
		{map[string]int{"es": 3, "en": 5}, []string{"en", "es"}},
		{map[string]int{"en": 2, "es": 2}, []string{"es", "en"}},
		{map[string]int{"en": 1, "es": 0, "": 9, "fr": 4}, []string{"en"}},
		{map[string]int{"fr": 4}, []string{"es"}},
		{nil, []string{"es"}},
	} {
		var got []string
		for _, a := range ForNotes(tc.counts, fallback) {
			got = append(got, a.Lang())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("ForNotes(%v) = %v, want %v", tc.counts, got, tc.want)
		}
	}
}

// TestForQuestion: the question's language among the notes' several,
// else the main analyser.
func TestForQuestion(t *testing.T) {
	all := All()
	if len(all) != 2 || all[0].Lang() != "es" {
		t.Fatalf("All() = %v", all)
	}
	main := all[1]
	for _, tc := range []struct {
		q     string
		langs []*Analyzer
		want  string
	}{
		{"¿Quién mató al dragón?", all, "es"},
		{"Who killed the dragon?", all, "en"},
		{"¿Quién mató al dragón?", all[1:], "en"},
	} {
		if got := ForQuestion(tc.q, tc.langs, main).Lang(); got != tc.want {
			t.Errorf("ForQuestion(%q) = %s, want %s", tc.q, got, tc.want)
		}
	}
}

func TestIsAuto(t *testing.T) {
	for lang, want := range map[string]bool{"": true, " AUTO ": true, "auto": true, "es": false, "en": false} {
		if IsAuto(lang) != want {
			t.Errorf("IsAuto(%q) = %v", lang, !want)
		}
	}
}
