package query

import (
	"slices"
	"testing"
)

// upTo returns the sessions 1..n.
func upTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

func TestAnalyze(t *testing.T) {
	k120 := upTo(120)
	k210 := upTo(210)
	gaps := []int{1, 2, 3, 5, 8, 13, 21, 34, 55, 89}
	lookup, arc := KindLookup, KindArc
	tests := []struct {
		q     string
		known []int
		want  []int
		kind  string
	}{
		// One session.
		{"¿Qué pasó en la sesión 12?", k120, []int{12}, lookup},
		{"que paso en la sesion 12", k120, []int{12}, lookup},
		{"¿QUÉ PASÓ EN LA SESIÓN 12?", k120, []int{12}, lookup},
		{"Resumen de la sesión nº 12", k120, []int{12}, lookup},
		{"¿Quién habló en la sesión n.º 12?", k120, []int{12}, lookup},
		{"¿Qué pasó en la sesión número 7?", k120, []int{7}, lookup},
		{"¿Qué encontramos en la sesión doce?", k120, []int{12}, lookup},
		{"¿Quién murió en la sesión veintitrés?", k120, []int{23}, lookup},
		{"¿Qué pasó en la sesión treinta y cuatro?", k120, []int{34}, lookup},
		{"¿Qué pasó en la sesión ciento cinco?", k120, []int{105}, lookup},
		{"¿Qué pasó en la sesión cien?", k120, []int{100}, lookup},
		{"¿Qué pasó en la sesión ciento noventa y nueve?", k210, []int{199}, lookup},
		{"¿Qué pasó en la sesión doscientos?", k210, []int{200}, lookup},
		{"¿Qué pasó en la sesión 12ª?", k120, []int{12}, lookup},
		{"¿Qué pasó en la sesión veinte y tres?", k120, []int{23}, lookup},
		{"sesiones 3,4 y 7", k120, []int{3, 4, 7}, lookup},
		{"What happened in session 12?", k120, []int{12}, lookup},
		{"what happened in session twelve", k120, []int{12}, lookup},
		{"Who died in session twenty-three?", k120, []int{23}, lookup},
		{"What did we find in session one hundred and five?", k120, []int{105}, lookup},
		{"¿Qué pasó en S12?", k120, []int{12}, lookup},
		{"resumen s7", k120, []int{7}, lookup},
		{"¿Qué pasó en la sesion12?", k120, []int{12}, lookup},
		{"What happened in session #40?", k120, []int{40}, lookup},
		// Several.
		{"¿Qué pasó en las sesiones 3 y 5?", k120, []int{3, 5}, lookup},
		{"What happened in sessions 3, 4 and 7?", k120, []int{3, 4, 7}, lookup},
		{"en las sesiones 3, 4 y 7", k120, []int{3, 4, 7}, lookup},
		{"¿Qué pasó en la sesión 3 y en la sesión 9?", k120, []int{3, 9}, lookup},
		{"¿Hablamos con Harbin en la sesión 3 o la 4?", k120, []int{3, 4}, lookup},
		{"sesiones tres y cinco", k120, []int{3, 5}, lookup},
		{"S3 y S5", k120, []int{3, 5}, lookup},
		// Ranges.
		{"¿Qué pasó entre la sesión 3 y la 5?", k120, []int{3, 4, 5}, lookup},
		{"¿Qué pasó entre las sesiones 3 y 5?", k120, []int{3, 4, 5}, lookup},
		{"¿Qué pasó de la sesión 3 a la 5?", k120, []int{3, 4, 5}, lookup},
		{"desde la sesión 3 hasta la sesión 5", k120, []int{3, 4, 5}, lookup},
		{"resumen de las sesiones 3-5", k120, []int{3, 4, 5}, lookup},
		{"sesiones 3–5", k120, []int{3, 4, 5}, lookup},
		{"S3-S5", k120, []int{3, 4, 5}, lookup},
		{"What happened from session 3 to 5?", k120, []int{3, 4, 5}, lookup},
		{"What happened between sessions 3 and 5?", k120, []int{3, 4, 5}, lookup},
		{"sessions 3 through 5", k120, []int{3, 4, 5}, lookup},
		{"¿qué pasó entre la sesión 5 y la 3?", k120, []int{3, 4, 5}, lookup},
		{"sesiones 115 a 130", k120, []int{115, 116, 117, 118, 119, 120}, lookup},
		{"sesiones 4 a 20", gaps, []int{5, 8, 13}, lookup},
		{"¿Qué pasó desde la sesión 118?", k120, []int{118, 119, 120}, lookup},
		{"¿Qué sabíamos antes de la sesión 3?", k120, []int{1, 2}, lookup},
		{"what happened after session 118?", k120, []int{119, 120}, lookup},
		{"sesiones 1 a 3 y 7", k120, []int{1, 2, 3, 7}, lookup},
		{"sesiones 3 y 500", k120, []int{3}, lookup},
		{"¿Qué pasó tras la sesión 118?", k120, []int{119, 120}, lookup},
		{"¿Qué pasó a partir de la sesión 118?", k120, []int{118, 119, 120}, lookup},
		{"¿Qué sabíamos hasta la sesión 2?", k120, []int{1, 2}, lookup},
		{"what happened in sessions 10-12 and 15?", k120, []int{10, 11, 12, 15}, lookup},
		{"la sesión novecientos noventa y nueve", []int{998, 999}, []int{999}, lookup},
		// Relative.
		{"¿Qué pasó en la última sesión?", k120, []int{120}, lookup},
		{"que paso en la ultima sesion", gaps, []int{89}, lookup},
		{"¿Qué pasó en la sesión anterior?", k120, []int{120}, lookup},
		{"¿Qué hicimos la sesión pasada?", k120, []int{120}, lookup},
		{"Resume las últimas tres sesiones", k120, []int{118, 119, 120}, lookup},
		{"Resume las 3 últimas sesiones", k120, []int{118, 119, 120}, lookup},
		{"¿Qué pasó en las últimas sesiones?", k120, []int{118, 119, 120}, lookup},
		{"¿Qué pasó en las cinco sesiones anteriores?", k120, []int{116, 117, 118, 119, 120}, lookup},
		{"¿Quién nos contrató en la primera sesión?", k120, []int{1}, lookup},
		{"¿Qué pasó en las primeras sesiones?", k120, []int{1, 2, 3}, lookup},
		{"las dos primeras sesiones", gaps, []int{1, 2}, lookup},
		{"¿Qué pasó en la penúltima sesión?", k120, []int{119}, lookup},
		{"What happened in the last session?", k120, []int{120}, lookup},
		{"what happened last session", k120, []int{120}, lookup},
		{"Summarise the last three sessions", k120, []int{118, 119, 120}, lookup},
		{"the last 10 sessions", []int{4, 5, 6}, []int{4, 5, 6}, lookup},
		{"Who hired us in the first session?", k120, []int{1}, lookup},
		{"What happened in the previous session?", k120, []int{120}, lookup},
		{"What happened in the most recent session?", k120, []int{120}, lookup},
		// No filter: passing mentions, counts, other numbers, unknown sessions.
		{"¿Quién murió en la sesión en la que llegamos a Galerna?", k120, nil, lookup},
		{"¿En qué sesión conocimos a Harbin?", k120, nil, lookup},
		{"¿Cuántas sesiones duró el asedio?", k120, nil, lookup},
		{"¿Qué pasó con el archiduque?", k120, nil, lookup},
		{"¿Qué dijo el último rey?", k120, nil, lookup},
		{"What did he say the last time we saw him?", k120, nil, lookup},
		{"¿Quién tenía 12 monedas?", k120, nil, lookup},
		{"¿Qué pasó en el año 1347?", k120, nil, lookup},
		{"¿Qué dice el capítulo 12?", k120, nil, lookup},
		{"¿Qué pasó en la sesión 500?", k120, nil, lookup},
		{"What happened in session 0?", k120, nil, lookup},
		{"¿Qué pasó en la última sesión?", nil, nil, lookup},
		{"¿Qué pasó en la primera sesión en la que apareció Harbin?", k120, nil, lookup},
		{"¿Qué pasó en la última sesión donde vimos al dragón?", k120, nil, lookup},
		{"the first session where we met the baron", k120, nil, lookup},
		{"¿Qué pasó en la sesión anterior a la boda?", k120, nil, lookup},
		{"¿Qué pasó durante 3 sesiones seguidas?", k120, nil, lookup},
		{"¿Qué pasó en las dos sesiones del asedio?", k120, nil, lookup},
		{"¿Qué pasó en la sesión de 12 horas?", k120, nil, lookup},
		{"¿Quién nos atacó la última vez?", k120, nil, lookup},
		{"¿Qué hicimos la primera vez que fuimos a Galerna?", k120, nil, lookup},
		{"How many sessions did the siege last?", k120, nil, lookup},
		{"Who gave us the map in the session where Kael died?", k120, nil, lookup},
		{"¿Qué hacía la sesión una criatura?", k120, nil, lookup},
		{"sesiones 200 a 300", k120, nil, lookup},
		{"¿Qué pasó entre la sesión 3 y el ataque?", k120, nil, lookup},
		{"What happened in room S12?", k120, nil, lookup},
		{"¿Qué hay en la sala S12?", k120, nil, lookup},
		{"¿Qué sesión fue la mejor?", k120, nil, lookup},
		{"¿Cuántas sesiones hemos jugado?", k120, nil, lookup},
		{"¿Dónde estaban las 12 espadas?", k120, nil, lookup},
		{"", k120, nil, lookup},
		{"¿Qué pasó en la sesión 1.000?", k120, nil, lookup},
		{"¿Qué dura la sesión 3.5 del reglamento?", k120, nil, lookup},
		// Arcs.
		{"¿Qué papel ha jugado Harbin?", k120, nil, arc},
		{"¿Qué fue de la capitana Ysolde?", k120, nil, arc},
		{"¿Qué ha pasado cada vez que fuimos a Galerna?", k120, nil, arc},
		{"¿En qué ocasiones hemos visto al Velo?", k120, nil, arc},
		{"¿Qué ha hecho el archiduque a lo largo de la campaña?", k120, nil, arc},
		{"¿Cómo ha evolucionado la relación con los enanos?", k120, nil, arc},
		{"¿En qué sesiones aparece Harbin?", k120, nil, arc},
		{"¿Cómo ha cambiado Kael?", k120, nil, arc},
		{"What happened each time we went to Galerna?", k120, nil, arc},
		{"What role has Harbin played?", k120, nil, arc},
		{"How has Kael changed?", k120, nil, arc},
		{"In which sessions does the baron appear?", k120, nil, arc},
		{"What became of the captain?", k120, nil, arc},
		{"Tell me the whole story of the captain, from when we met her", k120, nil, arc},
		{"What is the history of the baron with the guild?", k120, nil, arc},
		{"Cuéntame la historia con el barón", k120, nil, arc},
		{"¿Qué papel jugó Harbin en las sesiones 3 y 5?", k120, []int{3, 5}, arc},
	}
	for _, tt := range tests {
		got := Analyze(tt.q, "", tt.known)
		if !slices.Equal(got.Sessions, tt.want) || (got.Sessions == nil) != (tt.want == nil) || got.Kind != tt.kind {
			t.Errorf("Analyze(%q) = %v %q (said %q), want %v %q", tt.q, got.Sessions, got.Kind, got.Said, tt.want, tt.kind)
		}
	}
}

func TestAnalyzeSaid(t *testing.T) {
	k := upTo(120)
	tests := []struct{ q, said string }{
		{"¿Qué pasó en la sesión 12?", "en la sesión 12"},
		{"Resume las últimas tres sesiones", "las últimas tres sesiones"},
		{"¿Qué pasó entre la sesión 3 y la 5?", "entre la sesión 3 y la 5"},
		{"What happened in sessions 3, 4 and 7?", "in sessions 3, 4 and 7"},
		{"¿Qué pasó en la sesión 3 y en la sesión 9?", "en la sesión 3; en la sesión 9"},
		{"¿Qué pasó en la sesión anterior?", "en la sesión anterior"},
		{"¿Qué pasó en el año 1347?", ""},
	}
	for _, tt := range tests {
		if got := Analyze(tt.q, "", k).Said; got != tt.said {
			t.Errorf("Analyze(%q).Said = %q, want %q", tt.q, got, tt.said)
		}
	}
}

// TestAnalyzeLang checks that the language decides how ambiguous number
// words are read: "once" is eleven only in Spanish.
func TestAnalyzeLang(t *testing.T) {
	k := upTo(20)
	if got := Analyze("la sesión once", "es", k).Sessions; !slices.Equal(got, []int{11}) {
		t.Errorf("es: got %v, want [11]", got)
	}
	if got := Analyze("the session once ended", "en", k).Sessions; got != nil {
		t.Errorf("en: got %v, want none", got)
	}
}

func TestAnalyzeUnsortedKnown(t *testing.T) {
	got := Analyze("las últimas dos sesiones", "es", []int{9, 3, 9, 7, 1})
	if !slices.Equal(got.Sessions, []int{7, 9}) {
		t.Errorf("got %v, want [7 9]", got.Sessions)
	}
}

// IsArc is what Analyze says of a question's kind, for the answer stage,
// which reads the same phrases as a request for a timeline.
func TestIsArc(t *testing.T) {
	for _, q := range []string{
		"¿Qué papel ha jugado Vesper en la sesión 3?", "What became of Kleb?", "¿Qué se hizo de Harbin Wester?",
		"¿Quién nos dio el mapa?", "Who gave us the map in session 2?", "",
	} {
		want := Analyze(q, "", []int{1, 2, 3}).Kind == KindArc
		if got := IsArc(q); got != want {
			t.Errorf("IsArc(%q) = %v, Analyze says arc %v", q, got, want)
		}
	}
	if !IsArc("¿Qué papel ha jugado Vesper?") || IsArc("¿Quién nos dio el mapa?") {
		t.Fatal("IsArc does not tell an arc from a lookup")
	}
}
