package summary

import "context"

// DMOnly counts the DM-only notes.
type DMOnly struct {
	Notes int `json:"notes"`
	// ByReason counts them by what made them DM-only: "folder" (a secret
	// folder), "link" (a link into one), "front-matter", "tag", "unclear"
	// (a visibility setting that was not understood), "unknown" (not
	// decided yet).
	ByReason      map[string]int `json:"by_reason"`
	SecretFolders []string       `json:"secret_folders"`
	// PlayersCompendium is "withheld" while the players' compendium waits
	// for a complete ingest to rebuild it, else "ok".
	PlayersCompendium string `json:"players_compendium"`
}

// DMOnlySource is what [DMOnlyOf] reads of the store.
type DMOnlySource interface {
	DMOnlyCounts(ctx context.Context) (map[string]int, error)
	PlayersCompendiumStale(ctx context.Context) (bool, error)
}

// DMOnlyOf counts the DM-only notes of src by reason, with the secret
// folders folders resolves, and says whether the players' compendium is
// withheld.
func DMOnlyOf(ctx context.Context, src DMOnlySource, folders func(context.Context) ([]string, error)) (DMOnly, error) {
	dm := DMOnly{PlayersCompendium: "ok"}
	var err error
	if dm.ByReason, err = src.DMOnlyCounts(ctx); err != nil {
		return DMOnly{}, err
	}
	for _, n := range dm.ByReason {
		dm.Notes += n
	}
	if dm.SecretFolders, err = folders(ctx); err != nil {
		return DMOnly{}, err
	}
	stale, err := src.PlayersCompendiumStale(ctx)
	if err != nil {
		return DMOnly{}, err
	}
	if stale {
		dm.PlayersCompendium = "withheld"
	}
	return dm, nil
}
