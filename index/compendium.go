package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// The notes whose facts are stored, and those among them whose visibility
// changed, read from the notes' state index: the rows of compendium_notes,
// holding the facts, take a page or more each.
const (
	summedNotes  = `SELECT +doc_id FROM compendium_notes INDEXED BY compendium_notes_state`
	flippedNotes = `SELECT f.doc_id FROM compendium_notes f INDEXED BY compendium_notes_state
		JOIN documents g ON g.id = f.doc_id WHERE g.restricted != f.restricted`
)

// SyncCompendiumNotes lists, in path order, the notes whose compendium
// facts are not stored (new or rewritten since: a rewritten note is a new
// document row, and its facts went with the old one), and marks pending
// the notes whose visibility changed since their mentions were stored;
// pending says whether any note is.
func (ix *Index) SyncCompendiumNotes(ctx context.Context) ([]int64, bool, error) {
	if _, err := ix.db.ExecContext(ctx, `UPDATE compendium_notes SET matched = 0,
		restricted = (SELECT restricted FROM documents WHERE id = compendium_notes.doc_id)
		WHERE doc_id IN (`+flippedNotes+`)`); err != nil {
		return nil, false, fmt.Errorf("reading the compendium's notes: %w", err)
	}
	var pending bool
	if err := ix.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM compendium_notes WHERE matched = 0)`).Scan(&pending); err != nil {
		return nil, false, fmt.Errorf("reading the compendium's notes: %w", err)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT d.id FROM documents d WHERE d.id NOT IN (`+summedNotes+`) ORDER BY d.root, d.path`)
	if err != nil {
		return nil, false, fmt.Errorf("reading the compendium's notes: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, false, fmt.Errorf("reading the compendium's notes: %w", err)
		}
		out = append(out, id)
	}
	return out, pending || len(out) > 0, rows.Err()
}

// PutNoteFacts stores the facts of notes, pending, with their structure;
// the compendium's sums are stale until UpdateCompendiumSums adds theirs.
func (ix *Index) PutNoteFacts(ctx context.Context, facts []store.NoteFacts) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing the compendium's notes: %w", err)
	}
	defer tx.Rollback()
	if err := bulkWrite(ctx, tx); err != nil {
		return fmt.Errorf("storing the compendium's notes: %w", err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO compendium_notes(doc_id, restricted, matched, facts, lower)
		SELECT id, restricted, 0, ?, ? FROM documents WHERE id = ?`)
	if err != nil {
		return fmt.Errorf("storing the compendium's notes: %w", err)
	}
	defer st.Close()
	for _, f := range facts {
		if _, err := st.ExecContext(ctx, f.Data, nonNilBytes(f.Lower), f.DocID); err != nil {
			return fmt.Errorf("storing the compendium's notes: %w", err)
		}
		if err := putStructure(ctx, tx, f.DocID, f.Structure); err != nil {
			return fmt.Errorf("storing the compendium's notes: %w", err)
		}
	}
	// Until UpdateCompendiumSums adds these notes' sums, the sums are
	// behind: an update cut short leaves them to be filled anew.
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, 'stale')
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, compendiumSumsKey); err != nil {
		return fmt.Errorf("storing the compendium's notes: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing the compendium's notes: %w", err)
	}
	return nil
}

// EachNoteFacts calls fn with the stored facts of every note, in path
// order; the visibility is the note's as it is now.
func (ix *Index) EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error {
	return ix.eachNote(ctx, `SELECT d.id, d.root, d.path, d.title, d.metadata, d.restricted, c.facts
		FROM documents d JOIN compendium_notes c ON c.doc_id = d.id ORDER BY d.root, d.path`,
		func(f *store.NoteFacts) *[]byte { return &f.Data }, fn)
}

// eachNote calls fn with each note query gives: its id, root, path,
// title, metadata, visibility and a blob, scanned into where blob says.
func (ix *Index) eachNote(ctx context.Context, query string, blob func(*store.NoteFacts) *[]byte, fn func(store.NoteFacts) error) error {
	rows, err := ix.db.QueryContext(ctx, query)
	if err != nil {
		return fmt.Errorf("reading the compendium's notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f store.NoteFacts
		var meta string
		if err := rows.Scan(&f.DocID, &f.Root, &f.Path, &f.Title, &meta, &f.Restricted, blob(&f)); err != nil {
			return fmt.Errorf("reading the compendium's notes: %w", err)
		}
		f.Metadata = json.RawMessage(meta)
		if err := fn(f); err != nil {
			return err
		}
	}
	return rows.Err()
}

func nonNilBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// EachNoteLower calls fn with the stored lowercase words of every note,
// with the note's visibility now; lower is valid only until fn returns.
func (ix *Index) EachNoteLower(ctx context.Context, fn func(restricted bool, lower []byte) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT d.restricted, c.lower FROM compendium_notes c JOIN documents d ON d.id = c.doc_id`)
	if err != nil {
		return fmt.Errorf("reading the compendium's notes: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var restricted bool
		var lower sql.RawBytes
		if err := rows.Scan(&restricted, &lower); err != nil {
			return fmt.Errorf("reading the compendium's notes: %w", err)
		}
		if err := fn(restricted, lower); err != nil {
			return err
		}
	}
	return rows.Err()
}

// UpdateCompendium runs fn in one transaction, committed when fn returns
// nil.
func (ix *Index) UpdateCompendium(ctx context.Context, fn func(store.CompendiumWriter) error) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	defer tx.Rollback()
	if err := bulkWrite(ctx, tx); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	w := &compendiumWriter{tx: tx}
	defer w.close()
	if err := fn(w); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	return nil
}

// compendiumWriter is [store.CompendiumWriter] over one transaction.
type compendiumWriter struct {
	tx     *sql.Tx
	insM   *sql.Stmt    // mentionRows rows at once
	chunks [2]*sql.Stmt // all, pending
	// rows are the mentions not yet inserted: entity, chunk, count.
	rows []any
}

// mentionRows is how many mentions one statement inserts.
const mentionRows = 200

func (w *compendiumWriter) close() {
	for _, st := range []*sql.Stmt{w.insM, w.chunks[0], w.chunks[1]} {
		if st != nil {
			st.Close()
		}
	}
}

func (w *compendiumWriter) Entities(ctx context.Context, scope string) ([]store.Entity, error) {
	return scanEntities(w.tx.QueryContext(ctx, `SELECT id, name, kind, aliases, note, source FROM entities WHERE scope = ? ORDER BY name`, scope))
}

func (w *compendiumWriter) SetEntities(ctx context.Context, scope string, ents []store.Entity) ([]int64, error) {
	old, err := w.Entities(ctx, scope)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]store.Entity, len(old))
	for _, e := range old {
		byName[e.Name] = e
	}
	keep := make(map[string]bool, len(ents))
	for _, e := range ents {
		keep[e.Name] = true
	}
	// Each statement prepared once: a compendium may hold 100,000 entities.
	var stmts [3]*sql.Stmt
	defer func() {
		for _, st := range stmts {
			if st != nil {
				st.Close()
			}
		}
	}()
	exec := func(k int, query string, args ...any) (sql.Result, error) {
		if stmts[k] == nil {
			st, err := w.tx.PrepareContext(ctx, query)
			if err != nil {
				return nil, err
			}
			stmts[k] = st
		}
		return stmts[k].ExecContext(ctx, args...)
	}
	for _, e := range old {
		if !keep[e.Name] {
			if _, err := exec(0, `DELETE FROM entities WHERE id = ?`, e.ID); err != nil {
				return nil, fmt.Errorf("storing the compendium: %w", err)
			}
		}
	}
	ids := make([]int64, len(ents))
	for i, e := range ents {
		aliases, _ := json.Marshal(nonNil(e.Aliases))
		o, ok := byName[e.Name]
		switch {
		case !ok:
			res, err := exec(1, `INSERT INTO entities(scope, name, kind, aliases, note, source) VALUES(?, ?, ?, ?, ?, ?)`,
				scope, e.Name, e.Kind, string(aliases), e.Note, e.Source)
			if err != nil {
				return nil, fmt.Errorf("storing entity %q: %w", e.Name, err)
			}
			if ids[i], err = res.LastInsertId(); err != nil {
				return nil, err
			}
			continue
		case o.Kind != e.Kind || o.Note != e.Note || o.Source != e.Source || !slices.Equal(nonNil(o.Aliases), nonNil(e.Aliases)):
			if _, err := exec(2, `UPDATE entities SET kind = ?, aliases = ?, note = ?, source = ? WHERE id = ?`,
				e.Kind, string(aliases), e.Note, e.Source, o.ID); err != nil {
				return nil, fmt.Errorf("storing entity %q: %w", e.Name, err)
			}
		}
		ids[i] = o.ID
	}
	return ids, nil
}

func (w *compendiumWriter) Chunks(ctx context.Context, after int64, n int, pending bool) ([]store.ChunkText, error) {
	i := 0
	if pending {
		i = 1
	}
	if w.chunks[i] == nil {
		cond := ""
		if pending {
			// Through the pending notes' chunks, not every chunk.
			cond = " AND k.doc_id IN (SELECT doc_id FROM compendium_notes WHERE matched = 0)"
		}
		st, err := w.tx.PrepareContext(ctx, `SELECT k.id, d.restricted, coalesce(c.matched = 0, 1), k.text
			FROM chunks k JOIN documents d ON d.id = k.doc_id LEFT JOIN compendium_notes c ON c.doc_id = k.doc_id
			WHERE k.id > ?`+cond+` ORDER BY k.id LIMIT ?`)
		if err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
		w.chunks[i] = st
	}
	rows, err := w.chunks[i].QueryContext(ctx, after, n)
	if err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	defer rows.Close()
	var out []store.ChunkText
	for rows.Next() {
		var c store.ChunkText
		if err := rows.Scan(&c.ID, &c.Restricted, &c.Pending, &c.Text); err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (w *compendiumWriter) ClearMentions(ctx context.Context, scope string, chunks []int64) error {
	if len(chunks) == 0 {
		return nil
	}
	if err := w.flush(ctx); err != nil {
		return err
	}
	ids := make([]string, len(chunks))
	for i, id := range chunks {
		ids[i] = strconv.FormatInt(id, 10)
	}
	// "+entity_id": through the chunks' index, not a seek for every
	// entity of the scope and chunk.
	_, err := w.tx.ExecContext(ctx, `DELETE FROM mentions WHERE chunk_id IN (`+strings.Join(ids, ",")+`)
		AND +entity_id IN (SELECT id FROM entities WHERE scope = ?)`, scope)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	return nil
}

func (w *compendiumWriter) AddMention(ctx context.Context, entity, chunk int64, count int) error {
	w.rows = append(w.rows, entity, chunk, count)
	if len(w.rows) < 3*mentionRows {
		return nil
	}
	return w.flush(ctx)
}

// flush inserts the mentions gathered.
func (w *compendiumWriter) flush(ctx context.Context) error {
	if len(w.rows) == 0 {
		return nil
	}
	const q = `INSERT INTO mentions(entity_id, chunk_id, count) VALUES(?, ?, ?)`
	var err error
	if len(w.rows) == 3*mentionRows {
		if w.insM == nil {
			w.insM, err = w.tx.PrepareContext(ctx, q+strings.Repeat(", (?, ?, ?)", mentionRows-1))
			if err != nil {
				return fmt.Errorf("storing mentions: %w", err)
			}
		}
		_, err = w.insM.ExecContext(ctx, w.rows...)
	} else {
		_, err = w.tx.ExecContext(ctx, q+strings.Repeat(", (?, ?, ?)", len(w.rows)/3-1), w.rows...)
	}
	w.rows = w.rows[:0]
	if err != nil {
		return fmt.Errorf("storing mentions: %w", err)
	}
	return nil
}

func (w *compendiumWriter) Finish(ctx context.Context, key, value string) error {
	if err := w.flush(ctx); err != nil {
		return err
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE compendium_notes SET matched = 1 WHERE matched = 0`, nil},
		{`DELETE FROM meta WHERE key = ?`, []any{playersCompendiumStale}},
		{`INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, []any{key, value}},
	} {
		if _, err := w.tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return fmt.Errorf("storing the compendium: %w", err)
		}
	}
	return nil
}
