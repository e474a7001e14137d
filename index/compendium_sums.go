package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oraculo/oraculo/store"
)

// compendiumSumsKey is the setting that says the compendium's sums must be
// filled again (schema v16).
const compendiumSumsKey = "compendium_sums"

// CompendiumChanges lists the notes removed or rewritten since the
// compendium's sums were updated, and those whose visibility changed, with
// their facts.
func (ix *Index) CompendiumChanges(ctx context.Context) (store.CompendiumChanges, error) {
	var ch store.CompendiumChanges
	stale, err := ix.Meta(ctx, compendiumSumsKey)
	if err != nil {
		return ch, err
	}
	if ch.Stale = stale != ""; ch.Stale {
		return ch, nil
	}
	scan := func(q string) ([]store.NoteFacts, error) {
		rows, err := ix.db.QueryContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("reading the compendium's notes: %w", err)
		}
		defer rows.Close()
		var out []store.NoteFacts
		for rows.Next() {
			var f store.NoteFacts
			if err := rows.Scan(&f.DocID, &f.Restricted, &f.Data, &f.Lower); err != nil {
				return nil, fmt.Errorf("reading the compendium's notes: %w", err)
			}
			out = append(out, f)
		}
		return out, rows.Err()
	}
	if ch.Gone, err = scan(`SELECT doc_id, restricted, facts, lower FROM compendium_gone ORDER BY doc_id`); err != nil {
		return ch, err
	}
	// The flipped notes found through the notes' state index, then read.
	ch.Flipped, err = scan(`SELECT c.doc_id, d.restricted, c.facts, c.lower FROM compendium_notes c
		JOIN documents d ON d.id = c.doc_id WHERE c.doc_id IN (` + flippedNotes + `) ORDER BY c.doc_id`)
	return ch, err
}

// UpdateCompendiumSums changes the compendium's sums and the notes they
// were summed from, in one transaction; the sums are then up to date
// (every stored note's facts summed).
func (ix *Index) UpdateCompendiumSums(ctx context.Context, up store.CompendiumSumsUpdate) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storing the compendium's sums: %w", err)
	}
	defer tx.Rollback()
	if err := bulkWrite(ctx, tx); err != nil {
		return fmt.Errorf("storing the compendium's sums: %w", err)
	}
	if up.Fill {
		err = fillNotes(ctx, tx, up.Structures)
	} else {
		err = changeNotes(ctx, tx, up)
	}
	if err != nil {
		return fmt.Errorf("storing the compendium's sums: %w", err)
	}
	for scope, sums := range []store.NoteSums{up.All, up.DMOnly} {
		if err := addSums(ctx, tx, scope, sums); err != nil {
			return fmt.Errorf("storing the compendium's sums: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, compendiumSumsKey); err != nil {
		return fmt.Errorf("storing the compendium's sums: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storing the compendium's sums: %w", err)
	}
	return nil
}

// fillNotes empties the sums and sets every note's visibility (pending
// where it changed) and structure, for sums filled anew.
func fillNotes(ctx context.Context, tx *sql.Tx, structures map[int64][]byte) error {
	for _, q := range []string{`DELETE FROM compendium_names`, `DELETE FROM compendium_lower`, `DELETE FROM compendium_gone`,
		`DELETE FROM compendium_structure`, `UPDATE compendium_notes SET matched = 0,
		restricted = (SELECT restricted FROM documents WHERE id = compendium_notes.doc_id)
		WHERE doc_id IN (` + flippedNotes + `)`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	for id, s := range structures {
		if err := putStructure(ctx, tx, id, s); err != nil {
			return err
		}
	}
	return nil
}

// putStructure stores what the compendium reads of a note besides the
// sums, if anything.
func putStructure(ctx context.Context, tx *sql.Tx, docID int64, data []byte) error {
	if len(data) == 0 {
		_, err := tx.ExecContext(ctx, `DELETE FROM compendium_structure WHERE doc_id = ?`, docID)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO compendium_structure(doc_id, data) VALUES(?, ?)`, docID, data)
	return err
}

// changeNotes forgets the notes gone and records the flipped notes'
// visibility, their mentions pending.
func changeNotes(ctx context.Context, tx *sql.Tx, up store.CompendiumSumsUpdate) error {
	for _, id := range up.Gone {
		if _, err := tx.ExecContext(ctx, `DELETE FROM compendium_gone WHERE doc_id = ?`, id); err != nil {
			return err
		}
	}
	for _, f := range up.Flipped {
		if _, err := tx.ExecContext(ctx, `UPDATE compendium_notes SET restricted = ?, matched = 0 WHERE doc_id = ?`, f.Restricted, f.DocID); err != nil {
			return err
		}
	}
	return nil
}

// addSums adds sums to a scope's, dropping the names and words that reach
// zero.
func addSums(ctx context.Context, tx *sql.Tx, scope int, sums store.NoteSums) error {
	var empty bool
	if err := tx.QueryRowContext(ctx, `SELECT NOT EXISTS (SELECT 1 FROM compendium_names WHERE scope = ?)
		AND NOT EXISTS (SELECT 1 FROM compendium_lower WHERE scope = ?)`, scope, scope).Scan(&empty); err != nil {
		return err
	}
	if empty {
		return insertSums(ctx, tx, scope, sums)
	}
	if len(sums.Names) > 0 {
		up, err := tx.PrepareContext(ctx, `INSERT INTO compendium_names(scope, surface, flags, mentions, notes, idsum) VALUES(?, ?, ?, ?, ?, ?)
			ON CONFLICT(scope, surface, flags) DO UPDATE SET mentions = mentions + excluded.mentions,
			notes = notes + excluded.notes, idsum = idsum + excluded.idsum RETURNING notes`)
		if err != nil {
			return err
		}
		defer up.Close()
		del, err := tx.PrepareContext(ctx, `DELETE FROM compendium_names WHERE scope = ? AND surface = ? AND flags = ?`)
		if err != nil {
			return err
		}
		defer del.Close()
		for _, n := range sums.Names {
			flags := nameFlags(n)
			var left int
			if err := up.QueryRowContext(ctx, scope, n.Surface, flags, n.Mentions, n.Notes, int64(n.IDSum)).Scan(&left); err != nil {
				return err
			}
			if left <= 0 {
				if _, err := del.ExecContext(ctx, scope, n.Surface, flags); err != nil {
					return err
				}
			}
		}
	}
	if len(sums.Lower) == 0 {
		return nil
	}
	up, err := tx.PrepareContext(ctx, `INSERT INTO compendium_lower(scope, word, count) VALUES(?, ?, ?)
		ON CONFLICT(scope, word) DO UPDATE SET count = count + excluded.count RETURNING count`)
	if err != nil {
		return err
	}
	defer up.Close()
	del, err := tx.PrepareContext(ctx, `DELETE FROM compendium_lower WHERE scope = ? AND word = ?`)
	if err != nil {
		return err
	}
	defer del.Close()
	for w, n := range sums.Lower {
		if n == 0 {
			continue
		}
		var left int
		if err := up.QueryRowContext(ctx, scope, w, n).Scan(&left); err != nil {
			return err
		}
		if left <= 0 {
			if _, err := del.ExecContext(ctx, scope, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// sumRows is how many sums one statement of insertSums inserts.
const sumRows = 200

// insertSums inserts sums into a scope that has none (a first ingest),
// many rows a statement.
func insertSums(ctx context.Context, tx *sql.Tx, scope int, sums store.NoteSums) error {
	// In key order: each row goes at the end of the table.
	names := slices.Clone(sums.Names)
	slices.SortFunc(names, func(a, b store.NameSum) int {
		return cmp.Or(strings.Compare(a.Surface, b.Surface), nameFlags(a)-nameFlags(b))
	})
	var rows []any
	flush := func(table, cols string, n int) error {
		if len(rows) == 0 {
			return nil
		}
		one := "(" + strings.Repeat("?, ", n-1) + "?)"
		_, err := tx.ExecContext(ctx, `INSERT INTO `+table+`(`+cols+`) VALUES `+one+strings.Repeat(", "+one, len(rows)/n-1), rows...)
		rows = rows[:0]
		return err
	}
	for _, x := range names {
		if x.Notes > 0 {
			rows = append(rows, scope, x.Surface, nameFlags(x), x.Mentions, x.Notes, int64(x.IDSum))
		}
		if len(rows) >= 6*sumRows {
			if err := flush("compendium_names", "scope, surface, flags, mentions, notes, idsum", 6); err != nil {
				return err
			}
		}
	}
	if err := flush("compendium_names", "scope, surface, flags, mentions, notes, idsum", 6); err != nil {
		return err
	}
	for _, w := range slices.Sorted(maps.Keys(sums.Lower)) {
		if n := sums.Lower[w]; n > 0 {
			rows = append(rows, scope, w, n)
		}
		if len(rows) >= 3*sumRows {
			if err := flush("compendium_lower", "scope, word, count", 3); err != nil {
				return err
			}
		}
	}
	return flush("compendium_lower", "scope, word, count", 3)
}

func nameFlags(n store.NameSum) int {
	flags := 0
	if n.Start {
		flags |= 1
	}
	if n.Date {
		flags |= 2
	}
	return flags
}

// EachCompendiumNote calls fn with every note whose facts are stored, in
// path order, with its structure but not its facts.
func (ix *Index) EachCompendiumNote(ctx context.Context, fn func(store.NoteFacts) error) error {
	return ix.eachNote(ctx, `SELECT d.id, d.root, d.path, d.title, d.metadata, d.restricted, coalesce(s.data, x'')
		FROM documents d LEFT JOIN compendium_structure s ON s.doc_id = d.id
		WHERE d.id IN (`+summedNotes+`) ORDER BY d.root, d.path`,
		func(f *store.NoteFacts) *[]byte { return &f.Structure }, fn)
}

// CompendiumNames calls fn with the stored sums of the capitalised
// sequences, over every note and over the DM-only notes.
func (ix *Index) CompendiumNames(ctx context.Context, fn func(dmOnly bool, s store.NameSum) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT scope, surface, flags, mentions, notes, idsum FROM compendium_names`)
	if err != nil {
		return fmt.Errorf("reading the compendium's sums: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s store.NameSum
		var scope, flags int
		var idsum int64
		if err := rows.Scan(&scope, &s.Surface, &flags, &s.Mentions, &s.Notes, &idsum); err != nil {
			return fmt.Errorf("reading the compendium's sums: %w", err)
		}
		s.Start, s.Date, s.IDSum = flags&1 != 0, flags&2 != 0, uint64(idsum)
		if err := fn(scope == 1, s); err != nil {
			return err
		}
	}
	return rows.Err()
}

// lowerBatch is how many words one query of CompendiumLower looks up.
const lowerBatch = 500

// CompendiumLower returns the stored lowercase counts of words, over every
// note and over the DM-only notes.
func (ix *Index) CompendiumLower(ctx context.Context, words []string) (all, dmOnly map[string]int, err error) {
	all, dmOnly = map[string]int{}, map[string]int{}
	for len(words) > 0 {
		n := min(len(words), lowerBatch)
		args := make([]any, n)
		for i, w := range words[:n] {
			args[i] = w
		}
		words = words[n:]
		rows, err := ix.db.QueryContext(ctx, `SELECT scope, word, count FROM compendium_lower
			WHERE scope IN (0, 1) AND word IN (?`+strings.Repeat(", ?", n-1)+`)`, args...)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the compendium's sums: %w", err)
		}
		for rows.Next() {
			var scope, count int
			var w string
			if err := rows.Scan(&scope, &w, &count); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("reading the compendium's sums: %w", err)
			}
			if scope == 1 {
				dmOnly[w] = count
			} else {
				all[w] = count
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("reading the compendium's sums: %w", err)
		}
	}
	return all, dmOnly, nil
}
