package weaviate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// DocumentStates returns the state of every note ingested from root, by
// path.
func (s *Store) DocumentStates(ctx context.Context, root string) (map[string]store.DocumentState, error) {
	states := map[string]store.DocumentState{}
	err := s.each(ctx, documentClass, []string{propRoot, propPath, propSHA256, propStamp}, func(o object) error {
		if o.text(propRoot) == root {
			states[o.text(propPath)] = store.DocumentState{SHA256: o.text(propSHA256), Stamp: o.text(propStamp)}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing documents of %q: %w", root, err)
	}
	return states, nil
}

// ReplaceDocument stores a note like [Store.ReplaceDocuments].
func (s *Store) ReplaceDocument(ctx context.Context, d *store.DocumentRecord) error {
	_, err := s.ReplaceDocuments(ctx, []*store.DocumentRecord{d})
	return err
}

// ReplaceDocuments stores notes, replacing any earlier version of each.
//
// Weaviate has no transactions; what this keeps instead:
//   - every object carries its note's visibility, written with it: no
//     chunk or paragraph is ever stored without it, and one whose
//     visibility is missing is left out of players' searches;
//   - objects have deterministic ids (chunk UIDs, paragraph ordinals) and
//     the generation of their note (its path, content hash and stamp): a
//     rerun writes the same objects, and what an earlier version left is
//     deleted by generation after the new version is written;
//   - the note's own object, which holds the hash [Store.DocumentStates]
//     compares, is written last: an interrupted write is done again by
//     the next ingest.
//
// While a note is being replaced a reader may see both versions' chunks.
// On failure no note is counted stored (the objects written meanwhile are
// overwritten by the next run).
func (s *Store) ReplaceDocuments(ctx context.Context, ds []*store.DocumentRecord) (int, error) {
	if len(ds) == 0 {
		return 0, nil
	}
	what := fmt.Sprintf("storing %q", ds[0].Path)
	if len(ds) > 1 {
		what = fmt.Sprintf("storing %d notes, %q to %q", len(ds), ds[0].Path, ds[len(ds)-1].Path)
	}
	var chunks, paragraphs, docs []*models.Object
	keys := make([]string, len(ds))
	gens := make([]string, len(ds))
	for i, d := range ds {
		c, p, doc, err := s.objects(d)
		if err != nil {
			return i, fmt.Errorf("storing %q: %w", d.Path, err)
		}
		chunks, paragraphs, docs = append(chunks, c...), append(paragraphs, p...), append(docs, doc)
		keys[i], gens[i] = documentKey(d.Root, d.Path), generation(d)
	}
	// Chunks before their paragraphs, so that a paragraph found has its
	// chunk; old paragraphs before old chunks, for the same reason.
	if err := s.put(ctx, chunks); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := s.put(ctx, paragraphs); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	stale := and(
		filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(keys...),
		filters.Where().WithPath([]string{propGen}).WithOperator(filters.ContainsNone).WithValueText(gens...))
	for _, class := range []string{paragraphClass, chunkClass} {
		if err := s.deleteWhere(ctx, class, stale); err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := s.put(ctx, docs); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return len(ds), nil
}

// DeleteDocument removes a note and everything derived from it: its
// paragraphs, its chunks, then the note itself, so that an interrupted
// removal is done again by the next ingest.
func (s *Store) DeleteDocument(ctx context.Context, root, path string) error {
	key := documentKey(root, path)
	for _, class := range []string{paragraphClass, chunkClass, documentClass} {
		if err := s.deleteWhere(ctx, class, textIs(propDocKey, key)); err != nil {
			return fmt.Errorf("removing %q: %w", path, err)
		}
	}
	return nil
}

// Redecide is not done yet: it returns an error wrapping [ErrNotYet].
func (s *Store) Redecide(context.Context, store.Decider, map[string]string) (int, error) {
	return 0, fmt.Errorf("deciding visibility again: %w", ErrNotYet)
}

// generation names one version of a note: its objects carry it, and the
// objects of other versions are deleted once it is written.
func generation(d *store.DocumentRecord) string {
	sum := sha256.Sum256([]byte(documentKey(d.Root, d.Path) + "\x00" + d.SHA256 + "\x00" + d.Stamp))
	return hex.EncodeToString(sum[:16])
}

// objects returns the objects of one note: its chunks, their paragraphs
// and the note's own.
func (s *Store) objects(d *store.DocumentRecord) (chunks, paragraphs []*models.Object, doc *models.Object, err error) {
	key, gen := documentKey(d.Root, d.Path), generation(d)
	public := !d.DMOnly
	meta := d.Metadata
	if len(meta) == 0 {
		meta = json.RawMessage("{}")
	}
	tags, err := noteTags(meta)
	if err != nil {
		return nil, nil, nil, err
	}
	reason := d.DMReason
	if !d.DMOnly {
		reason = ""
	} else if reason == "" {
		reason = "unknown"
	}
	pathLower := strings.ToLower(d.Path)
	for i := range d.Chunks {
		c := &d.Chunks[i]
		headings, err := json.Marshal(nonNil(c.Headings))
		if err != nil {
			return nil, nil, nil, err
		}
		id := ChunkID(c.UID)
		props := map[string]any{
			propChunkID: idText(id), propUID: c.UID, propDocKey: key, propGen: gen, propRoot: d.Root, propPath: d.Path,
			propTitle: d.Title, propVisibility: d.Visibility, propPublic: public, propOrdinal: c.Ordinal,
			propInSession: c.InSession, propHeadings: string(headings), propLabel: c.Label,
			propWordStart: c.WordStart, propWordEnd: c.WordEnd, propByteStart: c.ByteStart, propByteEnd: c.ByteEnd,
			propPageStart: c.PageStart, propPageEnd: c.PageEnd, propText: c.Text, propHash: c.Hash, propEmbedHash: c.EmbedHash,
		}
		if c.InSession {
			props[propSession] = c.Session
		}
		chunks = append(chunks, &models.Object{Class: chunkClass, ID: chunkUUID(c.UID), Tenant: s.tenant, Properties: props})
		for _, ch := range c.Children {
			pp := map[string]any{
				propChunkID: idText(id), propDocKey: key, propGen: gen, propRoot: d.Root, propPath: d.Path, propPathLower: pathLower,
				propTags: tags, propPublic: public, propChunkOrdinal: c.Ordinal, propOrdinal: ch.Ordinal,
				propByteStart: ch.ByteStart, propByteEnd: ch.ByteEnd, propHeadingTerms: c.HeadingTerms, propTerms: ch.Terms,
				propAllTerms: strings.TrimSpace(c.HeadingTerms + " " + ch.Terms),
			}
			if c.InSession {
				pp[propSession] = c.Session
			}
			paragraphs = append(paragraphs, &models.Object{Class: paragraphClass, ID: paragraphUUID(c.UID, ch.Ordinal), Tenant: s.tenant, Properties: pp})
		}
	}
	doc = &models.Object{Class: documentClass, ID: documentUUID(d.Root, d.Path), Tenant: s.tenant, Properties: map[string]any{
		propDocKey: key, propGen: gen, propRoot: d.Root, propPath: d.Path, propSHA256: d.SHA256, propSize: d.Size,
		propTitle: d.Title, propMetadata: string(meta), propVisibility: d.Visibility, propPublic: public,
		propDMReason: reason, propDMDetail: d.DMDetail, propLink: d.Link, propFrontRaw: d.FrontRaw, propStamp: d.Stamp,
		propIngestedAt: time.Now().Unix(),
	}}
	return chunks, paragraphs, doc, nil
}

// noteTags returns what a tag filter matches of a note's front-matter
// tags, as SQLite's filter does: each tag lowercased and trimmed, and each
// comma-separated part of it, lowercased without spaces.
func noteTags(meta json.RawMessage) ([]string, error) {
	var fm map[string]any
	if err := json.Unmarshal(meta, &fm); err != nil {
		return nil, fmt.Errorf("reading front matter: %w", err)
	}
	var values []any
	switch v := fm["tags"].(type) {
	case []any:
		values = v
	case nil:
	default:
		values = []any{v}
	}
	seen := map[string]bool{}
	tags := []string{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			tags = append(tags, t)
		}
	}
	for _, v := range values {
		t, ok := v.(string)
		if !ok {
			continue
		}
		add(strings.ToLower(strings.TrimSpace(t)))
		for _, part := range strings.Split(strings.ReplaceAll(strings.ToLower(t), " ", ""), ",") {
			add(part)
		}
	}
	return tags, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
