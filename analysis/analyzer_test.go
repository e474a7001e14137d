package analysis

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func mustNew(t testing.TB, lang string) *Analyzer {
	t.Helper()
	a, err := New(lang)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNew(t *testing.T) {
	for _, tt := range []struct{ in, lang string }{
		{"es", "es"}, {"ES", "es"}, {"spanish", "es"}, {" Spanish ", "es"},
		{"en", "en"}, {"EN", "en"}, {"english", "en"}, {"English", "en"},
	} {
		a, err := New(tt.in)
		if err != nil {
			t.Errorf("New(%q): %v", tt.in, err)
			continue
		}
		if a.Lang() != tt.lang {
			t.Errorf("New(%q).Lang() = %q, want %q", tt.in, a.Lang(), tt.lang)
		}
		if !strings.HasPrefix(a.Version(), tt.lang+"-") {
			t.Errorf("New(%q).Version() = %q, want prefix %q", tt.in, a.Version(), tt.lang+"-")
		}
	}
	for _, in := range []string{"", "fr", "español", "es-ES", "eng"} {
		a, err := New(in)
		if a != nil || !errors.Is(err, ErrUnsupportedLanguage) {
			t.Errorf("New(%q) = %v, %v; want nil, ErrUnsupportedLanguage", in, a, err)
			continue
		}
		if q := `"` + in + `"`; !strings.Contains(err.Error(), q) {
			t.Errorf("New(%q) error %q does not name the language as %s", in, err, q)
		}
	}
	if es, en := mustNew(t, "es"), mustNew(t, "en"); es.Version() == en.Version() {
		t.Errorf("es and en share version %q", es.Version())
	}
}

type termsCase struct {
	name string
	in   string
	want []string
}

func runTermsCases(t *testing.T, a *Analyzer, tests []termsCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := a.Terms(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Terms(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSpanishTerms(t *testing.T) {
	runTermsCases(t, mustNew(t, "es"), []termsCase{
		{"empty", "", nil},
		{"only stop words", "de la que el en y a los", nil},
		{"question", "¿Qué pasó con el archiduque?", []string{"pas", "archiduqu"}},
		{"question without accents", "que paso con el archiduque", []string{"pas", "archiduqu"}},
		{"interrogatives with and without accent", "cómo como qué que él el sí mí tú", nil},
		{"markdown note", "## Sesión 12 — El puente\n**Norkiel** cruzó el [[Puente de Galerna|puente]].",
			[]string{"sesion", "12", "puent", "norkiel", "cruz", "puent", "galern", "puent"}},
		{"bold session", "**Sesión 7**", []string{"sesion", "7"}},
		{"wiki link", "[[Harbin Wester|el viejo]]", []string{"harbin", "west", "viej"}},
		{"numbers kept", "En 2015 había 50 soldados y 3 barcos", []string{"2015", "50", "sold", "3", "barc"}},
		{"duplicates kept in order", "puente, puentes y PUENTE", []string{"puent", "puent", "puent"}},
		{"cancel family", "cancelar cancelarse cancelación cancelaciones cancelado cancelaron cancelamos",
			[]string{"cancel", "cancel", "cancel", "cancel", "cancel", "cancel", "cancel"}},
		{"noun family", "sesión sesiones sesion", []string{"sesion", "sesion", "sesion"}},
		{"gender and number", "necesario necesaria necesarios necesarias", []string{"necesari", "necesari", "necesari", "necesari"}},
		{"-ia nouns", "historia historias histórico", []string{"histori", "histori", "histor"}},
		// Snowball does not unify irregular verbs: morir, murió, murieron and
		// muerto give four different stems; murió and moría keep their i.
		{"irregular verb morir", "morir murió murieron muerto moría morirá", []string{"mor", "muri", "mur", "muert", "mori", "mor"}},
		{"attached pronouns", "comiéndoselo cancelándole cancelarlas", []string{"com", "cancel", "cancel"}},
		// ...but only when the gerund or infinitive lies in RV.
		{"attached pronoun too early", "dándole", []string{"dandol"}},
		// ñ is a letter of its own. Snowball leaves "años" alone (its RV
		// starts after the o), so año and años differ.
		{"ñ is a letter", "año ano años anos", []string{"año", "ano", "años", "anos"}},
		{"ü is folded", "pingüino pinguino", []string{"pinguin", "pinguin"}},
		{"other accents folded", "garçon crème Ærø", []string{"garcon", "crem", "aer"}},
		{"nfd input", "cancelacio\u0301n an\u0303o", []string{"cancel", "año"}},
		{"apostrophes split", "l'amour d'Artagnan", []string{"l", "amour", "d", "artagn"}},
		{"ordinal indicators", "1º 2ª", []string{"1o", "2a"}},
		{"invalid utf-8", "pue\xffnte \xc3", []string{"pue", "nte"}},
		// The 64-byte limit applies to the folded term: 33 "á" (66 bytes
		// in NFC, 99 in NFD) fold to 33 bytes and are kept.
		{"overlong token dropped", strings.Repeat("a", 65) + " casa " + strings.Repeat("á", 33),
			[]string{"cas", strings.Repeat("a", 33)}},
		{"64-byte token kept", strings.Repeat("x", 64), []string{strings.Repeat("x", 64)}},
	})
}

// TestSpanishAccentInsensitive checks the requirement that matters most:
// notes and questions typed with or without accents give the same terms.
func TestSpanishAccentInsensitive(t *testing.T) {
	es := mustNew(t, "es")
	pairs := [][2]string{
		{"cancelación", "cancelacion"},
		{"sesión", "sesion"},
		{"murió", "murio"},
		{"pasó", "paso"},
		{"Cómo", "como"},
		{"canción", "cancion"},
		{"árbol", "arbol"},
		{"teníamos", "teniamos"},
		{"cancelaría", "cancelaria"},
		{"película", "pelicula"},
		{"rápidamente", "rapidamente"},
		{"análisis", "analisis"},
		{"vivirá", "vivira"},
		{"estábamos", "estabamos"},
		{"Sesión", "SESION"},
		{"sesión", "sesio\u0301n"},           // NFC vs NFD
		{"AÑO", "an\u0303o"},                 // NFD ñ
		{"ÁRBOL", "A\u0301rbol"},             // NFD uppercase
		{"pingüino", "pingu\u0308ino"},       // NFD diaeresis
		{"Él dijo que sí", "el dijo que si"}, // stop words both ways
		{"¿Quién murió?", "quien murio"},     // whole question
		{"acción", "accio\u0301n"},           // NFD in a suffix
		{"averigüéis", "averigueis"},         // ü and é in the ending
		{"corazón", "corazon"},               // no suffix at all
		{"Galería", "galeria"},               // -ería noun
		{"lámpara", "lampara"},               // accent in the stem
		{"límite", "limite"},                 // accent in the stem
		{"Ñandú", "ñandu"},                   // ñ and ú
		{"ésta está", "esta esta"},           // stop words
		{"tendrán", "tendran"},               // future
	}
	for _, p := range pairs {
		a, b := es.Terms(p[0]), es.Terms(p[1])
		if !reflect.DeepEqual(a, b) {
			t.Errorf("Terms(%q) = %q but Terms(%q) = %q", p[0], a, p[1], b)
		}
	}
}

func TestInventedNames(t *testing.T) {
	for _, lang := range []string{"es", "en"} {
		a := mustNew(t, lang)
		for _, group := range [][]string{
			{"Norkiel", "norkiel", "NORKIEL", "**Norkiel**", "[[Norkiel]]"},
			{"Galerna", "GALERNA", "galerna"},
			{"Harbin", "HARBIN"},
			{"Wester", "wester"},
			{"Zaratrusk", "ZARATRUSK"},
			{"Ilvaë", "ilvae", "ILVAË"},
		} {
			want := a.Terms(group[0])
			if len(want) != 1 {
				t.Errorf("%s: Terms(%q) = %q, want a single term", lang, group[0], want)
				continue
			}
			for _, v := range group[1:] {
				if got := a.Terms(v); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Terms(%q) = %q, want %q as for %q", lang, v, got, want, group[0])
				}
			}
		}
	}
}

func TestEnglishTerms(t *testing.T) {
	runTermsCases(t, mustNew(t, "en"), []termsCase{
		{"empty", "", nil},
		{"stop words", "The quick brown foxes jumped over the lazy dogs",
			[]string{"quick", "brown", "fox", "jump", "lazi", "dog"}},
		{"porter2", "running runs generously generations consigned knightly skies dying",
			[]string{"run", "run", "generous", "generat", "consign", "knight", "sky", "die"}},
		{"contractions", "It isn't what they'll say; John's don't", []string{"say", "john", "don"}},
		{"diacritics folded", "naïve café résumé señor Zoë", []string{"naiv", "cafe", "resum", "senor", "zoe"}},
		{"markdown", "## Session 12 — **The bridge**", []string{"session", "12", "bridg"}},
		{"numbers", "In 2015 there were 50 ships", []string{"2015", "50", "ship"}},
	})
}

func TestAnalyzeOffsets(t *testing.T) {
	es := mustNew(t, "es")
	in := "El **Puente** de Galerna"
	got := es.Analyze(in)
	want := TokenStream{
		{Term: "puent", Start: 5, End: 11, Position: 1},
		{Term: "galern", Start: 17, End: 24, Position: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Analyze(%q)\n got %+v\nwant %+v", in, got, want)
	}
}

func TestConcurrentUse(t *testing.T) {
	es := mustNew(t, "es")
	text := strings.Repeat("## Sesión 12\nNorkiel canceló la reunión con el archiduque. ", 20)
	want := es.Terms(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if got := es.Terms(text); !reflect.DeepEqual(got, want) {
					t.Error("concurrent Terms differ")
					return
				}
			}
		})
	}
	wg.Wait()
}
