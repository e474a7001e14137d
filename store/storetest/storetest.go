// Package storetest is the contract every [store.Store] keeps, as tests:
// the same scenarios run against each backend (the SQLite index's tests
// and the Weaviate store's call [Run]), so that what the engine relies on
// of a store is checked once and holds for both.
//
// The scenarios write and read notes and chunks, settle visibility, rank
// by BM25, follow the chunks' version, count terms, keep memories, and
// drive the engine itself over the store: a note added and a note edited
// after the first ingest are embedded and found by the dense path (the
// class of bug the engine once had, when it read a setting only SQLite
// kept, is what that scenario guards), and an Obsidian vault's templates
// and excluded files stay out of the index.
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
)

// Open returns a new, empty store for one scenario; the scenario's test
// closes it (or the opener registers its close with t.Cleanup).
type Open func(t *testing.T) store.Store

// Run runs every scenario of the contract, each as a subtest with a store
// of its own from open.
func Run(t *testing.T, open Open) {
	for _, sc := range []struct {
		name string
		run  func(*testing.T, store.Store)
	}{
		{"documents", documents},
		{"visibility", visibility},
		{"sessions", sessions},
		{"bm25", bm25},
		{"chunks version", chunksVersion},
		{"term counts", termCounts},
		{"memories", memories},
	} {
		t.Run(sc.name, func(t *testing.T) { sc.run(t, open(t)) })
	}
	t.Run("engine later notes", func(t *testing.T) { laterNotes(t, open) })
	t.Run("engine timeline", func(t *testing.T) { timeline(t, open(t)) })
	t.Run("engine obsidian vault", func(t *testing.T) { obsidianVault(t, open(t)) })
}

// root is the folder every scenario's notes come from.
const root = "/campaña"

// note builds a note whose chunks hold the given paragraphs' analysed
// terms, each chunk's text the paragraphs joined; session > 0 puts the
// chunks in that session. Its hash is its text's, as an ingest's is: a
// store may take two versions with one hash for the same.
func note(path string, session int, dmOnly bool, chunks ...[]string) *store.DocumentRecord {
	var all strings.Builder
	for _, paras := range chunks {
		all.WriteString(strings.Join(paras, "\n\n") + "\n\n")
	}
	sum := sha256.Sum256([]byte(all.String()))
	d := &store.DocumentRecord{Root: root, Path: path, SHA256: hex.EncodeToString(sum[:]), Title: path, Stamp: "contract", Lang: "es",
		Metadata: []byte(`{"tags":["contrato"]}`), DMOnly: dmOnly}
	if dmOnly {
		d.DMReason, d.DMDetail = "front-matter", "visibility: dm"
	}
	for i, paras := range chunks {
		text := ""
		c := store.ChunkRecord{HeadingTerms: "titul"}
		for j, p := range paras {
			c.Children = append(c.Children, store.ChildRecord{Ordinal: j, ByteStart: len(text), ByteEnd: len(text) + len(p), Terms: p})
			text += p + "\n\n"
		}
		c.ChunkData = store.ChunkData{UID: store.ChunkUID(path, i, text), Hash: "hash-" + text, Ordinal: i,
			Session: session, InSession: session > 0, Headings: []string{path}, Label: path, Text: text}
		c.EmbedHash = "embed-" + text
		d.Chunks = append(d.Chunks, c)
	}
	return d
}

// replace stores notes, failing the test on error.
func replace(t *testing.T, s store.Store, ds ...*store.DocumentRecord) {
	t.Helper()
	for _, d := range ds {
		if err := s.ReplaceDocument(context.Background(), d); err != nil {
			t.Fatalf("storing %q: %v", d.Path, err)
		}
	}
}

// paths lists the note path of each chunk, in order.
func paths(cs []store.Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// matchPaths lists the note path of each match, in order.
func matchPaths(ms []store.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Chunk.Path
	}
	return out
}

// documents: what is written is read back, by id, by public id and in
// document order; a note replaced or deleted takes its chunks with it.
func documents(t *testing.T, s store.Store) {
	ctx := context.Background()
	replace(t, s, note("b.md", 0, false, []string{"barc lag"}, []string{"torr hundid"}), note("a.md", 3, false, []string{"altar alg"}))
	all, err := s.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(all); !slices.Equal(got, []string{"a.md", "b.md", "b.md"}) || all[1].Ordinal != 0 || all[2].Ordinal != 1 {
		t.Fatalf("ListChunks gives the notes %q (ordinals %d, %d); want a.md, then b.md's two chunks in order", got, all[1].Ordinal, all[2].Ordinal)
	}
	if a := all[0]; a.Session != 3 || !a.InSession || a.Root != root || a.Text != "altar alg\n\n" || a.Restricted {
		t.Errorf("a.md's chunk reads back as %+v", a)
	}
	got, err := s.Chunks(ctx, []int64{all[2].ID, all[0].ID})
	if err != nil || len(got) != 2 || got[0].UID != all[2].UID || got[1].UID != all[0].UID {
		t.Errorf("Chunks in the order asked = %q, %v", paths(got), err)
	}
	byUID, err := s.ChunkByUID(ctx, all[1].UID)
	if err != nil || byUID.ID != all[1].ID || byUID.Text != all[1].Text {
		t.Errorf("ChunkByUID(%q) = %+v, %v", all[1].UID, byUID, err)
	}
	if under, err := s.ListChunks(ctx, []string{"a.md"}); err != nil || !slices.Equal(paths(under), []string{"a.md"}) {
		t.Errorf("ListChunks of a.md = %q, %v", paths(under), err)
	}
	states, err := s.DocumentStates(ctx, root)
	if err != nil || len(states) != 2 || states["b.md"].SHA256 != note("b.md", 0, false, []string{"barc lag"}, []string{"torr hundid"}).SHA256 || states["b.md"].Stamp != "contract" {
		t.Errorf("DocumentStates = %+v, %v", states, err)
	}

	replace(t, s, note("b.md", 0, false, []string{"barc nuev"}))
	if _, err := s.ChunkByUID(ctx, all[2].UID); !errors.Is(err, store.ErrNoChunk) {
		t.Errorf("the chunk of a replaced note is still found by its public id: %v", err)
	}
	if err := s.DeleteDocument(ctx, root, "a.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Chunks(ctx, []int64{all[0].ID}); !errors.Is(err, store.ErrMissingParent) {
		t.Errorf("Chunks of a deleted note's chunk: %v, want an error wrapping ErrMissingParent", err)
	}
	left, err := s.ListChunks(ctx, nil)
	if err != nil || !slices.Equal(paths(left), []string{"b.md"}) {
		t.Fatalf("after a replace and a delete the store holds %q, %v; want b.md's one chunk", paths(left), err)
	}
	if found, err := s.ChunksFound(ctx, []int64{all[0].ID, left[0].ID}); err != nil || len(found) != 1 || found[0].ID != left[0].ID {
		t.Errorf("ChunksFound leaves out the gone chunk: %q, %v", paths(found), err)
	}
	stats, err := s.Stats(ctx)
	if err != nil || stats.Documents != 1 || stats.Chunks != 1 || stats.Children != 1 {
		t.Errorf("Stats = %+v, %v; want 1 note, 1 chunk, 1 paragraph", stats, err)
	}
}

// visibility: a DM-only note's chunks are restricted and never reach a
// public search; a new decision moves them, and is counted.
func visibility(t *testing.T, s store.Store) {
	ctx := context.Background()
	replace(t, s, note("secreto.md", 0, true, []string{"trai archidu"}), note("publico.md", 0, false, []string{"archidu map"}))
	all, err := s.ListChunks(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := s.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if c.Restricted != (c.Path == "secreto.md") || restricted[c.ID] != c.Restricted {
			t.Errorf("%q: Restricted %v, in RestrictedChunks %v; want both only for the DM-only note", c.Path, c.Restricted, restricted[c.ID])
		}
	}
	search := func(public bool) []string {
		t.Helper()
		ms, err := retrieve.SearchBM25(ctx, s, []string{"archidu"}, 10, store.BM25Options{Public: public})
		if err != nil {
			t.Fatal(err)
		}
		got := matchPaths(ms)
		slices.Sort(got)
		return got
	}
	if got := search(true); !slices.Equal(got, []string{"publico.md"}) {
		t.Errorf("a public search finds %q; want only publico.md", got)
	}
	if got := search(false); !slices.Equal(got, []string{"publico.md", "secreto.md"}) {
		t.Errorf("the DM's search finds %q; want both notes", got)
	}
	if sessions, err := s.DMOnlyCounts(ctx); err != nil || sessions["front-matter"] != 1 {
		t.Errorf("DMOnlyCounts = %v, %v; want one note for front-matter", sessions, err)
	}
	everyone := func(store.VisibilityRecord) (bool, string, string) { return false, "", "" }
	if n, err := s.Redecide(ctx, everyone, map[string]string{"contract_rules": "all public"}); err != nil || n != 1 {
		t.Errorf("Redecide making every note public = %d, %v; want 1 note changed", n, err)
	}
	if got := search(true); !slices.Equal(got, []string{"publico.md", "secreto.md"}) {
		t.Errorf("after a new decision a public search finds %q; want both notes", got)
	}
	if v, err := s.Meta(ctx, "contract_rules"); err != nil || v != "all public" {
		t.Errorf("Redecide's setting reads back %q, %v", v, err)
	}
}

// bm25: the chunk whose paragraph holds the rarer terms comes first, with
// that paragraph; n counts chunks, and a shorter search is the start of a
// longer one; a filter keeps what it names before anything is ranked.
func bm25(t *testing.T, s store.Store) {
	ctx := context.Background()
	replace(t, s,
		note("Sesiones/uno.md", 1, false, []string{"barc lag orill"}, []string{"grif obsidian custodi bibliotec", "grif vuel"}),
		note("Sesiones/dos.md", 2, false, []string{"grif alad cruz lag"}),
		note("PNJ/barquer.md", 0, false, []string{"barquer cobr moned lag"}))
	search := func(terms []string, n int, opts store.BM25Options) []store.Match {
		t.Helper()
		ms, err := retrieve.SearchBM25(ctx, s, terms, n, opts)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	ms := search([]string{"grif", "obsidian"}, 10, store.BM25Options{})
	if len(ms) != 2 || ms[0].Chunk.Path != "Sesiones/uno.md" || ms[0].Chunk.Ordinal != 1 || ms[0].Child != 0 || ms[1].Chunk.Path != "Sesiones/dos.md" {
		t.Fatalf("grif obsidian finds %q; want uno.md's second chunk (its first paragraph), then dos.md", matchPaths(ms))
	}
	if ms[0].Score <= ms[1].Score || ms[1].Score <= 0 {
		t.Errorf("scores %v, %v: want positive and descending", ms[0].Score, ms[1].Score)
	}
	if ms[0].Passage == "" {
		t.Errorf("the best match carries no passage")
	}
	long := search([]string{"lag", "grif"}, 10, store.BM25Options{})
	for n := 1; n <= len(long); n++ {
		if got := search([]string{"lag", "grif"}, n, store.BM25Options{}); !slices.Equal(matchPaths(got), matchPaths(long[:n])) {
			t.Errorf("the first %d of a search are %q; the longer search's are %q", n, matchPaths(got), matchPaths(long[:n]))
		}
	}
	if got := search([]string{"lag"}, 10, store.BM25Options{Filter: store.Filter{Sessions: []int{2}}}); !slices.Equal(matchPaths(got), []string{"Sesiones/dos.md"}) {
		t.Errorf("lag in session 2 finds %q", matchPaths(got))
	}
	if got := search([]string{"lag"}, 10, store.BM25Options{Filter: store.Filter{Folders: []string{"PNJ"}}}); !slices.Equal(matchPaths(got), []string{"PNJ/barquer.md"}) {
		t.Errorf("lag under PNJ finds %q", matchPaths(got))
	}
	if got := search([]string{"inexistent"}, 10, store.BM25Options{}); len(got) != 0 {
		t.Errorf("a term no paragraph holds finds %q", matchPaths(got))
	}
	if used, err := s.TermUsed(ctx, "obsidian", false); err != nil || !used {
		t.Errorf("TermUsed(obsidian) = %v, %v", used, err)
	}
	if used, err := s.TermUsed(ctx, "inexistent", false); err != nil || used {
		t.Errorf("TermUsed(inexistent) = %v, %v", used, err)
	}
}

// chunksVersion: every write of chunks changes the version, by whichever
// writer method; reading does not.
func chunksVersion(t *testing.T, s store.Store) {
	ctx := context.Background()
	version := func() string {
		t.Helper()
		v, err := s.ChunksVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	seen := map[string]string{"": "the empty store"}
	v := version()
	step := func(what string, write func() error) {
		t.Helper()
		if err := write(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		now := version()
		if prev, ok := seen[now]; ok && now == v {
			t.Errorf("%s: the chunks' version stayed %q, as after %s", what, now, prev)
		}
		seen[now], v = what, now
		if _, err := s.ListChunks(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if again := version(); again != now {
			t.Errorf("after %s, a read moved the chunks' version from %q to %q", what, now, again)
		}
	}
	step("a note stored", func() error { return s.ReplaceDocument(ctx, note("a.md", 0, false, []string{"uno"})) })
	step("the note replaced", func() error { return s.ReplaceDocument(ctx, note("a.md", 0, false, []string{"dos"})) })
	step("notes stored together", func() error {
		_, err := s.ReplaceDocuments(ctx, []*store.DocumentRecord{note("b.md", 0, false, []string{"tres"}), note("c.md", 0, false, []string{"cuatr"})})
		return err
	})
	step("a note deleted", func() error { return s.DeleteDocument(ctx, root, "b.md") })
}

// termCounts: a store that counts terms counts the paragraphs that hold
// each, and every paragraph, and follows writes.
func termCounts(t *testing.T, s store.Store) {
	tc, ok := s.(store.TermCounter)
	if !ok {
		t.Skip("the store does not count terms")
	}
	ctx := context.Background()
	replace(t, s, note("a.md", 0, false, []string{"grif lag", "grif"}, []string{"barc"}), note("b.md", 0, true, []string{"grif secret"}))
	count := func(want []int64, paragraphs int64) {
		t.Helper()
		held, n, err := tc.TermCounts(ctx, []string{"grif", "barc", "inexistent"})
		if err != nil || !slices.Equal(held, want) || n != paragraphs {
			t.Errorf("TermCounts = %v of %d paragraphs, %v; want %v of %d", held, n, err, want, paragraphs)
		}
	}
	count([]int64{3, 1, 0}, 4)
	if err := s.DeleteDocument(ctx, root, "b.md"); err != nil {
		t.Fatal(err)
	}
	count([]int64{2, 1, 0}, 3)
}

// memories: ids count up and are never reused; a (scope, key) has one
// active entry; a supersede chains; a forget deletes for good.
func memories(t *testing.T, s store.Store) {
	ctx := context.Background()
	const stated = "stated:dm:ana@2026-12-01"
	add := func(key, value string) (store.Memory, error) {
		return s.AddMemory(ctx, store.Memory{Scope: store.MemoryCampaign, Key: key, Value: value, Source: stated, Author: "ana"}, false)
	}
	first, err := add("criticos", "doble daño")
	if err != nil || first.ID != "m1" || !first.Active || first.Status != store.MemoryHypothesis || first.Created == "" {
		t.Fatalf("the first entry = %+v, %v; want m1, an active hypothesis with a creation time", first, err)
	}
	if _, err := add("criticos", "triple"); !errors.Is(err, store.ErrMemoryConflict) {
		t.Errorf("a second active value for a key: %v, want an error wrapping ErrMemoryConflict", err)
	}
	if _, err := s.AddMemory(ctx, store.Memory{Scope: "campana", Key: "k", Value: "v", Source: stated}, false); !errors.Is(err, store.ErrInvalidMemory) {
		t.Errorf("a bad scope: %v, want an error wrapping ErrInvalidMemory", err)
	}
	next, err := s.SupersedeMemory(ctx, first.ID, "triple daño", store.Memory{Author: "ana"}, true)
	if err != nil || next.Supersedes != first.ID || next.Status != store.MemoryVerified || next.Source != stated || next.Key != "criticos" {
		t.Fatalf("the supersede = %+v, %v", next, err)
	}
	if old, err := s.Memory(ctx, first.ID); err != nil || old.Active {
		t.Errorf("the superseded entry = %+v, %v; want inactive", old, err)
	}
	if chain, err := s.MemoryChain(ctx, next.ID); err != nil || len(chain) != 2 || chain[1].ID != first.ID {
		t.Errorf("MemoryChain = %+v, %v; want the new entry then the old", chain, err)
	}
	if active, err := s.Memories(ctx, store.MemoryCampaign, false); err != nil || len(active) != 1 || active[0].ID != next.ID {
		t.Errorf("the active entries = %+v, %v", active, err)
	}
	if err := s.ForgetMemory(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Memory(ctx, first.ID); !errors.Is(err, store.ErrNoMemory) {
		t.Errorf("a forgotten entry: %v, want an error wrapping ErrNoMemory", err)
	}
	if kept, err := s.Memory(ctx, next.ID); err != nil || kept.Supersedes != "" || !kept.Active {
		t.Errorf("the entry that named the forgotten one = %+v, %v; want it active, naming none", kept, err)
	}
	third, err := add("iniciativa", "destreza")
	if err != nil || third.ID == first.ID || third.ID == next.ID {
		t.Errorf("an entry after a forget = %+v, %v; want a new id", third, err)
	}
	if err := s.VerifyMemory(ctx, third.ID, ""); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Memory(ctx, third.ID); err != nil || v.Status != store.MemoryVerified {
		t.Errorf("a verified entry = %+v, %v", v, err)
	}
}
