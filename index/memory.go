package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/oraculo/oraculo/store"
)

var _ store.MemoryStore = (*Index)(nil)

// NoteVersion returns the SHA-256 of the note stored at path, found false
// when there is none.
func (ix *Index) NoteVersion(ctx context.Context, path string) (string, bool, error) {
	return noteVersion(ctx, ix.db, path)
}

func noteVersion(ctx context.Context, q queryer, path string) (string, bool, error) {
	var sum string
	err := q.QueryRowContext(ctx, `SELECT sha256 FROM documents WHERE path = ? LIMIT 1`, path).Scan(&sum)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("reading the version of %q: %w", path, err)
	}
	return sum, true, nil
}

// checkMemorySource checks a source against the notes stored now (see
// [store.CheckMemorySource]).
func checkMemorySource(ctx context.Context, q queryer, source string) error {
	return store.CheckMemorySource(source, func(path string) (string, bool, error) {
		return noteVersion(ctx, q, path)
	})
}

const memoryColumns = `id, scope, key, value, source, status, supersedes, created, author, active`

func scanMemory(row interface{ Scan(...any) error }) (store.Memory, error) {
	var m store.Memory
	err := row.Scan(&m.ID, &m.Scope, &m.Key, &m.Value, &m.Source, &m.Status, &m.Supersedes, &m.Created, &m.Author, &m.Active)
	return m, err
}

// AddMemory stores a new active entry and returns it with its id and
// creation time. Its status is a hypothesis unless verified. A (scope,
// key) that already has an active entry is an error naming that entry:
// a new value for it supersedes the old one ([Index.SupersedeMemory]).
func (ix *Index) AddMemory(ctx context.Context, m store.Memory, verified bool) (store.Memory, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	defer tx.Rollback()
	var active string
	err = tx.QueryRowContext(ctx, `SELECT id FROM memory WHERE scope = ? AND key = ? AND active`, m.Scope, m.Key).Scan(&active)
	if err == nil {
		return store.Memory{}, store.ActiveEntryError(m, active)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	m.Supersedes = ""
	m.Status = store.MemoryHypothesis
	if verified {
		m.Status = store.MemoryVerified
	}
	if m, err = insertMemory(ctx, tx, m); err != nil {
		return store.Memory{}, err
	}
	if err := tx.Commit(); err != nil {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	return m, nil
}

// insertMemory checks m and stores it as active with the next id.
func insertMemory(ctx context.Context, tx *sql.Tx, m store.Memory) (store.Memory, error) {
	if err := store.CheckMemory(m); err != nil {
		return store.Memory{}, err
	}
	if err := checkMemorySource(ctx, tx, m.Source); err != nil {
		return store.Memory{}, err
	}
	// Ids count up and are never reused, even after a forget: an id
	// someone wrote down never names another entry.
	var seq int
	err := tx.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'memory_seq'`).Scan(&seq)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	seq++
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('memory_seq', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.Itoa(seq)); err != nil {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	m.ID = "m" + strconv.Itoa(seq)
	m.Created = time.Now().UTC().Format(time.RFC3339)
	m.Active = true
	if _, err := tx.ExecContext(ctx, `INSERT INTO memory(`+memoryColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
		m.ID, m.Scope, m.Key, m.Value, m.Source, m.Status, m.Supersedes, m.Created, m.Author); err != nil {
		// The database's own guard (memory_active) caught a second
		// active entry: say which one is active, as AddMemory does.
		if strings.Contains(err.Error(), "UNIQUE") {
			var active string
			if tx.QueryRowContext(ctx, `SELECT id FROM memory WHERE scope = ? AND key = ? AND active`, m.Scope, m.Key).Scan(&active) == nil {
				return store.Memory{}, store.ActiveEntryError(m, active)
			}
		}
		return store.Memory{}, fmt.Errorf("adding memory %q in scope %q: %w", m.Key, m.Scope, err)
	}
	return m, nil
}

// Memory returns the entry with the given id, or an error wrapping
// [ErrNoMemory].
func (ix *Index) Memory(ctx context.Context, id string) (store.Memory, error) {
	return memoryByID(ctx, ix.db, id)
}

func memoryByID(ctx context.Context, q queryer, id string) (store.Memory, error) {
	m, err := scanMemory(q.QueryRowContext(ctx, `SELECT `+memoryColumns+` FROM memory WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Memory{}, fmt.Errorf("memory %q: %w", id, store.ErrNoMemory)
	}
	if err != nil {
		return store.Memory{}, fmt.Errorf("reading memory %q: %w", id, err)
	}
	return m, nil
}

// Memories returns the entries of scope (every scope when it is empty),
// only the active ones unless all, by scope, key and id.
func (ix *Index) Memories(ctx context.Context, scope string, all bool) ([]store.Memory, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memory
		WHERE (? = '' OR scope = ?) AND (? OR active)
		ORDER BY scope, key, CAST(substr(id, 2) AS INTEGER)`, scope, scope, all)
	if err != nil {
		return nil, fmt.Errorf("listing memory: %w", err)
	}
	defer rows.Close()
	var ms []store.Memory
	for rows.Next() {
		m, err := scanMemory(rows)
		if err != nil {
			return nil, fmt.Errorf("listing memory: %w", err)
		}
		ms = append(ms, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing memory: %w", err)
	}
	return ms, nil
}

// MemoryChain returns the entry with the given id and those it replaced,
// one after another through supersedes, newest first.
func (ix *Index) MemoryChain(ctx context.Context, id string) ([]store.Memory, error) {
	return store.MemoryChain(ctx, id, ix.Memory)
}

// VerifyMemory marks an entry verified; a source that is not empty (a
// note's version read again) replaces the entry's, checked as a new
// entry's is.
func (ix *Index) VerifyMemory(ctx context.Context, id, source string) error {
	if source != "" {
		if err := checkMemorySource(ctx, ix.db, source); err != nil {
			return err
		}
	}
	res, err := ix.db.ExecContext(ctx, `UPDATE memory SET status = ?, source = CASE WHEN ? = '' THEN source ELSE ? END WHERE id = ?`,
		store.MemoryVerified, source, source, id)
	if err != nil {
		return fmt.Errorf("verifying memory %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("verifying memory %q: %w", id, store.ErrNoMemory)
	}
	return nil
}

// SupersedeMemory replaces the active entry id with a new one holding
// value, in one transaction: the new entry is active, names id in
// supersedes, and keeps its scope, key and status unless given in m
// (m.Source, m.Author; verified makes it verified); id becomes inactive.
func (ix *Index) SupersedeMemory(ctx context.Context, id, value string, m store.Memory, verified bool) (store.Memory, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return store.Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	defer tx.Rollback()
	old, err := memoryByID(ctx, tx, id)
	if err != nil {
		return store.Memory{}, fmt.Errorf("superseding: %w", err)
	}
	if !old.Active {
		return store.Memory{}, store.InactiveEntryError(id)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memory SET active = 0 WHERE id = ?`, id); err != nil {
		return store.Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	next := store.Memory{Scope: old.Scope, Key: old.Key, Value: value, Source: m.Source, Author: m.Author,
		Status: store.MemoryHypothesis, Supersedes: id}
	if next.Source == "" {
		next.Source = old.Source
	}
	if verified {
		next.Status = store.MemoryVerified
	}
	if next, err = insertMemory(ctx, tx, next); err != nil {
		return store.Memory{}, err
	}
	if err := tx.Commit(); err != nil {
		return store.Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	return next, nil
}

// ForgetMemory deletes an entry for good, in one transaction, with every
// link to it: an entry that superseded it no longer names it. Forgetting
// the active entry of a (scope, key) leaves it with none. The delete
// overwrites the entry's bytes in the file (secure_delete) and the
// write-ahead log is checkpointed and truncated afterwards, so that the
// value is not left in free pages or in the log's older frames; the
// checkpoint is skipped, not failed, while another connection reads.
func (ix *Index) ForgetMemory(ctx context.Context, id string) error {
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA secure_delete = OFF`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM memory WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("forgetting memory %q: %w", id, store.ErrNoMemory)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memory SET supersedes = '' WHERE supersedes = ?`, id); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("forgetting memory %q: checkpointing the log: %w", id, err)
	}
	return nil
}
