package weaviate

import (
	"context"
	"fmt"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/data/replication"
	"github.com/weaviate/weaviate/entities/models"
)

// PutUndecided writes a chunk and its paragraph (terms "secret abad")
// without their visibility, as a writer that crashed half-way or an older
// program might leave them.
func (s *Store) PutUndecided(ctx context.Context, uid string) error {
	id := idText(ChunkID(uid))
	return s.put(ctx, []*models.Object{
		{Class: chunkClass, ID: chunkUUID(uid), Tenant: s.tenant, Properties: map[string]any{
			propChunkID: id, propUID: uid, propPath: "x.md", propHeadings: "[]", propText: "el secreto del abad",
			propByteStart: 0, propByteEnd: 19,
		}},
		{Class: paragraphClass, ID: paragraphUUID(uid, 0), Tenant: s.tenant, Properties: map[string]any{
			propChunkID: id, propPath: "x.md", propAllTerms: "secret abad", propTerms: "secret abad", propByteEnd: 19,
		}},
	})
}

// SetPageSize makes listings read n objects per request until the
// returned function is called.
func SetPageSize(n int) (restore func()) {
	old := pageSize
	pageSize = n
	return func() { pageSize = old }
}

// SetPending marks a note as changing audience, or not, as an
// interrupted Redecide leaves it.
func (s *Store) SetPending(ctx context.Context, root, path string, pending bool) error {
	return s.merge(ctx, documentClass, string(documentUUID(root, path)), map[string]any{propPending: pending})
}

// StaleUses returns the hashes of model's vector objects whose filters
// (public, sessions, folders, tags) differ from what the chunks using
// their texts say now, and how many of its vectors there are and how
// many are marked public.
func (s *Store) StaleUses(ctx context.Context, model string) (stale []string, vectors, public int, err error) {
	var objs []object
	if err := s.each(ctx, vectorClass(model), useProps, func(o object) error {
		objs = append(objs, o)
		return nil
	}); err != nil {
		return nil, 0, 0, err
	}
	hashes := make([]string, len(objs))
	for i, o := range objs {
		hashes[i] = o.text(propHash)
	}
	uses, err := s.usesOf(ctx, hashes, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	for _, o := range objs {
		u := useOf(o)
		if u.public {
			public++
		}
		if !u.equal(uses[o.text(propHash)]) {
			stale = append(stale, o.text(propHash))
		}
	}
	return stale, len(objs), public, nil
}

// ReadingOne returns the store reading at consistency ONE: every query
// answered by the node the store talks to alone, from its own copy (it
// holds a replica of every tenant when the factor is the cluster's
// size), with no read repair.
func (s *Store) ReadingOne() *Store {
	one := *s
	one.readLevel = replication.ConsistencyLevel.ONE
	return &one
}

// Counts returns how many objects of the tenant each collection holds,
// read one by one with the cursor (at the store's read level).
func (s *Store) Counts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, c := range classes() {
		n := 0
		if err := s.each(ctx, c.Class, nil, func(object) error { n++; return nil }); err != nil {
			return nil, fmt.Errorf("counting %q: %w", c.Class, err)
		}
		out[c.Class] = n
	}
	return out, nil
}

// PlayersKey is the setting that says whether the players' compendium is
// withheld, with a token new at each update.
const PlayersKey = playersKey

// SetMentionFlush makes the compendium writer write the mentions it
// gathers every n until the returned function is called.
func SetMentionFlush(n int) (restore func()) {
	old := mentionFlush
	mentionFlush = n
	return func() { mentionFlush = old }
}
