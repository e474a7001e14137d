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
	decided := make(map[string]note, len(ds))
	for i, d := range ds {
		c, p, doc, err := s.objects(d)
		if err != nil {
			return i, fmt.Errorf("storing %q: %w", d.Path, err)
		}
		chunks, paragraphs, docs = append(chunks, c...), append(paragraphs, p...), append(docs, doc)
		keys[i], gens[i] = documentKey(d.Root, d.Path), generation(d)
		decided[keys[i]] = recordNote(d)
	}
	uses, err := s.beginUses(ctx, keys)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	for _, d := range ds {
		for _, c := range d.Chunks {
			uses.add(c.EmbedHash)
		}
	}
	if err := s.withholdIfHidden(ctx, ds); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := s.changeChunksVersion(ctx); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	// Chunks before their paragraphs, so that a paragraph found has its
	// chunk; old paragraphs before old chunks, for the same reason; the
	// old chunks' mentions with them.
	if err := s.put(ctx, chunks); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := s.put(ctx, paragraphs); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	stale := and(
		filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(keys...),
		filters.Where().WithPath([]string{propGen}).WithOperator(filters.ContainsNone).WithValueText(gens...))
	for _, class := range []string{mentionClass, paragraphClass, chunkClass} {
		if err := s.deleteWhere(ctx, class, stale); err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := s.changeChunksVersion(ctx); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	// The vectors' filters as the notes will be, before the notes are:
	// an interrupted write is redone whole by the next ingest.
	if err := s.finishUses(ctx, uses, decided); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	if err := s.put(ctx, docs); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return len(ds), nil
}

// DeleteDocument removes a note and everything derived from it: its
// chunks' mentions, its compendium facts, its paragraphs, its chunks (and
// what its texts' vectors say of them), then the note itself, so that an
// interrupted removal is done again by the next ingest.
func (s *Store) DeleteDocument(ctx context.Context, root, path string) error {
	key := documentKey(root, path)
	uses, err := s.beginUses(ctx, []string{key})
	if err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	if err := s.changeChunksVersion(ctx); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	for _, class := range []string{mentionClass, factsStateClass, factsClass, paragraphClass, chunkClass} {
		if err := s.deleteWhere(ctx, class, textIs(propDocKey, key)); err != nil {
			return fmt.Errorf("removing %q: %w", path, err)
		}
	}
	if err := s.changeChunksVersion(ctx); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	if err := s.finishUses(ctx, uses, nil); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	if err := s.deleteWhere(ctx, documentClass, textIs(propDocKey, key)); err != nil {
		return fmt.Errorf("removing %q: %w", path, err)
	}
	return nil
}

// Redecide decides every note's visibility again, stores meta, and
// returns how many notes changed audience.
//
// Without transactions it is not all or none but idempotent, and safe
// when interrupted: a note whose audience changes is first marked
// pending, then its chunks and paragraphs get the new audience, then the
// note gets its decision and loses the mark; a later Redecide redoes every
// note still marked. meta is stored last, so an engine that compares it
// calls Redecide again after an interruption.
func (s *Store) Redecide(ctx context.Context, decide store.Decider, meta map[string]string) (int, error) {
	type note struct {
		obj     object
		rec     store.VisibilityRecord
		pending bool
	}
	var notes []note
	err := s.each(ctx, documentClass, []string{propRoot, propPath, propLink, propMetadata, propFrontRaw, propPublic,
		propDMReason, propDMDetail, propPending}, func(o object) error {
		notes = append(notes, note{obj: o, pending: o.bool(propPending), rec: store.VisibilityRecord{
			Root: o.text(propRoot), Path: o.text(propPath), Link: o.text(propLink),
			Metadata: json.RawMessage(o.text(propMetadata)), FrontRaw: o.text(propFrontRaw),
			DMOnly: !o.bool(propPublic), Reason: o.text(propDMReason), Detail: o.text(propDMDetail),
		}})
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("deciding visibility again: %w", err)
	}
	changed := 0
	for _, n := range notes {
		dmOnly, reason, detail := decide(n.rec)
		if !dmOnly {
			reason = ""
		} else if reason == "" {
			reason = "unknown"
		}
		audience := dmOnly != n.rec.DMOnly
		if !audience && !n.pending && reason == n.rec.Reason && detail == n.rec.Detail {
			continue
		}
		if audience {
			changed++
		}
		what := fmt.Sprintf("deciding visibility of %q again", n.rec.Path)
		if audience && dmOnly {
			if err := s.withholdPlayers(ctx); err != nil {
				return changed, fmt.Errorf("%s: %w", what, err)
			}
		}
		if audience || n.pending {
			if err := s.merge(ctx, documentClass, n.obj.id, map[string]any{propPending: true}); err != nil {
				return changed, fmt.Errorf("%s: %w", what, err)
			}
			key := documentKey(n.rec.Root, n.rec.Path)
			if err := s.setAudience(ctx, key, !dmOnly); err != nil {
				return changed, fmt.Errorf("%s: %w", what, err)
			}
			// The note's texts' vectors, as it is about to be decided.
			uses, err := s.beginUses(ctx, []string{key})
			if err == nil {
				err = s.finishUses(ctx, uses, decidedAs(n.rec, dmOnly))
			}
			if err != nil {
				return changed, fmt.Errorf("%s: %w", what, err)
			}
		}
		err := s.merge(ctx, documentClass, n.obj.id, map[string]any{
			propPublic: !dmOnly, propDMReason: reason, propDMDetail: detail, propPending: false})
		if err != nil {
			return changed, fmt.Errorf("%s: %w", what, err)
		}
	}
	for k, v := range meta {
		if err := s.SetMeta(ctx, k, v); err != nil {
			return changed, fmt.Errorf("deciding visibility again: %w", err)
		}
	}
	return changed, nil
}

// setAudience marks every chunk and paragraph of a note public or not:
// the objects not marked so yet, a page at a time, until none is left.
func (s *Store) setAudience(ctx context.Context, key string, public bool) error {
	for _, class := range []string{paragraphClass, chunkClass} {
		where := and(textIs(propDocKey, key),
			filters.Where().WithPath([]string{propPublic}).WithOperator(filters.NotEqual).WithValueBoolean(public))
		for {
			objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(nil)...).WithWhere(where).WithLimit(pageSize), class)
			if err != nil {
				return err
			}
			for _, o := range objs {
				if err := s.merge(ctx, class, o.id, map[string]any{propPublic: public}); err != nil {
					return err
				}
			}
			if len(objs) < pageSize {
				break
			}
		}
	}
	return nil
}

// merge updates some properties of one object, trying again on failure.
func (s *Store) merge(ctx context.Context, class, id string, props map[string]any) error {
	err := retry(ctx, func() error {
		return s.client.Data().Updater().WithMerge().WithClassName(class).WithID(id).WithTenant(s.tenant).
			WithProperties(props).WithConsistencyLevel(Consistency).Do(ctx)
	})
	if err != nil {
		return fmt.Errorf("updating %s %s: %w", class, id, err)
	}
	return nil
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
		name := chunkKey(d.Root, d.Path, c.Ordinal, c.Text)
		id := ChunkID(name)
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
		chunks = append(chunks, &models.Object{Class: chunkClass, ID: chunkUUID(name), Tenant: s.tenant, Properties: props})
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
			paragraphs = append(paragraphs, &models.Object{Class: paragraphClass, ID: paragraphUUID(name, ch.Ordinal), Tenant: s.tenant, Properties: pp})
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
