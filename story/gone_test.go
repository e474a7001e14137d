package story

import (
	"strings"
	"testing"
)

// mentionOf returns the words of the first occurrence of name in s.
func mentionOf(t *testing.T, s sentence, name string) (int, int) {
	t.Helper()
	i := strings.Index(s.text, name)
	if i < 0 {
		t.Fatalf("%q not in %q", name, s.text)
	}
	return s.words(i, i+len(name))
}

func TestGoneIn(t *testing.T) {
	for _, c := range []struct {
		sent, name string
		kind       string
		want       bool
	}{
		{"Breto ha muerto.", "Breto", "other", true},
		{"El séptimo día llegó la noticia: **Lady Mencía de Oros ha muerto**.", "Mencía de Oros", "npc", true},
		{"Leoric murió mientras dormía.", "Leoric", "npc", true},
		{"Garrik cae de rodillas, nos mira con cara de sorpresa y se muere en brazos de Fenwick.", "Garrik", "npc", true},
		{"Al amanecer muere Breto, sin decir nada.", "Breto", "other", true},
		{"Vesper se fue para siempre de la ciudad.", "Vesper", "npc", true},
		{"Al final, Mordisco queda destruida en la forja.", "Mordisco", "item", true},
		{"Klarg died in the cave.", "Klarg", "other", true},
		{"Ultimately, the party slew the bugbear Klarg as well as his wolf.", "Klarg", "other", true},
		{"Sildar was killed by the goblins.", "Sildar", "npc", true},
		{"Kleb left the party for good.", "Kleb", "pc", true},
		{"With Tactus Avorio slain, the party stops fleeing.", "Tactus Avorio", "npc", true},
		{"The book vanished after Sindras perished.", "Sindras", "npc", true},
		{"Tactus Avorio slain the day before, the house is empty.", "Tactus Avorio", "npc", false},
		// Not gone: another subject, a doubt, a temporary departure, a
		// figure of speech about a place, a question.
		{"Nix dispara y el guardia muere.", "Nix", "pc", false},
		{"Garrik casi muere en el puente.", "Garrik", "npc", false},
		{"La que se llevaron no está muerta: Ciriela no murió.", "Ciriela", "npc", false},
		{"Odalric se marcha a la cocina.", "Odalric", "npc", false},
		{"Kleb left the room.", "Kleb", "pc", false},
		{"La ciudad entera se quedó muda y murió.", "ciudad", "place", false},
		{"¿Ha muerto Breto?", "Breto", "other", false},
		{"If Klarg dies, the goblins flee.", "Klarg", "other", false},
		{"Tomás dice que la noche en que murió Garrik llovía.", "Tomás", "pc", false},
		{"Recordamos a Garrik, que murió en la sesión 37.", "Garrik", "npc", false},
		{"Vimos el cuerpo de Garrik.", "Garrik", "npc", false},
	} {
		s := newSentence(c.sent)
		from, to := mentionOf(t, s, c.name)
		if got := goneIn(s, from, to, c.kind); got != c.want {
			t.Errorf("goneIn(%q, %q) = %v, want %v", c.sent, c.name, got, c.want)
		}
	}
}

func TestActsIn(t *testing.T) {
	for _, c := range []struct {
		sent, name string
		want       bool
	}{
		{"Lady Mencía de Oros aplaude la primera, con un gato en brazos.", "Mencía de Oros", true},
		{"Garrik se planta en el centro con su espada.", "Garrik", true},
		{"Al terminar, Alvar levanta la vista hacia los tejados.", "Alvar", true},
		{"Ciriela escribió en la tablilla.", "Ciriela", true},
		{"Sildar greeted them at the gate.", "Sildar", true},
		{"Then Klarg takes the box.", "Klarg", true},
		{"Ysolde ha encontrado un códice.", "Ysolde", true},
		// Remembered, not acting.
		{"Vimos el fantasma de Garrik en el puente.", "Garrik", false},
		{"Dejamos flores en la tumba de Garrik.", "Garrik", false},
		{"Garrik murió en nuestros brazos.", "Garrik", false},
		{"Recordamos a Garrik con una jarra de cerveza.", "Garrik", false},
		{"Como decía Garrik, el que paga manda.", "Garrik", false},
		{"El cuerpo de Garrik sigue en el templo.", "Garrik", false},
		{"Garrik decía que el río se lo lleva todo.", "Garrik", false},
		{"Garrik, el mercenario, tenía una deuda.", "Garrik", false},
		{"Garrik era el jefe de los Perros.", "Garrik", false},
		{"Garrik had told them about the warehouse.", "Garrik", false},
		{"Klarg's cave was empty.", "Klarg", false},
		{"Hablamos con Garrik en la taberna.", "Garrik", false},
		{"¿Garrik sigue vivo?", "Garrik", false},
		{"Soñé que Garrik bebía conmigo.", "Garrik", false},
		{"Garrik vuelve de entre los muertos.", "Garrik", false},
		{"Garrik vendrá a buscarnos.", "Garrik", false},
	} {
		s := newSentence(c.sent)
		from, to := mentionOf(t, s, c.name)
		if got := actsIn(s, from, to); got != c.want {
			t.Errorf("actsIn(%q, %q) = %v, want %v", c.sent, c.name, got, c.want)
		}
	}
}

func TestChunkSentences(t *testing.T) {
	md := "## Balance\n\n- Emeric, ileso. Temblando.\n- [[NPCs/Garrik Tresdedos|Garrik]] ha muerto\n\nUna línea\nque sigue. Otra."
	got := strings.Join(chunkSentences(md), " | ")
	want := "Emeric, ileso. | Temblando. | Garrik ha muerto | Una línea que sigue. | Otra."
	if got != want {
		t.Errorf("chunkSentences = %q, want %q", got, want)
	}
}

func TestBackReference(t *testing.T) {
	s := newSentence("Dorn se la quedó en la sesión 37.")
	if !backReference(s, 42) || backReference(s, 37) {
		t.Error("a sentence naming session 37 refers back from 42, not from 37")
	}
}
