package index

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/oraculo/oraculo/store"
)

// migrateChunkUIDs gives every chunk its id relative to the notes folder
// (store.ChunkUID), keeping the id it had in chunk_aliases, and rewrites
// the memory sources that name a chunk by its old id. Two folders holding
// the same note: the chunk stored first keeps the plain id, the other
// gets store.ChunkUIDIn, as an ingest would give it.
func migrateChunkUIDs(ctx context.Context, tx *sql.Tx) error {
	type change struct {
		id       int64
		old, uid string
	}
	var changes []change
	taken := map[string]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT k.id, k.uid, d.root, d.path, k.ordinal, k.text
		FROM chunks k JOIN documents d ON d.id = k.doc_id ORDER BY k.id`)
	if err != nil {
		return fmt.Errorf("reading chunk ids: %w", err)
	}
	for rows.Next() {
		var c change
		var root, path, text string
		var ordinal int
		if err := rows.Scan(&c.id, &c.old, &root, &path, &ordinal, &text); err != nil {
			rows.Close()
			return fmt.Errorf("reading chunk ids: %w", err)
		}
		c.uid = store.ChunkUID(path, ordinal, text)
		if taken[c.uid] {
			c.uid = store.ChunkUIDIn(root, c.uid)
		}
		taken[c.uid] = true
		changes = append(changes, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading chunk ids: %w", err)
	}
	setUID, err := tx.PrepareContext(ctx, `UPDATE chunks SET uid = ? WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("changing chunk ids: %w", err)
	}
	defer setUID.Close()
	alias, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO chunk_aliases(old, uid) VALUES(?, ?)`)
	if err != nil {
		return fmt.Errorf("changing chunk ids: %w", err)
	}
	defer alias.Close()
	renamed := make(map[string]string, len(changes))
	// A new id equal to the old id of a chunk not yet changed (a chance
	// of 1 in 2^64 a pair) moves that chunk aside, to an id no chunk can
	// hold, until its turn. Rows are changed once: each holds its text.
	aside, err := tx.PrepareContext(ctx, `UPDATE chunks SET uid = '#' || id WHERE uid = ? AND id != ?`)
	if err != nil {
		return fmt.Errorf("changing chunk ids: %w", err)
	}
	defer aside.Close()
	old := make(map[string]bool, len(changes))
	for _, c := range changes {
		old[c.old] = true
	}
	for _, c := range changes {
		if old[c.uid] && c.uid != c.old {
			if _, err := aside.ExecContext(ctx, c.uid, c.id); err != nil {
				return fmt.Errorf("changing the id of chunk %q: %w", c.old, err)
			}
		}
		if _, err := setUID.ExecContext(ctx, c.uid, c.id); err != nil {
			return fmt.Errorf("changing the id of chunk %q: %w", c.old, err)
		}
		if c.old != c.uid {
			renamed[c.old] = c.uid
			if _, err := alias.ExecContext(ctx, c.old, c.uid); err != nil {
				return fmt.Errorf("changing the id of chunk %q: %w", c.old, err)
			}
		}
	}
	return renameMemoryChunks(ctx, tx, renamed)
}

// renameMemoryChunks rewrites the memory sources that name a chunk
// (note:PATH@SHA256#CHUNK) by an id in renamed to its new id.
func renameMemoryChunks(ctx context.Context, tx *sql.Tx, renamed map[string]string) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, source FROM memory WHERE source LIKE 'note:%#%'`)
	if err != nil {
		return fmt.Errorf("reading memory sources: %w", err)
	}
	sources := map[string]string{}
	for rows.Next() {
		var id, source string
		if err := rows.Scan(&id, &source); err != nil {
			rows.Close()
			return fmt.Errorf("reading memory sources: %w", err)
		}
		src, err := store.ParseMemorySource(source)
		if err != nil || src.Chunk == "" || renamed[src.Chunk] == "" {
			continue
		}
		src.Chunk = renamed[src.Chunk]
		sources[id] = src.String()
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading memory sources: %w", err)
	}
	for id, source := range sources {
		if _, err := tx.ExecContext(ctx, `UPDATE memory SET source = ? WHERE id = ?`, source, id); err != nil {
			return fmt.Errorf("rewriting the source of memory %q: %w", id, err)
		}
	}
	return nil
}
