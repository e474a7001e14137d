package weaviate_test

import (
	"context"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/chunk"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
	"github.com/oraculo/oraculo/visibility"
)

// The keyword search must stay this close to SQLite's on the sample
// campaign's golden questions (Recall@8 and MRR@50, every chunk counted).
const parity = 0.02

// Both stores implement the roles done so far.
var (
	_ store.DocumentWriter  = (*weaviate.Store)(nil)
	_ store.ChunkReader     = (*weaviate.Store)(nil)
	_ store.KeywordSearcher = (*weaviate.Store)(nil)
	_ store.Settings        = (*weaviate.Store)(nil)
)

// ingestConfig is how the engine ingests the sample with its defaults:
// the default language, chunking and secret folder.
func ingestConfig(t *testing.T) (ingest.Config, *analysis.Analyzer) {
	t.Helper()
	an, err := analysis.New(oraculo.DefaultLang)
	if err != nil {
		t.Fatal(err)
	}
	rules := visibility.NewRules(oraculo.DefaultSecretFolders)
	return ingest.Config{
		Stamp:    "weaviate-test analysis=" + an.Version(),
		Chunking: chunk.Options{MaxWords: chunk.DefaultMaxWords, OverlapWords: chunk.DefaultOverlapWords, Lang: oraculo.DefaultLang},
		Terms:    an.Terms,
		Decide: func(r store.VisibilityRecord) visibility.Decision {
			var fm map[string]any
			if len(r.Metadata) > 0 && json.Unmarshal(r.Metadata, &fm) != nil {
				return visibility.Decision{DMOnly: true, Reason: visibility.ReasonUnclear, Detail: "unreadable front matter"}
			}
			return rules.Decide(visibility.Note{Path: r.Path, Link: r.Link, FrontMatter: fm, RawFrontMatter: r.FrontRaw})
		},
	}, an
}

// tee stores in a writer and keeps a copy of every note it stored.
type tee struct {
	store.DocumentWriter
	mu   sync.Mutex
	docs []*store.DocumentRecord
}

func (w *tee) ReplaceDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	n, err := w.DocumentWriter.ReplaceDocuments(ctx, ds)
	w.mu.Lock()
	w.docs = append(w.docs, ds[:n]...)
	w.mu.Unlock()
	return n, err
}

func open(t *testing.T, node *weaviatetest.Node, tenant string) *weaviate.Store {
	t.Helper()
	s, err := weaviate.Open(context.Background(), weaviate.Config{URL: node.URL(), Tenant: tenant})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// snapshot is everything the chunk reader gives back, to compare runs.
func snapshot(t *testing.T, r store.ChunkReader) []store.Chunk {
	t.Helper()
	cs, err := r.ListChunks(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// restore runs the ingest that puts back the one note a subtest changed
// or removed, and checks that the store holds want again.
func restore(t *testing.T, wv *weaviate.Store, root string, cfg ingest.Config, want []store.Chunk) {
	t.Helper()
	res, err := ingest.Update(context.Background(), wv, root, cfg)
	if err != nil || res.Indexed != 1 {
		t.Fatalf("re-ingest: %+v, %v", res, err)
	}
	if after := snapshot(t, wv); !slices.EqualFunc(want, after, chunkEqual) {
		t.Errorf("re-ingest did not restore the chunks: %d before, %d after", len(want), len(after))
	}
}

// TestBackend ingests the sample campaign into one Weaviate node and into
// SQLite, and compares what each gives back.
func TestBackend(t *testing.T) {
	c := weaviatetest.Start(t, 1)
	node := c.Nodes[0]
	ctx := context.Background()
	root, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	cfg, an := ingestConfig(t)

	wv := open(t, node, "sample")
	w := &tee{DocumentWriter: wv}
	res, err := ingest.Update(ctx, w, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed == 0 || res.NewChunks == 0 {
		t.Fatalf("ingest stored nothing: %+v", res)
	}
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ingest.Update(ctx, ix, root, cfg); err != nil {
		t.Fatal(err)
	}

	t.Run("chunks", func(t *testing.T) {
		got, want := snapshot(t, wv), snapshot(t, ix)
		if len(got) != len(want) {
			t.Fatalf("weaviate holds %d chunks, SQLite %d", len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			g.ID, w.ID = 0, 0 // each store's own
			if !chunkEqual(g, w) {
				t.Fatalf("chunk %d differs:\nweaviate %+v\nsqlite   %+v", i, g, w)
			}
		}
		// Read a few objects at a time, the listing finds them all.
		restore := weaviate.SetPageSize(7)
		paged := snapshot(t, wv)
		restore()
		if !slices.EqualFunc(got, paged, chunkEqual) {
			t.Errorf("read 7 at a time: %d chunks, %d at once", len(paged), len(got))
		}
		one := got[len(got)/2]
		byUID, err := wv.ChunkByUID(ctx, one.UID)
		if err != nil || byUID.ID != one.ID {
			t.Fatalf("ChunkByUID(%q) = %d, %v; want %d", one.UID, byUID.ID, err, one.ID)
		}
		back, err := wv.Chunks(ctx, []int64{got[2].ID, got[0].ID})
		if err != nil || len(back) != 2 || back[0].UID != got[2].UID || back[1].UID != got[0].UID {
			t.Fatalf("Chunks gave %v, %v", back, err)
		}
		if _, err := wv.Chunks(ctx, []int64{got[0].ID, 12345}); err == nil {
			t.Error("Chunks of a missing id: no error")
		}
		found, err := wv.ChunksFound(ctx, []int64{12345, got[1].ID})
		if err != nil || len(found) != 1 || found[0].UID != got[1].UID {
			t.Errorf("ChunksFound gave %v, %v", found, err)
		}
		sessions, err := wv.ListChunks(ctx, []string{"Sesiones/"})
		wantSessions, _ := ix.ListChunks(ctx, []string{"Sesiones/"})
		if err != nil || len(sessions) == 0 || len(sessions) != len(wantSessions) {
			t.Errorf("ListChunks(Sesiones/) gave %d chunks (%v), SQLite %d", len(sessions), err, len(wantSessions))
		}
	})

	t.Run("rerun", func(t *testing.T) {
		before := snapshot(t, wv)
		again, err := ingest.Update(ctx, wv, root, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if again.Indexed != 0 || again.Deleted != 0 || again.Unchanged == 0 {
			t.Errorf("an unchanged rerun did something: %+v", again)
		}
		// Writing the same notes again, as an interrupted run's next one
		// does, changes nothing either.
		if n, err := wv.ReplaceDocuments(ctx, w.docs); err != nil || n != len(w.docs) {
			t.Fatalf("rewriting %d notes: %d, %v", len(w.docs), n, err)
		}
		if after := snapshot(t, wv); !slices.EqualFunc(before, after, chunkEqual) {
			t.Errorf("a rerun changed the chunks: %d before, %d after", len(before), len(after))
		}
	})

	t.Run("replace", func(t *testing.T) {
		before := snapshot(t, wv)
		var d *store.DocumentRecord
		for _, r := range w.docs {
			if len(r.Chunks) > 2 {
				d = r
				break
			}
		}
		// A new version of the note without its last chunk, and another
		// text in its first: what the old version left is gone.
		nd := *d
		nd.SHA256 = "changed"
		nd.Chunks = append([]store.ChunkRecord(nil), d.Chunks[:len(d.Chunks)-1]...)
		nd.Chunks[0].UID += "-new"
		if err := wv.ReplaceDocument(ctx, &nd); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range snapshot(t, wv) {
			if c.Path == d.Path {
				got = append(got, c.UID)
			}
		}
		var want []string
		for _, c := range nd.Chunks {
			want = append(want, c.UID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("after replacing %q its chunks are %v, want %v", d.Path, got, want)
		}
		for _, term := range strings.Fields(d.Chunks[0].Children[0].Terms)[:1] {
			ms, err := retrieve.SearchBM25(ctx, wv, []string{term}, 1000, store.BM25Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if m.Chunk.UID == d.Chunks[0].UID {
					t.Errorf("the replaced chunk %s is still found", m.Chunk.Label)
				}
			}
		}
		// The next ingest sees the changed hash and puts the file's
		// version back.
		restore(t, wv, root, cfg, before)
	})

	t.Run("tenants", func(t *testing.T) {
		other := open(t, node, "other")
		if cs := snapshot(t, other); len(cs) != 0 {
			t.Errorf("another tenant sees %d chunks", len(cs))
		}
		ms, err := retrieve.SearchBM25(ctx, other, an.Terms("Vesper Quillon"), 8, store.BM25Options{})
		if err != nil || len(ms) != 0 {
			t.Errorf("another tenant's search found %d (%v)", len(ms), err)
		}
		if st, err := other.Stats(ctx); err != nil || st.Documents != 0 || st.Chunks != 0 || st.Children != 0 || st.Sessions != 0 || len(st.DocumentsByType) != 0 {
			t.Errorf("another tenant's stats: %+v, %v", st, err)
		}
		for _, public := range []bool{false, true} {
			if ss, err := other.Sessions(ctx, public); err != nil || len(ss) != 0 {
				t.Errorf("another tenant's sessions (public %v): %v, %v", public, ss, err)
			}
			if n, err := other.Units(ctx, public); err != nil || n != 0 {
				t.Errorf("another tenant's units (public %v): %d, %v", public, n, err)
			}
		}
		if rs, err := other.Roots(ctx); err != nil || len(rs) != 0 {
			t.Errorf("another tenant's roots: %v, %v", rs, err)
		}
		if ns, err := other.NoteSources(ctx); err != nil || len(ns) != 0 {
			t.Errorf("another tenant's notes: %d, %v", len(ns), err)
		}
		if dm, err := other.DMOnlyCounts(ctx); err != nil || len(dm) != 0 {
			t.Errorf("another tenant's DM-only counts: %v, %v", dm, err)
		}
		if ids, err := other.FilterChunks(ctx, store.Filter{}); err != nil || len(ids) != 0 {
			t.Errorf("another tenant's filter lets %d through (%v)", len(ids), err)
		}
		if ids, err := other.RestrictedChunks(ctx); err != nil || len(ids) != 0 {
			t.Errorf("another tenant has %d DM-only chunks (%v)", len(ids), err)
		}
	})

	qs, err := eval.Load("../../examples/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("players", func(t *testing.T) {
		restricted, err := ix.RestrictedChunks(ctx)
		if err != nil || len(restricted) == 0 {
			t.Fatalf("the sample has no DM-only chunk (%v): the test proves nothing", err)
		}
		dmOnly := map[string]bool{}
		all, _ := ix.ListChunks(ctx, nil)
		for _, c := range all {
			if restricted[c.ID] {
				dmOnly[c.UID] = true
			}
		}
		sawDM := false
		for _, q := range qs {
			terms := an.Terms(q.Question)
			ms, err := retrieve.SearchBM25(ctx, wv, terms, retrieve.FixedDepth, store.BM25Options{Public: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if m.Chunk.Restricted || dmOnly[m.Chunk.UID] {
					t.Fatalf("%s: a player got DM-only %s", q.ID, m.Chunk.Label)
				}
			}
			dm, err := retrieve.SearchBM25(ctx, wv, terms, retrieve.FixedDepth, store.BM25Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range dm {
				sawDM = sawDM || m.Chunk.Restricted
			}
		}
		if !sawDM {
			t.Error("the DM's searches found no DM-only chunk: the test proves nothing")
		}
		for _, term := range []string{"traidor"} {
			for _, public := range []bool{false, true} {
				got, err := wv.TermUsed(ctx, an.Terms(term)[0], public)
				want, _ := ix.TermUsed(ctx, an.Terms(term)[0], public)
				if err != nil || got != want {
					t.Errorf("TermUsed(%q, public %v) = %v, %v; SQLite says %v", term, public, got, err, want)
				}
			}
		}
	})

	t.Run("parity", func(t *testing.T) {
		// The keyword path weighs a question's terms by the store's
		// counts: both stores count the same paragraphs.
		terms := an.Terms("¿Quién traicionó al archiduque en el molino? sesión xyzzy")
		gotHeld, gotN, err := wv.TermCounts(ctx, terms)
		if err != nil {
			t.Fatal(err)
		}
		wantHeld, wantN, err := ix.TermCounts(ctx, terms)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(gotHeld, wantHeld) || gotN != wantN || gotN == 0 || slices.Max(wantHeld) == 0 {
			t.Errorf("TermCounts(%q) = %v of %d paragraphs; SQLite says %v of %d", terms, gotHeld, gotN, wantHeld, wantN)
		}
		run := func(name string, ks store.KeywordSearcher) *eval.Result {
			path := retrieve.BM25{Index: ks, Analyzer: an}
			search := func(ctx context.Context, q string, k int) ([]eval.Retrieved, []eval.Stage, error) {
				rs, err := path.Retrieve(ctx, q, max(k, retrieve.FixedDepth))
				if err != nil {
					return nil, nil, err
				}
				out := make([]eval.Retrieved, len(rs))
				for i, r := range rs {
					out[i] = eval.Retrieved{File: r.Chunk.Path, Headings: r.Chunk.Headings, Text: r.Chunk.Text}
				}
				return out, nil, nil
			}
			res, err := eval.Run(ctx, qs, eval.Config{Name: name, Paths: []string{retrieve.PathBM25}, Search: search}, 50)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		sq, wq := run("sqlite", ix), run("weaviate", wv)
		t.Logf("keyword path, %d questions: Recall@8 SQLite %.3f Weaviate %.3f; MRR@50 SQLite %.3f Weaviate %.3f",
			sq.Chunk.Questions, sq.Chunk.Recall[8], wq.Chunk.Recall[8], sq.Chunk.MRR, wq.Chunk.MRR)
		moved := 0
		for i := range sq.Outcomes {
			if a, b := sq.Outcomes[i], wq.Outcomes[i]; a.Rank != b.Rank {
				moved++
				t.Logf("%s: rank %d in SQLite, %d in Weaviate", a.ID, a.Rank, b.Rank)
			}
		}
		t.Logf("%d of %d questions ranked their first relevant chunk elsewhere", moved, len(sq.Outcomes))
		if d := math.Abs(sq.Chunk.Recall[8] - wq.Chunk.Recall[8]); d > parity {
			t.Errorf("Recall@8 differs by %.3f", d)
		}
		if d := math.Abs(sq.Chunk.MRR - wq.Chunk.MRR); d > parity {
			t.Errorf("MRR@50 differs by %.3f", d)
		}
	})

	t.Run("term counts", func(t *testing.T) {
		// Counts are kept between two writes and read again after one.
		cs := open(t, node, "counts")
		notes := t.TempDir()
		write := func(name, text string) {
			if err := os.WriteFile(filepath.Join(notes, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ingest.Update(ctx, cs, notes, cfg); err != nil {
				t.Fatal(err)
			}
		}
		count := func() []int64 {
			held, n, err := cs.TermCounts(ctx, an.Terms("molino puerta"))
			if err != nil || n == 0 {
				t.Fatalf("TermCounts: %v, %d paragraphs", err, n)
			}
			return held
		}
		write("a.md", "# A\n\nEl molino de Tobías.\n\nLa puerta del molino.\n")
		first := count()
		if again := count(); !slices.Equal(first, again) || !slices.Equal(first, []int64{2, 1}) {
			t.Fatalf("counts %v then %v, want [2 1] twice", first, again)
		}
		write("b.md", "# B\n\nOtro molino junto al río.\n")
		if after := count(); !slices.Equal(after, []int64{3, 1}) {
			t.Errorf("after a write: %v, want [3 1]", after)
		}
	})

	t.Run("filters", func(t *testing.T) {
		// "Until session 12" reaches a store as the sessions up to it,
		// which both hold alike.
		held, err := wv.Sessions(ctx, false)
		if err != nil {
			t.Fatal(err)
		}
		if sq, err := ix.Sessions(ctx, false); err != nil || !slices.Equal(held, sq) {
			t.Fatalf("sessions held: weaviate %v, SQLite %v (%v)", held, sq, err)
		}
		until, ok := store.Filter{UntilSession: 12, Folders: []string{"sesiones"}}.Through(held)
		if !ok || until.UntilSession != 0 {
			t.Fatalf("until session 12 over %v: %+v, %v", held, until, ok)
		}
		for _, f := range []store.Filter{
			until,
			{Sessions: []int{4, 5, 36}},
			{Folders: []string{"sesiones"}},
			{Folders: []string{"./NPCs/", "Lugares/Ribafría.md"}},
			{Tags: []string{"#PJ"}},
			{Folders: []string{"DM"}, Tags: []string{"villano", "trama"}},
		} {
			allowed, err := ix.FilterChunks(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, q := range qs[:20] {
				terms := an.Terms(q.Question)
				got, err := retrieve.SearchBM25(ctx, wv, terms, retrieve.FixedDepth, store.BM25Options{Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				want, err := retrieve.SearchBM25(ctx, ix, terms, retrieve.FixedDepth, store.BM25Options{Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				found += len(got)
				if len(want) < retrieve.FixedDepth && !slices.Equal(uids(got, true), uids(want, true)) {
					t.Errorf("%s with %+v: weaviate found %v, SQLite %v", q.ID, f, labels(got), labels(want))
				}
				for _, m := range want {
					if !allowed[m.Chunk.ID] {
						t.Fatalf("SQLite's search let %s through %+v", m.Chunk.Label, f)
					}
				}
			}
			if found == 0 {
				t.Errorf("%+v let nothing through: the test proves nothing", f)
			}
		}
	})

	t.Run("vectors", func(t *testing.T) { testVectors(t, node, wv, ix, an, qs) })

	t.Run("annotations", func(t *testing.T) { testAnnotations(t, node, wv, ix, w.docs, root, cfg) })

	t.Run("catalog", func(t *testing.T) {
		testCatalog(t, wv, ix)
		restore := weaviate.SetPageSize(7)
		defer restore()
		testCatalog(t, wv, ix)
	})

	t.Run("pending", func(t *testing.T) {
		// A public note an interrupted Redecide left changing audience
		// counts as DM-only until a Redecide finishes.
		notes, err := wv.NoteSources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n store.NoteSource
		for _, ns := range notes {
			if !ns.Restricted {
				n = ns
				break
			}
		}
		before, err := wv.DMOnlyCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := wv.SetPending(ctx, n.Root, n.Path, true); err != nil {
			t.Fatal(err)
		}
		restricted, err := wv.RestrictedChunks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range n.ChunkIDs {
			if !restricted[id] {
				t.Errorf("a chunk of pending %q is not DM-only", n.Path)
			}
		}
		after, err := wv.DMOnlyCounts(ctx)
		if err != nil || after["unknown"] != before["unknown"]+1 {
			t.Errorf("DM-only counts %v with %q pending, %v before (%v)", after, n.Path, before, err)
		}
		again, err := wv.NoteSources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, ns := range again {
			if ns.Path == n.Path && !ns.Restricted {
				t.Errorf("pending %q is not DM-only", n.Path)
			}
		}
		if err := wv.SetPending(ctx, n.Root, n.Path, false); err != nil {
			t.Fatal(err)
		}
		testCatalog(t, wv, ix)
	})

	t.Run("redecide", func(t *testing.T) {
		everyone := func(store.VisibilityRecord) (bool, string, string) { return false, "", "" }
		rules := func(r store.VisibilityRecord) (bool, string, string) {
			d := cfg.Decide(r)
			return d.DMOnly, d.Reason, d.Detail
		}
		dmTerms := an.Terms("traidor")
		playersFind := func() int {
			ms, err := retrieve.SearchBM25(ctx, wv, dmTerms, retrieve.FixedDepth, store.BM25Options{Public: true})
			if err != nil {
				t.Fatal(err)
			}
			return len(ms)
		}
		hidden := playersFind()
		for _, step := range []struct {
			decide store.Decider
			rules  string
		}{{everyone, "none"}, {rules, "default"}} {
			restore := weaviate.SetPageSize(5)
			got, err := wv.Redecide(ctx, step.decide, map[string]string{"visibility_rules": step.rules})
			restore()
			if err != nil {
				t.Fatal(err)
			}
			want, err := ix.Redecide(ctx, step.decide, map[string]string{"visibility_rules": step.rules})
			if err != nil {
				t.Fatal(err)
			}
			if got != want || got == 0 {
				t.Errorf("rules %q: %d notes changed audience, SQLite says %d", step.rules, got, want)
			}
			if v, err := wv.Meta(ctx, "visibility_rules"); err != nil || v != step.rules {
				t.Errorf("visibility_rules = %q, %v; want %q", v, err, step.rules)
			}
			if again, err := wv.Redecide(ctx, step.decide, nil); err != nil || again != 0 {
				t.Errorf("rules %q again: %d changed (%v)", step.rules, again, err)
			}
			if step.rules == "none" && playersFind() <= hidden {
				t.Error("with every note public players find no more than before")
			}
		}
		if n := playersFind(); n != hidden {
			t.Errorf("players find %d with the rules back, %d before", n, hidden)
		}
		if got, want := snapshot(t, wv), snapshot(t, ix); len(got) != len(want) {
			t.Fatalf("%d chunks, SQLite %d", len(got), len(want))
		} else {
			for i := range got {
				if got[i].Restricted != want[i].Restricted {
					t.Fatalf("%s: restricted %v, SQLite %v", got[i].Label, got[i].Restricted, want[i].Restricted)
				}
			}
		}
	})

	t.Run("settings", func(t *testing.T) {
		if v, err := wv.Meta(ctx, "nothing"); err != nil || v != "" {
			t.Errorf("an unset setting: %q, %v", v, err)
		}
		for _, v := range []string{"1", "2"} {
			if err := wv.SetMeta(ctx, "k", v); err != nil {
				t.Fatal(err)
			}
			if got, err := wv.Meta(ctx, "k"); err != nil || got != v {
				t.Errorf("Meta(k) = %q, %v; want %q", got, err, v)
			}
		}
		if v, err := open(t, node, "other").Meta(ctx, "k"); err != nil || v != "" {
			t.Errorf("another tenant reads %q, %v", v, err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		all := snapshot(t, wv)
		gone := all[0]
		if err := wv.DeleteDocument(ctx, gone.Root, gone.Path); err != nil {
			t.Fatal(err)
		}
		for _, c := range snapshot(t, wv) {
			if c.Path == gone.Path {
				t.Fatalf("chunk %s of a removed note is still there", c.Label)
			}
		}
		states, err := wv.DocumentStates(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := states[gone.Path]; ok {
			t.Errorf("removed note %q still has a state", gone.Path)
		}
		// The next ingest puts it back.
		restore(t, wv, root, cfg, all)
	})

	t.Run("fail closed", func(t *testing.T) {
		s := open(t, node, "undecided")
		if err := s.PutUndecided(ctx, "undecided"); err != nil {
			t.Fatal(err)
		}
		ms, err := retrieve.SearchBM25(ctx, s, []string{"abad"}, 8, store.BM25Options{Public: true})
		if err != nil || len(ms) != 0 {
			t.Errorf("a player's search found %d (%v)", len(ms), err)
		}
		ms, err = retrieve.SearchBM25(ctx, s, []string{"abad"}, 8, store.BM25Options{})
		if err != nil || len(ms) != 1 || !ms[0].Chunk.Restricted || ms[0].Passage != "el secreto del abad" {
			t.Errorf("the DM's search found %+v (%v), want the chunk, DM-only", ms, err)
		}
		if used, err := s.TermUsed(ctx, "abad", true); err != nil || used {
			t.Errorf("TermUsed for players = %v, %v", used, err)
		}
		if used, err := s.TermUsed(ctx, "abad", false); err != nil || !used {
			t.Errorf("TermUsed for the DM = %v, %v", used, err)
		}
		if ids, err := s.RestrictedChunks(ctx); err != nil || len(ids) != 1 || !ids[weaviate.ChunkID("undecided")] {
			t.Errorf("RestrictedChunks = %v, %v; want the undecided chunk", ids, err)
		}
		if n, err := s.Units(ctx, true); err != nil || n != 0 {
			t.Errorf("players count %d units (%v)", n, err)
		}
		if ns, err := s.NoteSources(ctx); err != nil || len(ns) != 0 {
			t.Errorf("a chunk without its note gave %d notes (%v)", len(ns), err)
		}
	})

	t.Run("restart", func(t *testing.T) {
		before := snapshot(t, wv)
		if err := node.Stop(); err != nil {
			t.Fatal(err)
		}
		if err := node.Restart(ctx); err != nil {
			t.Fatal(err)
		}
		again := open(t, node, "sample")
		if after := snapshot(t, again); !slices.EqualFunc(before, after, chunkEqual) {
			t.Errorf("after a restart the node holds %d chunks, %d before", len(after), len(before))
		}
		res, err := ingest.Update(ctx, again, root, cfg)
		if err != nil || res.Indexed != 0 {
			t.Errorf("ingest after a restart: %+v, %v", res, err)
		}
		ms, err := retrieve.SearchBM25(ctx, again, an.Terms("Vesper Quillon"), 8, store.BM25Options{Public: true})
		if err != nil || len(ms) == 0 {
			t.Errorf("search after a restart: %d, %v", len(ms), err)
		}
	})
}

// testCatalog compares what the catalog and the chunk filter of a
// Weaviate store say with what SQLite's say, for the DM and for players;
// chunk and note ids are each store's own, compared by what they name.
func testCatalog(t *testing.T, wv *weaviate.Store, ix *index.Index) {
	t.Helper()
	ctx := context.Background()
	uidsOf := func(r store.ChunkReader) map[int64]string {
		out := map[int64]string{}
		for _, c := range snapshot(t, r) {
			out[c.ID] = c.UID
		}
		return out
	}
	wvUID, ixUID := uidsOf(wv), uidsOf(ix)
	set := func(ids map[int64]bool, uid map[int64]string) []string {
		var out []string
		for id := range ids {
			u, ok := uid[id]
			if !ok {
				t.Fatalf("id %d names no chunk", id)
			}
			out = append(out, u)
		}
		slices.Sort(out)
		return out
	}

	got, err := wv.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ix.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Documents != want.Documents || got.Sessions != want.Sessions || got.Chunks != want.Chunks ||
		got.Children != want.Children || !maps.Equal(got.DocumentsByType, want.DocumentsByType) ||
		got.Bytes != 0 || got.Schema != weaviate.SchemaVersion {
		t.Errorf("Stats = %+v; SQLite's %+v", got, want)
	}
	if got.Documents == 0 || got.Children <= got.Chunks {
		t.Errorf("Stats = %+v: the test proves nothing", got)
	}

	units := map[bool]int{}
	for _, public := range []bool{false, true} {
		g, err := wv.Sessions(ctx, public)
		w, _ := ix.Sessions(ctx, public)
		if err != nil || !slices.Equal(g, w) || len(g) == 0 {
			t.Errorf("Sessions(public %v) = %v, %v; SQLite's %v", public, g, err, w)
		}
		n, err := wv.Units(ctx, public)
		m, _ := ix.Units(ctx, public)
		if err != nil || n != m {
			t.Errorf("Units(public %v) = %d, %v; SQLite's %d", public, n, err, m)
		}
		units[public] = n
	}
	if units[true] >= units[false] {
		t.Errorf("players count %d units, the DM %d: the test proves nothing", units[true], units[false])
	}

	if g, err := wv.Roots(ctx); err != nil || !slices.Equal(g, mustRoots(t, ix)) {
		t.Errorf("Roots = %v, %v; SQLite's %v", g, err, mustRoots(t, ix))
	}

	gn, err := wv.NoteSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wn, err := ix.NoteSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(gn) != len(wn) {
		t.Fatalf("%d notes, SQLite %d", len(gn), len(wn))
	}
	docIDs := map[int64]bool{}
	restricted := 0
	for i := range gn {
		g, w := gn[i], wn[i]
		if g.Root != w.Root || g.Path != w.Path || g.Title != w.Title || g.Restricted != w.Restricted || g.Text != w.Text ||
			!slices.Equal(g.ChunkTexts, w.ChunkTexts) || !jsonEqual(g.Metadata, w.Metadata) {
			t.Errorf("note %d differs:\nweaviate %q %q %q restricted %v meta %s, %d bytes\nsqlite   %q %q %q restricted %v meta %s, %d bytes",
				i, g.Root, g.Path, g.Title, g.Restricted, g.Metadata, len(g.Text), w.Root, w.Path, w.Title, w.Restricted, w.Metadata, len(w.Text))
		}
		gu := make([]string, len(g.ChunkIDs))
		for j, id := range g.ChunkIDs {
			gu[j] = wvUID[id]
		}
		wu := make([]string, len(w.ChunkIDs))
		for j, id := range w.ChunkIDs {
			wu[j] = ixUID[id]
		}
		if !slices.Equal(gu, wu) {
			t.Errorf("%s: chunks %v, SQLite %v", g.Path, gu, wu)
		}
		if g.DocID == 0 || docIDs[g.DocID] {
			t.Errorf("%s: document id %d is 0 or another note's", g.Path, g.DocID)
		}
		docIDs[g.DocID] = true
		if g.Restricted {
			restricted++
		}
	}
	t.Logf("%d notes (%d DM-only), %d chunks, %d paragraphs, %d sessions; units: DM %d, players %d",
		len(gn), restricted, got.Chunks, got.Children, got.Sessions, units[false], units[true])
	if restricted == 0 || restricted == len(gn) {
		t.Errorf("%d of %d notes DM-only: the test proves nothing", restricted, len(gn))
	}

	if g, err := wv.DMOnlyCounts(ctx); err != nil || len(g) == 0 || !maps.Equal(g, mustDMOnly(t, ix)) {
		t.Errorf("DMOnlyCounts = %v, %v; SQLite's %v", g, err, mustDMOnly(t, ix))
	}

	for _, f := range []store.Filter{
		{},
		{Sessions: []int{4, 5, 36}},
		{Folders: []string{"sesiones"}},
		{Folders: []string{"./NPCs/", "Lugares/Ribafría.md"}},
		{Tags: []string{"#PJ"}},
		{Folders: []string{"DM"}, Tags: []string{"villano", "trama"}},
		{Sessions: []int{1, 2, 3}, Folders: []string{"Sesiones\\"}},
		{Tags: []string{"no such tag"}},
	} {
		g, err := wv.FilterChunks(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ix.FilterChunks(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if gs, ws := set(g, wvUID), set(w, ixUID); !slices.Equal(gs, ws) {
			t.Errorf("FilterChunks(%+v) lets %d through, SQLite %d", f, len(gs), len(ws))
		}
		if len(w) == 0 && len(f.Tags) == 0 {
			t.Errorf("FilterChunks(%+v) lets nothing through: the test proves nothing", f)
		}
	}

	g, err := wv.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ix.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gs, ws := set(g, wvUID), set(w, ixUID); !slices.Equal(gs, ws) || len(gs) == 0 {
		t.Errorf("RestrictedChunks: %d, SQLite %d", len(gs), len(ws))
	}
}

func mustRoots(t *testing.T, ix *index.Index) []string {
	t.Helper()
	rs, err := ix.Roots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func mustDMOnly(t *testing.T, ix *index.Index) map[string]int {
	t.Helper()
	dm, err := ix.DMOnlyCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return dm
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}

func chunkEqual(a, b store.Chunk) bool {
	return a.ID == b.ID && a.UID == b.UID && a.Hash == b.Hash && a.Ordinal == b.Ordinal && a.Session == b.Session &&
		a.InSession == b.InSession && slices.Equal(a.Headings, b.Headings) && a.Label == b.Label &&
		a.WordStart == b.WordStart && a.WordEnd == b.WordEnd && a.ByteStart == b.ByteStart && a.ByteEnd == b.ByteEnd &&
		a.PageStart == b.PageStart && a.PageEnd == b.PageEnd && a.Text == b.Text && a.Root == b.Root && a.Path == b.Path &&
		a.DocTitle == b.DocTitle && a.Visibility == b.Visibility && a.Restricted == b.Restricted
}

// uids returns the matches' chunk UIDs, sorted when sorted.
func uids(ms []store.Match, sorted bool) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Chunk.UID
	}
	if sorted {
		slices.Sort(out)
	}
	return out
}

func labels(ms []store.Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Chunk.Path + " " + m.Chunk.Label
	}
	return out
}
