package story

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// fakeNotes is a store holding some chunks and a compendium per scope.
type fakeNotes struct {
	ents   map[string][]store.Entity
	chunks []store.Chunk
}

func (f *fakeNotes) Entities(_ context.Context, scope string) ([]store.Entity, error) {
	return f.ents[scope], nil
}

func (f *fakeNotes) ListChunks(context.Context, []string) ([]store.Chunk, error) {
	return f.chunks, nil
}

func (f *fakeNotes) Sessions(_ context.Context, public bool) ([]int, error) {
	seen := map[int]bool{}
	var out []int
	for _, c := range f.chunks {
		if c.InSession && !seen[c.Session] && !(public && c.Restricted) {
			seen[c.Session] = true
			out = append(out, c.Session)
		}
	}
	return sortedInts(out), nil
}

func sortedInts(s []int) []int {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// session is a chunk of session n of note path.
func session(id int64, path string, n int, body string) store.Chunk {
	c := store.Chunk{ID: id, Path: path}
	c.UID = "uid" + string(rune('a'+id))
	c.Session, c.InSession, c.Label, c.Text = n, true, "Sesión", body
	return c
}

// note is a chunk outside any session.
func note(id int64, path, body string) store.Chunk {
	c := store.Chunk{ID: id, Path: path}
	c.UID = "uid" + string(rune('a'+id))
	c.Label, c.Text = path, body
	return c
}

func timelineCampaign() *fakeNotes {
	emeric := store.Entity{ID: 1, Name: "Emeric Valcárcel", Kind: "npc", Aliases: []string{"Emeric", "el Regente", "Lord Emeric"}, Note: "NPCs/Emeric.md"}
	secret := note(9, "DM/Plan.md", "Emeric es el traidor: el Regente vendió la ciudad.")
	secret.Restricted = true
	dmSession := session(10, "DM/Sesion 9.md", 9, "# Sesión 9\n\nEmeric se reúne a solas con la Mano Gris.")
	dmSession.Restricted = true
	return &fakeNotes{
		ents: map[string][]store.Entity{store.ScopeDM: {emeric}, store.ScopePlayer: {emeric}},
		chunks: []store.Chunk{
			note(0, "Mundo/Casas.md", "Los Valcárcel gobiernan. Lord Emeric es el heredero."),
			note(1, "NPCs/Emeric.md", "# Emeric Valcárcel\n\nSobrino del archiduque. Emeric sonríe mucho."),
			session(2, "Sesiones/1.md", 1, "## Sesión 1 — Llegada\n\n3 de Brumal del 1347. Llegamos a Caldemora.\n\nNadie nos recibe."),
			session(3, "Sesiones/2.md", 2, "## Sesión 2\n\nEn palacio, Emeric les da la mano a Nix y a Dorn y les promete oro."),
			session(4, "Sesiones/3.md", 3, "Nada de nobles hoy."),
			session(5, "Sesiones/4.md", 4, "Otra vez el pantano."),
			session(6, "Sesiones/5.md", 5, "Más pantano."),
			session(7, "Sesiones/6.md", 6, "10 de Escarcha. Lyra canta.\n\n- Jugadores: Emeric, Nix, Dorn, Lyra, Tomás, Fen.\n- El regente firma la orden contra Nix y Tomás delante del Consejo."),
			session(8, "Sesiones/6.md", 6, "### Después\n\nLord Emeric\nse marcha."),
			secret,
			dmSession,
		},
	}
}

func TestTimelineSessionsInOrderWithGaps(t *testing.T) {
	tl, err := BuildTimeline(context.Background(), timelineCampaign(), "  lord EMERIC ", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, e := range tl.Sessions {
		got = append(got, *e.Session)
	}
	if want := []int{2, 6, 9}; !reflect.DeepEqual(got, want) {
		t.Fatalf("sessions %v, want %v", got, want)
	}
	s6 := tl.Sessions[1]
	if s6.Mentions != 2 || !reflect.DeepEqual(s6.Chunks, []int64{7, 8}) || s6.ChunkID != 7 {
		t.Errorf("session 6: mentions %d, chunks %v, cited %d", s6.Mentions, s6.Chunks, s6.ChunkID)
	}
	if !strings.HasPrefix(s6.Text, "El regente firma") || s6.ID != "uidh" || s6.Date != "10 de Escarcha" {
		t.Errorf("session 6 quotes %q (chunk %s, date %q): want the sentence with events, not the attendance list", s6.Text, s6.ID, s6.Date)
	}
	if s6.AbsentBefore != 3 || tl.Sessions[0].AbsentBefore != 0 || tl.Sessions[2].AbsentBefore != 0 {
		t.Errorf("absent before: %d %d %d, want 0 3 0 (7 and 8 are not held)", tl.Sessions[0].AbsentBefore, s6.AbsentBefore, tl.Sessions[2].AbsentBefore)
	}
	if want := []Gap{{After: 2, Before: 6, Absent: 3}}; !reflect.DeepEqual(tl.Gaps, want) {
		t.Errorf("gaps %v, want %v", tl.Gaps, want)
	}
	if *tl.FirstSession != 2 || *tl.LastSession != 9 || tl.Note != "NPCs/Emeric.md" {
		t.Errorf("first %d, last %d, note %q", *tl.FirstSession, *tl.LastSession, tl.Note)
	}
	var files []string
	for _, m := range tl.Notes {
		files = append(files, m.File)
	}
	if want := []string{"NPCs/Emeric.md", "DM/Plan.md", "Mundo/Casas.md"}; !reflect.DeepEqual(files, want) {
		t.Errorf("notes %v, want %v (its own first, then by mentions)", files, want)
	}
}

func TestTimelineOfPlayerLeavesOutDMNotes(t *testing.T) {
	redact := func(s string) string { return strings.ReplaceAll(s, "Nix", "N.") }
	tl, err := BuildTimeline(context.Background(), timelineCampaign(), "EMERIC valcarcel", true, redact)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(tl)
	for _, secret := range []string{"DM/", "traidor", "Mano Gris", "uidj", "uidk", "Nix"} {
		if strings.Contains(string(js), secret) {
			t.Errorf("a player's timeline holds %q: %s", secret, js)
		}
	}
	if n := len(tl.Sessions); n != 2 || *tl.LastSession != 6 {
		t.Errorf("a player's timeline has %d sessions, the last %v: want 2, the last 6", n, tl.LastSession)
	}
}

func TestTimelineUnknownNameSaysWhatIsNear(t *testing.T) {
	_, err := BuildTimeline(context.Background(), timelineCampaign(), "Emerik Valcarcel", false, nil)
	var unknown *UnknownEntityError
	if !errors.Is(err, ErrUnknownEntity) || !errors.As(err, &unknown) {
		t.Fatalf("error %v, want an UnknownEntityError", err)
	}
	if !reflect.DeepEqual(unknown.Near, []string{"Emeric Valcárcel"}) || !strings.Contains(err.Error(), `"Emerik Valcarcel"`) {
		t.Errorf("near %v, error %q", unknown.Near, err)
	}
	_, err = BuildTimeline(context.Background(), timelineCampaign(), "valcárcel", false, nil)
	if !errors.As(err, &unknown) || !reflect.DeepEqual(unknown.Near, []string{"Emeric Valcárcel"}) {
		t.Errorf("error %v: a word of a name is near it", err)
	}
	_, err = BuildTimeline(context.Background(), timelineCampaign(), "Zzyzx", false, nil)
	if !errors.As(err, &unknown) || len(unknown.Near) != 0 {
		t.Errorf("error %v: nothing is near Zzyzx", err)
	}
}

func TestTimelineJSONShape(t *testing.T) {
	tl, err := BuildTimeline(context.Background(), &fakeNotes{ents: map[string][]store.Entity{store.ScopeDM: {{Name: "Nadie"}}}}, "nadie", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(tl)
	want := `{"name":"Nadie","kind":"","aliases":[],"note":"","first_session":null,"last_session":null,"sessions":[],"gaps":[],"notes":[]}`
	if string(js) != want {
		t.Errorf("empty timeline\n got %s\nwant %s", js, want)
	}
	tl, _ = BuildTimeline(context.Background(), timelineCampaign(), "el regente", false, nil)
	js, _ = json.Marshal(tl.Sessions[0])
	want = `{"text":"En palacio, Emeric les da la mano a Nix y a Dorn y les promete oro.","id":"uidd","file":"Sesiones/2.md","label":"Sesión","headings":[],"session":2,"mentions":1,"absent_before":0}`
	if string(js) != want {
		t.Errorf("entry\n got %s\nwant %s", js, want)
	}
}

func TestNamingForms(t *testing.T) {
	ent := store.Entity{Name: "Ciriela Vos", Aliases: []string{"la Dama Velada", "el Archiduque", "Nix", "la kobold"}}
	n := newNaming(ent)
	for _, c := range []struct {
		text string
		want int
	}{
		{"CIRIELA VOS llega.", 1},
		{"ciriela\nVos, otra vez", 1},
		{"La Dama Velada canta; la dama velada calla.", 2},
		{"Vuelve la Dama Velada, o solo Dama Velada.", 2},
		{"la dama sin velo", 0},
		{"la cuchara del archiduque y al Archiduque", 2},
		{"Nixon y los nixies", 0},
		{"Nix's dagger, [[Fichas/Nix|la ladrona]]", 2},
		{"la Kobold y una kobold", 1},
		{"Ciriela", 0},
	} {
		if got := n.count(c.text); got != c.want {
			t.Errorf("%q names %s %d times, want %d", c.text, ent.Name, got, c.want)
		}
	}
	if newNaming(store.Entity{Name: "la kobold"}).names("kobold") {
		t.Error(`"kobold" names "la kobold": a lowercase single word is never derived`)
	}
}

func TestSessionDate(t *testing.T) {
	for _, c := range []struct {
		body, want string
	}{
		{"## Sesión 1\n\n3 de Brumal del 1347. Empezamos.", "3 de Brumal del 1347"},
		{"**Sesión 22**\n\nDel 3 al 5 de Nochelarga, en Peñaurora.", "Del 3 al 5 de Nochelarga"},
		{"Ha sido larguísima (cinco horas). 12 de Brumal. Pongo todo.", "12 de Brumal"},
		{"The 3rd of Mirtul, 1492 DR. We rode north.", "3rd of Mirtul, 1492"},
		{"Uno. Dos. Tres. El 29 de Brumal salimos.", ""},
		{"3 de ellos murieron.", ""},
	} {
		chunks := []store.Chunk{session(1, "S.md", 1, "# S"), session(2, "S.md", 1, c.body)}
		if got := sessionDate(chunks); got != c.want {
			t.Errorf("%q: date %q, want %q", c.body, got, c.want)
		}
	}
}

func TestBestSentencePrefersEventsOverLists(t *testing.T) {
	n := newNaming(store.Entity{Name: "Chispa"})
	c := session(1, "S.md", 1, "Personajes: Chispa, Nix, Dorn, Lyra, Tomás.\n\nSe llama **Chispa**.\n\nChispa le arregla la bomba del pozo a Odalric en diez minutos.\n\nLo que lleva Chispa:\n\n- frascos")
	m, id := n.best([]store.Chunk{c})
	if m.Text != "Chispa le arregla la bomba del pozo a Odalric en diez minutos." || id != 1 {
		t.Errorf("best sentence %q (chunk %d)", m.Text, id)
	}
	c = session(2, "S.md", 1, "### Chispa\n\nUna kobold en una trampa.")
	if m, _ := n.best([]store.Chunk{c}); m.Text != "Una kobold en una trampa." || m.ID != c.UID {
		t.Errorf("named in the heading only: %q, want the chunk's first sentence", m.Text)
	}
}

func TestSentences(t *testing.T) {
	got := sentences("## Sesión 3\n\nKleb heckles him. [[the-party|The party]] makes it back.\n- Find [[NPCs/Harbin.md]] again\n  before night.\n- [ ] a task\n\n```\ncode. Here\n```\n> quoted line")
	want := []string{"Kleb heckles him.", "[[the-party|The party]] makes it back.", "Find [[NPCs/Harbin.md]] again before night.", "quoted line"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sentences\n got %q\nwant %q", got, want)
	}
}
