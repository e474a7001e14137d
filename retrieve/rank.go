package retrieve

import "github.com/oraculo/oraculo/fuse"

// Rank fuses what the paths found into at most k hits (see
// [fuse.Combine]), each list read to depth; an arc question's give each
// session a slot first ([fuse.Spread]); a state question's put the latest
// session first among equals ([fuse.Latest]). narrative applies the
// narrative prior.
func (f Found) Rank(narrative, arc, state bool, depth, k int) []Hit {
	limit, cut := depth, k
	if len(f.Lists) > 1 {
		limit, cut = fuse.MaxCandidates, min(k, fuse.MaxCandidates)
	}
	cands := fuse.Combine(f.Lists, fuse.Ranking{
		Reorderer: PathEntity, Narrative: narrative, InSession: f.InSession, Arc: arc, Limit: limit,
	})
	if state {
		cands = fuse.Latest(cands, f.Session)
	}
	if arc {
		cands = fuse.Spread(cands, f.Unit)
	}
	hits := f.hits(cands)
	if len(hits) > cut {
		hits = hits[:cut]
	}
	return hits
}

// hits turns ranked candidates into hits, each with the fusion's
// explanation of its score.
func (f Found) hits(fused []fuse.Candidate) []Hit {
	hits := make([]Hit, len(fused))
	for i, c := range fused {
		r := f.ByID[c.ID]
		hits[i] = HitFrom(r.Chunk, i+1, c.Score, c.Ranks)
		hits[i].Passage, hits[i].Fusion, hits[i].Coverage = r.Passage, c.Explanation, r.Coverage
		hits[i].Prior = c.Boost
	}
	return hits
}

// FuseStage names the stage that ranks lists in a search's trace:
// "fuse" for several, "merge" for one.
func FuseStage(lists int) string {
	if lists > 1 {
		return "fuse"
	}
	return "merge"
}
