package weaviate

import (
	"context"
	"fmt"
	"sort"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"

	"github.com/oraculo/oraculo/store"
	"github.com/oraculo/oraculo/vector"
)

// SearchVectors returns up to k chunks nearest to q by model's vectors,
// best first (equal scores by id), scored by cosine similarity, through
// the cluster's own vector index (nearVector): a [store.VectorSearcher].
// Chunks sharing a text share its score.
//
// public leaves out the chunks of notes players may not see now and f
// those it does not let through, in two steps. The query's where clause
// holds a few values matched against each text's textUse (public, and
// the sessions, folders and tags asked for), so that Weaviate ranks only
// texts a chunk let through may have. Then every chunk using a text found
// is checked as it and its note are now, by the rules of
// [Store.RestrictedChunks] and [Store.FilterChunks] (fail closed); when
// that leaves fewer than k, the query is asked for more texts, four times
// as many each time. A text no chunk uses any more (not pruned yet) is
// dropped the same way.
func (s *Store) SearchVectors(ctx context.Context, model string, q []float32, k int, public bool, f store.Filter) ([]vector.Hit, error) {
	what := fmt.Sprintf("searching the vectors of %q", model)
	if k <= 0 || len(q) == 0 {
		return nil, nil
	}
	ok, err := s.vectorsHeld(ctx, model, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if !ok {
		return nil, nil
	}
	cf := compileFilter(f)
	where := useWhere(public, cf)
	using := map[string][]int64{} // the chunks a text found lets through
	var hits []vector.Hit
	for limit := min(k, MaxResults); ; limit = min(4*limit, MaxResults) {
		get := s.client.GraphQL().Get().WithLimit(limit).WithFields(nearFields...).
			WithNearVector(s.client.GraphQL().NearVectorArgBuilder().WithVector(q))
		if where != nil {
			get = get.WithWhere(where)
		}
		objs, err := s.run(ctx, get, vectorClass(model))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		var fresh []string
		for _, o := range objs {
			if _, ok := using[o.text(propHash)]; !ok {
				fresh = append(fresh, o.text(propHash))
			}
		}
		if err := s.letThrough(ctx, fresh, public, cf, using); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		hits = hits[:0]
		for _, o := range objs {
			d, ok := o.additional["distance"].(float64)
			if !ok {
				return nil, fmt.Errorf("%s: no distance for hash %s", what, o.text(propHash))
			}
			for _, id := range using[o.text(propHash)] {
				hits = append(hits, vector.Hit{ID: id, Score: float32(1 - d)})
			}
		}
		if len(hits) >= k || len(objs) < limit || limit == MaxResults {
			break
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	return hits[:min(k, len(hits))], nil
}

// letThrough records in using, for each of hashes, the chunks using the
// text that a search may return: those f lets through and, when public,
// those of notes players may see now (a chunk and its note marked public,
// the note not changing audience; a chunk whose note is missing is
// DM-only).
func (s *Store) letThrough(ctx context.Context, hashes []string, public bool, f chunkFilter, using map[string][]int64) error {
	if len(hashes) == 0 {
		return nil
	}
	rows, err := s.chunksUsing(ctx, hashes)
	if err != nil {
		return err
	}
	var notes map[string]note
	if public || f.tags != nil {
		if notes, err = s.notesOf(ctx, rows); err != nil {
			return err
		}
	}
	for _, h := range hashes {
		ids := []int64{}
		for _, r := range rows[h] {
			if !f.placed(r) || (public && r.restricted(notes)) {
				continue
			}
			if n, ok := notes[r.key]; f.tags != nil {
				tagged := false
				if ok {
					if tagged, err = f.tagged(n); err != nil {
						return err
					}
				}
				if !tagged {
					continue // a chunk without its note matches no tag
				}
			}
			ids = append(ids, r.id)
		}
		using[h] = ids
	}
	return nil
}

// useWhere is the where clause of a vector search: the texts some chunk
// players may see uses (public), in the sessions, folders and tags f
// asks for. A text whose textUse was never written is not public: fail
// closed. Nil when nothing restricts the search.
func useWhere(public bool, f chunkFilter) *filters.WhereBuilder {
	var conds []*filters.WhereBuilder
	if public {
		conds = append(conds, filters.Where().WithPath([]string{propPublic}).WithOperator(filters.Equal).WithValueBoolean(true))
	}
	if len(f.sessions) > 0 {
		ss := make([]int64, len(f.sessions))
		for i, s := range f.sessions {
			ss[i] = int64(s)
		}
		conds = append(conds, filters.Where().WithPath([]string{propSessions}).WithOperator(filters.ContainsAny).WithValueInt(ss...))
	}
	if len(f.folders) > 0 {
		conds = append(conds, filters.Where().WithPath([]string{propFolders}).WithOperator(filters.ContainsAny).WithValueText(f.folders...))
	}
	if f.tags != nil {
		conds = append(conds, filters.Where().WithPath([]string{propTags}).WithOperator(filters.ContainsAny).WithValueText(sortedKeys(f.tags)...))
	}
	return and(conds...)
}

// The cluster searches its own vector index.
var _ store.VectorSearcher = (*Store)(nil)
