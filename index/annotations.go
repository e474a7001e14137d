package index

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/oraculo/oraculo/store"
)

// PendingAnnotations lists, once per distinct text, the chunks that have
// no annotation yet for model and prompt version, in a stable order.
func (ix *Index) PendingAnnotations(ctx context.Context, model, prompt string) ([]store.AnnotateJob, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT k.embed_hash, k.headings, k.text FROM chunks k
		WHERE k.embed_hash != '' AND NOT EXISTS (SELECT 1 FROM annotations a
			WHERE a.hash = k.embed_hash AND a.model = ? AND a.prompt = ?)
		GROUP BY k.embed_hash ORDER BY min(k.id)`, model, prompt)
	if err != nil {
		return nil, fmt.Errorf("listing chunks to annotate: %w", err)
	}
	defer rows.Close()
	var jobs []store.AnnotateJob
	for rows.Next() {
		var j store.AnnotateJob
		var headings string
		if err := rows.Scan(&j.Hash, &headings, &j.Text); err != nil {
			return nil, fmt.Errorf("listing chunks to annotate: %w", err)
		}
		if err := jsonUnmarshalStrings(headings, &j.Headings); err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	return jobs, rows.Err()
}

// PutAnnotation stores one annotation (replacing an older one for the same
// key). An empty text is refused: a chunk without annotation stays pending.
func (ix *Index) PutAnnotation(ctx context.Context, model, prompt, hash, text string) error {
	text = strings.TrimSpace(text)
	if text == "" {
		return fmt.Errorf("storing the annotation of %s: empty text", hash)
	}
	_, err := ix.db.ExecContext(ctx, `INSERT INTO annotations(hash, model, prompt, text, created_at) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(hash, model, prompt) DO UPDATE SET text = excluded.text, created_at = excluded.created_at`,
		hash, model, prompt, text, time.Now().Unix())
	if err != nil {
		return fmt.Errorf("storing the annotation of %s: %w", hash, err)
	}
	return nil
}

// Annotations returns the annotations of the given chunks for model and
// prompt version, by chunk id; chunks without one are absent.
func (ix *Index) Annotations(ctx context.Context, model, prompt string, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := []any{model, prompt}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT k.id, a.text FROM chunks k
		JOIN annotations a ON a.hash = k.embed_hash AND a.model = ? AND a.prompt = ?
		WHERE k.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading annotations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("reading annotations: %w", err)
		}
		out[id] = text
	}
	return out, rows.Err()
}

// PruneAnnotations deletes annotations that no chunk uses any more, of any
// model, and returns how many went.
func (ix *Index) PruneAnnotations(ctx context.Context) (int64, error) {
	res, err := ix.db.ExecContext(ctx, `DELETE FROM annotations WHERE hash NOT IN (SELECT embed_hash FROM chunks)`)
	if err != nil {
		return 0, fmt.Errorf("pruning annotations: %w", err)
	}
	return res.RowsAffected()
}

// AnnotationCounts returns how many annotations each model and prompt
// version has, keyed "model prompt".
func (ix *Index) AnnotationCounts(ctx context.Context) (map[string]int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT model || ' ' || prompt, count(*) FROM annotations GROUP BY 1`)
	if err != nil {
		return nil, fmt.Errorf("counting annotations: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}
