package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// PendingEmbeddings lists, once per distinct text, the chunks that have no
// vector for model yet, in a stable order.
func (ix *Index) PendingEmbeddings(ctx context.Context, model string) ([]store.EmbedJob, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT k.embed_hash, k.headings, k.text FROM chunks k
		WHERE k.embed_hash != '' AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.hash = k.embed_hash AND e.model = ?)
		GROUP BY k.embed_hash ORDER BY min(k.id)`, model)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to embed: %w", err)
	}
	defer rows.Close()
	var jobs []store.EmbedJob
	for rows.Next() {
		var j store.EmbedJob
		var headings, text string
		if err := rows.Scan(&j.Hash, &headings, &text); err != nil {
			return nil, fmt.Errorf("listing chunks to embed: %w", err)
		}
		var hs []string
		if err := jsonUnmarshalStrings(headings, &hs); err != nil {
			return nil, err
		}
		j.Text = store.EmbedText(hs, text)
		jobs = append(jobs, j)
	}
	return jobs, rows.Err()
}

// PutEmbeddings stores vectors for model in one transaction.
func (ix *Index) PutEmbeddings(ctx context.Context, model string, hashes []string, vecs [][]float32) error {
	if len(hashes) != len(vecs) {
		return fmt.Errorf("storing embeddings: %d hashes for %d vectors", len(hashes), len(vecs))
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing embeddings: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `INSERT INTO embeddings(hash, model, dims, vector, created_at) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(hash, model) DO UPDATE SET dims = excluded.dims, vector = excluded.vector, created_at = excluded.created_at`)
	if err != nil {
		return fmt.Errorf("storing embeddings: %w", err)
	}
	defer st.Close()
	now := time.Now().Unix()
	for i, v := range vecs {
		if _, err := st.ExecContext(ctx, hashes[i], model, len(v), vector.Encode(v), now); err != nil {
			return fmt.Errorf("storing embeddings: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing embeddings: %w", err)
	}
	return nil
}

// loadGCPercent is the collector's target while vectors are read.
const loadGCPercent = 10

// gcLow counts the reads of vectors under way, which share the lowered
// target (a process-wide setting): the first sets it, the last restores it.
var gcLow struct {
	sync.Mutex
	n, old int
}

// lowGC lowers the collector's target until the returned func is called.
func lowGC() (restore func()) {
	gcLow.Lock()
	if gcLow.n == 0 {
		gcLow.old = debug.SetGCPercent(loadGCPercent)
	}
	gcLow.n++
	gcLow.Unlock()
	return func() {
		gcLow.Lock()
		gcLow.n--
		if gcLow.n == 0 {
			debug.SetGCPercent(gcLow.old)
		}
		gcLow.Unlock()
	}
}

// LoadVectors reads every chunk's vector for model. Chunks without one are
// left out; Missing says how many.
func (ix *Index) LoadVectors(ctx context.Context, model string) (v *store.Vectors, missing int, err error) {
	v = &store.Vectors{Model: model}
	// One read transaction: the count that sizes the matrix and the rows
	// that fill it see the same index.
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
	}
	defer tx.Rollback()
	var n, dims int
	err = tx.QueryRowContext(ctx, `SELECT count(*), coalesce(max(e.dims), 0) FROM chunks k
		JOIN embeddings e ON e.hash = k.embed_hash AND e.model = ?`, model).Scan(&n, &dims)
	if err != nil {
		return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
	}
	// The matrix is sized up front and each row decoded in place: at 100k
	// × 1024 dimensions, growing it row by row cost seconds and several
	// times its size in memory.
	v.Dims, v.IDs, v.Data = dims, make([]int64, 0, n), make([]float32, n*dims)
	// Each row's blob arrives as a fresh copy from the driver: garbage as
	// large as the matrix, which the collector, aiming at twice the live
	// heap, let pile up (100k × 1,024: 800 MB resident for 410 MB of
	// vectors). Collected often while reading, it stays small.
	defer lowGC()()
	rows, err := tx.QueryContext(ctx, `SELECT k.id, e.dims, e.vector FROM chunks k
		JOIN embeddings e ON e.hash = k.embed_hash AND e.model = ? ORDER BY k.id`, model)
	if err != nil {
		return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var d int
		var blob sql.RawBytes
		if err := rows.Scan(&id, &d, &blob); err != nil {
			return nil, 0, fmt.Errorf("loading vectors of %q: %w", model, err)
		}
		i := len(v.IDs)
		if d != dims || i >= n {
			return nil, 0, fmt.Errorf("loading vectors of %q: chunk %d has %d dimensions, others %d", model, id, d, dims)
		}
		if err := vector.DecodeInto(v.Data[i*dims:(i+1)*dims], blob); err != nil {
			return nil, 0, fmt.Errorf("loading vectors of %q: chunk %d: %w", model, id, err)
		}
		v.IDs = append(v.IDs, id)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	v.Data = v.Data[:len(v.IDs)*dims]
	if len(v.IDs) == 0 {
		v.Dims, v.Data = 0, nil
	}
	if missing, err = missingVectors(ctx, tx, model); err != nil {
		return nil, 0, err
	}
	return v, missing, nil
}

// EachVector calls fn with every chunk's vector for model, in id order
// (the rows LoadVectors returns), one at a time: v is reused for the next
// row, so fn must not keep it. It stops at, and returns, fn's first
// error. A graph built from them holds one vector at a time, not all of
// them (at 1M chunks of 1,024 dimensions, 4 GB).
func (ix *Index) EachVector(ctx context.Context, model string, fn func(id int64, v []float32) error) error {
	// Each row's blob is a fresh copy from the driver: collected often,
	// as LoadVectors does, not left to pile up beside the graph.
	defer lowGC()()
	// Read through read calls on a connection of its own, not through the
	// index's mapping (mmapPragma): mapped, the pages of every vector read
	// once stayed resident beside the graph (814 MB at 100k chunks, up to
	// the mapping's 1 GiB at 1M).
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("reading vectors of %q: %w", model, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA mmap_size = 0`); err != nil {
		return fmt.Errorf("reading vectors of %q: %w", model, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA `+mmapPragma)
	rows, err := conn.QueryContext(ctx, `SELECT k.id, e.dims, e.vector FROM chunks k
		JOIN embeddings e ON e.hash = k.embed_hash AND e.model = ? ORDER BY k.id`, model)
	if err != nil {
		return fmt.Errorf("reading vectors of %q: %w", model, err)
	}
	defer rows.Close()
	var v []float32
	for rows.Next() {
		var id int64
		var d int
		var blob sql.RawBytes
		if err := rows.Scan(&id, &d, &blob); err != nil {
			return fmt.Errorf("reading vectors of %q: %w", model, err)
		}
		if v == nil {
			v = make([]float32, d)
		}
		if d != len(v) {
			return fmt.Errorf("reading vectors of %q: chunk %d has %d dimensions, others %d", model, id, d, len(v))
		}
		if err := vector.DecodeInto(v, blob); err != nil {
			return fmt.Errorf("reading vectors of %q: chunk %d: %w", model, id, err)
		}
		if err := fn(id, v); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading vectors of %q: %w", model, err)
	}
	return nil
}

// VectorIDs returns, in id order, the chunks that have a vector for model
// (the rows LoadVectors would return, without reading a vector), and how
// many chunks have none.
func (ix *Index) VectorIDs(ctx context.Context, model string) (ids []int64, missing int, err error) {
	// One pass over two covering indexes, sorted here: ordered by id,
	// SQLite scans the chunks table, text and all (2-3 s at 100k chunks),
	// and counting the chunks without a vector apart walks them again
	// (issue 31, part 3).
	rows, err := ix.db.QueryContext(ctx, `SELECT k.id, e.hash IS NOT NULL FROM chunks k
		LEFT JOIN embeddings e ON e.hash = k.embed_hash AND e.model = ?`, model)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the vectors of %q: %w", model, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var has bool
		if err := rows.Scan(&id, &has); err != nil {
			return nil, 0, fmt.Errorf("listing the vectors of %q: %w", model, err)
		}
		if has {
			ids = append(ids, id)
		} else {
			missing++
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("listing the vectors of %q: %w", model, err)
	}
	slices.Sort(ids)
	return ids, missing, nil
}

// MissingVectors counts the chunks that have no vector for model.
func (ix *Index) MissingVectors(ctx context.Context, model string) (int, error) {
	return missingVectors(ctx, ix.db, model)
}

// missingVectors counts the chunks that have no vector for model.
func missingVectors(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, model string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM chunks k WHERE NOT EXISTS
		(SELECT 1 FROM embeddings e WHERE e.hash = k.embed_hash AND e.model = ?)`, model).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting chunks without vectors: %w", err)
	}
	return n, nil
}

// VectorRows counts the chunks that have a vector for model: the rows
// LoadVectors would return.
func (ix *Index) VectorRows(ctx context.Context, model string) (int, error) {
	var n int
	err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM chunks k
		JOIN embeddings e ON e.hash = k.embed_hash AND e.model = ?`, model).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting vectors of %q: %w", model, err)
	}
	return n, nil
}

// Chunks reads chunks by id, in the order given.
func (ix *Index) Chunks(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	byID, err := ix.chunksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.Chunk, 0, len(ids))
	for _, id := range ids {
		c, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("%w: chunk %d", store.ErrMissingParent, id)
		}
		out = append(out, c)
	}
	return out, nil
}

// ChunksFound returns the chunks of ids that exist, in the order of ids:
// for ids taken from an earlier read (a loaded vector matrix, a compendium)
// that an ingest may have replaced since.
func (ix *Index) ChunksFound(ctx context.Context, ids []int64) ([]store.Chunk, error) {
	byID, err := ix.chunksByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.Chunk, 0, len(ids))
	for _, id := range ids {
		if c, ok := byID[id]; ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// PruneEmbeddings deletes vectors that no chunk uses any more, of any model,
// and returns how many went.
func (ix *Index) PruneEmbeddings(ctx context.Context) (int64, error) {
	res, err := ix.db.ExecContext(ctx, `DELETE FROM embeddings WHERE hash NOT IN (SELECT embed_hash FROM chunks)`)
	if err != nil {
		return 0, fmt.Errorf("pruning embeddings: %w", err)
	}
	return res.RowsAffected()
}

// EmbeddingCounts returns how many vectors each model has.
func (ix *Index) EmbeddingCounts(ctx context.Context) (map[string]int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT model, count(*) FROM embeddings GROUP BY model`)
	if err != nil {
		return nil, fmt.Errorf("counting embeddings: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var m string
		var n int
		if err := rows.Scan(&m, &n); err != nil {
			return nil, err
		}
		out[m] = n
	}
	return out, rows.Err()
}

// GraphPart is the largest part a vector graph is stored in.
const GraphPart = 1 << 20

// SaveGraph stores the approximate vector graph of model, replacing the
// previous one in the same transaction.
func (ix *Index) SaveGraph(ctx context.Context, model string, vectors int, graph []byte) error {
	builtAt, err := ix.saveGraphParts(ctx, model, vectors, int64(len(graph)), func(off int64, p []byte) error {
		copy(p, graph[off:])
		return nil
	})
	if err != nil {
		return err
	}
	// The file searches map, written now from the same bytes (the first
	// search would otherwise write it from the parts). It is a cache: when
	// it cannot be written, that search tries again.
	keep := ""
	if len(graph) >= 16 && vector.Mappable(graph) {
		name := graphFileName(model, binary.LittleEndian.Uint32(graph[len(graph)-4:]), int64(len(graph)), builtAt)
		write := func(w io.Writer) error {
			_, err := w.Write(graph)
			return err
		}
		if _, err := ix.writeGraphFile(name, write, false); err == nil {
			keep = name
		}
	}
	ix.removeGraphFiles(model, keep)
	return nil
}

// saveGraphParts replaces the stored graph of model, of size bytes, in
// one transaction; read fills each part from byte off. It returns the
// graph's build time, which names its file.
func (ix *Index) saveGraphParts(ctx context.Context, model string, vectors int, size int64, read func(off int64, p []byte) error) (int64, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM ann_graph_parts WHERE model = ?`, model); err != nil {
		return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	buf := make([]byte, GraphPart)
	for part := int64(0); part*GraphPart < size; part++ {
		p := buf[:min(size-part*GraphPart, GraphPart)]
		if err := read(part*GraphPart, p); err != nil {
			return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ann_graph_parts(model, part, data) VALUES(?, ?, ?)`, model, part, p); err != nil {
			return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
		}
	}
	builtAt := time.Now().Unix()
	_, err = tx.ExecContext(ctx, `INSERT INTO ann_graphs(model, vectors, graph, built_at) VALUES(?, ?, x'', ?)
		ON CONFLICT(model) DO UPDATE SET vectors = excluded.vectors, graph = x'', built_at = excluded.built_at`,
		model, vectors, builtAt)
	if err != nil {
		return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	return builtAt, nil
}

// LoadGraph returns the stored graph of model, or nil when there is none.
func (ix *Index) LoadGraph(ctx context.Context, model string) ([]byte, error) {
	r, err := ix.GraphReader(ctx, model)
	if err != nil || r == nil {
		return nil, err
	}
	defer r.Close()
	graph, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return graph, nil
}

// GraphReader streams the stored graph of model, part by part, from one
// state of the index (nil when there is none): the caller decodes it
// without holding it whole. Close ends the read.
func (ix *Index) GraphReader(ctx context.Context, model string) (io.ReadCloser, error) {
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("reading the vector graph of %q: %w", model, err)
	}
	var parts int
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM ann_graph_parts WHERE model = ?`, model).Scan(&parts)
	if err != nil || parts == 0 {
		tx.Rollback()
		if err != nil {
			return nil, fmt.Errorf("reading the vector graph of %q: %w", model, err)
		}
		return nil, nil
	}
	return &graphReader{ctx: ctx, tx: tx, model: model, parts: parts}, nil
}

type graphReader struct {
	ctx         context.Context
	tx          *sql.Tx
	model       string
	part, parts int
	buf         []byte
}

func (r *graphReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.part >= r.parts {
			return 0, io.EOF
		}
		err := r.tx.QueryRowContext(r.ctx, `SELECT data FROM ann_graph_parts WHERE model = ? AND part = ?`, r.model, r.part).Scan(&r.buf)
		if err != nil {
			return 0, fmt.Errorf("reading part %d of the vector graph of %q: %w", r.part, r.model, err)
		}
		r.part++
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *graphReader) Close() error { return r.tx.Rollback() }

// DeleteGraph removes the stored graph of model.
func (ix *Index) DeleteGraph(ctx context.Context, model string) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("removing the vector graph of %q: %w", model, err)
	}
	defer tx.Rollback()
	for _, q := range []string{`DELETE FROM ann_graph_parts WHERE model = ?`, `DELETE FROM ann_graphs WHERE model = ?`} {
		if _, err := tx.ExecContext(ctx, q, model); err != nil {
			return fmt.Errorf("removing the vector graph of %q: %w", model, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("removing the vector graph of %q: %w", model, err)
	}
	ix.removeGraphFiles(model, "")
	return nil
}
