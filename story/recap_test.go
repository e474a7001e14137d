package story

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// notes is a fake store over a few chunks.
type notes []store.Chunk

func (n notes) Sessions(_ context.Context, public bool) ([]int, error) {
	var out []int
	for _, c := range n {
		if c.InSession && !(public && c.Restricted) && !slices.Contains(out, c.Session) {
			out = append(out, c.Session)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (n notes) FilterChunks(_ context.Context, f store.Filter) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, c := range n {
		if c.InSession && slices.Contains(f.Sessions, c.Session) {
			out[c.ID] = true
		}
	}
	return out, nil
}

func (n notes) Chunks(_ context.Context, ids []int64) ([]store.Chunk, error) {
	var out []store.Chunk
	for _, id := range ids {
		i := slices.IndexFunc(n, func(c store.Chunk) bool { return c.ID == id })
		if i < 0 {
			return nil, store.ErrMissingParent
		}
		out = append(out, n[i])
	}
	return out, nil
}

func (n notes) ListChunks(_ context.Context, _ []string) ([]store.Chunk, error) {
	return slices.Clone(n), nil
}

// names is a fake compendium: it names the words it holds.
type names []string

func (ns names) Named(s string) []string {
	var out []string
	for _, n := range ns {
		if strings.Contains(s, n) {
			out = append(out, n)
		}
	}
	return out
}

func chunkOf(id int64, path string, ordinal, session int, text string) store.Chunk {
	c := store.Chunk{ID: id, Path: path}
	c.UID, c.Ordinal, c.Session, c.InSession, c.Text = "u"+path+string(rune('0'+ordinal)), ordinal, session, session > 0, text
	c.WordEnd = len(strings.Fields(text))
	return c
}

const session7 = `## Sesión 7 — La torre

Notas de Sergio. 3 de Brumal del 1347. Jugadores: Marta (Lyra), Javi (Dorn), Lucía (Nix).

El grupo llega a la Torre de Sal al amanecer y Vesper les abre la puerta. Pedimos pizza a mitad.

Dentro, **Garrik** les ataca con sus Perros y Dorn le rompe el escudo de un martillazo.

Apunte: a Marta le encantó Garrik. Repetir el bigote.

Lyra encuentra el diapasón en el sótano, envuelto en cera gris, y se lo guarda sin decir nada.

- [ ] Averiguar quién paga a Garrik
- [x] Devolver el mapa a Vesper

Fenwick lee la carta de Emeric en voz alta y todos se callan. ¿Quién firmó la orden?

Vesper cierra la puerta detrás de ellos y la torre tiembla...`

func TestRecapOf(t *testing.T) {
	c := chunkOf(1, "Sesiones/7.md", 0, 7, session7)
	r := RecapOf(7, []store.Chunk{c}, Audience{Names: names{"Vesper", "Garrik", "Dorn", "Lyra", "Emeric", "Fenwick"}})
	if r.Session != 7 || r.Date != "3 de Brumal del 1347" || !slices.Equal(r.Files, []string{"Sesiones/7.md"}) || !slices.Equal(r.ChunkIDs, []int64{1}) {
		t.Errorf("recap = session %d date %q files %v chunks %v", r.Session, r.Date, r.Files, r.ChunkIDs)
	}
	var events []string
	for _, e := range r.Events {
		events = append(events, e.Text)
		if e.ID != c.UID || e.Session == nil || *e.Session != 7 {
			t.Errorf("event %q cites %+v", e.Text, e.Cite)
		}
	}
	want := []string{
		"El grupo llega a la Torre de Sal al amanecer y Vesper les abre la puerta.",
		"Dentro, **Garrik** les ataca con sus Perros y Dorn le rompe el escudo de un martillazo.",
		"Lyra encuentra el diapasón en el sótano, envuelto en cera gris, y se lo guarda sin decir nada.",
		"Fenwick lee la carta de Emeric en voz alta y todos se callan.",
	}
	if !slices.Equal(events, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	var open []string
	for _, o := range r.Open {
		open = append(open, o.Text)
	}
	wantOpen := []string{"Averiguar quién paga a Garrik", "¿Quién firmó la orden?", "Vesper cierra la puerta detrás de ellos y la torre tiembla..."}
	if !slices.Equal(open, wantOpen) {
		t.Errorf("open = %q, want %q", open, wantOpen)
	}
}

func TestRecapNeverQuotesTheTable(t *testing.T) {
	c := chunkOf(1, "Sesiones/7.md", 0, 7, session7)
	r := RecapOf(7, []store.Chunk{c}, Audience{Names: names{"Marta", "Javi", "Garrik", "Lyra"}})
	for _, m := range append(r.Events, r.Open...) {
		if OutOfGame(m.Text) || strings.Contains(m.Text, "Marta") || strings.Contains(m.Text, "pizza") {
			t.Errorf("the recap quotes the table: %q", m.Text)
		}
	}
}

func TestSessionChunks(t *testing.T) {
	src := notes{
		chunkOf(1, "b.md", 0, 5, "Dorn llega."),
		chunkOf(2, "a.md", 1, 5, "Nix huye."),
		chunkOf(3, "a.md", 0, 5, "Lyra canta."),
		chunkOf(4, "DM/plan.md", 0, 5, "El traidor es Alvar."),
		chunkOf(5, "DM/plan.md", 1, 6, "Sesión 6 planeada."),
		chunkOf(6, "c.md", 0, 0, "Fuera de sesión."),
	}
	src[3].Restricted, src[4].Restricted = true, true
	ctx := context.Background()
	for _, c := range []struct {
		public  bool
		ask     int
		session int
		ids     []int64
	}{
		{false, 5, 5, []int64{4, 3, 2, 1}}, // by path: "DM/" sorts first
		{true, 5, 5, []int64{3, 2, 1}},
		{false, 0, 6, []int64{5}},
		{true, 0, 5, []int64{3, 2, 1}},
	} {
		n, chunks, err := SessionChunks(ctx, src, c.ask, c.public)
		var ids []int64
		for _, ch := range chunks {
			ids = append(ids, ch.ID)
		}
		if err != nil || n != c.session || !slices.Equal(ids, c.ids) {
			t.Errorf("SessionChunks(%d, public %v) = %d %v %v, want %d %v", c.ask, c.public, n, ids, err, c.session, c.ids)
		}
	}
	for _, ask := range []int{6, 9} {
		if _, _, err := SessionChunks(ctx, src, ask, true); !errors.Is(err, ErrNoSession) {
			t.Errorf("a player's session %d: err %v, want ErrNoSession", ask, err)
		}
	}
	if _, _, err := SessionChunks(ctx, notes{}, 0, false); !errors.Is(err, ErrNoSession) {
		t.Errorf("no sessions: err %v, want ErrNoSession", err)
	}
}

func TestEventCap(t *testing.T) {
	for _, c := range []struct{ words, want int }{{0, 4}, {150, 4}, {351, 6}, {688, 10}, {2000, 12}} {
		if got := eventCap(c.words); got != c.want {
			t.Errorf("eventCap(%d) = %d, want %d", c.words, got, c.want)
		}
	}
}

func TestRecapRedacts(t *testing.T) {
	c := chunkOf(1, "Sesiones/7.md", 0, 7, "Garrik le da a Lyra la carta de [[DM/El traidor|el viejo]] y se marcha al puerto.")
	redact := func(s string) string { return strings.ReplaceAll(s, "[[DM/El traidor|el viejo]]", "el viejo") }
	r := RecapOf(7, []store.Chunk{c}, Audience{Public: true, Names: names{"Garrik", "Lyra"}, Redact: redact})
	if len(r.Events) != 1 || strings.Contains(r.Events[0].Text, "DM/") {
		t.Errorf("events = %+v, want the sentence redacted", r.Events)
	}
}

func TestLines(t *testing.T) {
	md := "# Título\n\nUna frase. Otra frase.\n\n- [ ] Abierta\n- [x] Hecha\n* punto uno\n\n```\ncódigo.\n```\n\n| a | b |\n\n---\n> Cita final."
	var got []string
	for _, l := range lines(md) {
		got = append(got, strings.Join([]string{l.text, map[bool]string{true: "H"}[l.heading], []string{"", "open", "done"}[l.task]}, "|"))
	}
	want := []string{"Título|H|", "Una frase.||", "Otra frase.||", "Abierta||open", "Hecha||done", "punto uno||", "Cita final.||"}
	if !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
}
