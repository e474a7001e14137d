package weaviate_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
)

// The change ingested while a node is down: one note edited, one deleted,
// one added, each with a word found nowhere else in the sample.
const (
	replEditedNote = "NPCs/Chispa.md"
	editedWord     = "zanfirolio"
	deletedNote    = "NPCs/Odalric Pardal.md"
	deletedText    = "bigote blanco enorme"
	addedNote      = "NPCs/Brunilda Ocaso.md"
	addedWord      = "quelvorio"
)

// convergeTimeout bounds how long a node that came back may take to hold
// what it missed (asynchronous replication).
const convergeTimeout = 60 * time.Second

// TestReplication ingests the sample campaign into a three-node cluster
// with replication factor 3, stops one node and keeps searching, ingests
// a change while it is down, restarts it, and checks that every node then
// answers with the change and holds every object; then it stops the node
// a store talks to and searches through another node.
func TestReplication(t *testing.T) {
	// A node that comes back compares its copy with the others' every
	// second and copies what is older than a second (Weaviate's defaults:
	// 30 s and 30 s, see docs/weaviate.md), so that the test
	// waits seconds for it, not a minute.
	t.Setenv("ASYNC_REPLICATION_FREQUENCY", "1s")
	t.Setenv("ASYNC_REPLICATION_FREQUENCY_WHILE_PROPAGATING", "1s")
	t.Setenv("ASYNC_REPLICATION_ALIVE_NODES_CHECKING_FREQUENCY", "1s")
	t.Setenv("ASYNC_REPLICATION_PROPAGATION_DELAY", "1s")
	start := time.Now()
	c := weaviatetest.Start(t, 3)
	t.Logf("three nodes ready in %v", time.Since(start).Round(time.Millisecond))
	ctx := context.Background()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../../examples/campaign")); err != nil {
		t.Fatal(err)
	}
	cfg, an := ingestConfig(t)
	qs, err := eval.Load("../../examples/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	openOn := func(n *weaviatetest.Node, factor int) *weaviate.Store {
		t.Helper()
		s, err := weaviate.Open(ctx, weaviate.Config{URL: n.URL(), Tenant: "sample", Replication: factor})
		if err != nil {
			t.Fatalf("opening a store on %s: %v", n.Name, err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	// engineOn opens the engine, with its defaults (no model: the keyword
	// and entity paths, extractive answers), on a store on node n.
	engineOn := func(n *weaviatetest.Node) *oraculo.Engine {
		t.Helper()
		e, err := oraculo.OpenStore(ctx, openOn(n, 3))
		if err != nil {
			t.Fatalf("opening the engine on %s: %v", n.Name, err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	n0, n1, n2 := c.Nodes[0], c.Nodes[1], c.Nodes[2]

	// The engine ingests (ingest.Update on the store, then the
	// compendium's entities and mentions).
	step := time.Now()
	s0 := openOn(n0, 3)
	e0, err := oraculo.OpenStore(ctx, s0)
	if err != nil {
		t.Fatal(err)
	}
	defer e0.Close()
	res, err := e0.Ingest(ctx, []string{root}, oraculo.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Indexed == 0 || res.NewChunks == 0 || res.Entities == 0 {
		t.Fatalf("ingest stored nothing: %+v", res)
	}
	t.Logf("ingest with replication 3: %d notes, %d chunks, %d entities in %v",
		res.Indexed, res.NewChunks, res.Entities, time.Since(step).Round(time.Millisecond))

	t.Run("other factor", func(t *testing.T) {
		for _, factor := range []int{1, 2} {
			_, err := weaviate.Open(ctx, weaviate.Config{URL: n1.URL(), Tenant: "sample", Replication: factor})
			if err == nil {
				t.Fatalf("opening collections of factor 3 with replication %d: no error", factor)
			}
			for _, want := range []string{`"OraculoDocument"`, "factor 3", fmt.Sprintf("the %d asked", factor)} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("replication %d: the error %q does not say %s", factor, err, want)
				}
			}
		}
		// Asking for nothing takes the collections as they are.
		openOn(n1, 0)
		if _, err := weaviate.Open(ctx, weaviate.Config{URL: n1.URL(), Tenant: "sample", Replication: -1}); err == nil {
			t.Error("replication -1: no error")
		}
	})

	// How well the keyword path and the engine answer with all three
	// nodes up.
	baseline := keywordEval(t, s0, an, qs)
	notes, err := s0.NoteSources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dmOnly := map[string]bool{}
	for _, n := range notes {
		if n.Restricted {
			dmOnly[n.Path] = true
		}
	}
	if len(dmOnly) == 0 {
		t.Fatal("the sample has no DM-only note: the test proves nothing")
	}
	asked := ask(t, e0, qs, dmOnly)
	stats, err := s0.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	all := snapshot(t, s0)

	// keepAnswering checks that s answers the golden questions as well as
	// before (a replica's BM25 statistics are its own, so near-ties may
	// swap: see docs/weaviate.md), never gives players a DM-only
	// chunk, finds chunks by UID and counts what it did.
	keepAnswering := func(t *testing.T, s *weaviate.Store) {
		t.Helper()
		step := time.Now()
		got := keywordEval(t, s, an, qs)
		if d := math.Abs(got.Chunk.Recall[8] - baseline.Chunk.Recall[8]); d > parity {
			t.Errorf("%s: Recall@8 %.3f, with every node up %.3f", s.Path(), got.Chunk.Recall[8], baseline.Chunk.Recall[8])
		}
		if d := math.Abs(got.Chunk.MRR - baseline.Chunk.MRR); d > parity {
			t.Errorf("%s: MRR@50 %.3f, with every node up %.3f", s.Path(), got.Chunk.MRR, baseline.Chunk.MRR)
		}
		moved := 0
		for i := range got.Outcomes {
			if got.Outcomes[i].Rank != baseline.Outcomes[i].Rank {
				moved++
			}
		}
		found := 0
		for _, q := range qs[:min(len(qs), 20)] {
			ms, err := retrieve.SearchBM25(ctx, s, an.Terms(q.Question), retrieve.FixedDepth, store.BM25Options{Public: true})
			if err != nil {
				t.Fatalf("%s: %s for players: %v", s.Path(), q.ID, err)
			}
			for _, m := range ms {
				if m.Chunk.Restricted {
					t.Fatalf("%s: %s: a player got DM-only %s", s.Path(), q.ID, m.Chunk.Label)
				}
			}
			found += len(ms)
		}
		if found == 0 {
			t.Errorf("%s: the players' searches found nothing", s.Path())
		}
		for _, ch := range []store.Chunk{all[0], all[len(all)/2], all[len(all)-1]} {
			if back, err := s.ChunkByUID(ctx, ch.UID); err != nil || back.Text != ch.Text {
				t.Errorf("ChunkByUID(%q): %v", ch.UID, err)
			}
		}
		if st, err := s.Stats(ctx); err != nil || !sameStats(st, stats) {
			t.Errorf("Stats = %+v, %v; with every node up %+v", st, err, stats)
		}
		t.Logf("%s: %d questions for the DM (Recall@8 %.3f, MRR@50 %.3f, %d first relevant chunks moved), %d for players, 3 chunks by UID and Stats in %v",
			s.Path(), len(qs), got.Chunk.Recall[8], got.Chunk.MRR, moved, min(len(qs), 20), time.Since(step).Round(time.Millisecond))
	}

	// keepAsking checks that the engine e searches and answers as it did
	// with every node up.
	keepAsking := func(t *testing.T, e *oraculo.Engine) {
		t.Helper()
		step := time.Now()
		got := ask(t, e, qs, dmOnly)
		if got.found != asked.found || got.answered < asked.answered-2 || got.cited < asked.cited-2 {
			t.Errorf("%s: %+v; with every node up %+v", e.DBPath(), got, asked)
		}
		t.Logf("%s: %d questions searched and asked by the DM and players: %+v in %v",
			e.DBPath(), len(askedOf(qs)), got, time.Since(step).Round(time.Millisecond))
	}

	t.Run("one node down", func(t *testing.T) {
		step := time.Now()
		if err := n2.Stop(); err != nil {
			t.Fatal(err)
		}
		t.Logf("node2 stopped in %v", time.Since(step).Round(time.Millisecond))
		keepAnswering(t, s0)
		keepAnswering(t, openOn(n1, 3))
		keepAsking(t, e0)
		keepAsking(t, engineOn(n1))

		// The change, ingested while node2 is down.
		edit(t, root)
		step = time.Now()
		res, err := e0.Ingest(ctx, []string{root}, oraculo.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Indexed != 2 || res.Deleted != 1 {
			t.Fatalf("ingest of the change: %+v; want 2 notes written, 1 deleted", res)
		}
		t.Logf("change ingested with a node down in %v", time.Since(step).Round(time.Millisecond))
		checkChange(t, s0, an)
		checkChange(t, openOn(n1, 3), an)

		step = time.Now()
		if err := n2.Restart(ctx); err != nil {
			t.Fatal(err)
		}
		t.Logf("node2 ready again in %v", time.Since(step).Round(time.Millisecond))
	})
	if t.Failed() {
		return
	}

	t.Run("every node has the change", func(t *testing.T) {
		ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if _, err := ingest.Update(ctx, ix, root, cfg); err != nil {
			t.Fatal(err)
		}
		want, err := ix.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// node0 and node1 took every write (a quorum of 2 was all there
		// was); node2 copies what it missed from them.
		ref := openOn(n0, 3).ReadingOne()
		counts := mustCounts(t, ref)
		if counts["OraculoDocument"] != want.Documents || counts["OraculoChunk"] != want.Chunks || counts["OraculoParagraph"] != want.Children {
			t.Fatalf("node0 holds %v; SQLite holds %d notes, %d chunks, %d paragraphs", counts, want.Documents, want.Chunks, want.Children)
		}
		chunks := snapshot(t, ref)
		step := time.Now()
		waitConverged(t, openOn(n2, 3).ReadingOne(), counts, chunks)
		t.Logf("node2 holds what it missed %v after it was ready", time.Since(step).Round(time.Millisecond))

		for _, n := range c.Nodes {
			s := openOn(n, 3)
			one := s.ReadingOne()
			if got := mustCounts(t, one); !maps.Equal(got, counts) {
				t.Errorf("%s holds %v, node0 %v", n.Name, got, counts)
			}
			if got := snapshot(t, one); !slices.EqualFunc(got, chunks, chunkEqual) {
				t.Errorf("%s's own copy has %d chunks, other than node0's %d", n.Name, len(got), len(chunks))
			}
			checkChange(t, one, an)
			checkChange(t, s, an)
			for _, ch := range all {
				if ch.Path != deletedNote {
					continue
				}
				if _, err := s.ChunkByUID(ctx, ch.UID); !errors.Is(err, store.ErrNoChunk) {
					t.Errorf("%s: chunk %s of the deleted note: %v, want ErrNoChunk", n.Name, ch.UID, err)
				}
			}
		}
	})

	t.Run("the store's node down", func(t *testing.T) {
		// Everything is back on three nodes: how well they answer now.
		baseline = keywordEval(t, s0, an, qs)
		asked = ask(t, e0, qs, dmOnly)
		if stats, err = s0.Stats(ctx); err != nil {
			t.Fatal(err)
		}
		all = snapshot(t, s0)
		step := time.Now()
		if err := n0.Stop(); err != nil {
			t.Fatal(err)
		}
		t.Logf("node0 stopped in %v", time.Since(step).Round(time.Millisecond))
		// A store talks to one node: with it down, it fails, and says so.
		if _, err := retrieve.SearchBM25(ctx, s0, an.Terms(qs[0].Question), retrieve.FixedDepth, store.BM25Options{}); err == nil {
			t.Error("a search through a stopped node: no error")
		}
		keepAnswering(t, openOn(n1, 3))
		keepAsking(t, engineOn(n1))
		keepAsking(t, engineOn(n2))
		step = time.Now()
		if err := n0.Restart(ctx); err != nil {
			t.Fatal(err)
		}
		t.Logf("node0 ready again in %v", time.Since(step).Round(time.Millisecond))
		// The store on node0 answers again.
		if st, err := s0.Stats(ctx); err != nil || !sameStats(st, stats) {
			t.Errorf("Stats through node0 back: %+v, %v; want %+v", st, err, stats)
		}
	})
	t.Logf("whole test %v", time.Since(start).Round(time.Millisecond))
}

// edit makes the change in the notes under root: one note edited, one
// deleted, one added.
func edit(t *testing.T, root string) {
	t.Helper()
	p := filepath.Join(root, replEditedNote)
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, "\n\n## Su último invento\n\nChispa fabricó un "+editedWord+" de cobre que canta al amanecer.\n"...)
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, deletedNote)); err != nil {
		t.Fatal(err)
	}
	added := "---\ntitle: Brunilda Ocaso\ntags: [npc, Ribafría]\n---\n\n# Brunilda Ocaso\n\n" +
		"Cartógrafa de Ribafría. Guarda el único mapa del " + addedWord + ", el río que corre bajo las criptas.\n"
	if err := os.WriteFile(filepath.Join(root, addedNote), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkChange checks that s answers with the change: the edited note's
// new text found, the added note found, the deleted one in no chunk and
// no search.
func checkChange(t *testing.T, s *weaviate.Store, an *analysis.Analyzer) {
	t.Helper()
	ctx := context.Background()
	found := func(text, path, want string) bool {
		ms, err := retrieve.SearchBM25(ctx, s, an.Terms(text), retrieve.FixedDepth, store.BM25Options{})
		if err != nil {
			t.Fatalf("%s: searching %q: %v", s.Path(), text, err)
		}
		for _, m := range ms {
			if m.Chunk.Path == path && strings.Contains(m.Chunk.Text, want) {
				return true
			}
		}
		return false
	}
	if !found(editedWord, replEditedNote, editedWord) {
		t.Errorf("%s: the edited note's new text is not found", s.Path())
	}
	if !found(addedWord, addedNote, addedWord) {
		t.Errorf("%s: the added note is not found", s.Path())
	}
	if found("Odalric Pardal "+deletedText, deletedNote, "") {
		t.Errorf("%s: the deleted note is found", s.Path())
	}
	for _, ch := range snapshot(t, s) {
		if ch.Path == deletedNote {
			t.Errorf("%s: chunk %s of the deleted note is there", s.Path(), ch.Label)
		}
	}
}

// asking is what the engine did with some golden questions.
type asking struct {
	// found is how many searches (by the DM and by players) had hits;
	// answered how many of the DM's extractive answers did not abstain,
	// cited how many had a valid citation.
	found, answered, cited int
}

// askedOf are the golden questions the engine is asked: a few, for time.
func askedOf(qs []eval.Question) []eval.Question { return qs[:min(len(qs), 12)] }

// ask searches some golden questions with e as the DM and as a player and
// asks them as the DM (extractive answers), failing the test on any error
// and on a player's hit in a note of dmOnly.
func ask(t *testing.T, e *oraculo.Engine, qs []eval.Question, dmOnly map[string]bool) asking {
	t.Helper()
	var a asking
	for _, q := range askedOf(qs) {
		for _, role := range []string{oraculo.RoleDM, oraculo.RolePlayer} {
			hits, err := e.Search(oraculo.WithRole(context.Background(), role), q.Question, oraculo.SearchOptions{})
			if err != nil {
				t.Fatalf("%s: %s: searching as %s: %v", e.DBPath(), q.ID, role, err)
			}
			if len(hits) > 0 {
				a.found++
			}
			for _, h := range hits {
				if role == oraculo.RolePlayer && dmOnly[h.File] {
					t.Fatalf("%s: %s: a player got DM-only %s %s", e.DBPath(), q.ID, h.File, h.Label)
				}
			}
		}
		ans, err := e.Ask(context.Background(), q.Question, oraculo.AskOptions{Extractive: true})
		if err != nil {
			t.Fatalf("%s: %s: asking: %v", e.DBPath(), q.ID, err)
		}
		if !ans.Abstained {
			a.answered++
		}
		for _, c := range ans.Citations {
			if c.Valid {
				a.cited++
				break
			}
		}
	}
	if a.found == 0 || a.answered == 0 || a.cited == 0 {
		t.Fatalf("%s: %+v: the test proves nothing", e.DBPath(), a)
	}
	return a
}

// keywordEval runs the golden questions through the keyword path on s.
func keywordEval(t *testing.T, s *weaviate.Store, an *analysis.Analyzer, qs []eval.Question) *eval.Result {
	t.Helper()
	path := retrieve.BM25{Index: s, Analyzer: an}
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
	res, err := eval.Run(context.Background(), qs, eval.Config{Name: s.Path(), Paths: []string{retrieve.PathBM25}, Search: search}, 50)
	if err != nil {
		t.Fatalf("%s: %v", s.Path(), err)
	}
	return res
}

func sameStats(a, b store.Stats) bool {
	return a.Documents == b.Documents && a.Chunks == b.Chunks && a.Children == b.Children &&
		a.Sessions == b.Sessions && maps.Equal(a.DocumentsByType, b.DocumentsByType)
}

func mustCounts(t *testing.T, s *weaviate.Store) map[string]int {
	t.Helper()
	n, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitConverged waits until the node s reads from at ONE holds counts and
// chunks, or fails the test after convergeTimeout.
func waitConverged(t *testing.T, s *weaviate.Store, counts map[string]int, chunks []store.Chunk) {
	t.Helper()
	deadline := time.Now().Add(convergeTimeout)
	for {
		got, err := s.Counts(context.Background())
		if err == nil && maps.Equal(got, counts) {
			cs, err := s.ListChunks(context.Background(), nil)
			if err == nil && slices.EqualFunc(cs, chunks, chunkEqual) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v %s holds %v (%v), the others %v", convergeTimeout, s.Path(), got, err, counts)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
