package enrich

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/store"
)

// memCompendium is an in-memory CompendiumStore over notes given whole.
type memCompendium struct {
	roots []string
	notes []store.NoteSource
	meta  map[string]string
	ents  map[string][]store.Entity
	stale bool
	// replaced counts the compendiums written.
	replaced int
}

var _ CompendiumStore = (*memCompendium)(nil)

func (s *memCompendium) Meta(ctx context.Context, key string) (string, error) {
	return s.meta[key], nil
}

func (s *memCompendium) SetMeta(ctx context.Context, key, value string) error {
	s.meta[key] = value
	return nil
}

func (s *memCompendium) Roots(ctx context.Context) ([]string, error) { return s.roots, nil }

func (s *memCompendium) NoteSources(ctx context.Context) ([]store.NoteSource, error) {
	return s.notes, nil
}

func (s *memCompendium) RestrictedChunks(ctx context.Context) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, n := range s.notes {
		for _, id := range n.ChunkIDs {
			if n.Restricted {
				out[id] = true
			}
		}
	}
	return out, nil
}

func (s *memCompendium) EntityCount(ctx context.Context, scope string) (int, error) {
	return len(s.ents[scope]), nil
}

func (s *memCompendium) ReplaceEntities(ctx context.Context, scope string, ents []store.Entity) error {
	s.ents[scope] = ents
	s.replaced++
	if scope == store.ScopePlayer {
		s.stale = false
	}
	return nil
}

func (s *memCompendium) PlayersCompendiumStale(ctx context.Context) (bool, error) {
	return s.stale, nil
}

// campaign is a folder of three notes, one of them DM-only, with chunk
// ids from 1.
func campaign(t *testing.T) (root string, s *memCompendium) {
	t.Helper()
	root = t.TempDir()
	note := func(path, title, text string, restricted bool, id int64) store.NoteSource {
		return store.NoteSource{Root: root, Path: path, Title: title, Restricted: restricted, Metadata: []byte(`{"aliases": ["el ` + strings.ToLower(title) + `"]}`),
			Text: text, ChunkIDs: []int64{id}, ChunkTexts: []string{text}}
	}
	s = &memCompendium{roots: []string{root}, meta: map[string]string{}, ents: map[string][]store.Entity{}, notes: []store.NoteSource{
		note("DM/Quembilda.md", "Quembilda", "# Quembilda\n\nLa bruja del pantano.\n", true, 1),
		note("NPCs/Garrik.md", "Garrik", "# Garrik\n\nEl mercader.\n", false, 2),
		note("Sesiones/Sesión 1.md", "Sesión 1", "# Sesión 1\n\nGarrik vende cajas. El garrik llega tarde.\n", false, 3),
	}}
	return root, s
}

func entityNamed(ents []store.Entity, name string) *store.Entity {
	for i := range ents {
		if ents[i].Name == name {
			return &ents[i]
		}
	}
	return nil
}

func TestBuildCompendium(t *testing.T) {
	ctx := context.Background()
	root, s := campaign(t)
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	res, err := BuildCompendium(ctx, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	dm, player := s.ents[store.ScopeDM], s.ents[store.ScopePlayer]
	if !res.Rebuilt || res.Entities != len(dm) || len(res.Unread) != 0 || s.meta[compendiumSigKey] == "" {
		t.Errorf("result %+v", res)
	}
	garrik := entityNamed(dm, "Garrik")
	if garrik == nil || garrik.Mentions[3] == 0 || garrik.Mentions[2] == 0 || entityNamed(dm, "Quembilda") == nil {
		t.Fatalf("the DM's compendium %+v", dm)
	}
	// The players' leaves out what only a DM note says.
	if entityNamed(player, "Quembilda") != nil || entityNamed(player, "Garrik") == nil {
		t.Errorf("the players' compendium %+v", player)
	}
	for _, en := range player {
		if en.Mentions[1] != 0 {
			t.Errorf("the players' %q is mentioned in a DM-only chunk", en.Name)
		}
	}

	// Nothing changed: the stored compendiums stand.
	opts.NotesChanged = false
	if res, err = BuildCompendium(ctx, s, opts); err != nil || res.Rebuilt || res.Entities != len(dm) || s.replaced != 2 {
		t.Errorf("unchanged: %+v, %v, %d compendiums written", res, err, s.replaced)
	}
	// A stale players' compendium, new settings, a note that becomes
	// DM-only: each rebuilds.
	for name, change := range map[string]func(){
		"stale":    func() { s.stale = true },
		"settings": func() { opts.Stamp = "v2" },
		"dm-only":  func() { s.notes[2].Restricted = true },
	} {
		change()
		if res, err = BuildCompendium(ctx, s, opts); err != nil || !res.Rebuilt {
			t.Errorf("%s: %+v, %v", name, res, err)
		}
	}
	if entityNamed(s.ents[store.ScopePlayer], "Garrik").Mentions[3] != 0 {
		t.Error("the players' compendium still counts a mention in a note that became DM-only")
	}
}

// TestCompendiumFile: the folder's compendium.yaml adds entities, an edit
// of it alone rebuilds, and a file that cannot be parsed is left out and
// reported.
func TestCompendiumFile(t *testing.T) {
	ctx := context.Background()
	root, s := campaign(t)
	s.notes = s.notes[1:] // no DM-only note: one compendium for both
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	if _, err := BuildCompendium(ctx, s, opts); err != nil {
		t.Fatal(err)
	}
	opts.NotesChanged = false
	file := filepath.Join(root, CompendiumFile)
	if err := os.WriteFile(file, []byte("entities:\n  - {name: Caja Negra, kind: item, aliases: [cajas]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := BuildCompendium(ctx, s, opts)
	box := entityNamed(s.ents[store.ScopeDM], "Caja Negra")
	if err != nil || !res.Rebuilt || box == nil || box.Source != "file" || box.Mentions[3] != 1 {
		t.Fatalf("with a compendium file: %+v, %v, %+v", res, err, box)
	}
	if p := s.ents[store.ScopePlayer]; entityNamed(p, "Caja Negra") == nil || len(p) != len(s.ents[store.ScopeDM]) {
		t.Errorf("without DM-only notes the players' compendium is the DM's: %+v", p)
	}
	if err := os.WriteFile(file, []byte("entities:\n  - {name: Caja Negra, colour: black}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = BuildCompendium(ctx, s, opts)
	if err != nil || len(res.Unread) != 1 || res.Unread[0].Root != root || res.Unread[0].Path != CompendiumFile ||
		!strings.Contains(res.Unread[0].Detail, "colour") || !strings.HasSuffix(res.Unread[0].Detail, "; the compendium was built without it") {
		t.Fatalf("a bad compendium file: %+v, %v", res, err)
	}
	if entityNamed(s.ents[store.ScopeDM], "Caja Negra") != nil {
		t.Error("the entities of a bad compendium file were kept")
	}
}

func TestStringsOf(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"uno", "uno"},
		{[]any{"uno", 2, "tres"}, "uno|tres"},
		{map[string]any{"x": "y"}, ""},
		{nil, ""},
	} {
		if got := strings.Join(stringsOf(c.in), "|"); got != c.want {
			t.Errorf("stringsOf(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
