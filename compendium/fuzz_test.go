package compendium

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"", "Nix", "la Ciénaga de Murgo", "Lord Emeric Valcárcel y los Valcárcel",
		"Valcarsel Valcárcle Emerik Valcarsel", "del Farolero al farolero", "Cie\u0301naga de Murgo",
		"\xff\xfeNix\x00Ana", "la Ciudad Alta, la ciudad, la Torre de Sal de Ezkarra",
		strings.Repeat("Torre de Sal de ", 20), "Peñaurora🐉Ezkarra", "Kael-Dur kael--dur",
		"ИВАН Μορβαέν Ysolde Marain",
	} {
		f.Add(s)
	}
	ents := append(append([]Entity(nil), matchEntities...), Entity{Name: "Μορβαέν"}, Entity{Name: "Иван Грозный"})
	m := NewMatcher(ents)
	f.Fuzz(func(t *testing.T, text string) {
		ms := m.Find(text)
		end := 0
		for i, x := range ms {
			if x.Entity < 0 || x.Entity >= len(ents) {
				t.Fatalf("mention %d: entity %d out of range", i, x.Entity)
			}
			if x.Start < end || x.Start >= x.End || x.End > len(text) {
				t.Fatalf("mention %d: bad span %d-%d after %d (len %d): %+v", i, x.Start, x.End, end, len(text), ms)
			}
			if x.Surface != text[x.Start:x.End] {
				t.Fatalf("mention %d: surface %q != %q", i, x.Surface, text[x.Start:x.End])
			}
			if Normalize(x.Surface) == "" {
				t.Fatalf("mention %d: empty surface %q", i, x.Surface)
			}
			end = x.End
		}
		if n := Normalize(text); Normalize(n) != n {
			t.Fatalf("Normalize not idempotent: %q → %q → %q", text, n, Normalize(n))
		}
		if n := Normalize(text); !utf8.ValidString(n) {
			t.Fatalf("Normalize(%q) = %q is not valid UTF-8", text, n)
		}
	})
}

func FuzzBuild(f *testing.F) {
	f.Add("Vimos a [[Harbin|el viejo]] en Puerto Gris. Luego Puerto Gris.\n## Aurelith, la Señora\n", "NPCs/Harbin.md")
	f.Add("```\n[[x]]\n``` `[[y]]` %%[[z]]%% ![[w]] [a](http://x) <b>", "Dioses.md")
	f.Fuzz(func(t *testing.T, text, path string) {
		notes := []NoteInput{
			{Path: path, Title: text, Aliases: []string{text}, Text: text},
			{Path: "Sesiones/1.md", Title: "1", Text: text + "\n" + text},
			{Path: "Mundo/Dioses.md", Title: "Dioses", Text: text},
		}
		es, err := Build(notes, nil, Config{MinNotes: 1, MinMentions: 1})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, e := range es {
			k := Normalize(e.Name)
			if k == "" || seen[k] {
				t.Fatalf("bad or duplicate name %q in %+v", e.Name, es)
			}
			seen[k] = true
			for _, a := range e.Aliases {
				if Normalize(a) == k {
					t.Fatalf("alias %q equals the name %q", a, e.Name)
				}
			}
		}
		NewMatcher(es).Find(text)
	})
}
