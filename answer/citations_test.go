package answer

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// cite describes one expected citation: label as written, id (0 for none)
// and kind.
type cite struct {
	label string
	id    int64
	kind  string
}

func cites(cs []Citation) []cite {
	out := []cite{}
	for _, c := range cs {
		var id int64
		if c.Evidence != nil {
			id = *c.Evidence
		}
		out = append(out, cite{c.Label, id, c.Kind})
	}
	return out
}

func TestVerify(t *testing.T) {
	ctx := campaignContext(t)
	tests := []struct {
		name    string
		in      string
		text    string // "" means unchanged
		cites   []cite
		removed []string
		uncited []string
	}{
		{
			name:  "valid",
			in:    "La Dama Velada les pidió el Cáliz de Ezkarra [Sesión 38 › La Dama Velada].",
			cites: []cite{{"Sesión 38 › La Dama Velada", 1, KindFull}},
		},
		{
			name:  "tolerant matching is rewritten to the exact label",
			in:    "Nix desconfió de ella [sesion 38 > la  dama velada]. Es una pícara tiefling [FICHAS:NIX].",
			text:  "Nix desconfió de ella [Sesión 38 › La Dama Velada]. Es una pícara tiefling [Fichas: Nix].",
			cites: []cite{{"sesion 38 > la  dama velada", 1, KindFull}, {"FICHAS:NIX", 3, KindFull}},
		},
		{
			name:    "a label copied from an example is removed",
			in:      "El archiduque murió [Sesión 119]. Huyó al norte [Sesión 12 (Diario)].",
			text:    "El archiduque murió. Huyó al norte [Sesión 12 (Diario)].",
			cites:   []cite{{"Sesión 119", 0, ""}, {"Sesión 12 (Diario)", 5, KindFull}},
			removed: []string{"Sesión 119"},
			uncited: []string{"El archiduque murió."},
		},
		{
			name:    "numbers and words in brackets are not evidence",
			in:      "Anika es la molinera [1] de Robledal [fuente] [NPCs: Anika del Molino].",
			text:    "Anika es la molinera de Robledal [NPCs: Anika del Molino].",
			cites:   []cite{{"1", 0, ""}, {"fuente", 0, ""}, {"NPCs: Anika del Molino", 4, KindFull}},
			removed: []string{"1", "fuente"},
		},
		{
			name:  "a group with several labels",
			in:    "Nix y Anika se conocen [Fichas: Nix; NPCs: Anika del Molino].",
			cites: []cite{{"Fichas: Nix", 3, KindFull}, {"NPCs: Anika del Molino", 4, KindFull}},
		},
		{
			name:  "labels one after the other",
			in:    "Nix y Anika se conocen [Fichas: Nix] [NPCs: Anika del Molino].",
			cites: []cite{{"Fichas: Nix", 3, KindFull}, {"NPCs: Anika del Molino", 4, KindFull}},
		},
		{
			name:  "labels separated by commas when each is a label",
			in:    "Nix y Anika se conocen [Fichas: Nix, NPCs: Anika del Molino].",
			text:  "Nix y Anika se conocen [Fichas: Nix; NPCs: Anika del Molino].",
			cites: []cite{{"Fichas: Nix", 3, KindFull}, {"NPCs: Anika del Molino", 4, KindFull}},
		},
		{
			name:    "a group keeps its valid labels only",
			in:      "Nix perdió la espada [Fichas: Nix; Sesión 119; Fichas: Nix].",
			text:    "Nix perdió la espada [Fichas: Nix].",
			cites:   []cite{{"Fichas: Nix", 3, KindFull}, {"Sesión 119", 0, ""}, {"Fichas: Nix", 3, KindFull}},
			removed: []string{"Sesión 119"},
		},
		{
			name:  "a summary is cited as a summary",
			in:    "Hubo una emboscada en el puente [Sesión 38 › El puente].",
			cites: []cite{{"Sesión 38 › El puente", 2, KindSummary}},
		},
		{
			name:  "the start of a delivered label",
			in:    "La Dama Velada los recibió en la Torre de Sal [Sesión 38].",
			text:  "La Dama Velada los recibió en la Torre de Sal [Sesión 38 › La Dama Velada].",
			cites: []cite{{"Sesión 38", 1, KindFull}},
		},
		{
			name: "markdown that is not a citation is left alone",
			in: "Ver el [mapa](https://example.org/mapa.png) y ![escudo](escudo.png) [Fichas: Nix].\n" +
				"- [ ] preguntar a Anika\n- [x] pagar al Sr. Pérez\n" +
				"Dijo «[…] y nunca volvió» [sic] [^nota] [NPCs: Anika del Molino].\n" +
				"Escribe `[Sesión 119]` o \\[Sesión 119\\] para citar [Fichas: Nix].\n" +
				"[ref]: https://example.org",
			cites:   []cite{{"Fichas: Nix", 3, KindFull}, {"NPCs: Anika del Molino", 4, KindFull}, {"Fichas: Nix", 3, KindFull}},
			uncited: []string{"preguntar a Anika", "pagar al Sr. Pérez"},
		},
		{
			name:    "spaces are tidied where a citation goes",
			in:      "[Sesión 119] El archiduque huyó [Sesión 99] [Sesión 12 (Diario)] y\tno volvió [Sesión 77] .\n- [Sesión 3] Anika miente [NPCs: Anika del Molino]",
			text:    "El archiduque huyó [Sesión 12 (Diario)] y\tno volvió.\n- Anika miente [NPCs: Anika del Molino]",
			cites:   []cite{{"Sesión 119", 0, ""}, {"Sesión 99", 0, ""}, {"Sesión 12 (Diario)", 5, KindFull}, {"Sesión 77", 0, ""}, {"Sesión 3", 0, ""}, {"NPCs: Anika del Molino", 4, KindFull}},
			removed: []string{"Sesión 119", "Sesión 99", "Sesión 77", "Sesión 3"},
		},
		{
			name:    "removing a citation between words keeps them apart",
			in:      "Anika[Sesión 119]miente.",
			text:    "Anika miente.",
			cites:   []cite{{"Sesión 119", 0, ""}},
			removed: []string{"Sesión 119"},
		},
		{
			name:    "an outer bracket closed by a removal is removed too",
			in:      "Nix huyó [a [Sesión 119] b] [Fichas: Nix].",
			text:    "Nix huyó [Fichas: Nix].",
			cites:   []cite{{"Sesión 119", 0, ""}, {"Fichas: Nix", 3, KindFull}, {"a b", 0, ""}},
			removed: []string{"Sesión 119", "a b"},
		},
		{
			name: "claims without citations are flagged",
			in: "## Lo que se sabe\n" +
				"Nix es una pícara tiefling. El archiduque huyó hacia el norte [Sesión 12 (Diario)]. Sí.\n" +
				"¿Quién le avisó al archiduque? Las notas no dicen quién le avisó.\n" +
				"Lo que cuentan las notas:\n" +
				"- Anika sabe algo del archiduque [NPCs: Anika del Molino]\n" +
				"- Anika le debe dinero al Sr. Pérez desde el invierno\n" +
				"Murió en el puente. [Sesión 38 › El puente]",
			uncited: []string{"Nix es una pícara tiefling.", "Anika le debe dinero al Sr. Pérez desde el invierno"},
			cites: []cite{
				{"Sesión 12 (Diario)", 5, KindFull}, {"NPCs: Anika del Molino", 4, KindFull}, {"Sesión 38 › El puente", 2, KindSummary},
			},
		},
		{
			name:  "no citations at all",
			in:    "No lo sé.",
			cites: []cite{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Verify(tt.in, ctx)
			want := tt.text
			if want == "" {
				want = tt.in
			}
			if v.Text != want {
				t.Errorf("Text = %q\nwant   %q", v.Text, want)
			}
			if got := cites(v.Citations); !reflect.DeepEqual(got, tt.cites) {
				t.Errorf("Citations = %+v\nwant        %+v", got, tt.cites)
			}
			var removed []string
			for _, c := range v.Removed {
				removed = append(removed, c.Label)
				if c.Valid || c.Delivered || c.Evidence != nil {
					t.Errorf("removed citation %+v", c)
				}
			}
			if !reflect.DeepEqual(removed, tt.removed) {
				t.Errorf("Removed = %q, want %q", removed, tt.removed)
			}
			if !reflect.DeepEqual(v.Uncited, tt.uncited) {
				t.Errorf("Uncited = %q, want %q", v.Uncited, tt.uncited)
			}
			checkVerification(t, v, ctx)
		})
	}
}

// checkVerification asserts the invariants of every Verification.
func checkVerification(t *testing.T, v Verification, ctx Context) {
	t.Helper()
	invalid := 0
	for _, c := range v.Citations {
		if c.Valid != (c.Evidence != nil) || c.Valid != c.Delivered || c.Valid != (c.Kind != "") {
			t.Errorf("inconsistent citation %+v", c)
		}
		if c.Evidence != nil {
			if _, ok := ctx.Find(c.Label); !ok {
				t.Errorf("valid citation %q names nothing", c.Label)
			}
		} else {
			invalid++
		}
	}
	if invalid != len(v.Removed) {
		t.Errorf("%d invalid citations, %d removed", invalid, len(v.Removed))
	}
	again := Verify(v.Text, ctx)
	if again.Text != v.Text || len(again.Removed) != 0 {
		t.Errorf("verifying the verified text changes it: %q → %q (removed %+v)", v.Text, again.Text, again.Removed)
	}
	if len(again.Citations) != len(v.Citations)-len(v.Removed) {
		// Groups deduplicate their labels, so fewer is allowed.
		if len(again.Citations) > len(v.Citations)-len(v.Removed) {
			t.Errorf("verified text has %d citations, want at most %d", len(again.Citations), len(v.Citations)-len(v.Removed))
		}
	}
}

func TestVerifyJSON(t *testing.T) {
	v := Verify("Huyó [Sesión 12 (Diario)] [Sesión 119].", campaignContext(t))
	b, err := json.Marshal(v.Citations)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"label":"Sesión 12 (Diario)","evidence":5,"kind":"full","delivered":true,"valid":true},` +
		`{"label":"Sesión 119","evidence":null,"delivered":false,"valid":false}]`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
}

func TestVerifyEmptyContext(t *testing.T) {
	v := Verify("El archiduque huyó [Sesión 12].", Context{})
	if v.Text != "El archiduque huyó." || len(v.Removed) != 1 || len(v.Uncited) != 1 {
		t.Errorf("Verify with no evidence = %+v", v)
	}
}

func TestVerifyHandBuiltContext(t *testing.T) {
	// A Context not made by Assemble: repeated labels, no kinds.
	ctx := Context{
		Full:      []Item{{ID: 7, Label: "Mundo: GODS"}, {ID: 8, Label: "mundo: gods"}},
		Summaries: []Item{{ID: 9, Label: "Sesión 2"}},
	}
	v := Verify("Los dioses callan [Mundo: GODS]. Llovió [Sesión 2].", ctx)
	if got, want := cites(v.Citations), []cite{{"Mundo: GODS", 7, KindFull}, {"Sesión 2", 9, KindSummary}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Citations = %+v, want %+v", got, want)
	}
}

func TestVerifyLabelWithSeparators(t *testing.T) {
	ctx := Context{Full: []Item{{ID: 1, Label: "NPCs: Anika; la molinera"}, {ID: 2, Label: "Sesión 4 › Llegada, emboscada"}}}
	v := Verify("Anika muele trigo [NPCs: Anika; la molinera]. Los emboscaron [Sesión 4 › Llegada, emboscada].", ctx)
	if len(v.Removed) != 0 || len(v.Citations) != 2 {
		t.Errorf("Verify = %+v", v)
	}
	if strings.Contains(v.Text, "; ]") {
		t.Errorf("Text = %q", v.Text)
	}
}

func TestSegments(t *testing.T) {
	ctx := campaignContext(t)
	type seg struct {
		text  string
		cites []cite
	}
	tests := []struct {
		name string
		in   string
		want []seg
	}{
		{
			name: "plain and cited parts alternate and cover the text",
			in:   "Huyó al norte [Sesión 12 (Diario)]. La Dama [sesion 38 > la dama velada; Fichas: Nix] calló.",
			want: []seg{
				{"Huyó al norte ", nil},
				{"[Sesión 12 (Diario)]", []cite{{"Sesión 12 (Diario)", 5, KindFull}}},
				{". La Dama ", nil},
				{"[sesion 38 > la dama velada; Fichas: Nix]", []cite{{"sesion 38 > la dama velada", 1, KindFull}, {"Fichas: Nix", 3, KindFull}}},
				{" calló.", nil},
			},
		},
		{
			name: "what is not a citation stays text",
			in:   "`[Sesión 12 (Diario)]` [x] [sic] [a](http://x) [^1] \\[Sesión 3\\]",
			want: []seg{{"`[Sesión 12 (Diario)]` [x] [sic] [a](http://x) [^1] \\[Sesión 3\\]", nil}},
		},
		{
			name: "an unknown label is a citation that names nothing",
			in:   "[Sesión 119] murió",
			want: []seg{{"[Sesión 119]", []cite{{"Sesión 119", 0, ""}}}, {" murió", nil}},
		},
		{name: "empty", in: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []seg
			for _, s := range Segments(tt.in, ctx) {
				var cs []cite
				if s.Citations != nil {
					cs = cites(s.Citations)
				}
				got = append(got, seg{s.Text, cs})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Segments(%q) =\n%+v\nwant\n%+v", tt.in, got, tt.want)
			}
		})
	}
}

// Verify's segments are those of its verified text, and every citation
// left in it names delivered evidence.
func TestVerifySegments(t *testing.T) {
	ctx := campaignContext(t)
	v := Verify("El archiduque murió [Sesión 119]. Huyó al norte [sesion 12 (diario)].", ctx)
	var joined strings.Builder
	n := 0
	for _, s := range v.Segments {
		joined.WriteString(s.Text)
		for _, c := range s.Citations {
			n++
			if !c.Valid || c.Evidence == nil {
				t.Errorf("segment %q holds an invalid citation %+v", s.Text, c)
			}
		}
	}
	if joined.String() != v.Text || n != 1 {
		t.Errorf("segments %+v join to %q with %d citations, want %q with 1", v.Segments, joined.String(), n, v.Text)
	}
}
