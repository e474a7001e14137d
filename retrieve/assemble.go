package retrieve

import (
	"context"
	"fmt"
	"strings"

	"github.com/oraculo/oraculo/analysis"
	"github.com/oraculo/oraculo/embed"
	"github.com/oraculo/oraculo/store"
)

// Sources is what the paths of one search read: keyword search, chunks,
// mentions, and the chunks a filter lets through.
type Sources interface {
	store.KeywordSearcher
	EntitySource
	store.ChunkFilter
}

// Assembly is what choosing a search's paths reads: the store, the notes'
// analysers, who asks and the filter, and the dense and entity paths,
// whose state is loaded only when they are wanted (a BM25-only search
// never reads a vector).
type Assembly struct {
	Index    Sources
	Analyzer *analysis.Analyzer
	// Langs and ByLang are the keyword path's (see [BM25]).
	Langs  []*analysis.Analyzer
	ByLang bool
	// Public is set for a player: every path leaves DM-only notes out.
	Public bool
	// Filter restricts every path before it ranks anything (BM25 in its
	// query, dense and entity by the set of chunks it lets through).
	Filter store.Filter
	// Dense returns the dense path, searching only the chunks allowed
	// returns (nil: all) and those the caller may see, or nil when there
	// is none (no embedder, or no vector for it).
	Dense func(allowed func() (map[int64]bool, error)) (Path, error)
	// Entity returns the entity path over the compendium the caller may
	// see; Public and Allow are set here.
	Entity func() (Entity, error)
	// Embedder is the embedder in use (nil: none), named when the dense
	// path cannot run.
	Embedder embed.Embedder
}

// Select returns the paths names asks for, in its order and each once,
// or every available one when names is empty. A path that cannot run is
// an error wrapping [ErrPathUnavailable] that says why; a name the engine
// does not know, one wrapping [ErrUnknownPath]. With several paths, the
// entity path follows names, not common words that match one: it
// reorders the other paths' candidates.
func (a Assembly) Select(ctx context.Context, names []string) ([]Path, error) {
	want := wantedNames(names)
	avail, err := a.available(ctx, want)
	if err != nil {
		return nil, err
	}
	out := avail
	if want != nil {
		if out, err = a.pick(ctx, names, avail); err != nil {
			return nil, err
		}
	}
	if len(out) > 1 {
		for i, p := range out {
			if ep, ok := p.(Entity); ok {
				ep.NamesOnly = true
				out[i] = ep
			}
		}
	}
	return out, nil
}

// wantedNames returns the set of path names asked for, nil for none.
func wantedNames(names []string) map[string]bool {
	var want map[string]bool
	for _, n := range names {
		if n = strings.ToLower(strings.TrimSpace(n)); n != "" {
			if want == nil {
				want = map[string]bool{}
			}
			want[n] = true
		}
	}
	return want
}

// pick returns the paths of avail that names asks for, in its order and
// each once (avail when it asks for none).
func (a Assembly) pick(ctx context.Context, names []string, avail []Path) ([]Path, error) {
	var out []Path
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if n == "" {
			continue
		}
		var found Path
		for _, p := range avail {
			if p.Name() == n {
				found = p
			}
		}
		if found == nil {
			all, err := a.available(ctx, nil)
			if err != nil {
				return nil, err
			}
			return nil, a.unavailable(n, all)
		}
		dup := false
		for _, p := range out {
			dup = dup || p.Name() == n
		}
		if !dup {
			out = append(out, found)
		}
	}
	if len(out) == 0 {
		return avail, nil
	}
	return out, nil
}

// available returns the available paths among those wanted (all when
// want is nil). A path not wanted loads nothing.
func (a Assembly) available(ctx context.Context, want map[string]bool) ([]Path, error) {
	allowed := a.allowedOnce(ctx)
	wanted := func(name string) bool { return want == nil || want[name] }
	var paths []Path
	if wanted(PathBM25) {
		paths = append(paths, BM25{Index: a.Index, Analyzer: a.Analyzer, Langs: a.Langs, ByLang: a.ByLang, Options: store.BM25Options{Public: a.Public, Filter: a.Filter}})
	}
	if wanted(PathDense) {
		d, err := a.Dense(allowed)
		if err != nil {
			return nil, err
		}
		if d != nil {
			paths = append(paths, d)
		}
	}
	if !wanted(PathEntity) {
		return paths, nil
	}
	ent, err := a.Entity()
	if err != nil {
		return nil, err
	}
	// A player's path runs even on an empty compendium, finding nothing as
	// for a question that names no entity: the players' compendium is
	// withheld while a note it was built from has just become DM-only,
	// and neither an error nor a missing path may tell them so.
	if len(ent.Entities) > 0 || a.Public {
		if ent.Allow, err = allowed(); err != nil {
			return nil, err
		}
		ent.Public = a.Public
		paths = append(paths, ent)
	}
	return paths, nil
}

// allowedOnce returns the chunks the filter lets through (nil: all), for
// the paths that filter in the process: read when one asks, once.
func (a Assembly) allowedOnce(ctx context.Context) func() (map[int64]bool, error) {
	var allow map[int64]bool
	read := a.Filter.IsZero()
	return func() (map[int64]bool, error) {
		var err error
		if !read {
			allow, err = a.Index.FilterChunks(ctx, a.Filter)
			read = err == nil
		}
		return allow, err
	}
}

// unavailable explains why a path cannot run.
func (a Assembly) unavailable(name string, avail []Path) error {
	switch name {
	case PathDense:
		if a.Embedder == nil {
			return fmt.Errorf("%w: %q needs an embedding model: ingest with --embedder (ollama, openai or hashing) (available: %s)", ErrPathUnavailable, name, pathNames(avail))
		}
		return fmt.Errorf("%w: %q: the index has no vectors for %q: run oraculo ingest with that embedder (available: %s)", ErrPathUnavailable, name, a.Embedder.ID(), pathNames(avail))
	case PathEntity:
		return fmt.Errorf("%w: %q: the compendium is empty: run oraculo ingest (available: %s)", ErrPathUnavailable, name, pathNames(avail))
	}
	return fmt.Errorf("%w: %q (known: %s)", ErrUnknownPath, name, strings.Join(KnownPaths, ", "))
}

// pathNames lists the names of ps, comma-separated.
func pathNames(ps []Path) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	return strings.Join(names, ", ")
}
