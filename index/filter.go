package index

import (
	"context"
	"fmt"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// filterWhere returns f as an SQL condition on a chunk k of a document d,
// with its arguments ("1" for the zero filter). Folders match at the start
// of a note's path, whatever the case; tags whatever the case, in a
// front-matter list or a comma-separated string.
func filterWhere(f store.Filter) (string, []any) {
	var conds []string
	var args []any
	if len(f.Sessions) > 0 {
		conds = append(conds, `k.session IN (?`+strings.Repeat(", ?", len(f.Sessions)-1)+`)`)
		for _, s := range f.Sessions {
			args = append(args, s)
		}
	}
	if len(f.Folders) > 0 {
		var or []string
		for _, p := range f.Folders {
			p = strings.ToLower(strings.Trim(strings.TrimPrefix(strings.ReplaceAll(p, "\\", "/"), "./"), "/"))
			or = append(or, `lower(d.path) = ? OR substr(lower(d.path), 1, ?) = ?`)
			args = append(args, p, len([]rune(p))+1, p+"/")
		}
		conds = append(conds, "("+strings.Join(or, " OR ")+")")
	}
	if len(f.Tags) > 0 {
		var or []string
		for _, t := range f.Tags {
			t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#"))
			or = append(or, `EXISTS (SELECT 1 FROM json_each(d.metadata, '$.tags') j
				WHERE lower(trim(j.value)) = ? OR (j.type = 'text' AND (',' || replace(lower(j.value), ' ', '') || ',') LIKE ?))`)
			args = append(args, t, "%,"+strings.ReplaceAll(t, " ", "")+",%")
		}
		conds = append(conds, "("+strings.Join(or, " OR ")+")")
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

// FilterChunks returns the ids of the chunks f lets through.
func (ix *Index) FilterChunks(ctx context.Context, f store.Filter) (map[int64]bool, error) {
	cond, args := filterWhere(f)
	rows, err := ix.db.QueryContext(ctx, `SELECT k.id FROM chunks k JOIN documents d ON d.id = k.doc_id WHERE `+cond, args...)
	if err != nil {
		return nil, fmt.Errorf("filtering chunks: %w", err)
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("filtering chunks: %w", err)
		}
		out[id] = true
	}
	return out, rows.Err()
}

// Sessions returns the session numbers the index holds, ascending; public
// counts only the sessions of notes players may see. It reads the table
// of each note's sessions (note_sessions), not the chunks.
func (ix *Index) Sessions(ctx context.Context, public bool) ([]int, error) {
	vis := ""
	if public {
		vis = " AND restricted = 0"
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT session FROM note_sessions WHERE session >= 0`+vis+` ORDER BY session`)
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var s int
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("listing sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
