package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/oraculo/oraculo/store"
)

// Readers leave out every note whose restricted flag is not 0: DM-only
// notes and notes whose visibility is not decided yet (fail closed).

// playersCompendiumStale is the meta key set while the players' compendium
// may name what players may no longer see.
const playersCompendiumStale = "players_compendium_stale"

func markPlayersCompendiumStale(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, '1') ON CONFLICT(key) DO UPDATE SET value = '1'`, playersCompendiumStale)
	return err
}

// PlayersCompendiumStale reports whether the players' compendium must not
// be served: a note it was built from has become DM-only since (or the
// index was written by a version that did not know), until the next
// complete ingest rebuilds it.
func (ix *Index) PlayersCompendiumStale(ctx context.Context) (bool, error) {
	v, err := ix.Meta(ctx, playersCompendiumStale)
	return v != "", err
}

// Redecide decides every note again, in one transaction that also stores
// meta (the rules and folders the decisions follow): either every note
// follows the new rules afterwards, or none does. It returns how many
// notes changed audience.
func (ix *Index) Redecide(ctx context.Context, decide store.Decider, meta map[string]string) (int, error) {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("deciding who may see each note: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, root, path, link, metadata, front_raw, restricted, dm_reason, dm_detail FROM documents`)
	if err != nil {
		return 0, fmt.Errorf("deciding who may see each note: %w", err)
	}
	type change struct {
		id             int64
		dmOnly         bool
		reason, detail string
	}
	var changes []change
	becameSecret, flips := false, 0
	for rows.Next() {
		var id int64
		var r store.VisibilityRecord
		var meta string
		var restricted int
		if err := rows.Scan(&id, &r.Root, &r.Path, &r.Link, &meta, &r.FrontRaw, &restricted, &r.Reason, &r.Detail); err != nil {
			rows.Close()
			return 0, fmt.Errorf("deciding who may see each note: %w", err)
		}
		r.Metadata, r.DMOnly = json.RawMessage(meta), restricted != 0
		dm, reason, detail := decide(r)
		if !dm {
			reason, detail = "", ""
		}
		if dm != r.DMOnly || reason != r.Reason || detail != r.Detail {
			changes = append(changes, change{id, dm, reason, detail})
			becameSecret = becameSecret || (dm && !r.DMOnly)
			if dm != r.DMOnly {
				flips++
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("deciding who may see each note: %w", err)
	}
	upd, err := tx.PrepareContext(ctx, `UPDATE documents SET restricted = ?, dm_reason = ?, dm_detail = ? WHERE id = ?`)
	if err != nil {
		return 0, fmt.Errorf("deciding who may see each note: %w", err)
	}
	defer upd.Close()
	for _, c := range changes {
		if _, err := upd.ExecContext(ctx, c.dmOnly, c.reason, c.detail, c.id); err != nil {
			return 0, fmt.Errorf("deciding who may see each note: %w", err)
		}
	}
	if becameSecret {
		if err := markPlayersCompendiumStale(ctx, tx); err != nil {
			return 0, fmt.Errorf("deciding who may see each note: %w", err)
		}
	}
	for k, v := range meta {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
			return 0, fmt.Errorf("deciding who may see each note: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("deciding who may see each note: %w", err)
	}
	return flips, nil
}

// DMOnlyCounts counts the DM-only notes by reason.
func (ix *Index) DMOnlyCounts(ctx context.Context) (map[string]int, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT dm_reason, count(*) FROM documents WHERE restricted != 0 GROUP BY dm_reason`)
	if err != nil {
		return nil, fmt.Errorf("counting DM-only notes: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var reason string
		var n int
		if err := rows.Scan(&reason, &n); err != nil {
			return nil, fmt.Errorf("counting DM-only notes: %w", err)
		}
		out[reason] = n
	}
	return out, rows.Err()
}
