package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/oraculo/oraculo/store"
)

// DocumentStates returns the state of every note ingested from root, by path.
func (ix *Index) DocumentStates(ctx context.Context, root string) (map[string]store.DocumentState, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path, sha256, stamp FROM documents WHERE root = ?`, root)
	if err != nil {
		return nil, fmt.Errorf("listing documents of %q: %w", root, err)
	}
	defer rows.Close()
	states := make(map[string]store.DocumentState)
	for rows.Next() {
		var p string
		var s store.DocumentState
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
func (ix *Index) ReplaceDocument(ctx context.Context, d *store.DocumentRecord) error {
	_, err := ix.ReplaceDocuments(ctx, []*store.DocumentRecord{d})
	return err
}

// ReplaceDocuments stores notes like [Index.ReplaceDocument], in order, in
// one transaction: a reader or a crash sees each note whole, with its
// visibility, or not at all, and its earlier version until then. It
// returns how many notes it stored, always the first ones; when that is
// fewer than len(ds), the error is that of the next note, which names it
// (or, when no note is to blame, that of the write), and the notes after
// it were not tried.
func (ix *Index) ReplaceDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	if len(ds) == 0 {
		return 0, nil
	}
	good, err := ix.writeDocuments(ctx, ds)
	if err == nil {
		return len(ds), nil
	}
	if good == 0 || good == len(ds) || ctx.Err() != nil {
		return 0, err
	}
	// A note failed and took the transaction with it: the notes before it
	// are stored again, without it. Failures are rare, so this costs less
	// than a savepoint around every note.
	if n, err := ix.ReplaceDocuments(ctx, ds[:good]); err != nil {
		return n, err
	}
	return good, err
}

// writeDocuments stores ds in one transaction, all or none. On failure it
// returns how many notes were written before the one that failed (len(ds)
// when the commit failed) and the error. A cancelled ctx stops it between
// notes and between chunks, never in the middle of a statement: the
// statements run without ctx's cancellation, which would cost a goroutine
// each (a fresh ingest of 100k chunks runs 1.4 million of them).
func (ix *Index) writeDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("storing %q: %w", ds[0].Path, err)
	}
	defer tx.Rollback()
	if err := bulkWrite(ctx, tx); err != nil {
		return 0, fmt.Errorf("storing %q: %w", ds[0].Path, err)
	}
	w, err := newDocumentWriter(ctx, tx)
	if err != nil {
		return 0, fmt.Errorf("storing %q: %w", ds[0].Path, err)
	}
	defer w.close()
	for i, d := range ds {
		if err := w.replace(ctx, i, d); err != nil {
			return i, err
		}
	}
	if i, err := w.writeKeywords(ctx, ds); err != nil {
		return i, err
	}
	if err := bumpChunksVersion(ctx, tx); err != nil {
		return 0, fmt.Errorf("storing %q: %w", ds[0].Path, err)
	}
	if err := tx.Commit(); err != nil {
		if len(ds) == 1 {
			return 1, fmt.Errorf("storing %q: %w", ds[0].Path, err)
		}
		return len(ds), fmt.Errorf("storing %d notes, %q to %q: %w", len(ds), ds[0].Path, ds[len(ds)-1].Path, err)
	}
	return len(ds), nil
}

// documentWriter writes notes in one transaction with statements prepared
// once for all of them. A statement that may abort half-way (one of many
// rows, or one that fires a trigger, as a chunk's row does) opens a
// savepoint, and once FTS5 is written in the transaction every savepoint
// makes it write the terms it holds in memory to a new segment: written
// in between, each chunk made a segment, and a fresh ingest spent more in
// merging them than in indexing. So the keyword rows of the notes wait
// (in keywords) until every other row of the transaction is written, and
// go in last, one a statement, in the order of their ids.
type documentWriter struct {
	tx                                 *sql.Tx
	insDoc, insChunk, insChild, insFTS *sql.Stmt
	// nextChild is the id the next paragraph gets, as SQLite would give
	// it (one more than the largest), or 0 until it is read again.
	nextChild int64
	// keywords are the keyword rows not yet written, in id order; note
	// is the index of each row's note in the batch, doc its document.
	keywords []keywordRow
}

// keywordRow is a paragraph's keyword row waiting to be written.
type keywordRow struct {
	id             int64
	doc            int64
	note           int
	headings, body string
	// chunk and paragraph ordinals, for the error that names them
	chunk, paragraph int
}

func newDocumentWriter(ctx context.Context, tx *sql.Tx) (*documentWriter, error) {
	w := &documentWriter{tx: tx}
	for _, s := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&w.insDoc, `INSERT INTO documents(root, path, sha256, size, title, metadata, visibility, stamp, ingested_at,
			restricted, dm_reason, dm_detail, link, front_raw, lang)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&w.insChunk, `INSERT INTO chunks(uid, doc_id, ordinal, session, headings, label,
			word_start, word_end, byte_start, byte_end, page_start, page_end, text, hash, embed_hash)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(uid) DO NOTHING`},
		{&w.insChild, `INSERT INTO children(id, chunk_id, ordinal, byte_start, byte_end) VALUES(?, ?, ?, ?, ?)`},
		{&w.insFTS, `INSERT INTO children_fts(rowid, headings, body) VALUES(?, ?, ?)`},
	} {
		st, err := tx.PrepareContext(ctx, s.sql)
		if err != nil {
			w.close()
			return nil, err
		}
		*s.stmt = st
	}
	return w, nil
}

func (w *documentWriter) close() {
	for _, st := range []*sql.Stmt{w.insDoc, w.insChunk, w.insChild, w.insFTS} {
		if st != nil {
			st.Close()
		}
	}
}

// replace writes one note, the i-th of the batch, its chunks and
// paragraphs, and its visibility, in place of any earlier version; its
// keyword rows wait for [documentWriter.writeKeywords].
func (w *documentWriter) replace(ctx context.Context, i int, d *store.DocumentRecord) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	sctx := context.WithoutCancel(ctx)
	docID, err := w.replaceDocument(sctx, d)
	if err != nil {
		return fmt.Errorf("storing %q: %w", d.Path, err)
	}
	if w.nextChild == 0 {
		if err := w.tx.QueryRowContext(sctx, `SELECT coalesce(max(id), 0) + 1 FROM children`).Scan(&w.nextChild); err != nil {
			return fmt.Errorf("storing %q: %w", d.Path, err)
		}
	}
	for k := range d.Chunks {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("storing %q: %w", d.Path, err)
		}
		c := &d.Chunks[k]
		chunkID, err := w.insertChunk(sctx, d, docID, c)
		if err != nil {
			return fmt.Errorf("storing chunk %d of %q: %w", c.Ordinal, d.Path, err)
		}
		for _, ch := range c.Children {
			id := w.nextChild
			if _, err := w.insChild.ExecContext(sctx, id, chunkID, ch.Ordinal, ch.ByteStart, ch.ByteEnd); err != nil {
				return fmt.Errorf("storing paragraph %d of chunk %d of %q: %w", ch.Ordinal, c.Ordinal, d.Path, err)
			}
			w.keywords = append(w.keywords, keywordRow{id: id, doc: docID, note: i, headings: c.HeadingTerms, body: ch.Terms,
				chunk: c.Ordinal, paragraph: ch.Ordinal})
			w.nextChild++
		}
	}
	return nil
}

// replaceDocument removes the earlier version of d and writes its row,
// returning its id.
func (w *documentWriter) replaceDocument(ctx context.Context, d *store.DocumentRecord) (int64, error) {
	tx := w.tx
	// A note players could see that becomes DM-only leaves its names in
	// the players' compendium until it is rebuilt: stop serving it now.
	var wasPublic bool
	err := tx.QueryRowContext(ctx, `SELECT restricted = 0 FROM documents WHERE root = ? AND path = ?`, d.Root, d.Path).Scan(&wasPublic)
	if err != nil && err != sql.ErrNoRows {
		return 0, err
	}
	if wasPublic && d.DMOnly {
		if err := markPlayersCompendiumStale(ctx, tx); err != nil {
			return 0, err
		}
	}
	if err != sql.ErrNoRows {
		if err := w.dropKeywordsOf(ctx, d); err != nil {
			return 0, err
		}
		if err := deleteDocument(ctx, tx, d.Root, d.Path); err != nil {
			return 0, err
		}
		// Its paragraphs are gone: the largest id may be smaller now.
		w.nextChild = 0
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
	res, err := w.insDoc.ExecContext(ctx, d.Root, d.Path, d.SHA256, d.Size, d.Title, string(meta), d.Visibility, d.Stamp, time.Now().Unix(),
		d.DMOnly, reason, d.DMDetail, d.Link, d.FrontRaw, d.Lang)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// dropKeywordsOf forgets the waiting keyword rows of the earlier version
// of d, written in this batch (the same note twice in a batch): its
// paragraphs go with it, and their ids may be given again.
func (w *documentWriter) dropKeywordsOf(ctx context.Context, d *store.DocumentRecord) error {
	var old int64
	if err := w.tx.QueryRowContext(ctx, `SELECT id FROM documents WHERE root = ? AND path = ?`, d.Root, d.Path).Scan(&old); err != nil {
		return err
	}
	w.keywords = slices.DeleteFunc(w.keywords, func(k keywordRow) bool { return k.doc == old })
	return nil
}

// writeKeywords writes the waiting keyword rows, in id order. On failure
// it returns the index in ds of the note whose row failed, and the error.
func (w *documentWriter) writeKeywords(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	sctx := context.WithoutCancel(ctx)
	for j, k := range w.keywords {
		if j%256 == 0 {
			if err := ctx.Err(); err != nil {
				return k.note, fmt.Errorf("storing %q: %w", ds[k.note].Path, err)
			}
		}
		if _, err := w.insFTS.ExecContext(sctx, k.id, k.headings, k.body); err != nil {
			return k.note, fmt.Errorf("indexing paragraph %d of chunk %d of %q: %w", k.paragraph, k.chunk, ds[k.note].Path, err)
		}
	}
	w.keywords = w.keywords[:0]
	return len(ds), nil
}

// insertChunk writes one chunk's row and returns its id.
func (w *documentWriter) insertChunk(ctx context.Context, d *store.DocumentRecord, docID int64, c *store.ChunkRecord) (int64, error) {
	var session any
	if c.InSession {
		session = c.Session
	}
	headings, err := json.Marshal(nonNil(c.Headings))
	if err != nil {
		return 0, err
	}
	insert := func(uid string) (sql.Result, error) {
		return w.insChunk.ExecContext(ctx, uid, docID, c.Ordinal, session, string(headings), c.Label,
			c.WordStart, c.WordEnd, c.ByteStart, c.ByteEnd, c.PageStart, c.PageEnd, c.Text, c.Hash, c.EmbedHash)
	}
	chunkID, err := insertedID(insert(c.UID))
	if err == nil && chunkID == 0 {
		// Another folder of the index holds the same note: this
		// folder's copy gets an id of its own.
		var holder string
		err = w.tx.QueryRowContext(ctx, `SELECT d.root FROM chunks k JOIN documents d ON d.id = k.doc_id WHERE k.uid = ?`, c.UID).Scan(&holder)
		if err == nil && holder != d.Root {
			chunkID, err = insertedID(insert(store.ChunkUIDIn(d.Root, c.UID)))
		}
		if err == nil && chunkID == 0 {
			err = fmt.Errorf("its id %q is taken", c.UID)
		}
	}
	return chunkID, err
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
	if err := bumpChunksVersion(ctx, tx); err != nil {
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

// ChunksVersionKey is the setting that counts the transactions that wrote
// or removed chunks: what was derived from the chunks (vectors, the vector
// graph) at one count still holds at the same count.
const ChunksVersionKey = "chunks_version"

// ChunksVersion returns the count of the transactions that wrote or
// removed chunks (see [ChunksVersionKey]), kept in the transaction that
// changes them.
func (ix *Index) ChunksVersion(ctx context.Context) (string, error) {
	return ix.Meta(ctx, ChunksVersionKey)
}

// bumpChunksVersion counts, in the transaction that changes chunks, one
// more change.
func bumpChunksVersion(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, '1')
		ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`, ChunksVersionKey)
	return err
}

// bulkCachePages is the page cache of a connection that writes many rows
// (KiB, as SQLite's negative cache_size): with the default 2 MB, a batch
// of notes or the compendium's mentions spilled dirty pages to the WAL in
// the middle of its transaction and read them back (a fresh ingest of
// 100k chunks: 35-42 s, 11-13 s of it in the kernel; with 64 MB 31-33 s,
// 6 s). Only the connections that wrote keep it, at most what they used.
const bulkCachePages = -65536

// bulkWrite gives the connection of tx the page cache of a bulk write.
func bulkWrite(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `PRAGMA cache_size = `+strconv.Itoa(bulkCachePages))
	return err
}

// insertedID is the row id an INSERT ... ON CONFLICT DO NOTHING wrote,
// or 0 when it wrote nothing.
func insertedID(res sql.Result, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, err
	}
	return res.LastInsertId()
}

// MoveRoot makes the notes ingested from the folder from those of the
// folder to, which must hold none: the vault moved.
func (ix *Index) MoveRoot(ctx context.Context, from, to string) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("moving the notes of %q to %q: %w", from, to, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE root = ?`, to).Scan(&n); err != nil {
		return fmt.Errorf("moving the notes of %q to %q: %w", from, to, err)
	}
	if n > 0 {
		return fmt.Errorf("moving the notes of %q to %q: it holds %d notes already", from, to, n)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET root = ? WHERE root = ?`, to, from); err != nil {
		return fmt.Errorf("moving the notes of %q to %q: %w", from, to, err)
	}
	// The chunks are as they were (their ids hold no folder): nothing
	// derived from them changes.
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("moving the notes of %q to %q: %w", from, to, err)
	}
	return nil
}
