package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/compendium"
	"github.com/oraculo/oraculo/enrich"
)

// CompendiumFile is the name of the user's own compendium in a notes folder.
const CompendiumFile = enrich.CompendiumFile

// CompendiumEntry is one entity as `oraculo compendium` shows it.
type CompendiumEntry = compendium.Entry

// Compendium lists the entities, with where each is mentioned: for a
// player, the players' compendium (built from the notes they may see),
// empty while a note it was built from has become DM-only and no complete
// ingest has rebuilt it (it would still name what that note names).
func (e *Engine) Compendium(ctx context.Context) ([]CompendiumEntry, error) {
	return compendium.List(ctx, e.idx, isPlayer(ctx))
}

// FindEntity returns the entry whose name or alias matches name (case- and
// accent-insensitively), or false.
func (e *Engine) FindEntity(ctx context.Context, name string) (CompendiumEntry, bool, error) {
	all, err := e.Compendium(ctx)
	if err != nil {
		return CompendiumEntry{}, false, err
	}
	en, ok := compendium.Lookup(all, name)
	return en, ok, nil
}
