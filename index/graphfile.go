package index

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/oraculo/oraculo/vector"
)

// The vector graph of a model is stored in the index (ann_graph_parts, the
// copy that counts: crash-safe with the rest, copied with the file) and,
// as a cache, in a file beside it that searches map into memory instead of
// decoding the parts: "<index>.graphs/<model hash>-<generation>.hnsw". The
// generation names one stored graph (its checksum, size and build time),
// so a file is never used for a graph it was not written from; a missing
// or damaged file is written again from the parts.

// GraphDir is the folder beside the index file that holds its graph files.
func (ix *Index) GraphDir() string { return ix.path + ".graphs" }

// graphPrefix starts the names of the graph files of model.
func graphPrefix(model string) string {
	sum := sha256.Sum256([]byte(model))
	return hex.EncodeToString(sum[:8]) + "-"
}

// graphFileName names the file of model's graph of one generation.
func graphFileName(model string, crc uint32, size, builtAt int64) string {
	return fmt.Sprintf("%s%08x-%x-%x.hnsw", graphPrefix(model), crc, size, builtAt)
}

// graphGeneration returns the file name of model's stored graph, read in
// tx ("" when there is none), and whether it is in the mappable format.
func graphGeneration(ctx context.Context, tx *sql.Tx, model string) (name string, mappable bool, err error) {
	var builtAt, size int64
	err = tx.QueryRowContext(ctx, `SELECT built_at, (SELECT coalesce(sum(length(data)), 0) FROM ann_graph_parts p WHERE p.model = g.model)
		FROM ann_graphs g WHERE g.model = ?`, model).Scan(&builtAt, &size)
	if errors.Is(err, sql.ErrNoRows) || err == nil && size < 16 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	var head, tail []byte
	err = tx.QueryRowContext(ctx, `SELECT substr(data, 1, 12) FROM ann_graph_parts WHERE model = ? ORDER BY part LIMIT 1`, model).Scan(&head)
	if err != nil {
		return "", false, err
	}
	err = tx.QueryRowContext(ctx, `SELECT substr(data, -4) FROM ann_graph_parts WHERE model = ? ORDER BY part DESC LIMIT 1`, model).Scan(&tail)
	if err != nil {
		return "", false, err
	}
	if len(tail) != 4 {
		return "", false, nil
	}
	return graphFileName(model, binary.LittleEndian.Uint32(tail), size, builtAt), vector.Mappable(head), nil
}

// MapGraph returns the stored graph of model mapped from its file beside
// the index (see [vector.MapHNSW]), writing the file first from the index
// when it is missing, out of date or damaged; nil when there is no stored
// graph. An error means the file could not be written or mapped (a
// read-only folder, a full disk): the graph can still be read with
// GraphReader.
func (ix *Index) MapGraph(ctx context.Context, model string) (*vector.HNSW, error) {
	tx, err := ix.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("mapping the vector graph of %q: %w", model, err)
	}
	defer tx.Rollback()
	name, mappable, err := graphGeneration(ctx, tx, model)
	if err != nil || name == "" {
		if err != nil {
			err = fmt.Errorf("mapping the vector graph of %q: %w", model, err)
		}
		return nil, err
	}
	path := filepath.Join(ix.GraphDir(), name)
	h, err := vector.MapHNSW(path, false)
	if err == nil {
		return h, nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, vector.ErrCorrupt) {
		return nil, fmt.Errorf("mapping the vector graph of %q: %w", model, err)
	}
	// Written again from the parts, read in the same transaction as the
	// name, so the file is the generation it is named after.
	r := &graphReader{ctx: ctx, tx: tx, model: model}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM ann_graph_parts WHERE model = ?`, model).Scan(&r.parts); err != nil {
		return nil, fmt.Errorf("mapping the vector graph of %q: %w", model, err)
	}
	write := func(w io.Writer) error {
		_, err := io.Copy(w, r)
		return err
	}
	if !mappable { // an older format: decoded, then saved in the new one
		write = func(w io.Writer) error {
			g, err := vector.LoadHNSW(r)
			if err != nil {
				return err
			}
			return g.Save(w)
		}
	}
	h, err = ix.writeGraphFile(name, write, true)
	if err != nil {
		return nil, fmt.Errorf("mapping the vector graph of %q: %w", model, err)
	}
	return h, nil
}

// writeGraphFile writes the graph file name with write through a synced
// temporary file, maps it (checking it whole when verify) and renames it
// into place: a file under its final name is always whole.
func (ix *Index) writeGraphFile(name string, write func(io.Writer) error, verify bool) (*vector.HNSW, error) {
	dir := ix.GraphDir()
	f, err := ix.createGraphTemp()
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	h, err := vector.MapHNSW(tmp, verify)
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return nil, err
	}
	return h, nil
}

// removeGraphFiles removes the graph files of model but keep.
func (ix *Index) removeGraphFiles(model, keep string) {
	dir := ix.GraphDir()
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := graphPrefix(model)
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, prefix) && n != keep:
			os.Remove(filepath.Join(dir, n))
		case strings.HasPrefix(n, ".tmp-"):
			// Left by a process killed while writing; one still writing
			// would have touched it within the hour.
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(dir, n))
			}
		}
	}
	os.Remove(dir) // only when empty
}

// SaveHNSW stores g as the graph of model. It is written once, to its file
// beside the index, and the index's copy is filled from that file: no
// second copy of the graph (as large as every vector) is held in memory.
// Where the file cannot be written, it is saved through memory as
// SaveGraph does.
func (ix *Index) SaveHNSW(ctx context.Context, model string, g *vector.HNSW) error {
	return ix.SaveHNSWRows(ctx, model, g, nil)
}

// SaveHNSWRows stores g as SaveHNSW does; of a graph built from codes
// ([vector.BuildHNSWCodes]), with its vectors read from rows
// ([vector.HNSW.SaveRows]), as they are written to the file: the vectors
// are never all in memory.
func (ix *Index) SaveHNSWRows(ctx context.Context, model string, g *vector.HNSW, rows vector.Rows) error {
	f, err := ix.createGraphTemp()
	if err != nil {
		var buf bytes.Buffer
		buf.Grow(g.SavedSize())
		if err := g.SaveRows(&buf, rows); err != nil {
			return fmt.Errorf("storing the vector graph of %q: %w", model, err)
		}
		return ix.SaveGraph(ctx, model, g.Len(), buf.Bytes())
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	err = g.SaveRows(bw, rows)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	size := int64(g.SavedSize())
	var tail [4]byte
	if _, err := f.ReadAt(tail[:], size-4); err != nil {
		return fmt.Errorf("storing the vector graph of %q: %w", model, err)
	}
	builtAt, err := ix.saveGraphParts(ctx, model, g.Len(), size, func(off int64, p []byte) error {
		_, err := f.ReadAt(p, off)
		return err
	})
	if err != nil {
		return err
	}
	name := graphFileName(model, binary.LittleEndian.Uint32(tail[:]), size, builtAt)
	keep := ""
	if err := os.Rename(tmp, filepath.Join(ix.GraphDir(), name)); err == nil {
		keep = name
	}
	ix.removeGraphFiles(model, keep)
	return nil
}

// createGraphTemp creates a temporary graph file in the graph folder,
// readable as the index is.
func (ix *Index) createGraphTemp() (*os.File, error) {
	dir := ix.GraphDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".tmp-*.hnsw")
	if err != nil {
		return nil, err
	}
	// The graph holds what the notes say (their vectors): the file is
	// readable by whoever may read the index, no one else.
	if fi, err := os.Stat(ix.path); err == nil {
		if err := f.Chmod(fi.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
	}
	return f, nil
}
