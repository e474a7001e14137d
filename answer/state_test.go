package answer

import (
	"strings"
	"testing"
)

// TestStateChange: a state question whose evidence tells the state in an
// earlier and a later session, differently, opens with both, cited, in
// session order; the same state twice, or no state question, gives none.
func TestStateChange(t *testing.T) {
	items := []Item{
		{ID: 20, Label: "Sesión 20", Kind: KindFull, Text: "El grupo vuelve a Puertogris. Harbin Wester muere en el incendio de la taberna."},
		{ID: 12, Label: "Sesión 12", Kind: KindFull, Text: "Harbin Wester sigue vivo y nos vende otro mapa en Puertogris."},
		{ID: 3, Label: "NPCs: Harbin Wester", Kind: KindFull, Text: "Harbin Wester es el tabernero de Puertogris."},
		{ID: 25, Label: "Sesión 25", Kind: KindFull, Text: "Kael llega a Ribafría con la espada."},
		{ID: 14, Label: "Sesión 14", Kind: KindFull, Text: "Kael se esconde en Caldemora."},
		{ID: 30, Label: "Sesión 30", Kind: KindFull, Text: "Ahora Ciriela Vos lidera la Guardia de Ceniza."},
		{ID: 18, Label: "Sesión 18", Kind: KindFull, Text: "Rhosyn Calatrava lidera la Guardia de Ceniza."},
	}
	sessions := map[int64]int{20: 20, 12: 12, 25: 25, 14: 14, 30: 30, 18: 18}
	session := func(id int64) (int, bool) { s, ok := sessions[id]; return s, ok }
	ctx := Context{Full: items}
	cases := []struct {
		q, lang string
		want    []string // the lines, in order; nil for no change
	}{
		{"¿Sigue vivo Harbin Wester?", "es", []string{"- En la sesión 12: Harbin Wester sigue vivo", "[Sesión 12]", "- Después, en la sesión 20: Harbin Wester muere", "[Sesión 20]"}},
		{"Is Harbin Wester still alive?", "en", []string{"- In session 12: Harbin Wester sigue vivo", "- Later, in session 20: Harbin Wester muere"}},
		{"¿Dónde está Kael ahora?", "es", []string{"- En la sesión 14: Kael se esconde en Caldemora. [Sesión 14]", "- Después, en la sesión 25: Kael llega a Ribafría"}},
		{"¿Quién lidera la Guardia de Ceniza?", "es", []string{"sesión 18: Rhosyn Calatrava", "sesión 30: Ahora Ciriela Vos"}},
		{"¿Qué vende Harbin Wester?", "es", nil},
	}
	for _, c := range cases {
		lines, ok := StateChange(c.q, ctx, session, nil, c.lang)
		got := strings.Join(lines, "\n")
		if ok != (c.want != nil) {
			t.Errorf("%q: change %v, want %v:\n%s", c.q, ok, c.want != nil, got)
			continue
		}
		at := 0
		for _, w := range c.want {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("%q: %q missing or out of order in\n%s", c.q, w, got)
				break
			}
			at += i + len(w)
		}
	}
	// The same state in two sessions is no change.
	same := Context{Full: []Item{items[1], {ID: 20, Label: "Sesión 20", Kind: KindFull, Text: "Harbin Wester sigue vivo, cojeando."}}}
	if lines, ok := StateChange("¿Sigue vivo Harbin Wester?", same, session, nil, "es"); ok {
		t.Errorf("no change reported as one: %v", lines)
	}
	// A denial is no account: "no murió" is not dead.
	denied := Context{Full: []Item{items[1], {ID: 20, Label: "Sesión 20", Kind: KindFull, Text: "Harbin Wester no murió en el incendio."}}}
	if lines, ok := StateChange("¿Sigue vivo Harbin Wester?", denied, session, nil, "es"); ok {
		t.Errorf("a denial read as a change: %v", lines)
	}
	// The draft opens with the change, and what it cites is delivered.
	d := withStateChange(Draft{Text: "- Harbin Wester es el tabernero de Puertogris. [NPCs: Harbin Wester]"}, "¿Sigue vivo Harbin Wester?", ctx, session, nil, "es")
	if !strings.HasPrefix(d.Text, "- En la sesión 12") || !strings.Contains(d.Text, "[NPCs: Harbin Wester]") {
		t.Errorf("draft: %q", d.Text)
	}
	// Quoted already, the same sentences are not said twice, and the
	// change answers the question squarely.
	dup := withStateChange(Draft{Text: closestIntro("es") + "\n- Harbin Wester muere en el incendio de la taberna. [Sesión 20]", Closest: true}, "¿Sigue vivo Harbin Wester?", ctx, session, nil, "es")
	if strings.Count(dup.Text, "\n") != 1 || dup.Closest {
		t.Errorf("the same quote twice, or still closest: %+v", dup)
	}
	if v := Verify(d.Text, ctx); len(v.Removed) > 0 || len(v.Uncited) > 0 {
		t.Errorf("the draft cites what was not delivered, or leaves a claim uncited: %v %v", v.Removed, v.Uncited)
	}
}

// TestStateRule: a state question's prompt asks for the latest state and
// when it changed, in the system message.
func TestStateRule(t *testing.T) {
	for _, lang := range []string{"es", "en"} {
		msgs := withStateRule(Prompt(lang, "q", Context{}, nil), lang)
		if !strings.Contains(msgs[0].Content, stateRule[lang]) || strings.Contains(Prompt(lang, "q", Context{}, nil)[0].Content, stateRule[lang]) {
			t.Errorf("%s: the system message lacks the state rule, or the plain prompt has it", lang)
		}
	}
}
