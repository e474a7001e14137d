package weaviate

import (
	"context"

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
