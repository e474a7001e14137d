package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/internal/termrender"
)

func ptr(s string) *string { return &s }

func TestClaimsFor(t *testing.T) {
	a := &oraculo.Answer{Segments: []oraculo.Segment{
		{Text: "Cruzaron el puente. Norkiel cayó en combate. "},
		{Text: "[Sesión 1]", Citations: []oraculo.Citation{{Label: "Sesión 1", Evidence: ptr("c1"), Valid: true}}},
		{Text: "\n- Encontraron el mapa del archiduque. "},
		{Text: "[Sesión 2; Sesión 1]", Citations: []oraculo.Citation{
			{Label: "Sesión 2", Evidence: ptr("c2"), Valid: true},
			{Label: "Sesión 1", Evidence: ptr("c1"), Valid: true}}},
		{Text: " Y un dragón. "},
		{Text: "[Sesión 9]", Citations: []oraculo.Citation{{Label: "Sesión 9"}}},
	}}
	for id, want := range map[string][]string{
		"c1": {"Norkiel cayó en combate.", "Encontraron el mapa del archiduque."},
		"c2": {"Encontraron el mapa del archiduque."},
		"c9": nil,
	} {
		if got := claimsFor(a, id); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("claimsFor(%s) = %q, want %q", id, got, want)
		}
	}
}

func TestCitedSpans(t *testing.T) {
	passage := "## Sesión 1 — El puente\n\nCruzamos el puente de Galerna. Norkiel cayó en combate\ncontra los trolls.\n\nEn la cripta encontramos el mapa."
	for _, tc := range []struct {
		claims []string
		want   []string
	}{
		{[]string{"Norkiel cayó en combate ante los trolls."}, []string{"Norkiel cayó en combate\ncontra los trolls."}},
		{[]string{"El MAPA estaba en la CRIPTA."}, []string{"En la cripta encontramos el mapa."}},
		{[]string{"mapa de la cripta", "Cayó Norkiel"}, []string{"Norkiel cayó en combate\ncontra los trolls.", "En la cripta encontramos el mapa."}},
		{[]string{"Nada que ver."}, nil},
		{nil, nil},
	} {
		var got []string
		for _, s := range citedSpans(passage, tc.claims) {
			got = append(got, passage[s[0]:s[1]])
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("citedSpans(%q) = %q, want %q", tc.claims, got, tc.want)
		}
	}
	marked := highlight(passage, citedSpans(passage, []string{"la cripta y el mapa"}))
	want := "contra los trolls.\n\n" + termrender.MarkStart + "En la cripta encontramos el mapa." + termrender.MarkEnd
	if !strings.HasSuffix(marked, want) {
		t.Errorf("highlight: %q", marked)
	}
}

// Piped into chat, /open marks the cited sentence with »«.
func TestChatOpenMarksTheCitedSentence(t *testing.T) {
	t.Setenv("ORACULO_UI_LANG", "en")
	t.Setenv("ORACULO_CHAT", "")
	db := ingestSmall(t)
	out, errOut, code := runCLI(t, "¿Quién cayó en combate en el puente?\n/open 1\n", "chat", "--db", db)
	if code != 0 {
		t.Fatalf("chat: exit %d %s", code, errOut)
	}
	if !strings.Contains(out, "»Norkiel cayó en combate contra los trolls.«") {
		t.Errorf("/open does not mark the cited sentence:\n%s", out)
	}
}
