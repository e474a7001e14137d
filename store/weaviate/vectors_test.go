package weaviate_test

import (
	"context"
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
)

// minRecall is how many of the exact top 10 (SQLite's vectors, scanned)
// the cluster's nearVector must find, on average over the golden questions.
const minRecall = 0.95

// embedAll embeds, with emb, every text vs has no vector of yet.
func embedAll(t *testing.T, vs store.VectorStore, emb *embed.Hashing) int {
	t.Helper()
	ctx := context.Background()
	jobs, err := vs.PendingEmbeddings(ctx, emb.ID())
	if err != nil {
		t.Fatal(err)
	}
	hashes, texts := make([]string, len(jobs)), make([]string, len(jobs))
	for i, j := range jobs {
		hashes[i], texts[i] = j.Hash, j.Text
	}
	if len(jobs) == 0 {
		return 0
	}
	vecs, err := emb.Embed(ctx, embed.Passage, texts)
	if err != nil {
		t.Fatal(err)
	}
	if err := vs.PutEmbeddings(ctx, emb.ID(), hashes, vecs); err != nil {
		t.Fatal(err)
	}
	return len(jobs)
}

// exactTop is the best k chunks of v by cosine similarity to q, among
// those keep lets through, ties by id: [exactScored]'s ids.
func exactTop(v *store.Vectors, q []float32, k int, keep func(int64) bool) []int64 {
	hs := exactScored(v, q, k, keep)
	out := make([]int64, len(hs))
	for i, h := range hs {
		out[i] = h.id
	}
	return out
}

func testVectors(t *testing.T, node *weaviatetest.Node, wv *weaviate.Store, ix *index.Index, an *analysis.Analyzer, qs []eval.Question) {
	ctx := context.Background()
	emb := embed.NewHashingTerms(embed.DefaultHashingDims, an.Version(), an.Terms)
	model := emb.ID()
	nw, ns := embedAll(t, wv, emb), embedAll(t, ix, emb)
	if nw == 0 || nw != ns {
		t.Fatalf("embedded %d texts for weaviate, %d for SQLite", nw, ns)
	}
	if again := embedAll(t, wv, emb); again != 0 {
		t.Errorf("%d texts still pending after PutEmbeddings", again)
	}
	wc, err := wv.EmbeddingCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := ix.EmbeddingCounts(ctx)
	if !slices.Equal(mapKeys(wc), mapKeys(sc)) || wc[model] != sc[model] {
		t.Errorf("EmbeddingCounts: weaviate %v, SQLite %v", wc, sc)
	}
	wr, err := wv.VectorRows(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	sr, _ := ix.VectorRows(ctx, model)
	if wr != sr || wr == 0 {
		t.Errorf("VectorRows: weaviate %d, SQLite %d", wr, sr)
	}
	if _, missing, err := wv.VectorIDs(ctx, model); err != nil || missing != 0 {
		t.Errorf("VectorIDs: %d chunks without a vector (%v)", missing, err)
	}

	// An unchanged put writes nothing new.
	jobs, _ := ix.PendingEmbeddings(ctx, "none")
	if len(jobs) == 0 {
		t.Fatal("no texts")
	}
	v0, _ := emb.Embed(ctx, embed.Passage, []string{jobs[0].Text})
	if err := wv.PutEmbeddings(ctx, model, []string{jobs[0].Hash}, v0); err != nil {
		t.Fatal(err)
	}
	if again, _ := wv.EmbeddingCounts(ctx); again[model] != wc[model] {
		t.Errorf("a second put of one vector: %d vectors, then %d", wc[model], again[model])
	}
	if n, err := wv.PruneEmbeddings(ctx); err != nil || n != 0 {
		t.Errorf("PruneEmbeddings with every vector in use: %d, %v", n, err)
	}
	// A vector no chunk uses is never found, and pruned.
	if err := wv.PutEmbeddings(ctx, model, []string{"unused"}, v0); err != nil {
		t.Fatal(err)
	}
	if hits, err := wv.SearchVectors(ctx, model, v0[0], 3, false, store.Filter{}); err != nil || len(hits) == 0 || hits[0].Score < 0.999 {
		t.Errorf("searching a chunk's own vector: %v, %v", hits, err)
	}
	if n, err := wv.PruneEmbeddings(ctx); err != nil || n != 1 {
		t.Errorf("PruneEmbeddings with one vector unused: %d, %v", n, err)
	}
	if again, _ := wv.EmbeddingCounts(ctx); again[model] != wc[model] {
		t.Errorf("after pruning: %d vectors, want %d", again[model], wc[model])
	}

	// The vectors read back are SQLite's, chunk for chunk.
	wvec, wmiss, err := wv.LoadVectors(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	svec, smiss, err := ix.LoadVectors(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	if wmiss != smiss || len(wvec.IDs) != len(svec.IDs) || wvec.Dims != svec.Dims {
		t.Fatalf("LoadVectors: weaviate %d×%d (%d missing), SQLite %d×%d (%d missing)", len(wvec.IDs), wvec.Dims, wmiss, len(svec.IDs), svec.Dims, smiss)
	}
	uidW, uidS := uidsByID(t, wv), uidsByID(t, ix)
	byUID := map[string][]float32{}
	for i, id := range svec.IDs {
		byUID[uidS[id]] = svec.Data[i*svec.Dims : (i+1)*svec.Dims]
	}
	// Weaviate normalises what a cosine index holds: unit vectors come
	// back within rounding.
	worst := 0.0
	for i, id := range wvec.IDs {
		want := byUID[uidW[id]]
		if want == nil {
			t.Fatalf("chunk %s: no SQLite vector", uidW[id])
		}
		for j, x := range wvec.Data[i*wvec.Dims : (i+1)*wvec.Dims] {
			worst = max(worst, math.Abs(float64(x)-float64(want[j])))
		}
	}
	if worst > 1e-5 {
		t.Errorf("the vectors read back differ from SQLite's by up to %g", worst)
	}

	restricted, err := ix.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dmOnly := map[string]bool{}
	for id := range restricted {
		dmOnly[uidS[id]] = true
	}
	const k = 10
	sawDM := false
	for _, public := range []bool{false, true} {
		found, total := 0, 0
		for _, q := range qs {
			qv, err := emb.Embed(ctx, embed.Query, []string{q.Question})
			if err != nil {
				t.Fatal(err)
			}
			hits, err := wv.SearchVectors(ctx, model, qv[0], k, public, store.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range hits {
				sawDM = sawDM || dmOnly[uidW[h.ID]]
				if public && dmOnly[uidW[h.ID]] {
					t.Fatalf("%s: a player got DM-only %s", q.ID, uidW[h.ID])
				}
				if i > 0 && h.Score > hits[i-1].Score {
					t.Fatalf("%s: hits not best first: %v", q.ID, hits)
				}
			}
			want := exactTop(svec, qv[0], k, func(id int64) bool { return !public || !restricted[id] })
			got := map[string]bool{}
			for _, h := range hits {
				got[uidW[h.ID]] = true
			}
			for _, id := range want {
				if got[uidS[id]] {
					found++
				}
			}
			total += len(want)
		}
		recall := float64(found) / float64(total)
		t.Logf("nearVector recall@%d against SQLite's exact cosine (public %v), %d questions: %.3f", k, public, len(qs), recall)
		if recall < minRecall {
			t.Errorf("recall@%d %.3f (public %v), want ≥ %.2f", k, recall, public, minRecall)
		}
	}
	if !sawDM {
		t.Error("the DM's vector searches found no DM-only chunk: the test proves nothing")
	}

	// A filter applies before ranking: every hit passes it, and as many
	// as SQLite's exact scan finds.
	f := store.Filter{Sessions: []int{4, 5, 36}}
	allowed, err := ix.FilterChunks(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	allowedUID := map[string]bool{}
	for id := range allowed {
		allowedUID[uidS[id]] = true
	}
	for _, q := range qs[:10] {
		qv, _ := emb.Embed(ctx, embed.Query, []string{q.Question})
		hits, err := wv.SearchVectors(ctx, model, qv[0], k, true, f)
		if err != nil {
			t.Fatal(err)
		}
		want := exactTop(svec, qv[0], k, func(id int64) bool { return allowed[id] && !restricted[id] })
		if len(hits) != len(want) {
			t.Errorf("%s with %+v: %d hits, SQLite's exact scan %d", q.ID, f, len(hits), len(want))
		}
		for _, h := range hits {
			if !allowedUID[uidW[h.ID]] || dmOnly[uidW[h.ID]] {
				t.Fatalf("%s: %s got through %+v for a player", q.ID, uidW[h.ID], f)
			}
		}
	}

	// Another tenant sees nothing.
	other := open(t, node, "other")
	if c, err := other.EmbeddingCounts(ctx); err != nil || len(c) != 0 {
		t.Errorf("another tenant's embedding counts: %v, %v", c, err)
	}
	if n, err := other.VectorRows(ctx, model); err != nil || n != 0 {
		t.Errorf("another tenant's vector rows: %d, %v", n, err)
	}
	qv, _ := emb.Embed(ctx, embed.Query, []string{qs[0].Question})
	if hits, err := other.SearchVectors(ctx, model, qv[0], k, false, store.Filter{}); err != nil || len(hits) != 0 {
		t.Errorf("another tenant's vector search: %v, %v", hits, err)
	}
	if jobs, err := other.PendingEmbeddings(ctx, model); err != nil || len(jobs) != 0 {
		t.Errorf("another tenant's pending embeddings: %d, %v", len(jobs), err)
	}
	if _, ok := any(wv).(store.GraphStore); ok {
		t.Error("the Weaviate store keeps an Oráculo vector graph; the cluster indexes its vectors itself")
	}
}

func mapKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func uidsByID(t *testing.T, r store.ChunkReader) map[int64]string {
	t.Helper()
	out := map[int64]string{}
	for _, c := range snapshot(t, r) {
		out[c.ID] = c.UID
	}
	return out
}
