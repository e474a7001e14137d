package weaviate_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/synth"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
)

// copyTree copies the folder src into a new temporary one.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// engines opens an engine on the Weaviate store and one on a new SQLite
// index, with the engine's defaults.
func engines(t *testing.T, wv *weaviate.Store) (we, se *oraculo.Engine, ix *index.Index) {
	t.Helper()
	ctx := context.Background()
	we, err := oraculo.OpenStore(ctx, wv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { we.Close() })
	ix, err = index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	se, err = oraculo.OpenStore(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { se.Close() })
	return we, se, ix
}

// ingestBoth ingests dir with each engine (Weaviate's first), and logs
// how long each took.
func ingestBoth(t *testing.T, dir string, engs ...*oraculo.Engine) {
	t.Helper()
	var took []string
	for _, e := range engs {
		start := time.Now()
		if _, err := e.Ingest(context.Background(), []string{dir}, oraculo.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		took = append(took, time.Since(start).Round(time.Millisecond).String())
	}
	t.Logf("ingest took %s", strings.Join(took, ", "))
}

// compendiumDump is what a store's compendium says, ids replaced by what
// they name: one line per entity, then one per mention (by chunk UID), for
// each scope, and for each scope's entities the mentions players get.
func compendiumDump(t *testing.T, s store.Store) []string {
	t.Helper()
	ctx := context.Background()
	uid := map[int64]string{}
	chunks, err := s.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		uid[c.ID] = c.UID
	}
	var out []string
	for _, scope := range []string{store.ScopeDM, store.ScopePlayer} {
		ents, err := s.Entities(ctx, scope)
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.EntityCount(ctx, scope)
		if err != nil || n != len(ents) {
			t.Errorf("%s: EntityCount %d, %v; Entities gives %d", scope, n, err, len(ents))
		}
		ids := make([]int64, len(ents))
		name := map[int64]string{}
		for i, e := range ents {
			ids[i] = e.ID
			name[e.ID] = e.Name
			out = append(out, fmt.Sprintf("%s entity %q %s %q %q %q", scope, e.Name, e.Kind, nonNil(e.Aliases), e.Note, e.Source))
		}
		for _, public := range []bool{false, true} {
			ms, err := s.MentionsOf(ctx, ids, public)
			if err != nil {
				t.Fatal(err)
			}
			for eid, list := range ms {
				if name[eid] == "" {
					t.Errorf("%s: mentions of entity %d, not asked for", scope, eid)
				}
				for i, m := range list {
					if i > 0 && list[i-1].ChunkID >= m.ChunkID {
						t.Errorf("%s: mentions of %q out of chunk order", scope, name[eid])
					}
					u, ok := uid[m.ChunkID]
					if !ok {
						t.Errorf("%s: %q is mentioned in chunk %d, which is no chunk", scope, name[eid], m.ChunkID)
					}
					out = append(out, fmt.Sprintf("%s public=%v mention %q %s %d session %v %d %s", scope, public, name[eid], u,
						m.Count, m.InSession, m.Session, m.Path))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sameCompendium checks that both stores hold the same compendiums, and
// returns Weaviate's.
func sameCompendium(t *testing.T, wv *weaviate.Store, ix *index.Index) []string {
	t.Helper()
	ctx := context.Background()
	got, want := compendiumDump(t, wv), compendiumDump(t, ix)
	if !slices.Equal(got, want) {
		t.Errorf("the compendiums differ: weaviate %d lines, SQLite %d", len(got), len(want))
		for _, l := range diff(got, want) {
			t.Log(l)
		}
	}
	for name, s := range map[string]store.EntityStore{"weaviate": wv, "sqlite": ix} {
		if stale, err := s.PlayersCompendiumStale(ctx); err != nil || stale {
			t.Errorf("%s: the players' compendium is stale after an ingest (%v)", name, err)
		}
		if missing, pending, err := s.SyncCompendiumNotes(ctx); err != nil || len(missing) != 0 || pending {
			t.Errorf("%s: after an ingest %d notes have no facts, pending %v (%v)", name, len(missing), pending, err)
		}
	}
	return got
}

// diff lists the lines only one of a and b (sorted) has, 20 at most.
func diff(a, b []string) []string {
	var out []string
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok {
			out = append(out, "weaviate only: "+l)
		}
	}
	for _, l := range b {
		if _, ok := slices.BinarySearch(a, l); !ok {
			out = append(out, "sqlite only:   "+l)
		}
	}
	return out[:min(len(out), 20)]
}

// count returns how many lines of dump start with prefix.
func count(dump []string, prefix string) int {
	n := 0
	for _, l := range dump {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// TestCompendium builds the sample campaign's compendium through the
// engine on Weaviate and on SQLite and compares them; then after an
// incremental ingest (a note changed, one removed, one made DM-only), and
// after an update cut short.
func TestCompendium(t *testing.T) {
	c := weaviatetest.Start(t, 1)
	ctx := context.Background()
	dir := copyTree(t, "../../examples/campaign")
	wv := open(t, c.Nodes[0], "compendium")
	we, se, ix := engines(t, wv)
	ingestBoth(t, dir, we, se)

	dump := sameCompendium(t, wv, ix)
	for _, prefix := range []string{"dm entity", "player entity", "dm public=false mention", "dm public=true mention", "player public=true mention"} {
		if count(dump, prefix) == 0 {
			t.Errorf("no %q line: the test proves nothing", prefix)
		}
	}
	if count(dump, "dm entity") <= count(dump, "player entity") || count(dump, "dm public=false") <= count(dump, "dm public=true") {
		t.Error("players see as much as the DM: the test proves nothing")
	}
	t.Logf("%d DM entities, %d players'; DM mentions %d (%d public)", count(dump, "dm entity"), count(dump, "player entity"),
		count(dump, "dm public=false"), count(dump, "dm public=true"))

	// Read 50 at a time (by ranges of buckets), MentionsOf finds every
	// mention (testMentionPages reads fewer).
	ents, err := wv.Entities(ctx, store.ScopeDM)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(ents))
	for i, e := range ents {
		ids[i] = e.ID
	}
	for _, public := range []bool{false, true} {
		start := time.Now()
		all, err := wv.MentionsOf(ctx, ids, public)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		restore := weaviate.SetPageSize(50)
		paged, err := wv.MentionsOf(ctx, ids, public)
		restore()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(all, paged) {
			t.Errorf("public %v: read 50 at a time, the mentions of %d entities; of %d at once", public, len(paged), len(all))
		}
		t.Logf("the mentions of %d entities (public %v) in %v", len(ids), public, took)
	}

	// An unchanged ingest updates nothing (the token an update writes
	// stays) and changes nothing.
	token, err := wv.Meta(ctx, weaviate.PlayersKey)
	if err != nil || !strings.HasPrefix(token, "fresh ") {
		t.Fatalf("the players' compendium is %q (%v)", token, err)
	}
	ingestBoth(t, dir, we, se)
	if again := sameCompendium(t, wv, ix); !slices.Equal(again, dump) {
		t.Error("an unchanged ingest changed the compendium")
	}
	if again, err := wv.Meta(ctx, weaviate.PlayersKey); err != nil || again != token {
		t.Errorf("an unchanged ingest updated the compendium: %q, then %q (%v)", token, again, err)
	}

	t.Run("incremental", func(t *testing.T) { testIncremental(t, dir, wv, ix, we, se) })

	for _, rename := range []bool{true, false} {
		t.Run(fmt.Sprint("interrupted rename=", rename), func(t *testing.T) { testInterrupted(t, dir, wv, ix, we, se, rename) })
	}

	t.Run("withheld", func(t *testing.T) { testWithheld(t, c.Nodes[0]) })

	t.Run("pages", func(t *testing.T) { testMentionPages(t, c.Nodes[0]) })
}

// testInterrupted cuts an update short after it changed names (or not)
// and cleared some chunks' mentions; players get nothing until the next
// ingest, which completes it: what SQLite holds.
func testInterrupted(t *testing.T, dir string, wv *weaviate.Store, ix *index.Index, we, se *oraculo.Engine, rename bool) {
	ctx := context.Background()
	cut := errors.New("cut short")
	err := wv.UpdateCompendium(ctx, func(w store.CompendiumWriter) error {
		for _, scope := range []string{store.ScopeDM, store.ScopePlayer} {
			ents, err := w.Entities(ctx, scope)
			if err != nil || len(ents) < 10 {
				return fmt.Errorf("%d entities, %v", len(ents), err)
			}
			if rename {
				ents = append(slices.Clone(ents[2:]), store.Entity{Name: "Zzyzx", Kind: "npc"})
			}
			if _, err := w.SetEntities(ctx, scope, ents); err != nil {
				return err
			}
		}
		chunks, err := w.Chunks(ctx, 0, 20, false)
		if err != nil || len(chunks) != 20 {
			return fmt.Errorf("%d chunks, %v", len(chunks), err)
		}
		ids := make([]int64, len(chunks))
		for i, c := range chunks {
			ids[i] = c.ID
		}
		if err := w.ClearMentions(ctx, store.ScopeDM, ids); err != nil {
			return err
		}
		return cut
	})
	if !errors.Is(err, cut) {
		t.Fatalf("UpdateCompendium gave %v", err)
	}
	if stale, err := wv.PlayersCompendiumStale(ctx); err != nil || !stale {
		t.Errorf("after an update cut short the players' compendium is not stale (%v)", err)
	}
	if ents, err := wv.Entities(ctx, store.ScopePlayer); err != nil || len(ents) != 0 {
		t.Errorf("after an update cut short players get %d entities (%v)", len(ents), err)
	}
	// The next ingest completes it: what SQLite holds.
	ingestBoth(t, dir, we, se)
	sameCompendium(t, wv, ix)
}

// testMentionPages: written a few at a time, every mention is kept; read
// 3 at a time, MentionsOf finds every mention of entities that share
// chunks (a bucket holding more than a page), and NoteSourcesOf every
// chunk of a note that has more than a page.
func testMentionPages(t *testing.T, node *weaviatetest.Node) {
	ctx := context.Background()
	wv := open(t, node, "pages")
	doc := &store.DocumentRecord{Root: "/n", Path: "x.md", SHA256: "a", Title: "x", Stamp: "s"}
	for i := range 5 {
		doc.Chunks = append(doc.Chunks, store.ChunkRecord{ChunkData: store.ChunkData{UID: fmt.Sprint("pages-", i), Ordinal: i,
			Text: "Harbin", Headings: []string{"x"}}})
	}
	other := &store.DocumentRecord{Root: "/n", Path: "y.md", SHA256: "a", Title: "y", Stamp: "s",
		Chunks: []store.ChunkRecord{{ChunkData: store.ChunkData{UID: "pages-y0", Text: "y", Headings: []string{"y"}}},
			{ChunkData: store.ChunkData{UID: "pages-y1", Ordinal: 1, Text: "y", Headings: []string{"y"}}}}}
	for _, d := range []*store.DocumentRecord{doc, other} {
		if err := wv.ReplaceDocument(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	var ents []store.Entity
	want := map[int64][]store.Mention{}
	for i := range 10 {
		e := store.Entity{Name: fmt.Sprint("entity ", i), Kind: "npc", Mentions: map[int64]int{}}
		id := weaviate.EntityID(store.ScopeDM, e.Name)
		for j, c := range doc.Chunks {
			chunk := weaviate.ChunkIDOf(doc.Root, doc.Path, c.Ordinal, c.Text)
			e.Mentions[chunk] = i + j + 1
			want[id] = append(want[id], store.Mention{ChunkID: chunk, Count: i + j + 1, Path: "x.md", Ordinal: c.Ordinal})
		}
		slices.SortFunc(want[id], func(a, b store.Mention) int { return cmp.Compare(a.ChunkID, b.ChunkID) })
		ents = append(ents, e)
	}
	// One entity alone in a chunk of the other note.
	solo := store.Entity{Name: "solo", Kind: "npc", Mentions: map[int64]int{weaviate.ChunkIDOf("/n", "y.md", 1, "y"): 4}}
	soloID := weaviate.EntityID(store.ScopeDM, solo.Name)
	want[soloID] = []store.Mention{{ChunkID: weaviate.ChunkIDOf("/n", "y.md", 1, "y"), Count: 4, Path: "y.md", Ordinal: 1}}
	ents = append(ents, solo)
	// Written 7 at a time: the mentions in a chunk are written in parts,
	// each kept.
	restore := weaviate.SetMentionFlush(7)
	err := wv.ReplaceEntities(ctx, store.ScopeDM, ents)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	ids := slices.Collect(maps.Keys(want))
	docIDs := []int64{weaviate.DocumentID(other.Root, other.Path), 12345, weaviate.DocumentID(doc.Root, doc.Path)}
	for _, size := range []int{1000, 3} {
		restore := weaviate.SetPageSize(size)
		got, err := wv.MentionsOf(ctx, ids, false)
		notes, nerr := wv.NoteSourcesOf(ctx, docIDs)
		restore()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%d at a time: %d entities' mentions (%v), want %d", size, len(got), err, len(want))
		}
		if nerr != nil || len(notes) != 2 || notes[0].DocID != docIDs[2] || len(notes[0].ChunkIDs) != len(doc.Chunks) ||
			notes[1].DocID != docIDs[0] || len(notes[1].ChunkIDs) != len(other.Chunks) {
			t.Errorf("%d at a time: NoteSourcesOf gave %+v, %v; want both notes, in path order, with their chunks", size, notes, nerr)
		}
	}

	// Entities gone take their mentions with them, also when they come
	// back (with the same ids).
	for _, step := range [][]store.Entity{ents[1:10], ents} {
		err := wv.UpdateCompendium(ctx, func(w store.CompendiumWriter) error {
			if _, err := w.SetEntities(ctx, store.ScopeDM, step); err != nil {
				return err
			}
			return w.Finish(ctx, "k", "v")
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := wv.MentionsOf(ctx, ids, false)
		if err != nil {
			t.Fatal(err)
		}
		firstID := weaviate.EntityID(store.ScopeDM, ents[0].Name)
		// An entity every step keeps (ids is in map order: any of them
		// may be one that goes).
		kept := weaviate.EntityID(store.ScopeDM, ents[1].Name)
		if len(got) != 9 || got[firstID] != nil || got[soloID] != nil || !reflect.DeepEqual(got[kept], want[kept]) {
			t.Errorf("with %d entities: the mentions of %d (%v, %v)", len(step), len(got), got[firstID], got[soloID])
		}
	}
}

// testIncremental changes one note, removes one and makes one DM-only,
// ingests again with both engines, and compares; players never see the
// entity of the note made DM-only once it is.
func testIncremental(t *testing.T, dir string, wv *weaviate.Store, ix *index.Index, we, se *oraculo.Engine) {
	ctx := context.Background()
	const (
		changed = "NPCs/Garrik Tresdedos.md"
		removed = "Lugares/Caldemora.md"
		hidden  = "NPCs/Vesper Quillon.md"
	)
	// players gives the players' compendium by note (nil on error, which
	// it reports).
	players := func(s store.EntityStore) map[string]store.Entity {
		ents, err := s.Entities(ctx, store.ScopePlayer)
		if err != nil {
			t.Error(err)
			return nil
		}
		out := map[string]store.Entity{}
		for _, e := range ents {
			out[e.Note] = e
		}
		return out
	}
	before := players(wv)
	if _, ok := before[hidden]; !ok {
		t.Fatalf("players have no entity from %q: the test proves nothing", hidden)
	}
	edit := func(rel string, fn func(string) string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fn(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(changed, func(s string) string {
		return s + "\n\nGarrik le debe dinero a Vesper Quillon y a la Orden de la Ceniza desde la sesión 12.\n"
	})
	edit(hidden, func(s string) string {
		if strings.HasPrefix(s, "---\n") {
			return "---\nvisibility: dm\n" + strings.TrimPrefix(s, "---\n")
		}
		return "---\nvisibility: dm\n---\n" + s
	})
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(removed))); err != nil {
		t.Fatal(err)
	}

	// While Weaviate's ingest runs, a player never gets the hidden note's
	// entity once the note is DM-only.
	dmOnly := func() int {
		counts, err := wv.DMOnlyCounts(ctx)
		if err != nil {
			t.Error(err)
		}
		n := 0
		for _, c := range counts {
			n += c
		}
		return n
	}
	was := dmOnly()
	done := make(chan struct{})
	watched := make(chan int)
	go func() {
		polls := 0
		defer func() { watched <- polls }()
		for {
			select {
			case <-done:
				return
			default:
			}
			if dmOnly() <= was {
				continue
			}
			polls++
			if e, ok := players(wv)[hidden]; ok {
				t.Errorf("a player got %q of DM-only %q", e.Name, hidden)
				return
			}
		}
	}()
	if _, err := we.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	close(done)
	t.Logf("%d reads of the players' compendium with %q DM-only during the ingest", <-watched, hidden)
	if _, err := se.Ingest(ctx, []string{dir}, oraculo.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if dmOnly() != was+1 {
		t.Fatalf("%d DM-only notes, %d before: %q is not DM-only", dmOnly(), was, hidden)
	}
	dump := sameCompendium(t, wv, ix)
	if _, ok := players(wv)[hidden]; ok {
		t.Errorf("players still have the entity of DM-only %q", hidden)
	}
	if _, ok := players(wv)[removed]; ok {
		t.Errorf("players still have the entity of removed %q", removed)
	}
	for _, l := range dump {
		if strings.Contains(l, removed) {
			t.Errorf("the removed note is still in the compendium: %s", l)
			break
		}
	}
}

// testWithheld: a public note stored again DM-only withholds the players'
// compendium until it is replaced, as SQLite does.
func testWithheld(t *testing.T, node *weaviatetest.Node) {
	ctx := context.Background()
	for name, s := range map[string]store.Store{"weaviate": open(t, node, "withheld"), "sqlite": openSQLite(t)} {
		if err := s.ReplaceEntities(ctx, store.ScopePlayer, nil); err != nil {
			t.Fatal(err)
		}
		doc := &store.DocumentRecord{Root: "/n", Path: "NPCs/x.md", SHA256: "a", Title: "x", Stamp: "s",
			Chunks: []store.ChunkRecord{{ChunkData: store.ChunkData{UID: name + "-x", Text: "Harbin", Headings: []string{"x"}}}}}
		if err := s.ReplaceDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
		if stale, _ := s.PlayersCompendiumStale(ctx); stale {
			t.Fatalf("%s: a public note withholds the players' compendium", name)
		}
		chunks, err := s.ListChunks(ctx, nil)
		if err != nil || len(chunks) != 1 {
			t.Fatalf("%s: %d chunks, %v", name, len(chunks), err)
		}
		ents := []store.Entity{{Name: "Harbin", Kind: "npc", Mentions: map[int64]int{chunks[0].ID: 2}}}
		if err := s.ReplaceEntities(ctx, store.ScopePlayer, ents); err != nil {
			t.Fatal(err)
		}
		got, err := s.Entities(ctx, store.ScopePlayer)
		if err != nil || len(got) != 1 || got[0].Name != "Harbin" {
			t.Fatalf("%s: players' compendium %v, %v", name, got, err)
		}
		ms, err := s.MentionsOf(ctx, []int64{got[0].ID}, true)
		if err != nil || len(ms[got[0].ID]) != 1 || ms[got[0].ID][0].Count != 2 {
			t.Errorf("%s: mentions %v, %v", name, ms, err)
		}
		doc.SHA256, doc.DMOnly, doc.DMReason = "b", true, "front-matter"
		if err := s.ReplaceDocument(ctx, doc); err != nil {
			t.Fatal(err)
		}
		if stale, _ := s.PlayersCompendiumStale(ctx); !stale {
			t.Errorf("%s: a public note written again as DM-only must withhold the players' compendium", name)
		}
		if ents, err := s.Entities(ctx, store.ScopePlayer); err != nil || len(ents) != 0 {
			t.Errorf("%s: withheld players' compendium read as %v, %v", name, ents, err)
		}
		if ms, err := s.MentionsOf(ctx, []int64{got[0].ID}, true); err != nil || len(ms) != 0 {
			t.Errorf("%s: players get mentions in a DM-only note: %v, %v", name, ms, err)
		}
		if err := s.ReplaceEntities(ctx, store.ScopePlayer, []store.Entity{{Name: "Harbin", Kind: "npc"}}); err != nil {
			t.Fatal(err)
		}
		if ents, err := s.Entities(ctx, store.ScopePlayer); err != nil || len(ents) != 1 {
			t.Errorf("%s: rebuilt players' compendium read as %v, %v", name, ents, err)
		}
		// Deciding again that the note is DM-only withholds it again;
		// deciding that it is public does not.
		for _, dmOnly := range []bool{false, true} {
			decide := func(store.VisibilityRecord) (bool, string, string) { return dmOnly, "front-matter", "" }
			if n, err := s.Redecide(ctx, decide, nil); err != nil || n != 1 {
				t.Fatalf("%s: Redecide(DM-only %v) changed %d notes, %v", name, dmOnly, n, err)
			}
			if stale, err := s.PlayersCompendiumStale(ctx); err != nil || stale != dmOnly {
				t.Errorf("%s: after deciding DM-only %v the players' compendium is stale %v (%v)", name, dmOnly, stale, err)
			}
		}
		if err := s.DeleteDocument(ctx, doc.Root, doc.Path); err != nil {
			t.Fatal(err)
		}
	}
}

func openSQLite(t *testing.T) *index.Index {
	t.Helper()
	ix, err := index.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestCompendiumScale (with ORACULO_WEAVIATE_LONG=1): on synthetic notes
// (2000 sessions in 200 notes, some 4700 entities), the compendiums built
// through the engine are SQLite's; it logs the ingests' times and what
// MentionsOf takes for two entities.
func TestCompendiumScale(t *testing.T) {
	if os.Getenv("ORACULO_WEAVIATE_LONG") != "1" {
		t.Skip("set ORACULO_WEAVIATE_LONG=1 to run it (about a minute)")
	}
	c := weaviatetest.Start(t, 1)
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := synth.Write(dir, 2000, 10, 400); err != nil {
		t.Fatal(err)
	}
	wv := open(t, c.Nodes[0], "scale")
	we, se, ix := engines(t, wv)
	ingestBoth(t, dir, we, se)
	for name, s := range map[string]store.Store{"weaviate": wv, "sqlite": ix} {
		ents, err := s.Entities(ctx, store.ScopeDM)
		if err != nil || len(ents) < 1000 {
			t.Fatalf("%s: %d entities, %v", name, len(ents), err)
		}
		for _, public := range []bool{false, true} {
			start, found := time.Now(), 0
			for i := range 50 {
				ms, err := s.MentionsOf(ctx, []int64{ents[(i*37)%len(ents)].ID, ents[(i*91)%len(ents)].ID}, public)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range ms {
					found += len(l)
				}
			}
			t.Logf("%s, %d entities: MentionsOf of two (public %v) %v, %d mentions", name, len(ents), public,
				time.Since(start)/50, found/50)
		}
	}
	dump := sameCompendium(t, wv, ix)
	t.Logf("%d lines of compendium", len(dump))
}
