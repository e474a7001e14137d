package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// DocumentStates returns the state of every note ingested from root, by path.
func (ix *Index) DocumentStates(ctx context.Context, root string) (map[string]DocumentState, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, sha256, stamp FROM documents WHERE root = ?`, root)
	if err != nil {
		return nil, fmt.Errorf("listing documents of %q: %w", root, err)
	}
	defer rows.Close()
	states := make(map[string]DocumentState)
	for rows.Next() {
		var p string
		var s DocumentState
		if err := rows.Scan(&p, &s.SHA256, &s.Stamp); err != nil {
			return nil, fmt.Errorf("listing documents of %q: %w", root, err)
		}
		states[p] = s
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing documents of %q: %w", root, err)
	}
	return states, nil
}

// ReplaceDocument stores a note, replacing any earlier version of it, in one
// transaction: either the whole new version is visible afterwards or the old
// one still is.
func (ix *Index) ReplaceDocument(ctx context.Context, d *DocumentRecord) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	defer tx.Rollback()
	// A note players could see that becomes DM-only leaves its names in
	// the players' compendium until it is rebuilt: stop serving it now.
	var wasPublic bool
	err = tx.QueryRowContext(ctx, `SELECT restricted = 0 FROM documents WHERE root = ? AND path = ?`, d.Root, d.Path).Scan(&wasPublic)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	if wasPublic && d.DMOnly {
		if err := markPlayersCompendiumStale(ctx, tx); err != nil {
			return fmt.Errorf("storing %q: %w", d.Path, err)
		}
	}
	if err := deleteDocument(ctx, tx, d.Root, d.Path); err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	meta := d.Metadata
	if len(meta) == 0 {
		meta = json.RawMessage("{}")
	}
	reason := d.DMReason
	if !d.DMOnly {
		reason = ""
	} else if reason == "" {
		reason = "unknown"
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO documents(root, path, sha256, size, title, metadata, visibility, stamp, ingested_at,
		restricted, dm_reason, dm_detail, link, front_raw)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.Root, d.Path, d.SHA256, d.Size, d.Title, string(meta), d.Visibility, d.Stamp, time.Now().Unix(),
		d.DMOnly, reason, d.DMDetail, d.Link, d.FrontRaw)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	docID, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	insChunk, err := tx.PrepareContext(ctx, `INSERT INTO chunks(uid, doc_id, ordinal, session, headings, label,
		word_start, word_end, byte_start, byte_end, text, hash, embed_hash) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	defer insChunk.Close()
	insChild, err := tx.PrepareContext(ctx, `INSERT INTO children(chunk_id, ordinal, byte_start, byte_end) VALUES(?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	defer insChild.Close()
	insFTS, err := tx.PrepareContext(ctx, `INSERT INTO children_fts(rowid, headings, body) VALUES(?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	defer insFTS.Close()
	for i := range d.Chunks {
		c := &d.Chunks[i]
		var session any
		if c.InSession {
			session = c.Session
		}
		headings, err := json.Marshal(nonNil(c.Headings))
		if err != nil {
			return fmt.Errorf("storing %q: %w", d.Path, err)
		}
		res, err := insChunk.ExecContext(ctx, c.UID, docID, c.Ordinal, session, string(headings), c.Label,
			c.WordStart, c.WordEnd, c.ByteStart, c.ByteEnd, c.Text, c.Hash, c.EmbedHash)
		if err != nil {
			return fmt.Errorf("storing chunk %d of %q: %w", c.Ordinal, d.Path, err)
		}
		chunkID, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("storing chunk %d of %q: %w", c.Ordinal, d.Path, err)
		}
		for _, ch := range c.Children {
			res, err := insChild.ExecContext(ctx, chunkID, ch.Ordinal, ch.ByteStart, ch.ByteEnd)
			if err != nil {
				return fmt.Errorf("storing paragraph %d of chunk %d of %q: %w", ch.Ordinal, c.Ordinal, d.Path, err)
			}
			childID, err := res.LastInsertId()
			if err != nil {
				return fmt.Errorf("storing paragraph %d of chunk %d of %q: %w", ch.Ordinal, c.Ordinal, d.Path, err)
			}
			if _, err := insFTS.ExecContext(ctx, childID, c.HeadingTerms, ch.Terms); err != nil {
				return fmt.Errorf("indexing paragraph %d of chunk %d of %q: %w", ch.Ordinal, c.Ordinal, d.Path, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	return nil
}

// DeleteDocument removes a note and everything derived from it.
func (ix *Index) DeleteDocument(ctx context.Context, root, path string) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	defer tx.Rollback()
	if err := deleteDocument(ctx, tx, root, path); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	return nil
}

func deleteDocument(ctx context.Context, tx *sql.Tx, root, path string) error {
	var docID int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM documents WHERE root = ? AND path = ?`, root, path).Scan(&docID)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return err
	}
	// The FTS table is outside the foreign keys: clear it first.
	if _, err := tx.ExecContext(ctx, `DELETE FROM children_fts WHERE rowid IN
		(SELECT c.id FROM children c JOIN chunks k ON k.id = c.chunk_id WHERE k.doc_id = ?)`, docID); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM documents WHERE id = ?`, docID)
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
