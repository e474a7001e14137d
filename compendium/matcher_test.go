package compendium

import (
	"fmt"
	"strings"
	"testing"
)

var matchEntities = []Entity{
	0:  {Name: "Nix", Aliases: []string{"la Urraca"}},
	1:  {Name: "Ana"},
	2:  {Name: "Ciénaga de Murgo", Aliases: []string{"Murgo"}},
	3:  {Name: "Torre de Sal de Ezkarra", Aliases: []string{"Torre de Sal"}},
	4:  {Name: "Ezkarra"},
	5:  {Name: "Valcárcel"},
	6:  {Name: "Emeric Valcárcel", Aliases: []string{"Lord Emeric"}},
	7:  {Name: "Vesper Quillon", Aliases: []string{"el Farolero"}},
	8:  {Name: "Ciriela Vos", Aliases: []string{"la Dama Velada"}},
	9:  {Name: "Kael-Dur"},
	10: {Name: "Peñaurora"},
	11: {Name: "La Boca de Ozrún", Aliases: []string{"las siete voces"}},
	12: {Name: "Tresdedos"},
	13: {Name: "Ysolde Marrain", Aliases: []string{"Ysolde"}},
	14: {Name: "Caldemora", Aliases: []string{"la ciudad"}},
	15: {Name: "Ciudad Alta"},
	16: {Name: "Muelles", Aliases: []string{"la Torre"}},
}

func TestMatcherFind(t *testing.T) {
	m := NewMatcher(matchEntities)
	for _, c := range []struct {
		name, text string
		want       []string // "entity:surface", "~" prefix for fuzzy
	}{
		{"case and accents", "la cienaga de murgo y LA CIÉNAGA DE MURGO", []string{"2:cienaga de murgo", "2:CIÉNAGA DE MURGO"}},
		{"whole words", "Nixon y Anaya no; Nix y Ana sí; nix-ana también", []string{"0:Nix", "1:Ana", "0:nix", "1:ana"}},
		{"longest match", "Llegamos a la Torre de Sal de Ezkarra, luego a Ezkarra y a la Torre de Sal.",
			[]string{"3:Torre de Sal de Ezkarra", "4:Ezkarra", "3:Torre de Sal"}},
		{"overlap: name beats alias of equal length", "Lord Emeric Valcárcel y los Valcárcel", []string{"6:Emeric Valcárcel", "5:Valcárcel"}},
		{"overlap: leading article does not count", "en la Ciudad Alta, la ciudad, la Torre de Sal", []string{"15:Ciudad Alta", "14:la ciudad", "3:Torre de Sal"}},
		{"name beats alias", "Emeric Valcárcel", []string{"6:Emeric Valcárcel"}},
		{"accent variant is exact", "Valcarcel", []string{"5:Valcarcel"}},
		{"fuzzy 9 letters", "el tal Valcarsel", []string{"5:~Valcarsel"}},
		{"fuzzy transposition", "Valcárcle", []string{"5:~Valcárcle"}},
		{"fuzzy too far", "Valcarselo Balcárcel", nil},
		{"no fuzzy first letter", "Zalcárcel", nil},
		{"fuzzy multiword", "Emerik Valcarsel y Ciriela Bos", []string{"6:~Emerik Valcarsel"}},
		{"fuzzy in one long word", "Ysolde Marain", []string{"13:~Ysolde Marain"}},
		{"short names never fuzzy", "Nux, Anna, Murgos", nil},
		{"lowercase alias exact only", "las siete voces y las siete veces", []string{"11:las siete voces"}},
		{"hyphen and space", "Kael-Dur, kael dur, Kael Dur; Kael solo no", []string{"9:Kael-Dur", "9:kael dur", "9:Kael Dur"}},
		{"enye folded", "Penaurora y Peñaurora", []string{"10:Penaurora", "10:Peñaurora"}},
		{"article dropped for multi-word alias", "vimos a una Dama Velada", []string{"8:Dama Velada"}},
		{"contraction del", "la casa del Farolero; el Farolero; al farolero; un farolero", []string{"7:Farolero", "7:el Farolero", "7:farolero"}},
		{"punctuation and markdown", "**Tresdedos**, [[Nix|la Urraca]]", []string{"12:Tresdedos", "0:Nix", "0:la Urraca"}},
		{"decomposed accents", "Cie\u0301naga de Murgo", []string{"2:Cie\u0301naga de Murgo"}},
	} {
		got := m.Find(c.text)
		var gs []string
		for _, x := range got {
			if x.Surface != c.text[x.Start:x.End] {
				t.Errorf("%s: surface %q != text[%d:%d] %q", c.name, x.Surface, x.Start, x.End, c.text[x.Start:x.End])
			}
			f := ""
			if x.Fuzzy {
				f = "~"
			}
			gs = append(gs, fmt.Sprintf("%d:%s%s", x.Entity, f, x.Surface))
		}
		if strings.Join(gs, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: Find(%q)\n got %q\nwant %q", c.name, c.text, gs, c.want)
		}
	}
}

func TestMatcherOffsetsMultibyte(t *testing.T) {
	m := NewMatcher(matchEntities)
	text := "¡Ñandú! «Ciénaga de Murgo» — 🐉 Peñaurora… Valcársel"
	got := m.Find(text)
	want := []struct {
		entity  int
		surface string
		fuzzy   bool
	}{{2, "Ciénaga de Murgo", false}, {10, "Peñaurora", false}, {5, "Valcársel", true}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Entity != w.entity || g.Surface != w.surface || g.Fuzzy != w.fuzzy || text[g.Start:g.End] != w.surface {
			t.Errorf("mention %d: got %+v, want %+v", i, g, w)
		}
	}
	if i := strings.Index(text, "Ciénaga"); got[0].Start != i || got[0].End != i+len("Ciénaga de Murgo") {
		t.Errorf("offsets %d-%d, want %d-%d", got[0].Start, got[0].End, i, i+len("Ciénaga de Murgo"))
	}
}

func TestMatcherEdgeCases(t *testing.T) {
	if got := NewMatcher(nil).Find("Nix"); got != nil {
		t.Errorf("no entities: %v", got)
	}
	m := NewMatcher([]Entity{{Name: ""}, {Name: "¿?"}, {Name: "Nix"}, {Name: "Nix", Aliases: []string{"Nix"}}})
	if got := m.Find("Nix"); len(got) != 1 || got[0].Entity != 2 {
		t.Errorf("duplicates: %+v", got)
	}
	if got := m.Find(""); got != nil {
		t.Errorf("empty text: %v", got)
	}
	// An alias that is another entity's name goes to that entity.
	m = NewMatcher([]Entity{{Name: "Harbin", Aliases: []string{"Ezkarra"}}, {Name: "Ezkarra"}})
	if got := m.Find("Ezkarra"); len(got) != 1 || got[0].Entity != 1 {
		t.Errorf("name over alias: %+v", got)
	}
}

func TestOSA(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"valcarcel", "valcarcel", 1, 0},
		{"valcarsel", "valcarcel", 1, 1},
		{"valcracel", "valcarcel", 1, 1},
		{"valcarce", "valcarcel", 1, 1},
		{"valcarceles", "valcarcel", 2, 2},
		{"valcarceles", "valcarcel", 1, 2},
		{"balcarcel", "valcarcel", 2, 3},
		{"μορβαεν", "μορβαιν", 1, 1},
	} {
		if got := osa(c.a, c.b, c.limit); got != c.want {
			t.Errorf("osa(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}
