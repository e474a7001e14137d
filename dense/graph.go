package dense

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"runtime/debug"
	"slices"

	"github.com/oraculo/oraculo/internal/interruptible"
	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

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

// updateGraph adds to the stored graph the chunks that gained a vector
// since it was built, when the change is small: added chunks and
// tombstones together at most maxTombstones, and every chunk the graph
// holds still has the vector it was built with. It returns nil when the
// graph must be built anew. At 30k chunks an edited note rebuilt the whole
// graph (half a minute).
func updateGraph(ctx context.Context, st Store, model string, vs *store.Vectors) (h *vector.HNSW, added bool, err error) {
	// Mapped when the store keeps a file: compared in place, copied only
	// if it is to be added to.
	if h, _, err = storedGraph(ctx, st, model); err != nil || h == nil {
		return nil, false, err // none, or unreadable: built anew
	}
	if h.Dims() != vs.Dims {
		return nil, false, nil // another size: built anew
	}
	addIDs, addRows, same := newRows(h, vs)
	if !same {
		return nil, false, nil // an id now names another vector
	}
	tombstones := h.Len() - (len(vs.IDs) - len(addIDs))
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

// newRows returns the vectors of vs that graph h does not hold; same is
// false when a chunk h holds has another vector in vs than in h.
func newRows(h *vector.HNSW, vs *store.Vectors) (ids []int64, rows [][]float32, same bool) {
	d := vs.Dims
	gids, gdata := h.Matrix()
	pos := make(map[int64]int, len(gids))
	for i, id := range gids {
		pos[id] = i
	}
	for i, id := range vs.IDs {
		row := vs.Data[i*d : (i+1)*d]
		if j, ok := pos[id]; ok {
			if !slices.Equal(row, gdata[j*d:(j+1)*d]) {
				return nil, nil, false
			}
			continue
		}
		ids, rows = append(ids, id), append(rows, row)
	}
	return ids, rows, true
}

// updateOrBuild adds vs to the stored graph of model when few changed
// (see updateGraph), else builds a graph anew over vs, which the graph
// takes as its own (no second copy of them): vs is not to be used after.
// added reports whether the graph differs from the stored one.
func updateOrBuild(ctx context.Context, st Store, model string, vs *store.Vectors) (h *vector.HNSW, added bool, err error) {
	if h, added, err = updateGraph(ctx, st, model, vs); err != nil || h != nil {
		return h, added, err
	}
	build := func() (*vector.HNSW, error) { return vector.BuildHNSW(vs.Dims, vs.IDs, vs.Data, vector.HNSWOptions{}) }
	if h, err = interruptible.Run(ctx, build); err != nil {
		return nil, false, fmt.Errorf("building the vector graph: %w", err)
	}
	return h, true, nil
}

// Build stores a fresh vector graph of model when the store is large
// enough for search to use one, and drops a stored graph when it is not.
// A store that searches its vectors itself indexes them as they are
// written, and one that keeps no graph ([store.GraphStore]) is scanned:
// no graph is built for either. built reports whether a graph was
// stored or found up to date after reading the vectors: a dense index
// loaded before is then out of date. progress, when set, hears how many
// vectors the graph holds.
func Build(ctx context.Context, st Store, model string, opts Options, progress func(done, total int)) (built bool, err error) {
	graphs, keeps := st.(store.GraphStore)
	if _, ok := st.(store.VectorSearcher); ok || !keeps {
		return false, nil
	}
	// Below the threshold a count decides: no need to load the vectors.
	rows, err := st.VectorRows(ctx, model)
	if err != nil {
		return false, err
	}
	sigKey := "graph_ids/" + model
	if rows < opts.ANNThreshold() {
		if err := st.SetMeta(ctx, sigKey, ""); err != nil {
			return false, err
		}
		return false, graphs.DeleteGraph(ctx, model)
	}
	// The stored graph was built over exactly the chunks that have a
	// vector now, each with the vector it has now, when the signature
	// stored with it is that of their ids and of the chunks' version: it
	// is kept, and an unchanged re-ingest reads no vector (nor the graph).
	// The ids alone are not enough: SQLite gives the chunks of the note
	// written last, written again, the ids the old ones had. The version
	// is read first: a change after it makes the next ingest look again.
	version, err := st.ChunksVersion(ctx)
	if err != nil {
		return false, err
	}
	ids, _, err := st.VectorIDs(ctx, model)
	if err != nil {
		return false, err
	}
	if stored, err := st.Meta(ctx, sigKey); err != nil || stored == graphSignature(version, ids) {
		return false, err
	}
	return rebuild(ctx, st, graphs, model, version, ids, progress)
}

// rebuild builds or updates the graph of model (see buildGraph) and
// stores the signature of the chunks it holds (see [Build]). ids are the
// chunks that have a vector, read before.
func rebuild(ctx context.Context, st Store, graphs store.GraphStore, model, version string, ids []int64, progress func(done, total int)) (bool, error) {
	// The stages before (notes, compendium, embedding) left freed memory
	// that the runtime keeps: given back before the graph's.
	debug.FreeOSMemory()
	if progress != nil {
		progress(0, len(ids))
	}
	built, err := buildGraph(ctx, st, graphs, model, ids)
	if err != nil || len(built) == 0 {
		return false, err
	}
	// The signature of the vectors' ids read now: a chunk added since
	// makes the next ingest build again.
	if err := st.SetMeta(ctx, "graph_ids/"+model, graphSignature(version, built)); err != nil {
		return false, err
	}
	if progress != nil {
		progress(len(built), len(built))
	}
	return true, nil
}

// buildGraph stores a graph of model over the vectors of the chunks
// (about ids) and returns the ids it holds. A store that streams its
// vectors ([vectorStreamer]) has a graph built anew from them one at a
// time, holding their codes only, unless few changed since the stored
// graph (see updateGraph), and the choice of how to search it stored
// (see streamBuild). Otherwise every vector is read at once, added to
// the stored graph or built anew over (see updateOrBuild).
func buildGraph(ctx context.Context, st Store, graphs store.GraphStore, model string, ids []int64) ([]int64, error) {
	if vs, ok := st.(vectorStreamer); ok && !fewChanged(ctx, st, model, ids) {
		built, mode, err := streamBuild(ctx, st, vs, model, len(ids))
		if err != nil || mode == "" {
			return built, err
		}
		return built, st.SetMeta(ctx, searchKey(model), mode)
	}
	vs, _, err := st.LoadVectors(ctx, model)
	if err != nil || len(vs.IDs) == 0 {
		return nil, err
	}
	built := vs.IDs
	h, added, err := updateOrBuild(ctx, st, model, vs)
	if err != nil {
		return nil, err
	}
	if added {
		if err := graphs.SaveHNSW(ctx, model, h); err != nil {
			return nil, err
		}
	}
	return built, nil
}

// fewChanged reports whether the stored graph of model might be added to
// rather than built anew (see updateGraph): it holds all but at most
// maxTombstones of ids, counting as many those it holds that ids lacks.
func fewChanged(ctx context.Context, st Store, model string, ids []int64) bool {
	h, _, err := storedGraph(ctx, st, model)
	if err != nil || h == nil {
		return false
	}
	held := 0
	for _, id := range ids {
		if h.Contains(id) {
			held++
		}
	}
	return (len(ids)-held)+(h.Len()-held) <= maxTombstones(len(ids))
}
