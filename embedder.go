package oraculo

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/enrich"
	"github.com/oraculo/oraculo/internal/interruptible"
	"github.com/oraculo/oraculo/retrieve"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// Embedding providers.
const (
	ProviderNone    = "none"
	ProviderOllama  = "ollama"
	ProviderOpenAI  = "openai"
	ProviderHashing = "hashing"
)

// EmbedderConfig chooses the embedding model of the dense path.
type EmbedderConfig struct {
	// Provider is "ollama", "openai" (any OpenAI-compatible server),
	// "hashing" (model-free, not semantic: for tests and demos) or "none".
	Provider string `json:"provider"`
	// Model is the model name (default bge-m3 for Ollama).
	Model string `json:"model,omitempty"`
	// URL is the server's base URL (Ollama: $OLLAMA_HOST or
	// http://127.0.0.1:11434; OpenAI-compatible: required, e.g.
	// http://127.0.0.1:8080/v1).
	URL string `json:"url,omitempty"`
	// Dims asks OpenAI-compatible servers for shorter vectors, and sets the
	// size of the hashing embedder (default 1024).
	Dims int `json:"dims,omitempty"`
	// APIKey is never stored in the index; default $ORACULO_EMBED_KEY, and
	// $OPENAI_API_KEY for api.openai.com.
	APIKey string `json:"-"`
}

// IsSet reports whether the config names a provider other than none.
func (c EmbedderConfig) IsSet() bool { return c.Provider != "" && c.Provider != ProviderNone }

// EmbedderConfigFromEnv reads ORACULO_EMBEDDER, ORACULO_EMBED_MODEL,
// ORACULO_EMBED_URL and ORACULO_EMBED_DIMS.
func EmbedderConfigFromEnv() EmbedderConfig {
	c := EmbedderConfig{
		Provider: strings.ToLower(os.Getenv("ORACULO_EMBEDDER")),
		Model:    os.Getenv("ORACULO_EMBED_MODEL"),
		URL:      os.Getenv("ORACULO_EMBED_URL"),
	}
	c.Dims, _ = strconv.Atoi(os.Getenv("ORACULO_EMBED_DIMS"))
	return c
}

// apiKey is the key to send to url: the explicit one, else $envVar, else
// $OPENAI_API_KEY when url is OpenAI's own (never sent to a local server).
func apiKey(explicit, envVar, url string) string {
	if explicit != "" {
		return explicit
	}
	if k := os.Getenv(envVar); k != "" {
		return k
	}
	if strings.Contains(url, "api.openai.com") {
		return os.Getenv("OPENAI_API_KEY")
	}
	return ""
}

// NewEmbedder builds the embedder a config names; nil for "none".
func NewEmbedder(c EmbedderConfig) (embed.Embedder, error) {
	key := apiKey(c.APIKey, "ORACULO_EMBED_KEY", c.URL)
	switch strings.ToLower(c.Provider) {
	case "", ProviderNone:
		return nil, nil
	case ProviderOllama:
		return embed.NewOllama(embed.OllamaConfig{BaseURL: c.URL, Model: c.Model, KeepAlive: "30m"}), nil
	case ProviderOpenAI:
		if c.URL == "" {
			return nil, errors.New("the openai embedder needs a base URL (--embed-url or $ORACULO_EMBED_URL), e.g. http://127.0.0.1:8080/v1")
		}
		if c.Model == "" {
			return nil, errors.New("the openai embedder needs a model name (--embed-model or $ORACULO_EMBED_MODEL)")
		}
		return embed.NewOpenAI(embed.OpenAIConfig{BaseURL: c.URL, Model: c.Model, APIKey: key, Dimensions: c.Dims}), nil
	case ProviderHashing:
		dims := c.Dims
		if dims == 0 {
			dims = embed.DefaultHashingTermsDims
		}
		return embed.NewHashing(dims), nil
	}
	return nil, fmt.Errorf("unknown embedder %q (ollama, openai, hashing or none)", c.Provider)
}

// setEmbedder makes the dense path use cfg (see [WithEmbedder]).
func (e *Engine) setEmbedder(ctx context.Context, cfg EmbedderConfig) error {
	if cfg.Provider == "" {
		stored, err := e.storedEmbedderConfig(ctx)
		if err != nil {
			return err
		}
		stored.APIKey = cfg.APIKey
		cfg = stored
	}
	em, err := NewEmbedder(cfg)
	if err != nil {
		return err
	}
	e.mu.Lock()
	if h, ok := em.(*embed.Hashing); ok && cfg.Model != "v1" {
		// The hashing embedder reads the notes through their analyzer
		// (v2); model "v1" keeps the plain-words variant.
		em = embed.NewHashingTerms(h.Dims(), e.analyzer.Version(), e.analyzer.Terms)
	}
	e.embedCfg, e.embedder = cfg, em
	e.mu.Unlock()
	e.invalidate()
	return nil
}

// Embedder returns the embedder in use, or nil.
func (e *Engine) Embedder() embed.Embedder {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.embedder
}

func (e *Engine) storedEmbedderConfig(ctx context.Context) (EmbedderConfig, error) {
	var c EmbedderConfig
	for key, dst := range map[string]*string{"embed_provider": &c.Provider, "embed_model": &c.Model, "embed_url": &c.URL} {
		v, err := e.idx.Meta(ctx, key)
		if err != nil {
			return c, err
		}
		*dst = v
	}
	if v, err := e.idx.Meta(ctx, "embed_dims"); err != nil {
		return c, err
	} else if v != "" {
		c.Dims, _ = strconv.Atoi(v)
	}
	return c, nil
}

func (e *Engine) saveEmbedderConfig(ctx context.Context, c EmbedderConfig) error {
	for k, v := range map[string]string{"embed_provider": c.Provider, "embed_model": c.Model, "embed_url": c.URL, "embed_dims": strconv.Itoa(c.Dims)} {
		if err := e.idx.SetMeta(ctx, k, v); err != nil {
			return err
		}
	}
	return nil
}

// denseState is the loaded vector index of the embedder in use, or the
// store that searches the vectors itself.
type denseState struct {
	model string
	// store searches the vectors itself ([store.VectorSearcher]): nothing
	// below is loaded but exactly, and that only for VectorsExact.
	store   store.VectorSearcher
	exactly lazy[*vector.Exact]
	vectors *store.Vectors
	exact   *vector.Exact
	search  vector.Searcher
	missing int
	// gone counts the graph's tombstones: vectors of chunks that no
	// longer exist (see updateGraph).
	gone int
	// graph is the HNSW graph built for VectorsApprox when search scans
	// exactly.
	graph lazy[*vector.HNSW]
}

// buildHNSW builds an approximate graph over the loaded vectors.
func (st *denseState) buildHNSW() (*vector.HNSW, error) {
	v := st.vectors
	h := vector.NewHNSW(v.Dims, vector.HNSWOptions{})
	rows := make([][]float32, len(v.IDs))
	for i := range v.IDs {
		rows[i] = v.Data[i*v.Dims : (i+1)*v.Dims]
	}
	if err := h.AddBatch(v.IDs, rows); err != nil {
		return nil, fmt.Errorf("building the vector graph: %w", err)
	}
	return h, nil
}

// searchVectors makes the dense path among paths find neighbours as mode
// says (see [VectorSearch]).
func (e *Engine) searchVectors(ctx context.Context, paths []retrieve.Path, mode VectorSearch) error {
	if mode != VectorsExact && mode != VectorsApprox {
		return fmt.Errorf("unknown vector search mode %d", mode)
	}
	for i, p := range paths {
		d, ok := p.(retrieve.Dense)
		if !ok {
			continue
		}
		st, err := e.denseIndex(ctx)
		if err != nil || st == nil {
			return err
		}
		if st.store != nil {
			// The store's own index is the approximate search; the exact
			// one scans the vectors here, to measure what it misses.
			if mode == VectorsExact {
				if paths[i], err = e.exactDense(ctx, st, d); err != nil {
					return err
				}
			}
			continue
		}
		if mode == VectorsExact {
			d.Searcher = st.exact
		} else if d.Searcher, err = e.approxVectors(ctx, st); err != nil {
			return err
		}
		paths[i] = d
	}
	return nil
}

// exactDense returns d scanning every vector exactly on a store that
// searches its vectors itself, with the visibility and the filter the
// store's query applies as the scan's Exclude and Allow. The vectors are
// loaded on first use and kept with the view: for VectorsExact only,
// never for a search that does not ask for it.
func (e *Engine) exactDense(ctx context.Context, st *denseState, d retrieve.Dense) (retrieve.Dense, error) {
	ex, _, err := st.exactly.get(func() (*vector.Exact, error) {
		vs, _, err := e.idx.LoadVectors(ctx, st.model)
		if err != nil {
			return nil, err
		}
		if len(vs.IDs) == 0 {
			return nil, fmt.Errorf("loading vectors of %q: no chunk has one", st.model)
		}
		return vector.NewExactFromMatrix(vs.Dims, vs.IDs, vs.Data)
	})
	if err != nil {
		return d, err
	}
	if !d.Filter.IsZero() {
		if d.Allow, err = e.idx.FilterChunks(ctx, d.Filter); err != nil {
			return d, err
		}
	}
	if d.Public {
		v, err := e.snapshot(ctx)
		if err != nil {
			return d, err
		}
		if d.Exclude, err = e.restrictedOf(ctx, v); err != nil {
			return d, err
		}
	}
	d.Store, d.Searcher = nil, ex
	return d, nil
}

// approxVectors returns the HNSW graph search walks or, while search
// scans exactly, one built on first use and kept with the vectors.
func (e *Engine) approxVectors(ctx context.Context, st *denseState) (*vector.HNSW, error) {
	if h, ok := st.search.(*vector.HNSW); ok {
		return h, nil
	}
	h, _, err := st.graph.get(func() (*vector.HNSW, error) { return interruptible.Run(ctx, st.buildHNSW) })
	return h, err
}

// denseIndex returns the dense path's state for the current view: the
// vectors of its embedder, loaded once (nil when there is no embedder or
// no vector for it).
func (e *Engine) denseIndex(ctx context.Context) (*denseState, error) {
	v, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return e.denseOf(ctx, v)
}

// loadDense loads the vectors of em (nil when em is nil or has none),
// unless the store searches them itself ([store.VectorSearcher]). Below
// the ANN threshold they are read and scanned exactly. At or above
// it, the graph that ingest built and stored is loaded instead, and the
// exact scan shares the graph's own copy of the vectors: one copy in
// memory, and no vector read from the index's rows. When that graph is
// missing or out of date, the vectors are read and scanned exactly, and a
// warning says so. Warnings are returned, not given: the caller gives
// them outside its locks (or drops them).
func (e *Engine) loadDense(ctx context.Context, em embed.Embedder) (*denseState, []string, error) {
	if em == nil {
		return nil, nil, nil
	}
	model := em.ID()
	if vs, ok := e.idx.(store.VectorSearcher); ok {
		// The store searches its vectors itself: none is read here, and
		// nothing is loaded but a count saying whether there are any.
		counts, err := e.idx.EmbeddingCounts(ctx)
		if err != nil || counts[model] == 0 {
			return nil, nil, err
		}
		return &denseState{model: model, store: vs}, nil, nil
	}
	// One read of the ids that have a vector: how many decides between
	// the graph and the exact scan, and the graph must hold them all.
	ids, missing, err := e.idx.VectorIDs(ctx, model)
	if err != nil || len(ids) == 0 {
		return nil, nil, err
	}
	var warnings []string
	if len(ids) >= e.annThreshold() {
		st, warned, err := e.loadGraph(ctx, model, ids, missing)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, warned...)
		if st != nil {
			if st.missing > 0 {
				warnings = append(warnings, missingWarning(st.missing, model))
			}
			return st, warnings, nil
		}
		warnings = append(warnings, fmt.Sprintf("the vector graph of %q is missing or out of date: searching exactly until the next oraculo ingest rebuilds it", model))
	}
	vs, missing, err := e.idx.LoadVectors(ctx, model)
	if err != nil || len(vs.IDs) == 0 {
		return nil, nil, err
	}
	ex, err := vector.NewExactFromMatrix(vs.Dims, vs.IDs, vs.Data)
	if err != nil {
		return nil, nil, fmt.Errorf("loading vectors of %q: %w", vs.Model, err)
	}
	if missing > 0 {
		warnings = append(warnings, missingWarning(missing, model))
	}
	return &denseState{model: vs.Model, vectors: vs, exact: ex, search: ex, missing: missing}, warnings, nil
}

func missingWarning(missing int, model string) string {
	return fmt.Sprintf("%d chunks have no vector for %q yet: run oraculo ingest to embed them", missing, model)
}

// loadGraph loads the stored graph of model when it holds every chunk that
// has a vector now (ids) and at most maxTombstones others (nil otherwise), with
// an exact index over the graph's own vectors. A store that keeps its
// graphs in files maps them ([store.GraphMapper]): nothing is copied, the
// pages are read as searches touch them and shared between processes.
// When that fails the graph is decoded into memory, and a warning says why.
func (e *Engine) loadGraph(ctx context.Context, model string, ids []int64, missing int) (*denseState, []string, error) {
	h, warning, err := e.storedGraph(ctx, model)
	if err != nil || h == nil {
		return nil, nil, err
	}
	var warnings []string
	if warning != "" {
		warnings = append(warnings, warning)
	}
	if !graphHolds(h, ids) {
		return nil, nil, nil
	}
	gids, data := h.Matrix()
	vs := &store.Vectors{Model: model, Dims: h.Dims(), IDs: gids, Data: data}
	return &denseState{model: model, vectors: vs, exact: h.Exact(), search: h, missing: missing, gone: len(gids) - len(ids)}, warnings, nil
}

// storedGraph returns the stored graph of model (nil when there is none
// or it cannot be read), mapped from its file when the store keeps one
// ([store.GraphMapper]), else decoded into memory; warning says why a
// graph that should have been mapped was read instead.
func (e *Engine) storedGraph(ctx context.Context, model string) (h *vector.HNSW, warning string, err error) {
	graphs, ok := e.idx.(store.GraphStore)
	if !ok {
		return nil, "", nil
	}
	if m, ok := e.idx.(store.GraphMapper); ok {
		h, err := m.MapGraph(ctx, model)
		if err == nil {
			return h, "", nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		warning = fmt.Sprintf("%v: reading it into memory instead", err)
	}
	r, err := graphs.GraphReader(ctx, model)
	if err != nil || r == nil {
		return nil, warning, err
	}
	defer r.Close()
	if h, err = vector.LoadHNSW(r); err != nil {
		return nil, warning, nil
	}
	return h, warning, nil
}

// graphSignature names the chunks a graph holds: the store's
// [store.Catalog.ChunksVersion] when they were read, and their ids.
func graphSignature(version string, ids []int64) string {
	return version + " " + idsSignature(ids)
}

// idsSignature names a set of chunk ids (given in order): their count and
// an FNV-1a hash of them.
func idsSignature(ids []int64) string {
	h := fnv.New64a()
	var b [8]byte
	for _, id := range ids {
		binary.LittleEndian.PutUint64(b[:], uint64(id))
		h.Write(b[:])
	}
	return fmt.Sprintf("%d:%x", len(ids), h.Sum64())
}

// maxTombstones is how many chunks a graph may hold that no longer have
// a vector (removed or edited notes' old chunks, which a search drops as
// it reads them): a tenth of those that do; past it, ingest builds anew.
func maxTombstones(live int) int { return max(live/10, 1) }

// updateGraph adds to the stored graph the chunks that gained a vector
// since it was built, when the change is small: added chunks and
// tombstones together at most maxTombstones, and every chunk the graph
// holds still has the vector it was built with. It returns nil when the
// graph must be built anew. At 30k chunks an edited note rebuilt the whole
// graph (half a minute).
func (e *Engine) updateGraph(ctx context.Context, model string, vs *store.Vectors) (h *vector.HNSW, added bool, err error) {
	// Mapped when the store keeps a file: compared in place, copied only
	// if it is to be added to.
	if h, _, err = e.storedGraph(ctx, model); err != nil || h == nil {
		return nil, false, err // none, or unreadable: built anew
	}
	if h.Dims() != vs.Dims {
		return nil, false, nil // another size: built anew
	}
	d := vs.Dims
	gids, gdata := h.Matrix()
	pos := make(map[int64]int, len(gids))
	for i, id := range gids {
		pos[id] = i
	}
	var addIDs []int64
	var addRows [][]float32
	for i, id := range vs.IDs {
		row := vs.Data[i*d : (i+1)*d]
		if j, ok := pos[id]; ok {
			if !slices.Equal(row, gdata[j*d:(j+1)*d]) {
				return nil, false, nil // an id now names another vector
			}
			continue
		}
		addIDs, addRows = append(addIDs, id), append(addRows, row)
	}
	tombstones := len(gids) - (len(vs.IDs) - len(addIDs))
	if len(addIDs)+tombstones > maxTombstones(len(vs.IDs)) {
		return nil, false, nil
	}
	if len(addIDs) == 0 { // only removals: the stored graph stands
		return h, false, nil
	}
	h = h.Clone()
	if _, err := interruptible.Run(ctx, func() (struct{}, error) { return struct{}{}, h.AddBatch(addIDs, addRows) }); err != nil {
		return nil, false, err
	}
	return h, true, nil
}

// graphHolds reports whether a graph holds every given id, and at most
// maxTombstones others.
func graphHolds(h *vector.HNSW, ids []int64) bool {
	if h.Len() < len(ids) || h.Len()-len(ids) > maxTombstones(len(ids)) {
		return false
	}
	for _, id := range ids {
		if !h.Contains(id) {
			return false
		}
	}
	return true
}

// annThreshold is the number of vectors from which search uses the graph.
func (e *Engine) annThreshold() int {
	if e.annMin > 0 {
		return e.annMin
	}
	return vector.DefaultThreshold
}

// buildGraph stores a fresh vector graph when the index is large enough
// for search to use one, and drops a stored graph when it is not. A store
// that searches its vectors itself indexes them as they are written, and
// one that keeps no graph ([store.GraphStore]) is scanned: no graph is
// built for either.
func (e *Engine) buildGraph(ctx context.Context, progress func(done, total int)) error {
	graphs, keeps := e.idx.(store.GraphStore)
	if _, ok := e.idx.(store.VectorSearcher); ok || !keeps {
		return nil
	}
	em := e.Embedder()
	model := em.ID()
	// Below the threshold a count decides: no need to load the vectors.
	rows, err := e.idx.VectorRows(ctx, model)
	if err != nil {
		return err
	}
	sigKey := "graph_ids/" + model
	if rows < e.annThreshold() {
		if err := e.idx.SetMeta(ctx, sigKey, ""); err != nil {
			return err
		}
		return graphs.DeleteGraph(ctx, model)
	}
	// The stored graph was built over exactly the chunks that have a
	// vector now, each with the vector it has now, when the signature
	// stored with it is that of their ids and of the chunks' version: it
	// is kept, and an unchanged re-ingest reads no vector (nor the graph).
	// The ids alone are not enough: SQLite gives the chunks of the note
	// written last, written again, the ids the old ones had. The version
	// is read first: a change after it makes the next ingest look again.
	version, err := e.idx.ChunksVersion(ctx)
	if err != nil {
		return err
	}
	ids, _, err := e.idx.VectorIDs(ctx, model)
	if err != nil {
		return err
	}
	sig := graphSignature(version, ids)
	if stored, err := e.idx.Meta(ctx, sigKey); err != nil || stored == sig {
		return err
	}
	// The stages before (notes, compendium, embedding) left freed memory
	// that the runtime keeps; the graph needs every vector at once, so
	// that memory is given back first (at 100k chunks, with LoadVectors'
	// lowered collector target, the ingest's peak went from 1.2 GB to
	// 0.85 GB: the vectors, their int8 copies and the links).
	debug.FreeOSMemory()
	vs, _, err := e.idx.LoadVectors(ctx, model)
	if err != nil || len(vs.IDs) == 0 {
		return err
	}
	if progress != nil {
		progress(0, len(vs.IDs))
	}
	h, added, err := e.updateGraph(ctx, model, vs)
	if err != nil {
		return err
	}
	built := vs.IDs
	if h == nil {
		// Built over the vectors just read, which the graph takes as its
		// own (no second copy of them); vs is not used after.
		build := func() (*vector.HNSW, error) { return vector.BuildHNSW(vs.Dims, vs.IDs, vs.Data, vector.HNSWOptions{}) }
		if h, err = interruptible.Run(ctx, build); err != nil {
			return fmt.Errorf("building the vector graph: %w", err)
		}
		vs = nil
		added = true
	}
	if added {
		if err := graphs.SaveHNSW(ctx, model, h); err != nil {
			return err
		}
	}
	// The signature of the vectors' ids read now: a chunk added since
	// makes the next ingest build again.
	if err := e.idx.SetMeta(ctx, sigKey, graphSignature(version, built)); err != nil {
		return err
	}
	if progress != nil {
		progress(len(built), len(built))
	}
	e.invalidate()
	return nil
}

// EmbedReport says what an ingest did for the dense path.
type EmbedReport = enrich.EmbedReport
