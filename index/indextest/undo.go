// Package indextest helps tests that make an index look as an older
// program left it: Undo takes away what the newest migrations added, so
// that opening the file runs them again.
package indextest

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
)

// undo[v] takes away what the migration to schema v added (the version
// the index package writes after it ran), newest objects first. Every
// migration from 15 on has an entry (TestUndoCoversEveryMigration).
var undo = map[int][]string{
	15: { // the sessions of each note (issue 31: the first query as fast as the next)
		`DROP TRIGGER note_sessions_insert`, `DROP TRIGGER note_sessions_delete`, `DROP TRIGGER note_sessions_move`,
		`DROP TRIGGER note_sessions_visibility`, `DROP TRIGGER units_insert`, `DROP TRIGGER units_delete`,
		`DROP TRIGGER units_visibility`, `DROP TABLE units`, `DROP TABLE note_sessions`,
	},
	16: { // the compendium's sums (issue 31: an edit costs the note)
		`DROP INDEX compendium_notes_state`, `DROP TABLE compendium_structure`, `DROP TRIGGER compendium_notes_gone`,
		`DROP TABLE compendium_gone`, `DROP TABLE compendium_lower`, `DROP TABLE compendium_names`,
		`DELETE FROM meta WHERE key = 'compendium_sums'`,
	},
	17: { // the stamps of the files notes were read from (issue 31b: an unchanged re-ingest reads no file)
		`DROP TABLE file_stamps`,
	},
}

// First is the oldest schema Undo can go back to.
const First = 14

// Undo takes away, newest first, what the migrations after schema
// version "to" added, and sets the file's version to it. The caller goes
// on from there to older versions by hand, as each test needs.
func Undo(ctx context.Context, db *sql.DB, to int) error {
	var now int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&now); err != nil {
		return err
	}
	if to < First {
		to = First
	}
	for v := now; v > to; v-- {
		stmts, ok := undo[v]
		if !ok {
			return fmt.Errorf("indextest: no undo for schema %d: add one beside its migration", v)
		}
		for _, q := range stmts {
			if _, err := db.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("indextest: undoing schema %d: %s: %w", v, q, err)
			}
		}
	}
	_, err := db.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, to))
	return err
}

// Versions lists the schema versions Undo knows, ascending.
func Versions() []int {
	var vs []int
	for v := range undo {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}
