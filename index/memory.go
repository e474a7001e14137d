package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Memory statuses: what the table has settled is verified; anything else,
// including every entry not asked verified, is a hypothesis.
const (
	MemoryHypothesis = "hypothesis"
	MemoryVerified   = "verified"
)

// ErrNoMemory is returned for a memory id that is not in the index.
var ErrNoMemory = errors.New("no such memory entry")

// Memory is one entry of long-term memory: a value for a key in a scope,
// with where it came from, whether it is verified and the entry it
// replaced.
type Memory struct {
	ID    string `json:"id"`
	Scope string `json:"scope"` // campaign, player:NAME or session:N
	Key   string `json:"key"`
	Value string `json:"value"`
	// Source is note:PATH@SHA256 (the note's stored version when the
	// entry was made) or stated:ROLE:NAME@DATE.
	Source     string `json:"source"`
	Status     string `json:"status"`
	Supersedes string `json:"supersedes"` // the id of the entry this one replaced, or ""
	Created    string `json:"created"`    // RFC 3339, UTC
	Author     string `json:"author"`
	Active     bool   `json:"active"`
}

// ValidMemoryScope reports whether scope is campaign, player:NAME or
// session:N with N a positive integer; the error names the scope.
func ValidMemoryScope(scope string) error {
	if scope == "campaign" {
		return nil
	}
	if name, ok := strings.CutPrefix(scope, "player:"); ok && strings.TrimSpace(name) != "" {
		return nil
	}
	if n, ok := strings.CutPrefix(scope, "session:"); ok {
		if v, err := strconv.Atoi(n); err == nil && v > 0 && strconv.Itoa(v) == n {
			return nil
		}
	}
	return fmt.Errorf("memory scope %q: want campaign, player:NAME or session:N (N a positive integer)", scope)
}

// checkMemorySource checks a source: a note of the index at its stored
// version, or a statement with a role, a name and a date.
func checkMemorySource(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, source string) error {
	if rest, ok := strings.CutPrefix(source, "note:"); ok {
		at := strings.LastIndex(rest, "@")
		if at <= 0 || at == len(rest)-1 {
			return fmt.Errorf("memory source %q: want note:PATH@SHA256", source)
		}
		path, sum := rest[:at], rest[at+1:]
		var stored string
		err := q.QueryRowContext(ctx, `SELECT sha256 FROM documents WHERE path = ? ORDER BY sha256 = ? DESC LIMIT 1`, path, sum).Scan(&stored)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("memory source %q: note %q is not in the index", source, path)
		}
		if err != nil {
			return fmt.Errorf("checking memory source %q: %w", source, err)
		}
		if stored != sum {
			return fmt.Errorf("memory source %q: the stored version of %q has sha256 %s", source, path, stored)
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(source, "stated:"); ok {
		who, date, ok := strings.Cut(rest, "@")
		role, name, ok2 := strings.Cut(who, ":")
		if ok && ok2 && role != "" && name != "" {
			if _, err := time.Parse(time.DateOnly, date); err == nil {
				return nil
			}
		}
		return fmt.Errorf("memory source %q: want stated:ROLE:NAME@YYYY-MM-DD", source)
	}
	return fmt.Errorf("memory source %q: want note:PATH@SHA256 or stated:ROLE:NAME@DATE", source)
}

const memoryColumns = `id, scope, key, value, source, status, supersedes, created, author, active`

func scanMemory(row interface{ Scan(...any) error }) (Memory, error) {
	var m Memory
	err := row.Scan(&m.ID, &m.Scope, &m.Key, &m.Value, &m.Source, &m.Status, &m.Supersedes, &m.Created, &m.Author, &m.Active)
	return m, err
}

// AddMemory stores a new active entry and returns it with its id and
// creation time. Its status is a hypothesis unless verified. A (scope,
// key) that already has an active entry is an error naming that entry:
// a new value for it supersedes the old one ([Index.SupersedeMemory]).
func (ix *Index) AddMemory(ctx context.Context, m Memory, verified bool) (Memory, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	defer tx.Rollback()
	if err := ValidMemoryScope(m.Scope); err != nil {
		return Memory{}, err
	}
	var active string
	err = tx.QueryRowContext(ctx, `SELECT id FROM memory WHERE scope = ? AND key = ? AND active`, m.Scope, m.Key).Scan(&active)
	if err == nil {
		return Memory{}, fmt.Errorf("memory %q in scope %q already has an active entry, %s: supersede it instead", m.Key, m.Scope, active)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	m.Supersedes = ""
	m.Status = MemoryHypothesis
	if verified {
		m.Status = MemoryVerified
	}
	if m, err = insertMemory(ctx, tx, m); err != nil {
		return Memory{}, err
	}
	if err := tx.Commit(); err != nil {
		return Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	return m, nil
}

// insertMemory checks m and stores it as active with the next id.
func insertMemory(ctx context.Context, tx *sql.Tx, m Memory) (Memory, error) {
	if strings.TrimSpace(m.Key) == "" {
		return Memory{}, errors.New("adding memory: the key is empty")
	}
	if strings.TrimSpace(m.Value) == "" {
		return Memory{}, fmt.Errorf("adding memory %q: the value is empty", m.Key)
	}
	if err := checkMemorySource(ctx, tx, m.Source); err != nil {
		return Memory{}, err
	}
	// Ids count up and are never reused, even after a forget: an id
	// someone wrote down never names another entry.
	var seq int
	err := tx.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'memory_seq'`).Scan(&seq)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	seq++
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('memory_seq', ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, strconv.Itoa(seq)); err != nil {
		return Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
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
				return Memory{}, fmt.Errorf("memory %q in scope %q already has an active entry, %s: supersede it instead", m.Key, m.Scope, active)
			}
		}
		return Memory{}, fmt.Errorf("adding memory %q in scope %q: %w", m.Key, m.Scope, err)
	}
	return m, nil
}

// Memory returns the entry with the given id, or an error wrapping
// [ErrNoMemory].
func (ix *Index) Memory(ctx context.Context, id string) (Memory, error) {
	return memoryByID(ctx, ix.db, id)
}

func memoryByID(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (Memory, error) {
	m, err := scanMemory(q.QueryRowContext(ctx, `SELECT `+memoryColumns+` FROM memory WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Memory{}, fmt.Errorf("memory %q: %w", id, ErrNoMemory)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("reading memory %q: %w", id, err)
	}
	return m, nil
}

// Memories returns the entries of scope (every scope when it is empty),
// only the active ones unless all, by scope, key and id.
func (ix *Index) Memories(ctx context.Context, scope string, all bool) ([]Memory, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT `+memoryColumns+` FROM memory
		WHERE (? = '' OR scope = ?) AND (? OR active)
		ORDER BY scope, key, CAST(substr(id, 2) AS INTEGER)`, scope, scope, all)
	if err != nil {
		return nil, fmt.Errorf("listing memory: %w", err)
	}
	defer rows.Close()
	var ms []Memory
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
func (ix *Index) MemoryChain(ctx context.Context, id string) ([]Memory, error) {
	var chain []Memory
	seen := map[string]bool{}
	for id != "" && !seen[id] {
		seen[id] = true
		m, err := ix.Memory(ctx, id)
		if err != nil {
			if len(chain) > 0 && errors.Is(err, ErrNoMemory) {
				break
			}
			return nil, err
		}
		chain = append(chain, m)
		id = m.Supersedes
	}
	return chain, nil
}

// VerifyMemory marks an entry verified.
func (ix *Index) VerifyMemory(ctx context.Context, id string) error {
	res, err := ix.db.ExecContext(ctx, `UPDATE memory SET status = ? WHERE id = ?`, MemoryVerified, id)
	if err != nil {
		return fmt.Errorf("verifying memory %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("verifying memory %q: %w", id, ErrNoMemory)
	}
	return nil
}

// SupersedeMemory replaces the active entry id with a new one holding
// value, in one transaction: the new entry is active, names id in
// supersedes, and keeps its scope, key and status unless given in m
// (m.Source, m.Author; verified makes it verified); id becomes inactive.
func (ix *Index) SupersedeMemory(ctx context.Context, id, value string, m Memory, verified bool) (Memory, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	defer tx.Rollback()
	old, err := memoryByID(ctx, tx, id)
	if err != nil {
		return Memory{}, fmt.Errorf("superseding: %w", err)
	}
	if !old.Active {
		return Memory{}, fmt.Errorf("superseding memory %q: it is no longer active", id)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memory SET active = 0 WHERE id = ?`, id); err != nil {
		return Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	next := Memory{Scope: old.Scope, Key: old.Key, Value: value, Source: m.Source, Author: m.Author,
		Status: MemoryHypothesis, Supersedes: id}
	if next.Source == "" {
		next.Source = old.Source
	}
	if verified {
		next.Status = MemoryVerified
	}
	if next, err = insertMemory(ctx, tx, next); err != nil {
		return Memory{}, err
	}
	if err := tx.Commit(); err != nil {
		return Memory{}, fmt.Errorf("superseding memory %q: %w", id, err)
	}
	return next, nil
}

// ForgetMemory deletes an entry for good, in one transaction, with every
// link to it: an entry that superseded it no longer names it. Forgetting
// the active entry of a (scope, key) leaves it with none.
func (ix *Index) ForgetMemory(ctx context.Context, id string) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM memory WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("forgetting memory %q: %w", id, ErrNoMemory)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memory SET supersedes = '' WHERE supersedes = ?`, id); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	return nil
}
