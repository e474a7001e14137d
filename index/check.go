package index

import (
	"context"
	"fmt"
)

// Check verifies the index's consistency: SQLite's own integrity and
// foreign-key checks, the full-text index against its paragraphs, and that
// every paragraph has its chunk and every chunk its document.
func (ix *Index) Check(ctx context.Context) error {
	var res string
	if err := ix.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
		return fmt.Errorf("checking index %q: %w", ix.path, err)
	}
	if res != "ok" {
		return fmt.Errorf("index %q is damaged: %s", ix.path, res)
	}
	rows, err := ix.db.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return fmt.Errorf("checking index %q: %w", ix.path, err)
	}
	bad := rows.Next()
	rows.Close()
	if bad {
		return fmt.Errorf("index %q has rows pointing to missing parents", ix.path)
	}
	if _, err := ix.db.ExecContext(ctx, `INSERT INTO children_fts(children_fts) VALUES('integrity-check')`); err != nil {
		return fmt.Errorf("index %q: full-text index is damaged: %w", ix.path, err)
	}
	var children, indexed, orphans int
	err = ix.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM children),
		(SELECT count(*) FROM children_fts),
		(SELECT count(*) FROM children c LEFT JOIN chunks k ON k.id = c.chunk_id WHERE k.id IS NULL)`).Scan(&children, &indexed, &orphans)
	if err != nil {
		return fmt.Errorf("checking index %q: %w", ix.path, err)
	}
	if children != indexed {
		return fmt.Errorf("index %q: %d paragraphs but %d full-text rows", ix.path, children, indexed)
	}
	if orphans != 0 {
		return fmt.Errorf("index %q: %d paragraphs point to missing chunks", ix.path, orphans)
	}
	return nil
}
