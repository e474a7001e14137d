package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Nada que hacer.", "Nada que hacer."},
		{"[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] llegó a [[Phandalin]].", "Ser Morcant llegó a Phandalin."},
		{"Ver [[Dioses#Aurelith|la diosa]] y [[Dioses#Aurelith]].", "Ver la diosa y Dioses › Aurelith."},
		{"Ver [[#Aurelith]] y [[Nota^abc123]] y [[Nota#^abc123]].", "Ver Aurelith y Nota y Nota."},
		{"[[NPCs/Harbin.md]] y [[NPCs/Harbin Wester]]", "Harbin y Harbin Wester"},
		{"| [[kleb-fumpton\\|Kleb]] | mago |", "| Kleb | mago |"},
		{"Mapa: ![[mapa.png]] y ![[mapa.png|300]].", "Mapa:  y ."},
		{"![[Sesión 3#Resumen]]", "Sesión 3 › Resumen"},
		{"Es ==muy importante== y ==a==.", "Es muy importante y a."},
		{"a == b y c ==d", "a == b y c ==d"},
		{"Murió[^1]. Y otra [^nota-2] cosa.", "Murió. Y otra  cosa."},
		{"[^1]: Lo dijo el DM.", "Lo dijo el DM."},
		{"  [^nota]: Otra.", "  Otra."},
		{"Fue así^[según Kleb] ayer.", "Fue así(según Kleb) ayer."},
		{"~~tachado~~ y no", "~~tachado~~ y no"},
		{"#etiqueta al empezar, #pnj/villano y #campaña_2 #12 C# a#b", "etiqueta al empezar, pnj/villano y campaña_2 #12 C# a#b"},
		{"# Título\n## #tag", "# Título\n## tag"},
		{"[texto](#ancla) y [[x]]", "[texto](#ancla) y x"},
		{"> [!warning]- Cuidado\n> con ==esto==", "> Cuidado\n> con esto"},
		{"> > [!note] Dentro", "> > Dentro"},
		{"`[[no]] ==no== #no` y [[sí]]", "`[[no]] ==no== #no` y sí"},
		{"```\n[[no]] #no\n```\n[[sí]]", "```\n[[no]] #no\n```\nsí"},
		{"[[abierto y ==abierto", "[[abierto y ==abierto"},
		{"[[]] y [[ ]] y [[a]b]]", "[[]] y [[ ]] y [[a]b]]"},
		{"[x] [[Nota]] [Sesión 3]", "[x] Nota [Sesión 3]"},
		{"a\xffb [[c\xff]]", "a\xffb c\xff"},
	} {
		if got := Render(tc.in); got != tc.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// renderPieces are the fragments a note is made of in the property test:
// plain words and each kind of markup Render handles, well formed.
var renderPieces = []string{
	"Kleb", "llegó", "a", "la", "ciudad.", "Sesión", "12", "(aparte)", "—", "¿qué?", "*énfasis*", "**negrita**",
	"[[Phandalin]]", "[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]]", "[[Dioses#Aurelith]]",
	"[[Dioses#Aurelith|la diosa]]", "[[#Encabezado]]", "[[Nota^bloque]]", "[[NPCs/Harbin.md]]", "![[mapa.png]]",
	"![[Otra nota]]", "[[a\\|b]]", "==resaltado==", "==dos palabras==", "[^1]", "[^nota]", "^[al margen]",
	"#etiqueta", "#pnj/villano", "~~tachado~~", "`código`", "[enlace](https://x.org)",
}

// TestRenderProperties renders random notes built of well-formed markup:
// no wikilink, highlight or footnote mark survives, in the text or after
// answer's bracket rule ("[" becomes "("), and rendering twice changes
// nothing more.
func TestRenderProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for n := 0; n < 5000; n++ {
		var b strings.Builder
		lines := 1 + r.IntN(4)
		for l := 0; l < lines; l++ {
			if l > 0 {
				b.WriteByte('\n')
			}
			switch r.IntN(5) {
			case 0:
				b.WriteString("- ")
			case 1:
				b.WriteString("> ")
			case 2:
				b.WriteString("[^1]: ")
			}
			for w := 1 + r.IntN(8); w > 0; w-- {
				p := renderPieces[r.IntN(len(renderPieces))]
				if strings.HasPrefix(p, "#") {
					b.WriteByte(' ')
				}
				b.WriteString(p)
				if r.IntN(4) > 0 {
					b.WriteByte(' ')
				}
			}
		}
		in := b.String()
		got := Render(in)
		plain := strings.NewReplacer("[", "(", "]", ")").Replace(got)
		for _, bad := range []string{"[[", "]]", "==", "[^", "^[", "((", "(^", "#e", "#p"} {
			if strings.Contains(stripCode(got), bad) || strings.Contains(stripCode(plain), bad) {
				t.Fatalf("Render(%q) = %q: %q left", in, got, bad)
			}
		}
		if again := Render(got); again != got {
			t.Fatalf("Render is not stable on %q: %q, then %q", in, got, again)
		}
	}
}

// stripCode drops the code spans of s: what they hold is kept as written.
func stripCode(s string) string {
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return s
		}
		s = s[:i] + s[i+1+j+1:]
	}
}

// FuzzRender checks that Render never panics, keeps the number of lines,
// and leaves text without markup as it is.
func FuzzRender(f *testing.F) {
	for _, s := range renderPieces {
		f.Add(s)
	}
	f.Add("```\n[[x]]\n```")
	f.Add("> [!note]+ t\n[^a]: b ==c== #d [[e|f]] ^[g [h]]")
	f.Add("[[\\|]] [[#^]] ![[.png]] ^[ [^]")
	f.Fuzz(func(t *testing.T, s string) {
		got := Render(s)
		if strings.Count(got, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Render(%q) = %q: lines changed", s, got)
		}
		if !strings.ContainsAny(s, "[=#^") && got != s {
			t.Fatalf("Render(%q) = %q: text without markup changed", s, got)
		}
	})
}

// TestRenderLinks: RenderLinks writes each wikilink (and embed of a note)
// as its hook makes it, from what Wikilinks reads of it; the rest is
// Render's; with a hook that returns the shown text it is Render.
func TestRenderLinks(t *testing.T) {
	const in = "[[Ser Morcant the Gloomy (Chain Knight)|Ser Morcant]] y [[NPCs/Harbin.md]] en [[Dioses#Aurelith]], ![[mapa.png]] ![[Sesión 3#Resumen]] `[[no]]` ==sí== [[#Arriba]] [[a\\|b]]"
	got := RenderLinks(in, func(l Wikilink) string { return "<" + l.Target + "|" + l.Place + "|" + l.Shown + ">" })
	want := "<Ser Morcant the Gloomy (Chain Knight)||Ser Morcant> y <NPCs/Harbin.md||Harbin> en <Dioses|#Aurelith|Dioses › Aurelith>,  <Sesión 3|#Resumen|Sesión 3 › Resumen> `[[no]]` sí <|#Arriba|Arriba> <a||b>"
	if got != want {
		t.Errorf("RenderLinks\n got %q\nwant %q", got, want)
	}
	if got := RenderLinks(in, func(l Wikilink) string { return l.Shown }); got != Render(in) {
		t.Errorf("RenderLinks with the shown text = %q, want Render's %q", got, Render(in))
	}
	ls := Wikilinks(in)
	if len(ls) != 6 || ls[1] != (Wikilink{Target: "NPCs/Harbin.md", Shown: "Harbin"}) {
		t.Errorf("Wikilinks = %+v", ls)
	}
}

// TestEditWikilinks: EditWikilinks rewrites the wikilinks (and embeds,
// of attachments too) its hook asks it to, found as RenderLinks finds
// them, and keeps everything else as written, markup included; written
// as their shown text, what Render shows is unchanged.
func TestEditWikilinks(t *testing.T) {
	const in = "> [!secret] [[DM/Plan secreto|el viejo]] y [[NPCs/Harbin.md]]\n" +
		"[^1]: ==[[DM/Plan secreto#Fase 2]]== #tag ^[ver ![[DM/Plan secreto]]] ![[DM/mapa.png]]\n" +
		"`[[DM/en código]]` [[#Arriba]] [[DM/Otro\\|otro]]\n```\n[[DM/en bloque]]\n```"
	var seen []Wikilink
	hide := func(l Wikilink) (string, bool) {
		seen = append(seen, l)
		if strings.HasPrefix(l.Target, "DM/") {
			return l.Shown, true
		}
		return "", false
	}
	got := EditWikilinks(in, hide)
	want := "> [!secret] el viejo y [[NPCs/Harbin.md]]\n" +
		"[^1]: ==Plan secreto › Fase 2== #tag ^[ver Plan secreto] \n" +
		"`[[DM/en código]]` [[#Arriba]] otro\n```\n[[DM/en bloque]]\n```"
	if got != want {
		t.Errorf("EditWikilinks\n got %q\nwant %q", got, want)
	}
	if len(seen) != 7 || seen[4] != (Wikilink{Target: "DM/mapa.png"}) {
		t.Errorf("the hook saw %+v", seen)
	}
	if Render(got) != Render(in) {
		t.Errorf("Render of the edited text\n got %q\nwant %q", Render(got), Render(in))
	}
	if got := EditWikilinks(in, func(Wikilink) (string, bool) { return "", false }); got != in {
		t.Errorf("EditWikilinks keeping every link = %q, want the text as written", got)
	}
}

// FuzzEditWikilinks checks that EditWikilinks keeping every link keeps
// the text, and that writing each link as its shown text leaves the
// same lines and nothing that Wikilinks would read once applied until
// nothing changes.
func FuzzEditWikilinks(f *testing.F) {
	for _, s := range renderPieces {
		f.Add(s)
	}
	f.Add("> [!note]+ t\n[^a]: b ==c== #d [[e|f]] ^[g [h]] ![[x.png]]")
	f.Add("[[[[x]]]] [[\\|]] [[#^]] ![[.png]] ^[ [^]")
	f.Fuzz(func(t *testing.T, s string) {
		if got := EditWikilinks(s, func(Wikilink) (string, bool) { return "", false }); got != s {
			t.Fatalf("EditWikilinks(%q) keeping every link = %q", s, got)
		}
		shown := func(l Wikilink) (string, bool) { return l.Shown, true }
		got := s
		for range len(s) + 1 {
			next := EditWikilinks(got, shown)
			if next == got {
				break
			}
			got = next
		}
		if strings.Count(got, "\n") != strings.Count(s, "\n") {
			t.Fatalf("EditWikilinks(%q) = %q: lines changed", s, got)
		}
		if ls := Wikilinks(got); len(ls) > 0 {
			t.Fatalf("EditWikilinks(%q) = %q still has %+v", s, got, ls)
		}
	})
}
