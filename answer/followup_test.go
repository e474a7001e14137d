package answer

import (
	"strings"
	"testing"
)

func TestFollowUp(t *testing.T) {
	const prev = "¿Qué pasó con el archiduque Valcárcel?"
	// known is a compendium-like matcher: these names, whole words, any case.
	known := func(q string) bool {
		for _, w := range words(q) {
			switch w {
			case "baika", "nix", "galerna", "archiduque", "duke", "anika":
				return true
			}
		}
		return false
	}
	tests := []struct {
		question string
		previous string
		names    func(string) bool
		expand   bool
	}{
		// Openings that go on from the previous question.
		{"¿Y qué pasó después?", prev, nil, true},
		{"¿y luego?", prev, nil, true},
		{"Y después de eso, ¿adónde fueron los jugadores con el botín robado?", prev, nil, true},
		{"¿E hicieron algo para impedirlo antes de la batalla del puente?", prev, nil, true},
		{"Pero ¿por qué traicionó a sus compañeros de la guardia real?", prev, nil, true},
		{"Entonces ¿quién se quedó con la corona y el sello del reino?", prev, nil, true},
		{"Luego, ¿qué hicieron con los prisioneros capturados en la emboscada?", prev, nil, true},
		{"¿Después de la batalla quién mandaba en la fortaleza del norte?", prev, nil, true},
		{"«¡Y qué más!»", prev, nil, true},
		{"And then what happened to the stolen crown and the royal seal?", prev, nil, true},
		{"But why did the guards betray their captain during the siege?", prev, nil, true},
		{"So who ended up keeping the crown and the royal seal?", prev, nil, true},
		{"What about the prisoners captured during the ambush at the bridge?", prev, nil, true},
		// Short questions that name no one.
		{"¿Qué pasó después?", prev, nil, true},
		{"¿Quién lo mató?", prev, nil, true},
		{"¿Dónde estaba?", prev, nil, true},
		{"Who killed him?", prev, nil, true},
		{"What happened next?", prev, nil, true},
		{"¿Por qué lo hizo?", prev, known, true},
		// A name always wins.
		{"¿Y qué hizo Baika?", prev, nil, false},
		{"¿Y qué hizo Baika?", prev, known, false},
		{"¿y qué hizo baika?", prev, known, false},
		{"¿Quién es Nix?", prev, nil, false},
		{"And what did Nix do?", prev, nil, false},
		{"Pero ¿qué quería el archiduque?", prev, known, false},
		{"What did I miss?", prev, nil, true}, // "I" is no name
		// Questions that stand alone.
		{"¿Qué relación tienen los clérigos del templo con la niebla roja del pantano?", prev, nil, false},
		{"How did the party cross the frozen river before the winter storm?", prev, nil, false},
		{"¿Qué pasó con la espada perdida?", prev, func(string) bool { return false }, true},
		{"¿Cuál era el precio que pidió la bruja por curar la maldición del molino?", prev, nil, false},
		// Nothing to expand with.
		{"¿Y qué pasó después?", "", nil, false},
		{"¿Y qué pasó después?", "   ", nil, false},
		{"", prev, nil, false},
		// Words that only look like openings.
		{"Yendo hacia el norte por el camino viejo, ¿dónde acamparon los jugadores esa noche?", prev, nil, false},
		{"Eso que contó el tabernero sobre la plaga de ratas del puerto, ¿era cierto?", prev, nil, false},
	}
	if len(tests) < 20 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		query, expanded := FollowUp(tt.question, tt.previous, tt.names)
		if expanded != tt.expand {
			t.Errorf("FollowUp(%q, %q) expanded = %v, want %v", tt.question, tt.previous, expanded, tt.expand)
			continue
		}
		want := strings.TrimSpace(tt.question)
		if expanded {
			want = strings.TrimSpace(tt.previous) + " " + want
		}
		if query != want {
			t.Errorf("FollowUp(%q) query = %q, want %q", tt.question, query, want)
		}
	}
}

func TestCapitalisedName(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"¿Qué hizo Baika?", true},
		{"Nix", false},
		{"¿Quién es?", false},
		{"Hola. Nix vino.", false},
		{"hola nix. ¿Dónde está Kael-Dur?", true},
		{"What did I do? I'm lost.", false},
		{"¿Y el Farolero?", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := capitalisedName(tt.q); got != tt.want {
			t.Errorf("capitalisedName(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
}
