package compendium

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const sampleDir = "../examples/campaign"

// readVault reads the Markdown notes under dir the simple way: front matter
// between "---" lines (title, aliases, tags), title falling back to the
// first H1 and then the file stem.
func readVault(t testing.TB, dir string) []NoteInput {
	t.Helper()
	var notes []NoteInput
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		notes = append(notes, parseNote(filepath.ToSlash(rel), string(data)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return notes
}

func parseNote(path, text string) NoteInput {
	n := NoteInput{Path: path, Text: text}
	if strings.HasPrefix(text, "---\n") {
		if end := strings.Index(text[4:], "\n---\n"); end >= 0 {
			var meta struct {
				Title   string   `yaml:"title"`
				Aliases []string `yaml:"aliases"`
				Tags    []string `yaml:"tags"`
			}
			if yaml.Unmarshal([]byte(text[4:4+end]), &meta) == nil {
				n.Title, n.Aliases, n.Tags = meta.Title, meta.Aliases, meta.Tags
				n.Text = text[4+end+5:]
			}
		}
	}
	if n.Title == "" {
		for _, l := range strings.Split(n.Text, "\n") {
			if strings.HasPrefix(l, "# ") {
				n.Title = strings.TrimSpace(l[2:])
				break
			}
		}
	}
	if n.Title == "" {
		base := path[strings.LastIndex(path, "/")+1:]
		n.Title = strings.TrimSuffix(base, ".md")
	}
	return n
}

func TestSampleDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip("prints the sample's compendium for a look: set DUMP=1 to run it")
	}
	notes := readVault(t, sampleDir)
	es, err := Build(notes, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Source < es[j].Source })
	for _, e := range es {
		t.Logf("%-9s %-7s %-35q %q %s", e.Source, e.Kind, e.Name, e.Aliases, e.Note)
	}
	t.Logf("%d entities", len(es))
}

func TestSampleCampaign(t *testing.T) {
	notes := readVault(t, sampleDir)
	if len(notes) < 40 {
		t.Fatalf("read %d notes from %s", len(notes), sampleDir)
	}
	es, err := Build(notes, nil, Config{})
	if err != nil {
		t.Fatal(err)
	}
	byKind, bySource := map[Kind]int{}, map[string]int{}
	byName := map[string]Entity{}
	allNames := map[string]string{} // normalised name or alias → entity
	for _, e := range es {
		byKind[e.Kind]++
		bySource[e.Source]++
		byName[e.Name] = e
		allNames[Normalize(e.Name)] = e.Name
		for _, a := range e.Aliases {
			allNames[Normalize(a)] = e.Name
		}
	}
	t.Logf("%d notes → %d entities; by kind %v; by source %v", len(notes), len(es), byKind, bySource)

	// The NPCs and PCs by their note titles, with their front-matter aliases.
	for _, c := range []struct {
		name    string
		kind    Kind
		aliases []string
	}{
		{"Ciriela Vos", KindNPC, []string{"Hermana Ciriela", "la Dama Velada", "Ciriela"}},
		{"Vesper Quillon", KindNPC, []string{"el Farolero", "Vesper"}},
		{"Odalric Pardal", KindNPC, []string{"Maese Odalric", "Odalric"}},
		{"Emeric Valcárcel", KindNPC, []string{"Lord Emeric", "el Regente", "Emeric"}},
		{"Leoric Valcárcel", KindNPC, []string{"el Archiduque", "Leoric"}},
		{"Sir Alvar Duranza", KindNPC, []string{"Sir Alvar", "Alvar Duranza", "Alvar"}},
		{"Madre Grulla", KindNPC, []string{"la Vieja del Pantano"}},
		{"Chispa", KindNPC, []string{"la kobold"}},
		{"Nix", KindPC, []string{"la Urraca", "Nixie"}},
		{"Lyra Venthal", KindPC, []string{"Lyra"}},
		{"Tomás Arrieta", KindPC, []string{"Tomás", "Sir Tomás"}},
		{"Dorn Kazhal", KindPC, []string{"Dorn"}},
		{"Fenwick Carduz", KindPC, []string{"Fenwick"}},
		{"Aurelith", KindGod, []string{"la Señora del Alba"}},
		{"Teskal", KindGod, []string{"el Herrero Tuerto"}},
		{"Morvaen", KindGod, nil},
		{"Ysmira", KindGod, nil},
		{"Nhalia", KindGod, nil},
		{"Ozrún", KindGod, nil},
		{"Caldemora", KindPlace, []string{"Ciudad de las Mareas"}},
		{"Ribafría", KindPlace, nil},
		{"Ciénaga de Murgo", KindPlace, []string{"Murgo"}},
		{"Torre de Sal de Ezkarra", KindPlace, []string{"Torre de Sal"}},
		{"Templo del Alba", KindPlace, nil},
		{"Palacio de las Mareas", KindPlace, nil},
		{"Biblioteca de Sal", KindPlace, nil},
		{"Guardia de Ceniza", KindFaction, nil},
		{"Hijos del Silencio", KindFaction, nil},
		{"Gremio del Farol", KindFaction, nil},
		{"Orden del Alba Quebrada", KindFaction, nil},
		// Recurring names with no note of their own.
		{"Peñaurora", KindOther, nil},
		{"Serpa", KindOther, nil},
		{"Vadoseco", KindOther, nil},
		{"Mamá Tiza", KindOther, nil},
		{"Corvo", KindOther, nil},
		{"Anguila Ciega", KindOther, nil},
		{"Días Mudos", KindOther, nil},
	} {
		e, ok := byName[c.name]
		if !ok {
			t.Errorf("missing entity %q", c.name)
			continue
		}
		if e.Kind != c.kind {
			t.Errorf("%q: kind %s, want %s", c.name, e.Kind, c.kind)
		}
		for _, a := range c.aliases {
			if allNames[Normalize(a)] != c.name {
				t.Errorf("%q: alias %q missing (aliases %q)", c.name, a, e.Aliases)
			}
		}
	}
	// Junk: sentence-start words, session words, months of the campaign
	// calendar (several are common words: Calima, Mies, Vendimia, Escarcha,
	// Floral), section headings, acronyms.
	for _, junk := range []string{"Luego", "Después", "El", "La", "Los", "En", "Vamos", "Hoy", "Pero",
		"Sesión", "Sesion", "Sesiones", "Primeras", "Nota", "Notas", "DM", "PJ", "Días", "Cinco", "Tres",
		"Primhielo", "Deshiel", "Verdal", "Lluvial", "Floral", "Altasol", "Calima", "Mies", "Vendimia",
		"Brumal", "Escarcha", "Nochelarga", "Trasfondo", "Rasgos", "Equipo", "Objetivos", "Relaciones",
		"Apariciones", "Maese", "Sir", "Es la Mano Gris"} {
		if e, ok := allNames[Normalize(junk)]; ok {
			t.Errorf("junk %q found (entity %q)", junk, e)
		}
	}

	// The thresholds, measured.
	for _, th := range [][2]int{{1, 1}, {2, 2}, {2, 3}, {3, 3}, {3, 5}} {
		es, _ := Build(notes, nil, Config{MinNotes: th[0], MinMentions: th[1]})
		n := 0
		for _, e := range es {
			if e.Source == SourceHeuristic {
				n++
			}
		}
		t.Logf("MinNotes %d, MinMentions %d: %d entities, %d heuristic", th[0], th[1], len(es), n)
	}
	es2, _ := Build(notes, nil, Config{SkipFolders: []string{"DM"}})
	t.Logf("SkipFolders DM: %d entities", len(es2))

	// Every entity with a note is found in the notes' text.
	m := NewMatcher(es)
	found := make([]int, len(es))
	total := 0
	for _, n := range notes {
		for _, x := range m.Find(n.Text) {
			found[x.Entity]++
			total++
		}
	}
	var unseen []string
	for i, e := range es {
		if found[i] == 0 {
			unseen = append(unseen, e.Name)
		}
	}
	t.Logf("%d mentions in the notes; never mentioned in a body: %q", total, unseen)
}
