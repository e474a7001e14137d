package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/oraculo/oraculo/store"
)

const chunkColumns = `k.id, k.uid, d.root, d.path, d.title, d.visibility, d.restricted, k.ordinal, k.session, k.headings, k.label,
	k.word_start, k.word_end, k.byte_start, k.byte_end, k.page_start, k.page_end, k.text, k.hash`

func scanChunk(rows *sql.Rows) (store.Chunk, error) {
	var c store.Chunk
	var session sql.NullInt64
	var headings string
	err := rows.Scan(&c.ID, &c.UID, &c.Root, &c.Path, &c.DocTitle, &c.Visibility, &c.Restricted, &c.Ordinal, &session, &headings,
		&c.Label, &c.WordStart, &c.WordEnd, &c.ByteStart, &c.ByteEnd, &c.PageStart, &c.PageEnd, &c.Text, &c.Hash)
	if err != nil {
		return c, err
	}
	if session.Valid {
		c.Session, c.InSession = int(session.Int64), true
	}
	if err := jsonUnmarshalStrings(headings, &c.Headings); err != nil {
		return c, fmt.Errorf("chunk %d: %w", c.ID, err)
	}
	return c, nil
}

func jsonUnmarshalStrings(s string, dst *[]string) error {
	if plainStrings(s, dst) {
		return nil
	}
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		return fmt.Errorf("malformed heading path %q: %w", s, err)
	}
	return nil
}

// plainStrings decodes s into dst when it is a JSON array of strings as
// json.Marshal writes it without escapes (every heading path but those
// with quotes, backslashes, control characters or <>&), and reports
// whether it did; json.Unmarshal gives the same. It was 1.5% of a
// keyword search's CPU at 100k chunks, reading 160 heading paths.
func plainStrings(s string, dst *[]string) bool {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || strings.IndexByte(s, '\\') >= 0 || !utf8.ValidString(s) {
		return false
	}
	inner := s[1 : len(s)-1]
	if inner == "" {
		*dst = []string{}
		return true
	}
	if len(inner) < 2 || inner[0] != '"' || inner[len(inner)-1] != '"' {
		return false
	}
	parts := strings.Split(inner[1:len(inner)-1], `","`)
	for _, p := range parts {
		if strings.IndexByte(p, '"') >= 0 || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 }) {
			return false
		}
	}
	*dst = parts
	return true
}

func (ix *Index) chunksByID(ctx context.Context, ids []int64) (map[int64]store.Chunk, error) {
	return chunksByID(ctx, ix.db, ids)
}

// queryer is a database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func chunksByID(ctx context.Context, db queryer, ids []int64) (map[int64]store.Chunk, error) {
	out := make(map[int64]store.Chunk, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT `+chunkColumns+` FROM json_each(?) j CROSS JOIN chunks k ON k.id = j.value
		JOIN documents d ON d.id = k.doc_id`, jsonIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanChunk(rows)
		if err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
		out[c.ID] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	return out, nil
}

// ListChunks returns every chunk in document order. When prefixes are given,
// only chunks whose document path equals one of them or lies under one of
// them (as a folder) are returned.
func (ix *Index) ListChunks(ctx context.Context, prefixes []string) ([]store.Chunk, error) {
	q := `SELECT ` + chunkColumns + ` FROM chunks k JOIN documents d ON d.id = k.doc_id`
	var args []any
	if len(prefixes) > 0 {
		var conds []string
		for _, p := range prefixes {
			p = strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
			conds = append(conds, `d.path = ? OR substr(d.path, 1, ?) = ?`)
			args = append(args, p, len(p)+1, p+"/")
		}
		q += ` WHERE ` + strings.Join(conds, " OR ")
	}
	q += ` ORDER BY d.root, d.path, k.ordinal`
	rows, err := ix.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("listing chunks: %w", err)
	}
	defer rows.Close()
	var out []store.Chunk
	for rows.Next() {
		c, err := scanChunk(rows)
		if err != nil {
			return nil, fmt.Errorf("listing chunks: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Stats counts what the index holds and measures its files on disk.
func (ix *Index) Stats(ctx context.Context) (store.Stats, error) {
	var s store.Stats
	err := ix.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM documents),
		(SELECT count(DISTINCT session) FROM chunks WHERE session IS NOT NULL),
		(SELECT count(*) FROM chunks),
		(SELECT count(*) FROM children)`).Scan(&s.Documents, &s.Sessions, &s.Chunks, &s.Children)
	if err != nil {
		return s, fmt.Errorf("counting index contents: %w", err)
	}
	s.Schema = SchemaVersion
	if s.DocumentsByType, err = ix.documentsByType(ctx); err != nil {
		return s, err
	}
	if s.Langs, err = ix.NoteLangs(ctx); err != nil {
		return s, err
	}
	if s.Bytes, err = ix.size(ctx); err != nil {
		return s, err
	}
	return s, nil
}

// size is the index's size: its pages, as many as its file holds once the
// write-ahead log is folded into it. The files on disk say more while the
// log is there (until the last connection closes, or a checkpoint), so
// measuring them gave a size after an ingest and another in the next
// command.
func (ix *Index) size(ctx context.Context) (int64, error) {
	var pages, pageSize int64
	if err := ix.db.QueryRowContext(ctx, `SELECT page_count, page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&pages, &pageSize); err != nil {
		return 0, fmt.Errorf("measuring the index: %w", err)
	}
	return pages * pageSize, nil
}

// documentsByType counts the documents by extension.
func (ix *Index) documentsByType(ctx context.Context) (map[string]int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT path FROM documents`)
	if err != nil {
		return nil, fmt.Errorf("counting documents by type: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("counting documents by type: %w", err)
		}
		ext := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
		if ext == "" {
			ext = "none"
		}
		out[ext]++
	}
	return out, rows.Err()
}

// ChunkByUID returns the chunk with the given public id, or with the id
// that an id of before the migration to ids relative to the notes folder
// became (links and memory entries made before name those).
func (ix *Index) ChunkByUID(ctx context.Context, uid string) (store.Chunk, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT `+chunkColumns+` FROM chunks k JOIN documents d ON d.id = k.doc_id
		WHERE k.uid IN (?1, (SELECT uid FROM chunk_aliases WHERE old = ?1)) ORDER BY k.uid = ?1 DESC LIMIT 1`, uid)
	if err != nil {
		return store.Chunk{}, fmt.Errorf("reading chunk %q: %w", uid, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return store.Chunk{}, fmt.Errorf("reading chunk %q: %w", uid, err)
		}
		return store.Chunk{}, fmt.Errorf("%w: %q", store.ErrNoChunk, uid)
	}
	c, err := scanChunk(rows)
	if err != nil {
		return store.Chunk{}, fmt.Errorf("reading chunk %q: %w", uid, err)
	}
	return c, nil
}

// SearchesByLang implements [store.LangCounter]: SearchParagraphs applies
// [BM25Options.Lang].
func (ix *Index) SearchesByLang() bool { return true }

// NoteLangs counts the notes by the language they were analysed in.
func (ix *Index) NoteLangs(ctx context.Context) (map[string]int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT lang, count(*) FROM documents GROUP BY lang`)
	if err != nil {
		return nil, fmt.Errorf("counting notes by language: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var lang string
		var n int
		if err := rows.Scan(&lang, &n); err != nil {
			return nil, fmt.Errorf("counting notes by language: %w", err)
		}
		out[lang] = n
	}
	return out, rows.Err()
}
