package story

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// vault is a fake store with a compendium's mentions and the notes' front
// matter.
type vault struct {
	notes
	mentions map[int64][]store.Mention
	facts    []store.NoteFacts
}

func (v vault) MentionsOf(_ context.Context, ids []int64, public bool) (map[int64][]store.Mention, error) {
	out := map[int64][]store.Mention{}
	for _, id := range ids {
		for _, m := range v.mentions[id] {
			i := slices.IndexFunc(v.notes, func(c store.Chunk) bool { return c.ID == m.ChunkID })
			if !(public && v.notes[i].Restricted) {
				out[id] = append(out[id], m)
			}
		}
	}
	return out, nil
}

func (v vault) EachNoteFacts(_ context.Context, fn func(store.NoteFacts) error) error {
	for _, f := range v.facts {
		if err := fn(f); err != nil {
			return err
		}
	}
	return nil
}

// threadMention is a mention of chunk c.
func threadMention(c store.Chunk) store.Mention {
	return store.Mention{ChunkID: c.ID, Count: 1, Session: c.Session, InSession: c.InSession, Path: c.Path, Ordinal: c.Ordinal}
}

// threadTitles are the threads' kinds and titles, in order.
func threadTitles(th Threads) []string {
	var out []string
	for _, t := range th.Threads {
		out = append(out, t.Kind+": "+t.Title)
	}
	return out
}

func taskVault() vault {
	v := vault{notes: notes{
		chunkOf(1, "Sesiones/s1.md", 0, 1, "Vesper les da el mapa.\n\n- [ ] Averiguar quién tapió la puerta\n- [x] Pagar a Odalric"),
		chunkOf(2, "Sesiones/s2.md", 0, 2, "Nix roba una cucharilla."),
		chunkOf(3, "DM/Plan.md", 0, 0, "## Preparar\n\n- [ ] Stats de Rata Fina\n- [ ] Averiguar quién tapió la puerta"),
		chunkOf(4, "Sesiones/s3.md", 0, 3, "Lyra canta.\n\n- [ ] Averiguar quién tapió la puerta"),
	}}
	v.notes[2].Restricted = true
	return v
}

func TestOpenThreadsTasks(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		public bool
		want   []string
	}{
		{false, []string{"task: Averiguar quién tapió la puerta", "task: Averiguar quién tapió la puerta", "task: Averiguar quién tapió la puerta", "task: Stats de Rata Fina"}},
		{true, []string{"task: Averiguar quién tapió la puerta", "task: Averiguar quién tapió la puerta"}},
	} {
		th, err := OpenThreads(ctx, taskVault(), Audience{Public: c.public}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := threadTitles(th); !slices.Equal(got, c.want) {
			t.Errorf("public %v: threads %q, want %q", c.public, got, c.want)
		}
		if th.LastSession != 3 || th.QuietSessions != DefaultQuiet {
			t.Errorf("public %v: last %d quiet %d", c.public, th.LastSession, th.QuietSessions)
		}
		first := th.Threads[0]
		if first.Introduced.File != "Sesiones/s1.md" || first.OpenSessions != 3 || first.Mentions != 1 {
			t.Errorf("public %v: the oldest task first, open 3 sessions: %+v", c.public, first)
		}
		for _, x := range th.Threads {
			if c.public && x.Introduced.File == "DM/Plan.md" {
				t.Errorf("a player is shown the DM's task %q", x.Title)
			}
		}
	}
}

func TestOpenQuests(t *testing.T) {
	meta := func(s string) json.RawMessage { return json.RawMessage(s) }
	v := vault{notes: notes{
		chunkOf(1, "Misiones/El favor.md", 0, 0, "Vesper quiere un favor."),
		chunkOf(2, "Tramas/La caja.md", 0, 0, "La caja lacada.\n\nCompletada: se la dimos a Vesper."),
		chunkOf(3, "Tramas/El testamento.md", 0, 0, "Los 1.000 po de Leoric.\n\n- [x] Hablar con el notario\n- [ ] Cobrar"),
		chunkOf(4, "Tramas/Las jarras.md", 0, 0, "Recuperar las jarras.\n\n- [x] La jarra de Ysolde"),
		chunkOf(5, "Encargos.md", 0, 0, "# Encargos\n\n## Misión: Los desaparecidos\n\nBreto y Pim vuelven.\n\nCompletada en la sesión 7.\n\n## Misión: El archiduque\n\nInvestigar a los Hijos del Silencio.\n\n## Quest — The crown (done)\n\nFound it.\n\n## Notas\n\nNada."),
		chunkOf(6, "DM/Secreto.md", 0, 0, "El traidor es Alvar."),
	}, facts: []store.NoteFacts{
		{Path: "Misiones/El favor.md", Title: "El favor del Farolero", Metadata: meta(`{}`)},
		{Path: "Tramas/La caja.md", Title: "La caja", Metadata: meta(`{"tags": ["misión"]}`)},
		{Path: "Tramas/El testamento.md", Title: "El testamento", Metadata: meta(`{"Estado": "Abierta"}`)},
		{Path: "Tramas/Las jarras.md", Title: "Las jarras", Metadata: meta(`{"type": "quest"}`)},
		{Path: "Encargos.md", Title: "Encargos", Metadata: meta(`{"tags": "encargos-varios"}`)},
		{Path: "DM/Secreto.md", Title: "Secreto", Metadata: meta(`{"status": "open"}`), Restricted: true},
	}}
	v.notes[5].Restricted = true
	ctx := context.Background()
	th, err := OpenThreads(ctx, v, Audience{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"task: Cobrar", "quest: El archiduque", "quest: El favor del Farolero", "quest: El testamento", "quest: Secreto"}
	if got := threadTitles(th); !slices.Equal(got, want) {
		t.Errorf("threads %q, want %q", got, want)
	}
	th, _ = OpenThreads(ctx, v, Audience{Public: true}, 0)
	if got := threadTitles(th); slices.Contains(got, "quest: Secreto") {
		t.Errorf("a player is shown a DM-only quest: %q", got)
	}
	if th.Threads[1].Introduced.Text != "Investigar a los Hijos del Silencio." {
		t.Errorf("a quest section is introduced by its first sentence: %+v", th.Threads[1].Introduced)
	}
}

func TestQuietEntities(t *testing.T) {
	v := vault{notes: notes{}, mentions: map[int64][]store.Mention{}}
	for s := 1; s <= 9; s++ {
		v.notes = append(v.notes, chunkOf(int64(s), "Sesiones/s.md", s, s, "Lyra canta."))
	}
	add := func(id int64, path string, session int, text string, restricted bool, entities ...int64) {
		c := chunkOf(id, path, int(id), session, text)
		c.Restricted = restricted
		v.notes = append(v.notes, c)
		for _, e := range entities {
			v.mentions[e] = append(v.mentions[e], threadMention(c))
		}
	}
	add(11, "Sesiones/s.md", 1, "Pelayo, el chico de los recados, vigila el muelle para Nix.", false, 1)
	add(12, "Sesiones/s.md", 2, "Nix le promete a Pelayo que volverá a por él.", false, 1)
	add(13, "Sesiones/s.md", 1, "Breto vuelve a casa.", false, 2)
	add(14, "Sesiones/s.md", 8, "Breto pesca en el río.", false, 2)
	add(15, "Sesiones/s.md", 1, "Jugadores: Marta (Lyra), Javi (Dorn), Lucía (Nix).", false, 3)
	add(16, "Sesiones/s.md", 2, "Javi me lo dijo por WhatsApp después de la sesión.", false, 3)
	add(17, "Sesiones/s.md", 1, "Dorn arregla ollas.", false, 4)
	add(18, "Sesiones/s.md", 2, "Dorn arregla más ollas.", false, 4)
	add(19, "DM/Plan.md", 1, "Rata Fina mata a Garrik por orden de Alvar.", true, 5)
	add(20, "DM/Plan.md", 2, "Rata Fina vigila a Nix.", true, 5)
	add(21, "Sesiones/s.md", 3, "Pelayo aparece en una lista de la Guardia.", false)
	a := Audience{Entities: []store.Entity{
		{ID: 1, Name: "Pelayo", Kind: "other"}, {ID: 2, Name: "Breto", Kind: "npc"}, {ID: 3, Name: "Javi", Kind: "other"},
		{ID: 4, Name: "Dorn", Kind: "pc"}, {ID: 5, Name: "Rata Fina", Kind: "npc"},
	}}
	ctx := context.Background()
	th, err := OpenThreads(ctx, v, a, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := threadTitles(th), []string{"entity: Pelayo", "entity: Rata Fina"}; !slices.Equal(got, want) {
		t.Errorf("threads %q, want %q", got, want)
	}
	p := th.Threads[0]
	if *p.Introduced.Session != 1 || *p.Last.Session != 2 || p.Mentions != 2 || p.OpenSessions != 9 || p.Last.Text != "Nix le promete a Pelayo que volverá a por él." {
		t.Errorf("Pelayo's thread: %+v", p)
	}
	a.Public = true
	th, _ = OpenThreads(ctx, v, a, 5)
	if got, want := threadTitles(th), []string{"entity: Pelayo"}; !slices.Equal(got, want) {
		t.Errorf("a player's threads %q, want %q", got, want)
	}
	if th, _ = OpenThreads(ctx, v, a, 9); len(th.Threads) != 0 {
		t.Errorf("quiet 9 of 9 sessions: threads %q, want none", threadTitles(th))
	}
}

func TestQuestMeta(t *testing.T) {
	for _, c := range []struct {
		path, meta string
		quest      bool
		status     string
	}{
		{"a.md", `{}`, false, ""},
		{"Misiones/a.md", `{}`, true, ""},
		{"a.md", `{"status": "completada"}`, true, "completada"},
		{"a.md", `{"estado": "en curso"}`, true, "en curso"},
		{"a.md", `{"status": "borrador"}`, false, "borrador"},
		{"a.md", `{"tipo": "Misión"}`, true, ""},
		{"a.md", `{"tags": ["npc", "#quest"]}`, true, ""},
		{"a.md", `{"tags": "npc"}`, false, ""},
		{"a.md", `not json`, false, ""},
	} {
		quest, status := questMeta(c.path, json.RawMessage(c.meta))
		if quest != c.quest || status != c.status {
			t.Errorf("questMeta(%q, %s) = %v %q, want %v %q", c.path, c.meta, quest, status, c.quest, c.status)
		}
	}
}
