package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// ReplaceEntities swaps the compendium of one scope for a new one in one
// transaction.
func (ix *Index) ReplaceEntities(ctx context.Context, scope string, ents []store.Entity) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	defer tx.Rollback()
	if err := unsharePlayers(ctx, tx); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM mentions WHERE entity_id IN (SELECT id FROM entities WHERE scope = ?)`, scope); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM entities WHERE scope = ?`, scope); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	insE, err := tx.PrepareContext(ctx, `INSERT INTO entities(scope, name, kind, aliases, note, source) VALUES(?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	defer insE.Close()
	insM, err := tx.PrepareContext(ctx, `INSERT INTO mentions(entity_id, chunk_id, count) VALUES(?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	defer insM.Close()
	for _, e := range ents {
		aliases, _ := json.Marshal(nonNil(e.Aliases))
		res, err := insE.ExecContext(ctx, scope, e.Name, e.Kind, string(aliases), e.Note, e.Source)
		if err != nil {
			return fmt.Errorf("storing entity %q: %w", e.Name, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for chunk, n := range e.Mentions {
			if _, err := insM.ExecContext(ctx, id, chunk, n); err != nil {
				return fmt.Errorf("storing mentions of %q: %w", e.Name, err)
			}
		}
	}
	if scope == store.ScopePlayer {
		// Built from what players may see now: it may be served again.
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, playersCompendiumStale); err != nil {
			return fmt.Errorf("storing the compendium: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	return nil
}

// playersShared is the meta key set while the players' compendium is the
// DM's: built when no note was DM-only, the two are the same, and their
// entities and mentions are stored once, as the DM's (see
// [compendiumWriter.SharePlayers]).
const playersShared = "players_compendium_shared"

// scopeStored is an SQL expression of the scope whose rows hold the
// compendium of the scope given as its parameter.
const scopeStored = `(CASE WHEN ?1 = '` + store.ScopePlayer + `' AND EXISTS (SELECT 1 FROM meta WHERE key = '` + playersShared + `')
	THEN '` + store.ScopeDM + `' ELSE ?1 END)`

// Entities returns the compendium of a scope, by name, without mentions.
// The players' compendium is empty while it is stale (see
// [Index.PlayersCompendiumStale]), decided in the same statement that
// reads it.
func (ix *Index) Entities(ctx context.Context, scope string) ([]store.Entity, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT id, name, kind, aliases, note, source FROM entities WHERE scope = `+scopeStored+`
		AND NOT (?1 = ?2 AND EXISTS (SELECT 1 FROM meta WHERE key = ?3)) ORDER BY name`, scope, store.ScopePlayer, playersCompendiumStale)
	return scanEntities(rows, err)
}

// SharePlayers says whether the players' compendium about to be stored
// is the DM's (no note is DM-only): then the players' rows go, and the
// players are served the DM's entities and mentions, which a player's
// search reads without the chunks of DM-only notes as it always does;
// else the players' compendium is stored apart again (from nothing: the
// next rows written for the players are all of it).
func (w *compendiumWriter) SharePlayers(ctx context.Context, share bool) error {
	if err := w.flush(ctx); err != nil {
		return err
	}
	q := `DELETE FROM meta WHERE key = ?`
	if share {
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM entities WHERE scope = ?`, store.ScopePlayer); err != nil {
			return fmt.Errorf("storing the compendium: %w", err)
		}
		q = `INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT(key) DO NOTHING`
	}
	if _, err := w.tx.ExecContext(ctx, q, playersShared); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	return nil
}

// unsharePlayers stores the players' compendium apart when it is the
// DM's (see [compendiumWriter.SharePlayers]): a copy of the DM's rows.
func unsharePlayers(ctx context.Context, tx *sql.Tx) error {
	var shared bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)`, playersShared).Scan(&shared); err != nil || !shared {
		return err
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM entities WHERE scope = ?`, []any{store.ScopePlayer}},
		{`INSERT INTO entities(scope, name, kind, aliases, note, source)
			SELECT ?, name, kind, aliases, note, source FROM entities WHERE scope = ? ORDER BY id`, []any{store.ScopePlayer, store.ScopeDM}},
		{`INSERT INTO mentions(entity_id, chunk_id, count) SELECT p.id, m.chunk_id, m.count
			FROM entities d JOIN mentions m ON m.entity_id = d.id JOIN entities p ON p.scope = ? AND p.name = d.name
			WHERE d.scope = ?`, []any{store.ScopePlayer, store.ScopeDM}},
		{`DELETE FROM meta WHERE key = ?`, []any{playersShared}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return err
		}
	}
	return nil
}

// scanEntities reads the rows of a query of id, name, kind, aliases, note
// and source from entities (err being the query's).
func scanEntities(rows *sql.Rows, err error) ([]store.Entity, error) {
	if err != nil {
		return nil, fmt.Errorf("reading the compendium: %w", err)
	}
	defer rows.Close()
	var out []store.Entity
	for rows.Next() {
		var e store.Entity
		var aliases string
		if err := rows.Scan(&e.ID, &e.Name, &e.Kind, &aliases, &e.Note, &e.Source); err != nil {
			return nil, fmt.Errorf("reading the compendium: %w", err)
		}
		if err := jsonUnmarshalStrings(aliases, &e.Aliases); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// MentionsOf lists the chunks naming each of the entities, with the data
// the entity path orders by; public leaves out the chunks of notes players
// may not see (as they are now, whatever they were when the compendium
// was built).
func (ix *Index) MentionsOf(ctx context.Context, entityIDs []int64, public bool) (map[int64][]store.Mention, error) {
	out := map[int64][]store.Mention{}
	if len(entityIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(entityIDs))
	for i, id := range entityIDs {
		args[i] = id
	}
	vis := ""
	if public {
		vis = " AND d.restricted = 0"
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT m.entity_id, m.chunk_id, m.count, k.session, d.path, k.ordinal
		FROM mentions m JOIN chunks k ON k.id = m.chunk_id JOIN documents d ON d.id = k.doc_id
		WHERE m.entity_id IN (?`+strings.Repeat(", ?", len(entityIDs)-1)+`)`+vis+` ORDER BY m.entity_id, m.chunk_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading mentions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var eid int64
		var m store.Mention
		var session *int64
		if err := rows.Scan(&eid, &m.ChunkID, &m.Count, &session, &m.Path, &m.Ordinal); err != nil {
			return nil, fmt.Errorf("reading mentions: %w", err)
		}
		if session != nil {
			m.Session, m.InSession = int(*session), true
		}
		out[eid] = append(out[eid], m)
	}
	return out, rows.Err()
}

// NoteSources returns every note with its chunks, in path order.
func (ix *Index) NoteSources(ctx context.Context) ([]store.NoteSource, error) {
	return ix.noteSources(ctx, "")
}

// NoteSourcesOf returns the notes with the given document ids with their
// chunks, in path order.
func (ix *Index) NoteSourcesOf(ctx context.Context, docIDs []int64) ([]store.NoteSource, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	ids := make([]string, len(docIDs))
	for i, id := range docIDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return ix.noteSources(ctx, "WHERE d.id IN ("+strings.Join(ids, ",")+")")
}

func (ix *Index) noteSources(ctx context.Context, where string) ([]store.NoteSource, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT d.id, d.root, d.path, d.title, d.metadata, d.restricted, k.id, k.byte_start, k.text
		FROM documents d JOIN chunks k ON k.doc_id = d.id `+where+` ORDER BY d.root, d.path, k.ordinal`)
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	defer rows.Close()
	var out []store.NoteSource
	var body []byte
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].Text = string(body)
		}
		body = body[:0]
	}
	for rows.Next() {
		var root, path, title, meta, text string
		var doc, id int64
		var start int
		var restricted bool
		if err := rows.Scan(&doc, &root, &path, &title, &meta, &restricted, &id, &start, &text); err != nil {
			return nil, fmt.Errorf("reading notes: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].DocID != doc {
			flush()
			out = append(out, store.NoteSource{DocID: doc, Root: root, Path: path, Title: title, Metadata: json.RawMessage(meta), Restricted: restricted})
		}
		n := &out[len(out)-1]
		n.ChunkIDs = append(n.ChunkIDs, id)
		n.ChunkTexts = append(n.ChunkTexts, text)
		// Lay the chunk where it was; overlapping windows rewrite the same bytes.
		for len(body) < start {
			body = append(body, '\n')
		}
		body = append(body[:start], text...)
	}
	flush()
	return out, rows.Err()
}

// Units counts what the entity path weighs entities against: the sessions,
// plus the notes (or parts of notes) outside any session; public counts
// only what players may see. It reads the two counts kept with the table
// of each note's sessions (note_sessions), not the chunks.
func (ix *Index) Units(ctx context.Context, public bool) (int, error) {
	var n int
	err := ix.db.QueryRowContext(ctx, `SELECT sessions + notes FROM units WHERE public = ?`, public).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting sessions and notes: %w", err)
	}
	return n, nil
}

// Roots lists the folders notes were ingested from.
func (ix *Index) Roots(ctx context.Context) ([]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT root FROM documents ORDER BY root`)
	if err != nil {
		return nil, fmt.Errorf("listing ingested folders: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// EntityCount returns how many entities the compendium of a scope holds.
func (ix *Index) EntityCount(ctx context.Context, scope string) (int, error) {
	var n int
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM entities WHERE scope = `+scopeStored, scope).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting entities: %w", err)
	}
	return n, nil
}

// RestrictedChunks returns the ids of the chunks of DM-only notes.
func (ix *Index) RestrictedChunks(ctx context.Context) (map[int64]bool, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT k.id FROM chunks k JOIN documents d ON d.id = k.doc_id WHERE d.restricted != 0`)
	if err != nil {
		return nil, fmt.Errorf("listing DM-only chunks: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
