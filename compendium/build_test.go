package compendium

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// smallVault is a hand-made campaign covering every source of entities.
var smallVault = []NoteInput{
	{Path: "NPCs/Harbin Wester.md", Title: "Harbin Wester", Aliases: []string{"el viejo", "Harbin"}, Tags: []string{"npc"},
		Text: "# Harbin Wester\n\n## Historia\n\nPescador retirado de Puerto Gris.\n"},
	{Path: "NPCs/Ciriela Vos.md", Title: "Ciriela Vos", Aliases: []string{"Hermana Ciriela", "la Dama Velada"},
		Text: "Sacerdotisa del Alba.\n"},
	{Path: "NPCs/Lord Emeric.md", Title: "Lord Emeric", Aliases: []string{"el Regente"}, Text: "El sobrino.\n"},
	{Path: "NPCs/Rhosyn.md", Title: "Rhosyn Calatrava", Aliases: []string{"la Capitana", "Rhosyn"}, Text: "Capitana de la guardia.\n"},
	{Path: "Fichas/Nix.md", Title: "Nix", Aliases: []string{"la Urraca", "la Capitana"}, Text: "Pícara.\n"},
	{Path: "Lugares/Puerto Gris.md", Title: "Puerto Gris", Aliases: []string{"el puerto"},
		Text: "Un puerto.\n\n### El Faro Viejo\nUna torre.\n\n### Notas\nNada.\n"},
	{Path: "Mundo/Dioses.md", Title: "Dioses de la Marca",
		Text: "Intro.\n\n## Aurelith, la Señora del Alba\nDiosa.\n\n## Morvaen\nDios del río.\n\n## Notas\nVarias.\n"},
	{Path: "Sesiones/Sesión 1.md", Title: "Sesión 1", Text: "Llegamos a [[Puerto Gris]] con [[Harbin Wester|el pescador]]. " +
		"Luego vimos a Bruno Salas en la taberna.\nNix habló con Bruno Salas y con la [[Dama Velada]]. " +
		"El 3 de Brumal salimos hacia Torre de Sal de Ezkarra.\n`[[Código]]` no cuenta, ni esto:\n```\n[[Tampoco]]\n```\n[[Kael]] es un enano.\n"},
	{Path: "Sesiones/Sesión 2.md", Title: "Sesión 2", Text: "Después de la Sesión 1, Bruno Salas nos llevó a Torre de Sal de Ezkarra. " +
		"Hablamos de Morvaen con Emeric. El 5 de Brumal llovió. En Brumal hace frío. Nix robó a Bruno Salas. " +
		"[[Sesión 1]] fue mejor. ![[Mapa.png]] [[Nix|el viejo]].\n"},
	{Path: "Sesiones/Sesión 3.md", Title: "Sesión 3", Text: "Volvimos a Torre de Sal de Ezkarra con Emeric. " +
		"Emeric dijo que Bruno Salas miente. Nadie vio a Dorn Kazhal.\n"},
}

const smallFile = `
entities:
  - name: Harbin Wester
    aliases: [Viejo Harbin]
  - name: Espada Negra
    kind: item
    aliases: [la Negra, Nix]
merge:
  - into: Ciriela Vos
    names: [Dama Velada]
rename:
  - from: Lord Emeric
    to: Emeric Valcárcel
ban: [Kael, el puerto]
`

func TestBuildSmallVault(t *testing.T) {
	f, err := ParseFile([]byte(smallFile))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Build(smallVault, f, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entity{
		{Name: "Aurelith", Kind: KindGod, Aliases: []string{"la Señora del Alba"}, Note: "Mundo/Dioses.md", Source: SourceHeading},
		{Name: "Bruno Salas", Kind: KindOther, Source: SourceHeuristic},
		// The file merged the wikilink entity "Dama Velada" into her.
		{Name: "Ciriela Vos", Kind: KindNPC, Aliases: []string{"Dama Velada", "Hermana Ciriela", "la Dama Velada"}, Note: "NPCs/Ciriela Vos.md", Source: SourceFile},
		// Renamed by the file; "Emeric" is "Lord Emeric" without the honorific, seen in two notes.
		{Name: "Emeric Valcárcel", Kind: KindNPC, Aliases: []string{"el Regente", "Emeric", "Lord Emeric"}, Note: "NPCs/Lord Emeric.md", Source: SourceFile},
		// "Nix" is another entity's name: dropped.
		{Name: "Espada Negra", Kind: KindItem, Aliases: []string{"la Negra"}, Source: SourceFile},
		{Name: "Faro Viejo", Kind: KindPlace, Note: "Lugares/Puerto Gris.md", Source: SourceHeading},
		// Completed by the file (alias), kind from the folder; "el viejo" stays
		// with the note that claims it, not with the link [[Nix|el viejo]].
		{Name: "Harbin Wester", Kind: KindNPC, Aliases: []string{"el pescador", "el viejo", "Harbin", "Viejo Harbin"}, Note: "NPCs/Harbin Wester.md", Source: SourceFile},
		{Name: "Morvaen", Kind: KindGod, Note: "Mundo/Dioses.md", Source: SourceHeading},
		// "la Capitana" is claimed by two notes: neither gets it.
		{Name: "Nix", Kind: KindPC, Aliases: []string{"la Urraca"}, Note: "Fichas/Nix.md", Source: SourceNote},
		{Name: "Puerto Gris", Kind: KindPlace, Note: "Lugares/Puerto Gris.md", Source: SourceNote},
		{Name: "Rhosyn Calatrava", Kind: KindNPC, Aliases: []string{"Rhosyn"}, Note: "NPCs/Rhosyn.md", Source: SourceNote},
		{Name: "Torre de Sal de Ezkarra", Kind: KindOther, Source: SourceHeuristic},
	}
	// Absent: Luego/Después (sentence starts), Sesión (session word), Brumal
	// (dates), Kael (banned), Código/Tampoco (code), Mapa.png (embed),
	// "Sesión 1" (link to a session note), Dorn Kazhal (one mention),
	// Historia/Notas (section headings), Dioses de la Marca (no aliases).
	diffEntities(t, got, want)

	// Without the file: no rename, no merge, no ban.
	got, err = Build(smallVault, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	names := entityNames(got)
	for _, n := range []string{"Lord Emeric", "Dama Velada", "Kael"} {
		if !names[n] {
			t.Errorf("without the file, %q is missing: %v", n, got)
		}
	}
	if names["Emeric Valcárcel"] || names["Espada Negra"] {
		t.Errorf("without the file, file entities are present: %v", got)
	}

	// Thresholds: with 1/1 even Dorn Kazhal (one mention) is a name.
	got, _ = Build(smallVault, nil, Config{MinNotes: 1, MinMentions: 1})
	if !entityNames(got)["Dorn Kazhal"] {
		t.Errorf("MinNotes/MinMentions 1: Dorn Kazhal missing")
	}
	// Heuristics off.
	got, _ = Build(smallVault, nil, Config{MinMentions: -1})
	if n := entityNames(got); n["Bruno Salas"] || n["Torre de Sal de Ezkarra"] {
		t.Errorf("MinMentions -1: heuristic names present")
	}
	// Skipping the sessions folder removes what only they say.
	got, _ = Build(smallVault, nil, Config{SkipFolders: []string{"sesiones"}})
	if n := entityNames(got); n["Bruno Salas"] || n["Dama Velada"] || n["Kael"] || !n["Nix"] {
		t.Errorf("SkipFolders: got %v", got)
	}
}

func entityNames(es []Entity) map[string]bool {
	m := map[string]bool{}
	for _, e := range es {
		m[e.Name] = true
	}
	return m
}

func diffEntities(t *testing.T, got, want []Entity) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, w := map[string]Entity{}, map[string]Entity{}
	for _, e := range got {
		g[e.Name] = e
	}
	for _, e := range want {
		w[e.Name] = e
	}
	for _, e := range want {
		if x, ok := g[e.Name]; !ok {
			t.Errorf("missing %+v", e)
		} else if !reflect.DeepEqual(x, e) {
			t.Errorf("entity %q:\n got %+v\nwant %+v", e.Name, x, e)
		}
	}
	for _, e := range got {
		if _, ok := w[e.Name]; !ok {
			t.Errorf("unexpected %+v", e)
		}
	}
	if len(got) == len(want) && !t.Failed() {
		t.Errorf("order differs:\n got %v\nwant %v", got, want)
	}
}

func TestBuildRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		notes []NoteInput
		file  string
		cfg   Config
		extra []Entity
		want  []Entity
	}{
		{
			name: "wikilink to an alias, path and heading of a collection note",
			notes: []NoteInput{
				{Path: "NPCs/Harbin.md", Title: "Harbin Wester", Aliases: []string{"el viejo"}},
				{Path: "Mundo/Facciones.md", Title: "Facciones", Text: "## La Guardia de Ceniza\nGuardias.\n"},
				{Path: "Diario.md", Title: "Diario", Text: "[[el viejo|Harbin]] y [[NPCs/Harbin|el Pescador]] y [[Facciones#La Guardia de Ceniza|la Guardia]] y [[Objetos/Espada Negra]]."},
			},
			want: []Entity{
				{Name: "Espada Negra", Kind: KindItem, Source: SourceWikilink},
				{Name: "Guardia de Ceniza", Kind: KindFaction, Aliases: []string{"la Guardia"}, Note: "Mundo/Facciones.md", Source: SourceWikilink},
				{Name: "Harbin Wester", Kind: KindNPC, Aliases: []string{"el Pescador", "el viejo", "Harbin"}, Note: "NPCs/Harbin.md", Source: SourceNote},
			},
		},
		{
			name: "tags give kinds; stem becomes an alias; parenthetical dropped",
			notes: []NoteInput{
				{Path: "Notas/Alvar.md", Title: "Sir Alvar Duranza", Tags: []string{"#npc/aliado"}},
				{Path: "DM/La Mano Gris.md", Title: "La Mano Gris (secreto)", Aliases: []string{"Mano Gris"}},
			},
			want: []Entity{
				{Name: "La Mano Gris", Kind: KindOther, Aliases: []string{"Mano Gris"}, Note: "DM/La Mano Gris.md", Source: SourceNote},
				{Name: "Sir Alvar Duranza", Kind: KindNPC, Aliases: []string{"Alvar"}, Note: "Notas/Alvar.md", Source: SourceNote},
			},
		},
		{
			name: "folder kinds configurable, any depth, accent-insensitive",
			notes: []NoteInput{
				{Path: "Campaña/Bestiario/Dragón Rojo.md", Title: "Dragón Rojo"},
				{Path: "Campaña/PNJs/Ana.md", Title: "Ana"},
			},
			cfg: Config{FolderKinds: map[string]Kind{"bestiario": KindOther, "pnjs": ""}},
			want: []Entity{
				{Name: "Dragón Rojo", Kind: KindOther, Note: "Campaña/Bestiario/Dragón Rojo.md", Source: SourceNote},
			},
		},
		{
			name: "extra entities rank below headings, above heuristics",
			notes: []NoteInput{
				{Path: "Mundo/Dioses.md", Title: "Dioses", Text: "## Teskal\nHerrero.\n"},
			},
			extra: []Entity{
				{Name: "Teskal", Kind: KindNPC, Aliases: []string{"el Herrero Tuerto"}},
				{Name: "Colmillo", Kind: KindItem, Aliases: []string{"la daga"}, Note: "Fichas/Nix.md"},
			},
			want: []Entity{
				{Name: "Colmillo", Kind: KindItem, Aliases: []string{"la daga"}, Note: "Fichas/Nix.md", Source: SourceExtra},
				{Name: "Teskal", Kind: KindGod, Aliases: []string{"el Herrero Tuerto"}, Note: "Mundo/Dioses.md", Source: SourceHeading},
			},
		},
		{
			name: "merge into a new name; rename onto an existing entity merges",
			notes: []NoteInput{
				{Path: "NPCs/Ana Roca.md", Title: "Ana Roca"},
				{Path: "NPCs/La Roja.md", Title: "La Roja"},
				{Path: "NPCs/Bea Roca.md", Title: "Bea Roca"},
			},
			file: "merge:\n  - into: Hermanas Roca\n    names: [Ana Roca, Bea Roca]\nrename:\n  - from: La Roja\n    to: Hermanas Roca\n",
			want: []Entity{
				// Renames come first: "La Roja" becomes "Hermanas Roca", then the others merge into it.
				{Name: "Hermanas Roca", Kind: KindNPC, Aliases: []string{"Ana Roca", "Bea Roca", "La Roja"}, Note: "NPCs/La Roja.md", Source: SourceFile},
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var f *File
			if c.file != "" {
				var err error
				if f, err = ParseFile([]byte(c.file)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := BuildWith(c.notes, f, c.cfg, c.extra)
			if err != nil {
				t.Fatal(err)
			}
			diffEntities(t, got, c.want)
		})
	}
}

func TestBuildErrors(t *testing.T) {
	if _, err := Build(nil, nil, Config{FolderKinds: map[string]Kind{"Bestias": "monster"}}); err == nil || !strings.Contains(err.Error(), `unknown kind "monster"`) {
		t.Errorf("bad folder kind: %v", err)
	}
	if _, err := Build(nil, &File{Entities: []FileEntity{{Name: "X", Kind: "villain"}}}, Config{}); err == nil {
		t.Errorf("bad file kind: no error")
	}
	if _, err := BuildWith(nil, nil, Config{}, []Entity{{Name: "X", Kind: "??"}}); err == nil {
		t.Errorf("bad extra kind: no error")
	}
}

func TestRunExtractor(t *testing.T) {
	notes := []NoteInput{{Path: "a.md"}, {Path: "b.md"}}
	ex := func(_ context.Context, n NoteInput) ([]Entity, error) {
		if n.Path == "b.md" {
			return nil, errors.New("model unavailable")
		}
		return []Entity{{Name: "Colmillo", Kind: KindItem}}, nil
	}
	got, err := RunExtractor(context.Background(), ex, notes)
	if err == nil || !strings.Contains(err.Error(), `extract "b.md": model unavailable`) {
		t.Errorf("error = %v", err)
	}
	if len(got) != 1 || got[0].Note != "a.md" {
		t.Errorf("got %+v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunExtractor(ctx, ex, notes); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func ExampleBuild() {
	notes := []NoteInput{
		{Path: "NPCs/Harbin Wester.md", Title: "Harbin Wester", Aliases: []string{"el viejo"}},
		{Path: "Sesiones/1.md", Title: "Sesión 1", Text: "Vimos a [[Harbin Wester|Harbin]] en Puerto Gris."},
		{Path: "Sesiones/2.md", Title: "Sesión 2", Text: "Volvimos a Puerto Gris. Harbin no estaba en Puerto Gris."},
	}
	es, _ := Build(notes, nil, Config{})
	for _, e := range es {
		fmt.Printf("%s (%s, %s) %q\n", e.Name, e.Kind, e.Source, e.Aliases)
	}
	// Output:
	// Harbin Wester (npc, note) ["el viejo" "Harbin"]
	// Puerto Gris (other, heuristic) []
}

func TestBuildDeterministic(t *testing.T) {
	notes := readVault(t, sampleDir)
	first, err := Build(notes, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		shuffled := append([]NoteInput(nil), notes...)
		for j := range shuffled {
			k := (j*7 + i*13) % len(shuffled)
			shuffled[j], shuffled[k] = shuffled[k], shuffled[j]
		}
		got, _ := Build(shuffled, nil, Config{})
		if !reflect.DeepEqual(got, first) {
			t.Fatalf("run %d differs with the notes in another order", i)
		}
	}
}
