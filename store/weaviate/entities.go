package weaviate

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// Settings that say where the compendium's writes stand, so that a write
// cut short leaves nothing a player could see wrongly.
const (
	// playersKey is "stale " or "fresh " followed by a token new at each
	// write: stale while the players' compendium must not be served (a
	// note it was built from became DM-only, or an update of it has not
	// finished), fresh once an update finished. Unset is fresh: nothing
	// was built yet.
	playersKey = "players_compendium"
	// writingKey is "1" from the first write of a compendium update that
	// changes names (or replaces a compendium) to its end: an update
	// that did not finish leaves it, and the next one finds mentions in
	// every chunk again.
	writingKey = "compendium_writing"
)

// entityProps are the properties an entity is read back from.
var entityProps = []string{propEntityID, propScope, propName, propKind, propAliases, propNote, propSource}

// setting is the object of one stored setting.
func (s *Store) setting(key, value string) *models.Object {
	return &models.Object{Class: settingClass, ID: settingUUID(key), Tenant: s.tenant,
		Properties: map[string]any{propKey: key, propValue: value}}
}

// playersState is the value of playersKey that says stale or fresh.
func playersState(stale bool) string {
	if stale {
		return "stale " + rand.Text()
	}
	return "fresh " + rand.Text()
}

func isStale(state string) bool { return strings.HasPrefix(state, "stale") }

// withholdPlayers marks the players' compendium stale: it is not served
// until an update finishes.
func (s *Store) withholdPlayers(ctx context.Context) error {
	if err := s.SetMeta(ctx, playersKey, playersState(true)); err != nil {
		return fmt.Errorf("withholding the players' compendium: %w", err)
	}
	return nil
}

// withholdIfHidden withholds the players' compendium when one of ds, being
// stored DM-only, is a note players may see now: its names would stay in
// the players' compendium until it is updated. It is called before any of
// ds is written.
func (s *Store) withholdIfHidden(ctx context.Context, ds []*store.DocumentRecord) error {
	var keys []string
	for _, d := range ds {
		if d.DMOnly {
			keys = append(keys, documentKey(d.Root, d.Path))
		}
	}
	for len(keys) > 0 {
		part := keys[:min(len(keys), pageSize)]
		keys = keys[len(part):]
		where := filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(part...)
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields([]string{propPublic})...).
			WithWhere(where).WithLimit(len(part)), documentClass)
		if err != nil {
			return fmt.Errorf("reading the notes' visibility: %w", err)
		}
		for _, o := range objs {
			if o.bool(propPublic) {
				return s.withholdPlayers(ctx)
			}
		}
	}
	return nil
}

// beginCompendium is written before a compendium update writes what it
// says: it withholds the players' compendium when players, and records
// that mentions may be left to find everywhere when writing.
func (s *Store) beginCompendium(ctx context.Context, players, writing bool) error {
	var objs []*models.Object
	if writing {
		objs = append(objs, s.setting(writingKey, "1"))
	}
	if players {
		objs = append(objs, s.setting(playersKey, playersState(true)))
	}
	if err := s.put(ctx, objs); err != nil {
		return fmt.Errorf("starting to store the compendium: %w", err)
	}
	return nil
}

// endCompendium records that a compendium update finished, with the
// settings given, then serves the players' compendium again when players:
// that is the last write.
func (s *Store) endCompendium(ctx context.Context, players bool, meta map[string]string) error {
	objs := []*models.Object{s.setting(writingKey, "")}
	for k, v := range meta {
		objs = append(objs, s.setting(k, v))
	}
	if err := s.put(ctx, objs); err != nil {
		return fmt.Errorf("finishing the compendium: %w", err)
	}
	if players {
		if err := s.SetMeta(ctx, playersKey, playersState(false)); err != nil {
			return fmt.Errorf("finishing the compendium: %w", err)
		}
	}
	return nil
}

// PlayersCompendiumStale reports whether the players' compendium must not
// be served: a note it was built from has become DM-only since, or an
// update of it has not finished.
func (s *Store) PlayersCompendiumStale(ctx context.Context) (bool, error) {
	v, err := s.Meta(ctx, playersKey)
	return isStale(v), err
}

// entityOf reads an entity object back.
func entityOf(o object) (store.Entity, error) {
	e := store.Entity{ID: o.id64(propEntityID), Name: o.text(propName), Kind: o.text(propKind),
		Note: o.text(propNote), Source: o.text(propSource)}
	if err := json.Unmarshal([]byte(o.text(propAliases)), &e.Aliases); err != nil {
		return e, fmt.Errorf("entity %q: malformed aliases %q: %w", e.Name, o.text(propAliases), err)
	}
	return e, nil
}

// entityObject is the object of an entity of scope.
func (s *Store) entityObject(scope string, e store.Entity) (*models.Object, error) {
	aliases, err := json.Marshal(nonNil(e.Aliases))
	if err != nil {
		return nil, err
	}
	return &models.Object{Class: entityClass, ID: entityUUID(scope, e.Name), Tenant: s.tenant, Properties: map[string]any{
		propEntityID: idText(EntityID(scope, e.Name)), propScope: scope, propName: e.Name, propKind: e.Kind,
		propAliases: string(aliases), propNote: e.Note, propSource: e.Source,
	}}, nil
}

// scopeEntities reads a scope's compendium, by name (byte order, as
// SQLite's), stale or not. It reads every entity of both scopes (the
// cursor takes no filter).
func (s *Store) scopeEntities(ctx context.Context, scope string) ([]store.Entity, error) {
	var out []store.Entity
	err := s.each(ctx, entityClass, entityProps, func(o object) error {
		if o.text(propScope) != scope {
			return nil
		}
		e, err := entityOf(o)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the compendium: %w", err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Entities returns the compendium of a scope, by name, without mentions.
// The players' compendium is empty while it is stale: it is read between
// two reads of its state, and given only when both say fresh and are the
// same (no update started or finished meanwhile); otherwise it is read
// again, and after three tries withheld.
func (s *Store) Entities(ctx context.Context, scope string) ([]store.Entity, error) {
	if scope != store.ScopePlayer {
		return s.scopeEntities(ctx, scope)
	}
	for range 3 {
		before, err := s.Meta(ctx, playersKey)
		if err != nil || isStale(before) {
			return nil, err
		}
		ents, err := s.scopeEntities(ctx, scope)
		if err != nil {
			return nil, err
		}
		after, err := s.Meta(ctx, playersKey)
		if err != nil {
			return nil, err
		}
		if after == before {
			return ents, nil
		}
	}
	return nil, nil
}

// EntityCount returns how many entities the compendium of a scope holds,
// stale or not.
func (s *Store) EntityCount(ctx context.Context, scope string) (int, error) {
	n, err := s.countWhere(ctx, entityClass, textIs(propScope, scope))
	if err != nil {
		return 0, fmt.Errorf("counting entities: %w", err)
	}
	return n, nil
}

// ReplaceEntities swaps the compendium of a scope, mentions included, for
// ents. Not all or none: it runs as a compendium update does (see
// [Store.UpdateCompendium]), so the players' compendium is withheld until
// its last write, and an interrupted one is completed by the next update.
func (s *Store) ReplaceEntities(ctx context.Context, scope string, ents []store.Entity) error {
	players := scope == store.ScopePlayer
	if err := s.beginCompendium(ctx, players, true); err != nil {
		return err
	}
	if err := s.deleteWhere(ctx, mentionClass, textIs(propScope, scope)); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	w := s.newCompendiumWriter(false)
	w.marked = true
	ids, err := w.SetEntities(ctx, scope, ents)
	if err != nil {
		return err
	}
	// The scope holds no mentions now: none is read before writing.
	for _, e := range ents {
		for chunk := range e.Mentions {
			w.empty[mentionKey{scope, chunk}] = true
		}
	}
	for i, e := range ents {
		for _, chunk := range slices.Sorted(maps.Keys(e.Mentions)) {
			if err := w.AddMention(ctx, ids[i], chunk, e.Mentions[chunk]); err != nil {
				return err
			}
		}
	}
	if err := w.flush(ctx); err != nil {
		return err
	}
	return s.endCompendium(ctx, players, nil)
}

// bucketOf is the bucket the mentions in a chunk are read by (see
// [Store.eachByBucket]): 16 bits of its id.
func bucketOf(chunk int64) int64 { return chunk & (buckets - 1) }

// buckets is how many buckets mentions are spread over.
const buckets = 1 << 16

// MentionsOf lists the chunks naming each of the entities, by entity id,
// each entity's by chunk id. It reads the mentions of those entities, then
// at once their chunks (a mention of a chunk gone is left out) and, when
// public, their notes: a chunk is left out unless it and its note are
// marked public and the note is not changing audience (fail closed). It
// reads in proportion to the mentions of the entities asked for, not to
// the index: two round trips when they fit in a page.
func (s *Store) MentionsOf(ctx context.Context, entityIDs []int64, public bool) (map[int64][]store.Mention, error) {
	out := map[int64][]store.Mention{}
	if len(entityIDs) == 0 {
		return out, nil
	}
	texts := make([]string, len(entityIDs))
	for i, id := range entityIDs {
		texts[i] = idText(id)
	}
	asked := make(map[int64]bool, len(entityIDs))
	for _, id := range entityIDs {
		asked[id] = true
	}
	type mention struct {
		entity, chunk int64
		count         int
	}
	var ms []mention
	var chunkIDs []int64
	var keys []string
	where := filters.Where().WithPath([]string{propEntities}).WithOperator(filters.ContainsAny).WithValueText(texts...)
	err := s.eachByBucket(ctx, mentionClass, where, mentionProps, func(objs []object) error {
		for _, o := range objs {
			cm, err := chunkMentionsOf(o)
			if err != nil {
				return err
			}
			for e, n := range cm.counts {
				if asked[e] {
					ms = append(ms, mention{entity: e, chunk: cm.chunk, count: n})
				}
			}
			chunkIDs = append(chunkIDs, cm.chunk)
			keys = append(keys, cm.key)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading mentions: %w", err)
	}
	// The chunks, and the notes the mentions name (a chunk of another
	// note than its mention says finds no note: left out for players).
	chunks := map[int64]chunkRow{}
	var notes map[string]note
	var chunkErr, noteErr error
	var wg sync.WaitGroup
	if public {
		wg.Go(func() { notes, noteErr = s.notesByKey(ctx, keys) })
	}
	chunkErr = s.chunkPages(ctx, chunkIDs, []string{propChunkID, propDocKey, propRoot, propPath, propOrdinal, propSession, propInSession, propPublic},
		func(objs []object) error {
			for _, o := range objs {
				r := rowOf(o)
				chunks[r.id] = r
			}
			return nil
		})
	wg.Wait()
	if err := errors.Join(chunkErr, noteErr); err != nil {
		return nil, fmt.Errorf("reading mentions: %w", err)
	}
	for _, m := range ms {
		r, ok := chunks[m.chunk]
		if !ok || public && r.restricted(notes) {
			continue
		}
		out[m.entity] = append(out[m.entity], store.Mention{ChunkID: m.chunk, Count: m.count, Session: r.session,
			InSession: r.inSession, Path: r.path, Ordinal: r.ordinal})
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool { return list[i].ChunkID < list[j].ChunkID })
	}
	return out, nil
}

// mentionProps are the properties the mentions in a chunk are read back
// from.
var mentionProps = []string{propScope, propChunkID, propEntities, propCounts, propDocKey, propGen}

// chunkMentions are the mentions in a chunk of the entities of a scope:
// one object.
type chunkMentions struct {
	scope string
	chunk int64
	// key and gen are the chunk's note and version ("" when not known
	// yet).
	key, gen string
	counts   map[int64]int
}

// chunkMentionsOf reads an object of mentions back.
func chunkMentionsOf(o object) (*chunkMentions, error) {
	cm := &chunkMentions{scope: o.text(propScope), chunk: o.id64(propChunkID), key: o.text(propDocKey), gen: o.text(propGen),
		counts: map[int64]int{}}
	ents, _ := o.props[propEntities].([]any)
	counts, _ := o.props[propCounts].([]any)
	if len(ents) != len(counts) {
		return nil, fmt.Errorf("the mentions in chunk %d name %d entities and give %d counts", cm.chunk, len(ents), len(counts))
	}
	for i, e := range ents {
		text, _ := e.(string)
		id, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the mentions in chunk %d: entity %q: %w", cm.chunk, text, err)
		}
		var n int64
		switch v := counts[i].(type) {
		case float64:
			n = int64(v)
		case json.Number:
			n, _ = v.Int64()
		}
		cm.counts[id] = int(n)
	}
	return cm, nil
}

// mentionObject is the object that stores the mentions in a chunk.
func (s *Store) mentionObject(cm *chunkMentions) *models.Object {
	ids := slices.Sorted(maps.Keys(cm.counts))
	ents := make([]string, len(ids))
	counts := make([]int, len(ids))
	for i, id := range ids {
		ents[i], counts[i] = idText(id), cm.counts[id]
	}
	return &models.Object{Class: mentionClass, ID: mentionUUID(cm.scope, cm.chunk), Tenant: s.tenant, Properties: map[string]any{
		propScope: cm.scope, propChunkID: idText(cm.chunk), propEntities: ents, propCounts: counts,
		propDocKey: cm.key, propGen: cm.gen, propBucket: bucketOf(cm.chunk),
	}}
}

// notesByKey reads the objects of the notes with the given keys (distinct
// or not), by key; a key naming no note is absent.
func (s *Store) notesByKey(ctx context.Context, keys []string) (map[string]note, error) {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	out := make(map[string]note, len(keys))
	for len(keys) > 0 {
		part := keys[:min(len(keys), pageSize)]
		keys = keys[len(part):]
		where := filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(part...)
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(noteProps)...).WithWhere(where).WithLimit(len(part)), documentClass)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			n := noteOf(o)
			out[n.key] = n
		}
	}
	return out, nil
}

// eachByBucket calls fn with every object of class (which has a bucket
// property) that where matches, a page at a time: when a query fills a
// page, the objects are read again by ranges of buckets, as many as a
// count says, and a range that still fills a page is halved. A single
// bucket that fills one is read by offsets.
func (s *Store) eachByBucket(ctx context.Context, class string, where *filters.WhereBuilder, props []string, fn func([]object) error) error {
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(where).WithLimit(pageSize), class)
	if err != nil {
		return err
	}
	if len(objs) < pageSize {
		return fn(objs)
	}
	n, err := s.countWhere(ctx, class, where)
	if err != nil {
		return err
	}
	parts := min(buckets, 2*n/pageSize+1)
	for i := range parts {
		lo, hi := i*buckets/parts, (i+1)*buckets/parts
		if err := s.bucketRange(ctx, class, where, props, lo, hi, fn); err != nil {
			return err
		}
	}
	return nil
}

// bucketRange reads the objects where matches in buckets lo to hi
// (excluded); see [Store.eachByBucket].
func (s *Store) bucketRange(ctx context.Context, class string, where *filters.WhereBuilder, props []string, lo, hi int, fn func([]object) error) error {
	in := and(where,
		filters.Where().WithPath([]string{propBucket}).WithOperator(filters.GreaterThanEqual).WithValueInt(int64(lo)),
		filters.Where().WithPath([]string{propBucket}).WithOperator(filters.LessThan).WithValueInt(int64(hi)))
	if hi-lo == 1 {
		return s.offsetPages(ctx, class, in, props, fn)
	}
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(in).WithLimit(pageSize), class)
	if err != nil {
		return err
	}
	if len(objs) < pageSize {
		return fn(objs)
	}
	mid := lo + (hi-lo)/2
	if err := s.bucketRange(ctx, class, where, props, lo, mid, fn); err != nil {
		return err
	}
	return s.bucketRange(ctx, class, where, props, mid, hi, fn)
}

// offsetPages calls fn with the objects of class where matches, a page at
// a time by offset, in the order of their ids (Weaviate reads no further
// than its QUERY_MAXIMUM_RESULTS this way: for few objects only).
func (s *Store) offsetPages(ctx context.Context, class string, where *filters.WhereBuilder, props []string, fn func([]object) error) error {
	for offset := 0; ; offset += pageSize {
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(where).
			WithSort(graphql.Sort{Path: []string{"_id"}, Order: graphql.Asc}).WithOffset(offset).WithLimit(pageSize), class)
		if err != nil {
			return err
		}
		if err := fn(objs); err != nil {
			return err
		}
		if len(objs) < pageSize {
			return nil
		}
	}
}
