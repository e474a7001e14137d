package weaviate_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/eval"
	"github.com/oraculo/oraculo/index"
	"github.com/oraculo/oraculo/ingest"
	"github.com/oraculo/oraculo/internal/weaviatetest"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/store/weaviate"
)

// The store-level figure of the dense path: SearchVectors' top k against
// an exact cosine scan of SQLite's vectors.
const denseK = 10

// A public note and a DM-only one with the same text (one vector for
// both), and another public note.
const (
	sharedNote = "# La llave del abad\n\nEl abad Teodric guarda la llave de bronce de la cripta bajo su hábito, atada con un cordel rojo.\n"
	otherNote  = "# El pozo\n\nEl pozo seco de la plaza esconde una escalera de caracol que baja a los túneles.\n"
	sharedQ    = "el abad Teodric guarda la llave de bronce bajo su hábito con un cordel rojo"
	editedNote = "# La llave del abad\n\nEl abad Teodric perdió la llave; ahora la tiene el herrero del pueblo.\n"
)

// denseFilters are the filters compared: every field alone, and together.
var denseFilters = []store.Filter{
	{},
	{Sessions: []int{4, 5, 36}},
	{Folders: []string{"sesiones"}},
	{Folders: []string{"./NPCs/", "Lugares/Ribafría.md", "Notas"}},
	{Tags: []string{"#PJ"}},
	{Folders: []string{"DM"}, Tags: []string{"villano", "trama"}},
	{Sessions: []int{1, 2, 3}, Folders: []string{"Sesiones\\"}},
}

// denseFixture is the sample campaign and the extra notes in a Weaviate
// tenant and in SQLite, embedded by the hashing embedder.
type denseFixture struct {
	wv    *weaviate.Store
	ix    *index.Index
	emb   *embed.Hashing
	model string
	roots []string
	cfg   ingest.Config
	qs    []eval.Question
	qvecs map[string][]float32
}

// TestDenseSearch compares SearchVectors with an exact cosine search of
// SQLite's vectors restricted by SQLite's RestrictedChunks and
// FilterChunks, for the DM and for players, with and without filters:
// after ingest, while a public and a DM-only note share a text, after
// Redecide hides the public one and shows it again, after a note is
// replaced and after one is removed. After each step every vector
// object's filters are what the chunks using its text say. It also counts
// what a player's search asks of the cluster.
func TestDenseSearch(t *testing.T) {
	c := weaviatetest.Start(t, 1)
	node := c.Nodes[0]
	ctx := context.Background()
	sample, err := filepath.Abs("../../examples/campaign")
	if err != nil {
		t.Fatal(err)
	}
	extra := t.TempDir()
	writeNote(t, extra, "Notas/copia.md", sharedNote)
	writeNote(t, extra, "DM/copia.md", sharedNote)
	writeNote(t, extra, "Notas/otra.md", otherNote)
	cfg, an := ingestConfig(t)
	ix, err := index.Open(ctx, filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	fx := &denseFixture{wv: open(t, node, "dense"), ix: ix, roots: []string{sample, extra}, cfg: cfg,
		emb: embed.NewHashingTerms(embed.DefaultHashingDims, an.Version(), an.Terms), qvecs: map[string][]float32{}}
	fx.model = fx.emb.ID()
	if fx.qs, err = eval.Load("../../examples/golden.jsonl"); err != nil {
		t.Fatal(err)
	}
	fx.ingest(t)

	t.Run("ingested", func(t *testing.T) { fx.compare(t) })

	t.Run("shared text", func(t *testing.T) {
		for _, tc := range []struct {
			public bool
			f      store.Filter
			want   []string // the notes of the first hits, in order
		}{
			{false, store.Filter{}, []string{"DM/copia.md", "Notas/copia.md"}},
			{true, store.Filter{}, []string{"Notas/copia.md"}},
			{false, store.Filter{Folders: []string{"DM"}}, []string{"DM/copia.md"}},
			{true, store.Filter{Folders: []string{"Notas"}}, []string{"Notas/copia.md", "Notas/otra.md"}},
		} {
			got := fx.paths(t, sharedQ, denseK, tc.public, tc.f)
			if len(got) < len(tc.want) || !sameSet(got[:len(tc.want)], tc.want) {
				t.Errorf("public %v, %+v: hits in %v, want %v first", tc.public, tc.f, got, tc.want)
			}
			if tc.public && slices.Contains(got, "DM/copia.md") {
				t.Errorf("a player got the DM-only copy: %v", got)
			}
		}
		// The shared text's vector passes a player's where clause for
		// folder DM (its DM-only chunk is there, its public one is
		// public), and the check drops both: nothing for a player.
		if got := fx.paths(t, sharedQ, denseK, true, store.Filter{Folders: []string{"DM"}}); len(got) != 0 {
			t.Errorf("a player's search in folder DM found %v", got)
		}
		// Asked for one, the search asks again for more after the check
		// drops the shared text, and finds the other public note, as
		// SQLite's exact scan does.
		f := store.Filter{Folders: []string{"DM", "Notas/otra.md"}}
		if got, want := fx.paths(t, sharedQ, 1, true, f), fx.exactPaths(t, sharedQ, 1, true, f); !slices.Equal(got, want) || len(got) != 1 {
			t.Errorf("a player's search for one in %+v: %v, SQLite's exact %v", f, got, want)
		}
	})

	t.Run("redecide", func(t *testing.T) {
		hideCopy := func(r store.VisibilityRecord) (bool, string, string) {
			if r.Path == "Notas/copia.md" {
				return true, "front-matter", "test"
			}
			d := cfg.Decide(r)
			return d.DMOnly, d.Reason, d.Detail
		}
		rules := func(r store.VisibilityRecord) (bool, string, string) {
			d := cfg.Decide(r)
			return d.DMOnly, d.Reason, d.Detail
		}
		for _, step := range []struct {
			name    string
			decide  store.Decider
			visible bool
		}{{"hidden", hideCopy, false}, {"shown", rules, true}} {
			t.Run(step.name, func(t *testing.T) {
				restore := weaviate.SetPageSize(3) // every listing and lookup in several requests
				n, err := fx.wv.Redecide(ctx, step.decide, nil)
				restore()
				if err != nil || n != 1 {
					t.Fatalf("Redecide: %d notes changed audience, %v; want 1", n, err)
				}
				if n, err := fx.ix.Redecide(ctx, step.decide, nil); err != nil || n != 1 {
					t.Fatalf("SQLite's Redecide: %d, %v", n, err)
				}
				got := fx.paths(t, sharedQ, denseK, true, store.Filter{})
				if slices.Contains(got, "Notas/copia.md") != step.visible || slices.Contains(got, "DM/copia.md") {
					t.Errorf("a player's hits: %v (Notas/copia.md visible: %v)", got, step.visible)
				}
				fx.compare(t)
			})
		}
	})

	t.Run("replace", func(t *testing.T) {
		writeNote(t, extra, "Notas/copia.md", editedNote)
		fx.ingest(t)
		// The old text is now only the DM-only copy's: players never
		// reach it, the DM does.
		if got := fx.paths(t, sharedQ, 3, true, store.Filter{}); slices.Contains(got, "DM/copia.md") {
			t.Errorf("a player's hits: %v", got)
		}
		if got := fx.paths(t, sharedQ, 1, false, store.Filter{}); !slices.Equal(got, []string{"DM/copia.md"}) {
			t.Errorf("the DM's first hit: %v, want the DM-only copy", got)
		}
		if got := fx.paths(t, "el abad Teodric perdió la llave y ahora la tiene el herrero del pueblo", 1, true, store.Filter{}); !slices.Equal(got, []string{"Notas/copia.md"}) {
			t.Errorf("a player's first hit for the new text: %v", got)
		}
		fx.compare(t)
	})

	t.Run("delete", func(t *testing.T) {
		if err := os.Remove(filepath.Join(extra, "DM", "copia.md")); err != nil {
			t.Fatal(err)
		}
		fx.ingest(t)
		// No chunk uses the old text; its vector is not pruned yet.
		if got := fx.paths(t, sharedQ, denseK, false, store.Filter{}); slices.Contains(got, "DM/copia.md") {
			t.Errorf("the removed note is found: %v", got)
		}
		fx.compare(t)
		if n, err := fx.wv.PruneEmbeddings(ctx); err != nil || n != 1 {
			t.Errorf("PruneEmbeddings: %d, %v; want the old text's vector", n, err)
		}
		fx.compare(t)
	})

	t.Run("requests", func(t *testing.T) {
		rec := newRecorder(t, node.URL())
		s, err := weaviate.Open(ctx, weaviate.Config{URL: rec.URL, Tenant: "dense"})
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := fx.ix.PendingEmbeddings(ctx, "none") // every text, once
		if err != nil {
			t.Fatal(err)
		}
		restricted, err := fx.ix.RestrictedChunks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		chunks, err := fx.ix.ListChunks(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		visible := map[string]bool{}
		for _, c := range chunks {
			if !restricted[c.ID] {
				visible[store.EmbedText(c.Headings, c.Text)] = true
			}
		}
		if len(visible) <= 2*denseK {
			t.Fatalf("players may see %d texts: too few for the test to tell a list of them from the hits", len(visible))
		}
		// The first search learns that the model's collection exists.
		if _, err := s.SearchVectors(ctx, fx.model, fx.qvec(t, fx.qs[0].Question), denseK, true, store.Filter{}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []store.Filter{{}, {Sessions: []int{4, 5, 36}}, {Tags: []string{"#PJ"}}} {
			rec.reset()
			hits, err := s.SearchVectors(ctx, fx.model, fx.qvec(t, fx.qs[0].Question), denseK, true, f)
			if err != nil || len(hits) == 0 {
				t.Fatalf("%+v: %d hits, %v", f, len(hits), err)
			}
			bodies := rec.reset()
			named, nearNamed := map[string]bool{}, 0
			for _, b := range bodies {
				for _, j := range jobs {
					if strings.Contains(b, j.Hash) {
						named[j.Hash] = true
						if strings.Contains(b, "nearVector") {
							nearNamed++
						}
					}
				}
			}
			t.Logf("a player's search with %+v: %d requests naming %d texts (players may see %d)", f, len(bodies), len(named), len(visible))
			if nearNamed > 0 {
				t.Errorf("%+v: the nearVector query names %d texts", f, nearNamed)
			}
			// One nearVector query, one read of the chunks using the texts
			// found, one of their notes.
			if len(bodies) != 3 || len(named) > denseK {
				t.Errorf("%+v: %d requests naming %d texts; want 3 naming at most the %d found", f, len(bodies), len(named), denseK)
			}
		}
	})
}

// ingest brings both stores up to date with the roots and embeds what has
// no vector yet.
func (fx *denseFixture) ingest(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, s := range []store.DocumentWriter{fx.wv, fx.ix} {
		for _, root := range fx.roots {
			if _, err := ingest.Update(ctx, s, root, fx.cfg); err != nil {
				t.Fatal(err)
			}
		}
	}
	if nw, ns := embedAll(t, fx.wv, fx.emb), embedAll(t, fx.ix, fx.emb); nw != ns {
		t.Fatalf("embedded %d texts for weaviate, %d for SQLite", nw, ns)
	}
}

func (fx *denseFixture) qvec(t *testing.T, q string) []float32 {
	t.Helper()
	if v, ok := fx.qvecs[q]; ok {
		return v
	}
	vs, err := fx.emb.Embed(context.Background(), embed.Query, []string{q})
	if err != nil {
		t.Fatal(err)
	}
	fx.qvecs[q] = vs[0]
	return vs[0]
}

// paths returns the notes of SearchVectors' hits, in order.
func (fx *denseFixture) paths(t *testing.T, q string, k int, public bool, f store.Filter) []string {
	t.Helper()
	ctx := context.Background()
	hits, err := fx.wv.SearchVectors(ctx, fx.model, fx.qvec(t, q), k, public, f)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	cs, err := fx.wv.Chunks(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// exactPaths returns the notes of an exact scan's hits over SQLite's
// vectors, in order.
func (fx *denseFixture) exactPaths(t *testing.T, q string, k int, public bool, f store.Filter) []string {
	t.Helper()
	vs, keep := fx.exact(t, public, f)
	byID := map[int64]string{}
	for _, c := range snapshot(t, fx.ix) {
		byID[c.ID] = c.Path
	}
	var out []string
	for _, h := range exactScored(vs, fx.qvec(t, q), k, keep) {
		out = append(out, byID[h.id])
	}
	return out
}

// exact returns SQLite's vectors and what a search with public and f may
// return of them.
func (fx *denseFixture) exact(t *testing.T, public bool, f store.Filter) (*store.Vectors, func(int64) bool) {
	t.Helper()
	ctx := context.Background()
	vs, _, err := fx.ix.LoadVectors(ctx, fx.model)
	if err != nil {
		t.Fatal(err)
	}
	restricted, err := fx.ix.RestrictedChunks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var allowed map[int64]bool
	if !f.IsZero() {
		if allowed, err = fx.ix.FilterChunks(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	return vs, func(id int64) bool { return (!public || !restricted[id]) && (allowed == nil || allowed[id]) }
}

// compare checks SearchVectors against SQLite's exact scan, for the DM
// and for players, with each of denseFilters (every golden question
// unfiltered, the first 16 filtered), and that every vector object's
// filters are what the chunks using its text say.
func (fx *denseFixture) compare(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	uidW, uidS := uidsByID(t, fx.wv), uidsByID(t, fx.ix)
	for _, public := range []bool{false, true} {
		for _, f := range denseFilters {
			vs, keep := fx.exact(t, public, f)
			keepUID := map[string]bool{}
			for id, uid := range uidS {
				if keep(id) {
					keepUID[uid] = true
				}
			}
			qs := fx.qs
			if !f.IsZero() {
				qs = qs[:16]
			}
			found, total, hits := 0, 0, 0
			for _, q := range qs {
				qv := fx.qvec(t, q.Question)
				got, err := fx.wv.SearchVectors(ctx, fx.model, qv, denseK, public, f)
				if err != nil {
					t.Fatal(err)
				}
				in := map[string]bool{}
				for i, h := range got {
					uid, ok := uidW[h.ID]
					if !ok {
						t.Fatalf("%s: hit %d names no chunk", q.ID, h.ID)
					}
					if !keepUID[uid] {
						t.Fatalf("%s (public %v, %+v): %s is not one the search may return", q.ID, public, f, uid)
					}
					if i > 0 && h.Score > got[i-1].Score {
						t.Fatalf("%s: hits not best first: %v", q.ID, got)
					}
					in[uid] = true
				}
				want := exactScored(vs, qv, denseK, keep)
				if len(got) != len(want) {
					t.Errorf("%s (public %v, %+v): %d hits, SQLite's exact scan %d", q.ID, public, f, len(got), len(want))
				}
				for _, w := range want {
					// A chunk tied with the last hit may be left out for
					// another: ties are ordered by each store's ids.
					if in[uidS[w.id]] || (len(got) == denseK && math.Abs(float64(got[denseK-1].Score)-w.score) < 1e-4) {
						found++
					}
				}
				total += len(want)
				hits += len(got)
			}
			if hits == 0 {
				// Players may see nothing a filter for the DM's folder
				// lets through; the DM must find something.
				if !public {
					t.Errorf("%+v: no hits at all: the comparison proves nothing", f)
				}
				continue
			}
			recall := float64(found) / float64(total)
			if recall < minRecall {
				t.Errorf("public %v, %+v: recall@%d %.3f against SQLite's exact scan, want ≥ %.2f", public, f, denseK, recall, minRecall)
			}
			if f.IsZero() {
				t.Logf("public %v: recall@%d %.3f over %d questions", public, denseK, recall, len(qs))
			}
		}
	}
	stale, n, public, err := fx.wv.StaleUses(ctx, fx.model)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Errorf("%d of %d vectors' filters are not what their chunks say: %v", len(stale), n, stale)
	}
	if public == 0 || public == n {
		t.Errorf("%d of %d vectors public: the test proves nothing", public, n)
	}
}

type scored struct {
	id    int64
	score float64
}

// exactScored is the best k chunks of v by cosine similarity to q among
// those keep lets through, with their scores, ties by id.
func exactScored(v *store.Vectors, q []float32, k int, keep func(int64) bool) []scored {
	var hs []scored
	for i, id := range v.IDs {
		if !keep(id) {
			continue
		}
		var dot, nq, nv float64
		for j, x := range v.Data[i*v.Dims : (i+1)*v.Dims] {
			dot += float64(x) * float64(q[j])
			nq += float64(q[j]) * float64(q[j])
			nv += float64(x) * float64(x)
		}
		hs = append(hs, scored{id, dot / math.Sqrt(nq*nv)})
	}
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].score != hs[j].score {
			return hs[i].score > hs[j].score
		}
		return hs[i].id < hs[j].id
	})
	return hs[:min(k, len(hs))]
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func writeNote(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// recorder is a proxy in front of a node that keeps the body of every
// request it passes on.
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
}

func newRecorder(t *testing.T, target string) *recorder {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		r.mu.Lock()
		r.bodies = append(r.bodies, fmt.Sprintf("%s %s %s", req.Method, req.URL, body))
		r.mu.Unlock()
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

// reset returns the requests recorded since the last reset.
func (r *recorder) reset() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.bodies
	r.bodies = nil
	return out
}
