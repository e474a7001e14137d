package enrich

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/store"
)

var _ CompendiumStore = (*index.Index)(nil)

// testNote is a note as the tests write it: chunks of text.
type testNote struct {
	path, title string
	aliases     []string
	restricted  bool
	chunks      []string
}

// putNote stores a note in ix under root, one chunk per text, laid one
// after the other.
func putNote(t testing.TB, ix *index.Index, root string, n testNote) {
	t.Helper()
	meta := `{}`
	if len(n.aliases) > 0 {
		meta = `{"aliases": ["` + strings.Join(n.aliases, `", "`) + `"]}`
	}
	d := &store.DocumentRecord{Root: root, Path: n.path, SHA256: fmt.Sprint(n), Title: n.title, Metadata: []byte(meta), Stamp: "s", DMOnly: n.restricted}
	if n.restricted {
		d.DMReason = "front matter"
	}
	at := 0
	for i, text := range n.chunks {
		d.Chunks = append(d.Chunks, store.ChunkRecord{ChunkData: store.ChunkData{UID: fmt.Sprintf("%s#%d#%s", n.path, i, d.SHA256), Hash: "x", Ordinal: i,
			Label: n.path, ByteStart: at, ByteEnd: at + len(text), Text: text}, Children: []store.ChildRecord{{Terms: "x"}}})
		at += len(text) + 1
	}
	if err := ix.ReplaceDocument(context.Background(), d); err != nil {
		t.Fatal(err)
	}
}

func openIndex(t testing.TB) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// campaign is a folder of three notes, one of them DM-only.
func campaign(t *testing.T) (root string, ix *index.Index, notes []testNote) {
	t.Helper()
	root = t.TempDir()
	ix = openIndex(t)
	notes = []testNote{
		{"DM/Quembilda.md", "Quembilda", []string{"la bruja"}, true, []string{"# Quembilda\n\nLa bruja del pantano.\n"}},
		{"NPCs/Garrik.md", "Garrik", []string{"el mercader"}, false, []string{"# Garrik\n\nEl mercader.\n"}},
		{"Sesiones/Sesión 1.md", "Sesión 1", nil, false, []string{"# Sesión 1\n\nGarrik vende cajas. El garrik llega tarde.\n"}},
	}
	for _, n := range notes {
		putNote(t, ix, root, n)
	}
	return root, ix, notes
}

// stored reads a scope's compendium with its mentions.
func stored(t testing.TB, ix *index.Index, scope string) []store.Entity {
	t.Helper()
	ctx := context.Background()
	ents, err := ix.Entities(ctx, scope)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(ents))
	for i, e := range ents {
		ids[i] = e.ID
	}
	ms, err := ix.MentionsOf(ctx, ids, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ents {
		ents[i].Mentions = map[int64]int{}
		for _, m := range ms[ents[i].ID] {
			ents[i].Mentions[m.ChunkID] = m.Count
		}
		ents[i].ID = 0
		if ents[i].Aliases == nil {
			ents[i].Aliases = []string{}
		}
	}
	return ents
}

// fullBuild builds both compendiums from scratch the simple way, every
// note read whole and every chunk matched: what the stored ones must equal.
func fullBuild(t testing.TB, ix *index.Index, roots []string) [2][]store.Entity {
	t.Helper()
	notes, err := ix.NoteSources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	file := readCompendiumFiles(roots, &CompendiumResult{})
	var out [2][]store.Entity
	for i, scope := range []string{store.ScopeDM, store.ScopePlayer} {
		var in []compendium.NoteInput
		var from []store.NoteSource
		for _, n := range notes {
			if scope == store.ScopePlayer && n.Restricted {
				continue
			}
			x := noteInput(n.Path, n.Title, n.Metadata)
			x.Text = n.Text
			in = append(in, x)
			from = append(from, n)
		}
		ents, err := compendium.Build(in, file, compendium.Config{})
		if err != nil {
			t.Fatal(err)
		}
		m := compendium.NewMatcher(ents)
		recs := make([]store.Entity, len(ents))
		for j, en := range ents {
			recs[j] = store.Entity{Name: en.Name, Kind: string(en.Kind), Aliases: en.Aliases, Note: en.Note, Source: en.Source, Mentions: map[int64]int{}}
			if recs[j].Aliases == nil {
				recs[j].Aliases = []string{}
			}
		}
		for _, n := range from {
			for k, text := range n.ChunkTexts {
				for _, mt := range m.Find(text) {
					recs[mt.Entity].Mentions[n.ChunkIDs[k]]++
				}
			}
		}
		// Stored compendiums are read back by name.
		slices.SortFunc(recs, func(a, b store.Entity) int { return strings.Compare(a.Name, b.Name) })
		out[i] = recs
	}
	return out
}

func entityNamed(ents []store.Entity, name string) *store.Entity {
	for i := range ents {
		if ents[i].Name == name {
			return &ents[i]
		}
	}
	return nil
}

func chunkIDs(t testing.TB, ix *index.Index) map[string]int64 {
	t.Helper()
	notes, err := ix.NoteSources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, n := range notes {
		out[n.Path] = n.ChunkIDs[0]
	}
	return out
}

func TestBuildCompendium(t *testing.T) {
	ctx := context.Background()
	root, ix, notes := campaign(t)
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	res, err := BuildCompendium(ctx, ix, opts)
	if err != nil {
		t.Fatal(err)
	}
	dm, player := stored(t, ix, store.ScopeDM), stored(t, ix, store.ScopePlayer)
	if sig, _ := ix.Meta(ctx, compendiumSigKey); !res.Rebuilt || res.Entities != len(dm) || len(res.Unread) != 0 || sig == "" {
		t.Errorf("result %+v", res)
	}
	ids := chunkIDs(t, ix)
	garrik := entityNamed(dm, "Garrik")
	if garrik == nil || garrik.Mentions[ids["Sesiones/Sesión 1.md"]] == 0 || garrik.Mentions[ids["NPCs/Garrik.md"]] == 0 || entityNamed(dm, "Quembilda") == nil {
		t.Fatalf("the DM's compendium %+v", dm)
	}
	// The players' leaves out what only a DM note says.
	if entityNamed(player, "Quembilda") != nil || entityNamed(player, "Garrik") == nil {
		t.Errorf("the players' compendium %+v", player)
	}
	for _, en := range player {
		if en.Mentions[ids["DM/Quembilda.md"]] != 0 {
			t.Errorf("the players' %q is mentioned in a DM-only chunk", en.Name)
		}
	}

	// Nothing changed: the stored compendiums stand.
	opts.NotesChanged = false
	if res, err = BuildCompendium(ctx, ix, opts); err != nil || res.Rebuilt || res.Entities != len(dm) {
		t.Errorf("unchanged: %+v, %v", res, err)
	}
	// A stale players' compendium, new settings, a note that becomes
	// DM-only: each rebuilds.
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"stale", func() { ix.SetMeta(ctx, "players_compendium_stale", "1") }},
		{"settings", func() { opts.Stamp = "v2" }},
		{"dm-only", func() {
			if _, err := ix.Redecide(ctx, func(r store.VisibilityRecord) (bool, string, string) {
				return r.DMOnly || r.Path == notes[2].path, "front matter", ""
			}, nil); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		c.change()
		if res, err = BuildCompendium(ctx, ix, opts); err != nil || !res.Rebuilt {
			t.Errorf("%s: %+v, %v", c.name, res, err)
		}
	}
	if g := entityNamed(stored(t, ix, store.ScopePlayer), "Garrik"); g == nil || g.Mentions[ids["Sesiones/Sesión 1.md"]] != 0 {
		t.Errorf("the players' compendium still counts a mention in a note that became DM-only: %+v", g)
	}
	if want := fullBuild(t, ix, []string{root}); !reflect.DeepEqual(want[1], stored(t, ix, store.ScopePlayer)) {
		t.Errorf("the players' compendium differs from a full build")
	}
}

// TestCompendiumFile: the folder's compendium.yaml adds entities, an edit
// of it alone rebuilds, and a file that cannot be parsed is left out and
// reported.
func TestCompendiumFile(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	ix := openIndex(t)
	_, _, notes := campaign(t)
	for _, n := range notes[1:] { // no DM-only note: one compendium for both
		putNote(t, ix, root, n)
	}
	opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
	if _, err := BuildCompendium(ctx, ix, opts); err != nil {
		t.Fatal(err)
	}
	opts.NotesChanged = false
	file := filepath.Join(root, CompendiumFile)
	if err := os.WriteFile(file, []byte("entities:\n  - {name: Caja Negra, kind: item, aliases: [cajas]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := BuildCompendium(ctx, ix, opts)
	dm := stored(t, ix, store.ScopeDM)
	box := entityNamed(dm, "Caja Negra")
	if err != nil || !res.Rebuilt || box == nil || box.Source != "file" || box.Mentions[chunkIDs(t, ix)["Sesiones/Sesión 1.md"]] != 1 {
		t.Fatalf("with a compendium file: %+v, %v, %+v", res, err, box)
	}
	if p := stored(t, ix, store.ScopePlayer); !reflect.DeepEqual(p, dm) {
		t.Errorf("without DM-only notes the players' compendium is the DM's: %+v", p)
	}
	if err := os.WriteFile(file, []byte("entities:\n  - {name: Caja Negra, colour: black}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = BuildCompendium(ctx, ix, opts)
	if err != nil || len(res.Unread) != 1 || res.Unread[0].Root != root || res.Unread[0].Path != CompendiumFile ||
		!strings.Contains(res.Unread[0].Detail, "colour") || !strings.HasSuffix(res.Unread[0].Detail, "; the compendium was built without it") {
		t.Fatalf("a bad compendium file: %+v, %v", res, err)
	}
	if entityNamed(stored(t, ix, store.ScopeDM), "Caja Negra") != nil {
		t.Error("the entities of a bad compendium file were kept")
	}
}

// TestIncrementalCompendium edits, adds and removes notes at random, some
// DM-only, and the compendium.yaml, over several rounds; after each, both
// stored compendiums, mentions included, must be those a build from
// scratch gives, and nothing of a DM-only note may reach the players'.
func TestIncrementalCompendium(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	ix := openIndex(t)
	rng := rand.New(rand.NewPCG(14, 3))
	names := []string{"Garrik", "Quembilda", "Leoric Valcárcel", "Orden del Alba Quebrada", "Torre de Sal", "Maese Corvo", "Corvo",
		"Caldemora", "Aurelith", "Valcarsel", "Dama Velada", "Brumal", "Sancho Rémol", "Iglesia", "Ezkarra", "Nix", "Kael-Dur", "Harbin Wester"}
	words := []string{"el", "la", "de", "vende", "cajas", "llega", "tarde", "iglesia", "luego", "dijo", "que", "en", "3 de", "del 1347", "y", "con", "brumal"}
	secret := []string{"Secreto Negro", "Culto de Vharn", "Nyssa la Roja"}
	sentence := func(dm bool) string {
		var b strings.Builder
		for i := 0; i < 4+rng.IntN(12); i++ {
			switch r := rng.IntN(10); {
			case r < 3:
				b.WriteString(names[rng.IntN(len(names))])
			case r < 4 && dm:
				b.WriteString(secret[rng.IntN(len(secret))])
			case r < 5:
				fmt.Fprintf(&b, "[[%s]]", names[rng.IntN(len(names))])
			default:
				b.WriteString(words[rng.IntN(len(words))])
			}
			b.WriteString(" ")
		}
		return strings.TrimSpace(b.String()) + ". "
	}
	newNote := func(i int) testNote {
		dm := rng.IntN(4) == 0
		n := testNote{path: fmt.Sprintf("Notas/n%02d.md", i), restricted: dm}
		switch rng.IntN(4) {
		case 0:
			n.title = names[rng.IntN(len(names))]
			n.path = "NPCs/" + n.title + ".md"
		case 1:
			if dm {
				n.title = secret[rng.IntN(len(secret))]
				n.aliases = []string{"el " + strings.ToLower(strings.Fields(n.title)[0])}
				n.path = "DM/" + n.title + ".md"
			}
		}
		if n.title == "" {
			n.title = strings.TrimSuffix(filepath.Base(n.path), ".md")
		}
		for c := 0; c < 1+rng.IntN(3); c++ {
			var b strings.Builder
			if c == 0 {
				b.WriteString("# " + n.title + "\n\n")
			}
			if rng.IntN(3) == 0 {
				b.WriteString("## " + names[rng.IntN(len(names))] + "\n\n")
			}
			for s := 0; s < 1+rng.IntN(4); s++ {
				b.WriteString(sentence(dm))
			}
			n.chunks = append(n.chunks, b.String())
		}
		return n
	}
	notes := map[string]testNote{}
	next := 0
	add := func() {
		n := newNote(next)
		next++
		notes[n.path] = n
		putNote(t, ix, root, n)
	}
	for range 25 {
		add()
	}
	yaml := filepath.Join(root, CompendiumFile)
	seen := map[string]bool{}
	for round := range 12 {
		opts := CompendiumOptions{Roots: []string{root}, Stamp: "v1", NotesChanged: true}
		if _, err := BuildCompendium(ctx, ix, opts); err != nil {
			t.Fatal(err)
		}
		checkSums(t, ix, seen)
		want := fullBuild(t, ix, []string{root})
		for i, scope := range []string{store.ScopeDM, store.ScopePlayer} {
			got := stored(t, ix, scope)
			if !reflect.DeepEqual(got, want[i]) {
				for j := 0; j < max(len(got), len(want[i])); j++ {
					var g, w store.Entity
					if j < len(got) {
						g = got[j]
					}
					if j < len(want[i]) {
						w = want[i][j]
					}
					if !reflect.DeepEqual(g, w) {
						t.Fatalf("round %d, %s: entity %d is %+v, a full build gives %+v", round, scope, j, g, w)
					}
				}
			}
		}
		ids := chunkIDs(t, ix)
		public := ""
		for _, n := range notes {
			if !n.restricted {
				public += n.title + "\n" + strings.Join(n.chunks, "\n")
			}
		}
		for _, e := range stored(t, ix, store.ScopePlayer) {
			if slices.Contains(secret, e.Name) && !strings.Contains(public, e.Name) {
				t.Fatalf("round %d: the players' compendium names %q, known only from DM notes", round, e.Name)
			}
			for _, n := range notes {
				if n.restricted && e.Mentions[ids[n.path]] != 0 {
					t.Fatalf("round %d: the players' %q is mentioned in DM-only %s", round, e.Name, n.path)
				}
			}
		}
		// Edit, add and remove notes; now and then the compendium.yaml.
		paths := slices.Sorted(maps.Keys(notes))
		for range 1 + rng.IntN(4) {
			p := paths[rng.IntN(len(paths))]
			n, ok := notes[p]
			if !ok {
				continue
			}
			switch rng.IntN(5) {
			case 0:
				if err := ix.DeleteDocument(ctx, root, p); err != nil {
					t.Fatal(err)
				}
				delete(notes, p)
			case 1:
				n.restricted = !n.restricted
				notes[p] = n
				putNote(t, ix, root, n)
			case 2:
				// The same note, its visibility decided again in place:
				// its sums move in or out of the DM-only ones.
				n.restricted = !n.restricted
				notes[p] = n
				flipInPlace(t, ix, p)
			default:
				k := rng.IntN(len(n.chunks))
				n.chunks = slices.Clone(n.chunks)
				n.chunks[k] += sentence(n.restricted)
				notes[p] = n
				putNote(t, ix, root, n)
			}
		}
		if rng.IntN(2) == 0 {
			add()
		}
		if round == 6 {
			// As after an update cut short, or an index from before the
			// sums: they are filled anew from every note's facts.
			if err := ix.SetMeta(ctx, "compendium_sums", "stale"); err != nil {
				t.Fatal(err)
			}
		}
		switch round % 4 {
		case 1:
			os.WriteFile(yaml, []byte("entities:\n  - {name: Caja Negra, kind: item, aliases: [cajas]}\nrename:\n  - {from: Corvo, to: Maese Corvo}\n"), 0o644)
		case 2:
			os.WriteFile(yaml, []byte("ban: [Iglesia]\nmerge:\n  - {into: Garrik, names: [Harbin Wester]}\n"), 0o644)
		case 3:
			os.Remove(yaml)
		}
	}
}

// flipInPlace makes the note at path DM-only if it was not, public if it
// was, without rewriting it (as a change of the DM folders does).
func flipInPlace(t testing.TB, ix *index.Index, path string) {
	t.Helper()
	_, err := ix.Redecide(context.Background(), func(r store.VisibilityRecord) (bool, string, string) {
		dm := r.DMOnly
		if r.Path == path {
			dm = !dm
		}
		if dm {
			return true, "front matter", "test"
		}
		return false, "", ""
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// checkSums fails unless the stored sums are those of the notes stored
// now, summed from their texts: over every note and over the DM-only ones,
// a name or word that sums to nothing absent. seen gathers every
// lowercase word ever written, to look up those that must be gone.
func checkSums(t testing.TB, ix *index.Index, seen map[string]bool) {
	t.Helper()
	ctx := context.Background()
	notes, err := ix.NoteSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d := newSumsDelta()
	for _, n := range notes {
		f := compendium.Extract(n.Text)
		d.add(sumsAll, n.DocID, f, f.Lower, 1)
		if n.Restricted {
			d.add(sumsDMOnly, n.DocID, f, f.Lower, 1)
		}
		for w := range f.Lower {
			seen[w] = true
		}
	}
	var got [2]map[nameKey]store.NameSum
	got[0], got[1] = map[nameKey]store.NameSum{}, map[nameKey]store.NameSum{}
	if err := ix.CompendiumNames(ctx, func(dmOnly bool, n store.NameSum) error {
		scope := sumsAll
		if dmOnly {
			scope = sumsDMOnly
		}
		got[scope][nameKey{n.Surface, n.Start, n.Date}] = n
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for scope := range got {
		want := map[nameKey]store.NameSum{}
		for k, n := range d.names[scope] {
			want[k] = *n
		}
		if !maps.Equal(got[scope], want) {
			t.Fatalf("scope %d: %d name sums stored, %d summed from the notes, or they differ", scope, len(got[scope]), len(want))
		}
	}
	all, dmOnly, err := ix.CompendiumLower(ctx, slices.Sorted(maps.Keys(seen)))
	if err != nil {
		t.Fatal(err)
	}
	for scope, m := range []map[string]int{all, dmOnly} {
		want := map[string]int{}
		for w, n := range d.lower[scope] {
			if n != 0 {
				want[w] = n
			}
		}
		if !maps.Equal(m, want) {
			t.Fatalf("scope %d: %d lowercase sums stored, %d summed from the notes, or they differ", scope, len(m), len(want))
		}
	}
}
