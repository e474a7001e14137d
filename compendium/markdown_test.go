package compendium

import (
	"reflect"
	"testing"
)

func TestParseWikilinks(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     []Wikilink
	}{
		{"plain", "Hablamos con [[Harbin Wester]].", []Wikilink{{Target: "Harbin Wester"}}},
		{"display", "Vimos a [[Harbin Wester|el viejo]] en el puerto.", []Wikilink{{Target: "Harbin Wester", Display: "el viejo"}}},
		{"heading and display", "[[Harbin Wester#Historia|Harbin]]", []Wikilink{{Target: "Harbin Wester", Heading: "Historia", Display: "Harbin"}}},
		{"block", "[[Harbin Wester^abc123]] y [[Caldemora#^f00]]", []Wikilink{
			{Target: "Harbin Wester", Block: "abc123"}, {Target: "Caldemora", Block: "f00"}}},
		{"embed", "![[embed]] y ![[mapa.png|300]]", []Wikilink{
			{Target: "embed", Embed: true}, {Target: "mapa.png", Display: "300", Embed: true}}},
		{"path and extension", "[[NPCs/Harbin Wester.md]]", []Wikilink{{Target: "NPCs/Harbin Wester"}}},
		{"table pipe", `| [[Harbin Wester\|Harbin]] | npc |`, []Wikilink{{Target: "Harbin Wester", Display: "Harbin"}}},
		{"self link skipped", "Ver [[#Historia]].", nil},
		{"innermost", "[[roto [[Caldemora]]", []Wikilink{{Target: "Caldemora"}}},
		{"unclosed", "[[Caldemora y nada más", nil},
		{"code span", "Escribe `[[Harbin Wester]]` para enlazar; [[Nix]] sí.", []Wikilink{{Target: "Nix"}}},
		{"double backtick span", "``a ` [[Harbin]] ``", nil},
		{"fence", "Antes [[Uno]]\n```markdown\n[[Harbin Wester]]\n```\n~~~\n[[Dos]]\n~~~\nDespués [[Tres]]",
			[]Wikilink{{Target: "Uno"}, {Target: "Tres"}}},
		{"unclosed fence hides the rest", "[[Uno]]\n```\n[[Dos]]\n", []Wikilink{{Target: "Uno"}}},
		{"comments", "%% [[Oculto]] %% y <!-- [[Otro]] --> y [[Visible]]", []Wikilink{{Target: "Visible"}}},
		{"multiline comment", "%%\n[[Oculto]]\n%%\n[[Visible]]", []Wikilink{{Target: "Visible"}}},
	} {
		if got := ParseWikilinks(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseWikilinks(%q)\n got %+v\nwant %+v", c.name, c.in, got, c.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"Ciénaga de Murgo":       "cienaga de murgo",
		"  ¡Ribafría!  ":         "ribafria",
		"Kael-Dur":               "kael dur",
		"Peñaurora":              "penaurora",
		"PEÑAURORA":              "penaurora",
		"Cie\u0301naga":          "cienaga", // decomposed
		"Ysmira's  \"Tejedora\"": "ysmira s tejedora",
		"Azhor VII, 812 CR":      "azhor vii 812 cr",
		"Straße Œuvre":           "strasse oeuvre",
		"Μορβαέν":                "μορβαεν",
		"":                       "",
		"¿?":                     "",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeadingName(t *testing.T) {
	for _, c := range []struct {
		in            string
		collection    bool
		name, epithet string
		ok            bool
	}{
		{"Aurelith, la Señora del Alba", true, "Aurelith", "la Señora del Alba", true},
		{"La Guardia de Ceniza", true, "Guardia de Ceniza", "", true},
		{"Notas", true, "", "", false},
		{"Juramento del Alba (1 de Primhielo)", true, "Juramento del Alba", "", true},
		{"**Teskal** — el Herrero Tuerto", true, "Teskal", "el Herrero Tuerto", true},
		{"¿Es la Mano Gris?", false, "", "", false},
		{"El Palacio de las Mareas", false, "Palacio de las Mareas", "", true},
		{"Los Muelles", false, "Muelles", "", true},
		{"Trasfondo", false, "", "", false},
		{"Cómo llegar", false, "", "", false},
		{"El molino de Tobías", false, "", "", false},
		{"Sesión 12", true, "", "", false},
		{"Ciudad Alta", false, "Ciudad Alta", "", true},
	} {
		name, ep, ok := headingName(c.in, c.collection)
		if name != c.name || ep != c.epithet || ok != c.ok {
			t.Errorf("headingName(%q, %v) = %q, %q, %v; want %q, %q, %v", c.in, c.collection, name, ep, ok, c.name, c.epithet, c.ok)
		}
	}
}
