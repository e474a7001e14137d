package weaviate

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// factState is the state of a note's stored facts: the version of the
// note they were read from, the note's visibility when its mentions were
// stored, and whether they are.
type factState struct {
	gen        string
	restricted bool
	matched    bool
}

// factStates reads the state of every note's facts, by note key.
func (s *Store) factStates(ctx context.Context) (map[string]factState, error) {
	out := map[string]factState{}
	err := s.each(ctx, factsStateClass, []string{propDocKey, propGen, propRestricted, propMatched}, func(o object) error {
		out[o.text(propDocKey)] = factState{gen: o.text(propGen), restricted: o.bool(propRestricted), matched: o.bool(propMatched)}
		return nil
	})
	return out, err
}

// stateObject is the object of the state of a note's facts.
func (s *Store) stateObject(key string, st factState) *models.Object {
	return &models.Object{Class: factsStateClass, ID: factsStateUUID(key), Tenant: s.tenant, Properties: map[string]any{
		propDocKey: key, propGen: st.gen, propRestricted: st.restricted, propMatched: st.matched}}
}

// blob reads a blob property, "" when absent.
func (o object) blob(name string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(o.text(name))
	if err != nil {
		return nil, fmt.Errorf("malformed %s: %w", name, err)
	}
	return b, nil
}

// SyncCompendiumNotes lists, in path order (root, path), the notes whose
// facts are not stored: new, or of another version of the note (whose
// facts are dropped, with those of notes gone); it marks pending the notes
// whose visibility changed since their mentions were stored, withholding
// the players' compendium first when one of them became DM-only; pending
// says whether any note is, or whether an update did not finish.
func (s *Store) SyncCompendiumNotes(ctx context.Context) ([]int64, bool, error) {
	const what = "reading the compendium's notes"
	notes, err := s.notes(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	states, err := s.factStates(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	factGens := map[string]string{}
	err = s.each(ctx, factsClass, []string{propDocKey, propGen}, func(o object) error {
		factGens[o.text(propDocKey)] = o.text(propGen)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	current := func(key, gen string) bool { n, ok := notes[key]; return ok && n.gen == gen }
	var drop []string
	for key, gen := range factGens {
		if st, ok := states[key]; !current(key, gen) || !ok || st.gen != gen {
			drop = append(drop, key)
		}
	}
	for key, st := range states {
		if !current(key, st.gen) || factGens[key] != st.gen {
			drop = append(drop, key)
		}
	}
	slices.Sort(drop)
	drop = slices.Compact(drop)
	// The state first: a state is never left without its facts.
	for _, class := range []string{factsStateClass, factsClass} {
		for part := range slices.Chunk(drop, pageSize) {
			where := filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(part...)
			if err := s.deleteWhere(ctx, class, where); err != nil {
				return nil, false, fmt.Errorf("%s: %w", what, err)
			}
		}
	}
	for _, key := range drop {
		delete(states, key)
	}
	var changed []*models.Object
	hidden, pending := false, false
	for key, st := range states {
		n := notes[key]
		if n.restricted != st.restricted {
			hidden = hidden || n.restricted
			st.restricted, st.matched = n.restricted, false
			states[key] = st
			changed = append(changed, s.stateObject(key, st))
		}
		pending = pending || !st.matched
	}
	if hidden {
		if err := s.withholdPlayers(ctx); err != nil {
			return nil, false, err
		}
	}
	if err := s.put(ctx, changed); err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	var missing []note
	for key, n := range notes {
		if _, ok := states[key]; !ok {
			missing = append(missing, n)
		}
	}
	sortNotes(missing)
	ids := make([]int64, len(missing))
	for i, n := range missing {
		ids[i] = DocumentID(n.root, n.path)
	}
	writing, err := s.Meta(ctx, writingKey)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", what, err)
	}
	return ids, pending || writing != "" || len(ids) > 0, nil
}

// sortNotes sorts notes by root and path.
func sortNotes(ns []note) {
	sort.Slice(ns, func(i, j int) bool {
		if ns[i].root != ns[j].root {
			return ns[i].root < ns[j].root
		}
		return ns[i].path < ns[j].path
	})
}

// notesByID reads every note's object, by [DocumentID].
func (s *Store) notesByID(ctx context.Context) (map[int64]note, error) {
	notes, err := s.notes(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]note, len(notes))
	for _, n := range notes {
		out[DocumentID(n.root, n.path)] = n
	}
	return out, nil
}

// NoteSourcesOf returns the notes with the given document ids
// ([DocumentID]) reassembled from their chunks, in path order, as
// [Store.NoteSources] does; ids naming no note, and notes without chunks,
// are left out. It reads every note's object, then the chunks of those
// notes only.
func (s *Store) NoteSourcesOf(ctx context.Context, docIDs []int64) ([]store.NoteSource, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	byID, err := s.notesByID(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	notes := map[string]note{}
	for _, id := range docIDs {
		if n, ok := byID[id]; ok {
			notes[n.key] = n
		}
	}
	keys := make([]string, 0, len(notes))
	for k := range notes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	byNote := map[string][]chunkRow{}
	props := []string{propChunkID, propDocKey, propRoot, propPath, propOrdinal, propSession, propInSession, propPublic, propByteStart, propText}
	err = s.chunksOfNotes(ctx, keys, props, func(objs []object) error {
		for _, o := range objs {
			r := rowOf(o)
			byNote[r.key] = append(byNote[r.key], r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	return assemble(notes, byNote), nil
}

// notesPerQuery is how many notes' chunks one query asks for at first.
const notesPerQuery = 32

// chunksOfNotes calls fn with the chunk objects of the notes with the
// given keys, a page at a time: a query that fills a page is asked again
// for half the notes, and one note whose chunks fill a page is read with
// the cursor over every chunk (which has no limit).
func (s *Store) chunksOfNotes(ctx context.Context, keys []string, props []string, fn func([]object) error) error {
	var read func(part []string) error
	read = func(part []string) error {
		where := filters.Where().WithPath([]string{propDocKey}).WithOperator(filters.ContainsAny).WithValueText(part...)
		objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields(props)...).WithWhere(where).WithLimit(pageSize), chunkClass)
		if err != nil {
			return err
		}
		if len(objs) < pageSize {
			return fn(objs)
		}
		if len(part) == 1 {
			return s.each(ctx, chunkClass, append([]string{propDocKey}, props...), func(o object) error {
				if o.text(propDocKey) != part[0] {
					return nil
				}
				return fn([]object{o})
			})
		}
		if err := read(part[:len(part)/2]); err != nil {
			return err
		}
		return read(part[len(part)/2:])
	}
	for part := range slices.Chunk(keys, notesPerQuery) {
		if err := read(part); err != nil {
			return err
		}
	}
	return nil
}

// PutNoteFacts stores the facts of notes, pending, for the version of each
// note stored now (facts of a document id naming no note are dropped):
// the facts first, then their state.
func (s *Store) PutNoteFacts(ctx context.Context, facts []store.NoteFacts) error {
	const what = "storing the compendium's notes"
	if len(facts) == 0 {
		return nil
	}
	byID, err := s.notesByID(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	var objs, states []*models.Object
	for _, f := range facts {
		n, ok := byID[f.DocID]
		if !ok {
			continue
		}
		props := map[string]any{propDocKey: n.key, propGen: n.gen}
		// A blob is base64 text; an empty one is left out.
		if len(f.Data) > 0 {
			props[propFacts] = f.Data
		}
		if len(f.Lower) > 0 {
			props[propLower] = f.Lower
		}
		objs = append(objs, &models.Object{Class: factsClass, ID: factsUUID(n.key), Tenant: s.tenant, Properties: props})
		states = append(states, s.stateObject(n.key, factState{gen: n.gen, restricted: n.restricted}))
	}
	if err := s.put(ctx, objs); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := s.put(ctx, states); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// eachFacts calls fn with every stored facts object of the version of its
// note stored now, with its note, reading prop besides the key and
// version.
func (s *Store) eachFacts(ctx context.Context, prop string, fn func(note, object) error) error {
	notes, err := s.notes(ctx)
	if err != nil {
		return err
	}
	return s.each(ctx, factsClass, []string{propDocKey, propGen, prop}, func(o object) error {
		n, ok := notes[o.text(propDocKey)]
		if !ok || n.gen != o.text(propGen) {
			return nil
		}
		return fn(n, o)
	})
}

// EachNoteFacts calls fn with the stored facts of every note, in path
// order, without their lowercase words; the visibility is the note's now.
func (s *Store) EachNoteFacts(ctx context.Context, fn func(store.NoteFacts) error) error {
	type entry struct {
		n    note
		data []byte
	}
	var all []entry
	err := s.eachFacts(ctx, propFacts, func(n note, o object) error {
		data, err := o.blob(propFacts)
		if err != nil {
			return fmt.Errorf("facts of %q: %w", n.path, err)
		}
		all = append(all, entry{n, data})
		return nil
	})
	if err != nil {
		return fmt.Errorf("reading the compendium's notes: %w", err)
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n.root != all[j].n.root {
			return all[i].n.root < all[j].n.root
		}
		return all[i].n.path < all[j].n.path
	})
	for _, e := range all {
		n := e.n
		err := fn(store.NoteFacts{DocID: DocumentID(n.root, n.path), Root: n.root, Path: n.path, Title: n.title,
			Metadata: json.RawMessage(n.metadata), Restricted: n.restricted, Data: e.data})
		if err != nil {
			return err
		}
	}
	return nil
}

// EachNoteLower calls fn with the stored lowercase words of every note, in
// no set order, with the note's visibility now.
func (s *Store) EachNoteLower(ctx context.Context, fn func(restricted bool, lower []byte) error) error {
	var fnErr error
	err := s.eachFacts(ctx, propLower, func(n note, o object) error {
		lower, err := o.blob(propLower)
		if err != nil {
			return fmt.Errorf("lowercase words of %q: %w", n.path, err)
		}
		if fnErr = fn(n.restricted, lower); fnErr != nil {
			return fnErr
		}
		return nil
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("reading the compendium's notes: %w", err)
	}
	return nil
}

// UpdateCompendium runs fn with a writer of both compendiums. Weaviate has
// no transactions; the writes are ordered instead so that one cut short
// (fn failing, the process dying) leaves nothing a player could see
// wrongly and is completed by the next update:
//   - first, the players' compendium is withheld ([Store.Entities] gives
//     it empty, [Store.PlayersCompendiumStale] says so, and the next
//     ingest updates it);
//   - then fn's writes: entities gone are deleted after their mentions,
//     a chunk's mentions are cleared before they are written again; and
//     before the first write that an interruption would leave half done
//     where the next update would not look (SetEntities changing names,
//     the mentions of a chunk that is not pending cleared or added), a
//     setting says so;
//   - [compendiumWriter.Finish] writes the mentions left, marks the
//     notes' mentions stored, stores its setting and says no update is
//     under way, and last serves the players' compendium again.
//
// An update cut short leaves its notes pending, so the next one finds
// their mentions again; one that finds that setting treats every chunk
// as pending (the one cut short may, for example, have changed names
// without finding them everywhere).
func (s *Store) UpdateCompendium(ctx context.Context, fn func(store.CompendiumWriter) error) error {
	writing, err := s.Meta(ctx, writingKey)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	if err := s.beginCompendium(ctx, true, false); err != nil {
		return err
	}
	w := s.newCompendiumWriter(writing != "")
	if err := fn(w); err != nil {
		return err
	}
	return w.flush(ctx)
}

// compendiumWriter is [store.CompendiumWriter] on a [Store].
type compendiumWriter struct {
	s *Store
	// recover: an earlier update did not finish; every chunk is pending.
	recover bool
	// marked: the store says that an update is under way (writingKey).
	marked bool
	// scopeOf holds the scope of the entities read or set, and stored
	// each scope's compendium as this writer last read or set it.
	scopeOf map[int64]string
	stored  map[string][]store.Entity
	// chunks lists every chunk by id, read at the first call of Chunks.
	chunks []listedChunk
	byID   map[int64]*listedChunk
	// mentions are those not written yet, by scope and chunk, and
	// gathered how many they are.
	mentions map[mentionKey]*chunkMentions
	gathered int
	// empty holds the scopes and chunks that hold no mentions in the
	// store (cleared, and not written since): their mentions are written
	// without reading what is stored.
	empty map[mentionKey]bool
}

// mentionKey names the object of the mentions in a chunk of a scope's
// entities.
type mentionKey struct {
	scope string
	chunk int64
}

// listedChunk is a chunk as the writer lists it.
type listedChunk struct {
	id         int64
	key, gen   string
	restricted bool
	// pending is what Chunks says; listed whether Chunks gives it when
	// asked for pending chunks only (its note's facts are stored, and
	// its mentions are not).
	pending, listed bool
}

// mentionFlush is how many mentions the writer gathers before it writes
// them; a variable for tests.
var mentionFlush = 5000

func (s *Store) newCompendiumWriter(recover bool) *compendiumWriter {
	return &compendiumWriter{s: s, recover: recover, marked: recover, scopeOf: map[int64]string{}, stored: map[string][]store.Entity{},
		mentions: map[mentionKey]*chunkMentions{}, empty: map[mentionKey]bool{}}
}

func (w *compendiumWriter) Entities(ctx context.Context, scope string) ([]store.Entity, error) {
	ents, err := w.s.scopeEntities(ctx, scope)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		w.scopeOf[e.ID] = scope
	}
	w.stored[scope] = ents
	return slices.Clone(ents), nil
}

func (w *compendiumWriter) SetEntities(ctx context.Context, scope string, ents []store.Entity) ([]int64, error) {
	const what = "storing the compendium"
	// What this writer read or set last (only it writes meanwhile).
	old, ok := w.stored[scope]
	if !ok {
		var err error
		if old, err = w.Entities(ctx, scope); err != nil {
			return nil, err
		}
	}
	byName := make(map[string]store.Entity, len(old))
	for _, e := range old {
		byName[e.Name] = e
	}
	keep := make(map[string]bool, len(ents))
	for _, e := range ents {
		if keep[e.Name] {
			return nil, fmt.Errorf("storing entity %q: named twice in the %s compendium", e.Name, scope)
		}
		keep[e.Name] = true
	}
	var gone []string
	for _, e := range old {
		if !keep[e.Name] || e.ID != EntityID(scope, e.Name) {
			gone = append(gone, idText(e.ID))
		}
	}
	// Names about to change: until Finish, an update cut short leaves
	// chunks whose mentions were not found again under the new names.
	renamed := len(gone) > 0
	for _, e := range ents {
		o, ok := byName[e.Name]
		renamed = renamed || !ok || !slices.Equal(nonNil(o.Aliases), nonNil(e.Aliases))
	}
	if renamed {
		if err := w.mark(ctx); err != nil {
			return nil, err
		}
	}
	// Their mentions first: a mention never outlives its entity.
	if err := w.dropMentions(ctx, scope, gone); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	for part := range slices.Chunk(gone, pageSize) {
		where := filters.Where().WithPath([]string{propEntityID}).WithOperator(filters.ContainsAny).WithValueText(part...)
		if err := w.s.deleteWhere(ctx, entityClass, where); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	ids := make([]int64, len(ents))
	var objs []*models.Object
	for i, e := range ents {
		ids[i] = EntityID(scope, e.Name)
		w.scopeOf[ids[i]] = scope
		if o, ok := byName[e.Name]; ok && o.ID == ids[i] && o.Kind == e.Kind && o.Note == e.Note && o.Source == e.Source &&
			slices.Equal(nonNil(o.Aliases), nonNil(e.Aliases)) {
			continue
		}
		obj, err := w.s.entityObject(scope, e)
		if err != nil {
			return nil, fmt.Errorf("storing entity %q: %w", e.Name, err)
		}
		objs = append(objs, obj)
	}
	if err := w.s.put(ctx, objs); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	set := make([]store.Entity, len(ents))
	for i, e := range ents {
		set[i] = store.Entity{ID: ids[i], Name: e.Name, Kind: e.Kind, Aliases: nonNil(e.Aliases), Note: e.Note, Source: e.Source}
	}
	sort.Slice(set, func(i, j int) bool { return set[i].Name < set[j].Name })
	w.stored[scope] = set
	return ids, nil
}

// mark records, once, that an update is under way whose writes an
// interruption would leave half done in chunks that are not pending (see
// [Store.UpdateCompendium]).
func (w *compendiumWriter) mark(ctx context.Context) error {
	if w.marked {
		return nil
	}
	if err := w.s.beginCompendium(ctx, false, true); err != nil {
		return err
	}
	w.marked = true
	return nil
}

// pending reports whether the next update finds the mentions of a chunk
// again if this one is cut short: its note's are not stored.
func (w *compendiumWriter) pending(chunk int64) bool {
	c, ok := w.byID[chunk]
	return ok && c.pending
}

// list reads every chunk of a note (a chunk whose note's object is
// missing is no note's yet), by id, with its note's visibility and state.
func (w *compendiumWriter) list(ctx context.Context) error {
	notes, err := w.s.notes(ctx)
	if err != nil {
		return err
	}
	states, err := w.s.factStates(ctx)
	if err != nil {
		return err
	}
	w.chunks = w.chunks[:0]
	err = w.s.each(ctx, chunkClass, []string{propChunkID, propDocKey, propRoot, propPath, propPublic, propGen}, func(o object) error {
		r := rowOf(o)
		n, ok := notes[r.key]
		if !ok {
			return nil
		}
		st, stored := states[r.key]
		stored = stored && st.gen == n.gen
		w.chunks = append(w.chunks, listedChunk{id: r.id, key: r.key, gen: o.text(propGen), restricted: r.restricted(notes),
			pending: w.recover || !stored || !st.matched, listed: w.recover || stored && !st.matched})
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(w.chunks, func(i, j int) bool { return w.chunks[i].id < w.chunks[j].id })
	w.byID = make(map[int64]*listedChunk, len(w.chunks))
	for i := range w.chunks {
		w.byID[w.chunks[i].id] = &w.chunks[i]
	}
	return nil
}

// Chunks returns up to n chunks with ids above after, by id; only pending
// ones when pending is set. The chunks are listed at the first call (ids
// and notes), their texts read a page at a time.
func (w *compendiumWriter) Chunks(ctx context.Context, after int64, n int, pending bool) ([]store.ChunkText, error) {
	if w.byID == nil {
		if err := w.list(ctx); err != nil {
			return nil, fmt.Errorf("reading chunks: %w", err)
		}
	}
	var page []*listedChunk
	for i := sort.Search(len(w.chunks), func(i int) bool { return w.chunks[i].id > after }); i < len(w.chunks) && len(page) < n; i++ {
		if c := &w.chunks[i]; !pending || c.listed {
			page = append(page, c)
		}
	}
	ids := make([]int64, len(page))
	for i, c := range page {
		ids[i] = c.id
	}
	texts := make(map[int64]string, len(ids))
	err := w.s.chunkPages(ctx, ids, []string{propChunkID, propText}, func(objs []object) error {
		for _, o := range objs {
			texts[o.id64(propChunkID)] = o.text(propText)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading chunks: %w", err)
	}
	out := make([]store.ChunkText, 0, len(page))
	for _, c := range page {
		// A chunk gone since it was listed is left out.
		if text, ok := texts[c.id]; ok {
			out = append(out, store.ChunkText{ID: c.id, Restricted: c.restricted, Pending: c.pending, Text: text})
		}
	}
	return out, nil
}

func (w *compendiumWriter) ClearMentions(ctx context.Context, scope string, chunks []int64) error {
	if len(chunks) == 0 {
		return nil
	}
	texts := make([]string, len(chunks))
	for i, id := range chunks {
		texts[i] = idText(id)
		if !w.pending(id) {
			if err := w.mark(ctx); err != nil {
				return err
			}
		}
	}
	for part := range slices.Chunk(texts, pageSize) {
		where := and(textIs(propScope, scope),
			filters.Where().WithPath([]string{propChunkID}).WithOperator(filters.ContainsAny).WithValueText(part...))
		if err := w.s.deleteWhere(ctx, mentionClass, where); err != nil {
			return fmt.Errorf("storing the compendium: %w", err)
		}
	}
	// Mentions gathered for these chunks go too, as they would had they
	// been written.
	for _, id := range chunks {
		k := mentionKey{scope, id}
		if cm, ok := w.mentions[k]; ok {
			w.gathered -= len(cm.counts)
			delete(w.mentions, k)
		}
		w.empty[k] = true
	}
	return nil
}

func (w *compendiumWriter) AddMention(ctx context.Context, entity, chunk int64, count int) error {
	scope, ok := w.scopeOf[entity]
	if !ok {
		objs, err := w.s.run(ctx, w.s.client.GraphQL().Get().WithFields(fields([]string{propScope})...).
			WithWhere(textIs(propEntityID, idText(entity))).WithLimit(1), entityClass)
		if err != nil {
			return fmt.Errorf("storing mentions: %w", err)
		}
		if len(objs) == 0 {
			return fmt.Errorf("storing mentions: no entity %d", entity)
		}
		scope = objs[0].text(propScope)
		w.scopeOf[entity] = scope
	}
	if !w.pending(chunk) {
		if err := w.mark(ctx); err != nil {
			return err
		}
	}
	k := mentionKey{scope, chunk}
	cm, ok := w.mentions[k]
	if !ok {
		cm = &chunkMentions{scope: scope, chunk: chunk, counts: map[int64]int{}}
		if c, ok := w.byID[chunk]; ok {
			cm.key, cm.gen = c.key, c.gen
		}
		w.mentions[k] = cm
	}
	if _, ok := cm.counts[entity]; !ok {
		w.gathered++
	}
	cm.counts[entity] = count
	if w.gathered < mentionFlush {
		return nil
	}
	return w.flush(ctx)
}

// flush writes the mentions gathered: one object per scope and chunk,
// with the chunk's note and version (read now for the chunks not listed),
// so that a new version of the note deletes it with the chunks it
// replaces. The mentions stored for a chunk that may hold some are read
// first and kept.
func (w *compendiumWriter) flush(ctx context.Context) error {
	if len(w.mentions) == 0 {
		return nil
	}
	var unknown []int64
	stored := map[string][]string{} // chunks to read, by scope
	for k, cm := range w.mentions {
		if cm.key == "" {
			unknown = append(unknown, cm.chunk)
		}
		if !w.empty[k] {
			stored[k.scope] = append(stored[k.scope], idText(k.chunk))
		}
	}
	where := map[int64][2]string{}
	err := w.s.chunkPages(ctx, unknown, []string{propChunkID, propDocKey, propRoot, propPath, propGen}, func(objs []object) error {
		for _, o := range objs {
			r := rowOf(o)
			where[r.id] = [2]string{r.key, o.text(propGen)}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storing mentions: %w", err)
	}
	for scope, chunks := range stored {
		slices.Sort(chunks)
		for part := range slices.Chunk(chunks, pageSize) {
			q := and(textIs(propScope, scope),
				filters.Where().WithPath([]string{propChunkID}).WithOperator(filters.ContainsAny).WithValueText(part...))
			// One object per scope and chunk: the ids say so.
			objs, err := w.s.run(ctx, w.s.client.GraphQL().Get().WithFields(fields(mentionProps)...).WithWhere(q).WithLimit(len(part)), mentionClass)
			if err != nil {
				return fmt.Errorf("storing mentions: %w", err)
			}
			for _, o := range objs {
				old, err := chunkMentionsOf(o)
				if err != nil {
					return fmt.Errorf("storing mentions: %w", err)
				}
				cm := w.mentions[mentionKey{scope, old.chunk}]
				for e, n := range old.counts {
					if _, ok := cm.counts[e]; !ok {
						cm.counts[e] = n
					}
				}
			}
		}
	}
	objs := make([]*models.Object, 0, len(w.mentions))
	for k, cm := range w.mentions {
		if cm.key == "" {
			kg, ok := where[cm.chunk]
			if !ok {
				return fmt.Errorf("storing mentions: %w: chunk %d", store.ErrMissingParent, cm.chunk)
			}
			cm.key, cm.gen = kg[0], kg[1]
		}
		objs = append(objs, w.s.mentionObject(cm))
		delete(w.empty, k)
	}
	if err := w.s.put(ctx, objs); err != nil {
		return fmt.Errorf("storing mentions: %w", err)
	}
	clear(w.mentions)
	w.gathered = 0
	return nil
}

// dropMentions deletes the mentions of the entities of scope with the
// given ids (decimal), gathered or stored: the objects that hold only
// theirs go, the others are written again without them.
func (w *compendiumWriter) dropMentions(ctx context.Context, scope string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	gone := map[int64]bool{}
	for _, t := range ids {
		id, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return fmt.Errorf("entity %q: %w", t, err)
		}
		gone[id] = true
	}
	for k, cm := range w.mentions {
		if k.scope != scope {
			continue
		}
		for e := range cm.counts {
			if gone[e] {
				delete(cm.counts, e)
				w.gathered--
			}
		}
	}
	rewrite := map[int64]*models.Object{}
	var empty []string
	for part := range slices.Chunk(ids, pageSize) {
		where := and(textIs(propScope, scope),
			filters.Where().WithPath([]string{propEntities}).WithOperator(filters.ContainsAny).WithValueText(part...))
		err := w.s.eachByBucket(ctx, mentionClass, where, mentionProps, func(objs []object) error {
			for _, o := range objs {
				cm, err := chunkMentionsOf(o)
				if err != nil {
					return err
				}
				for e := range cm.counts {
					if gone[e] {
						delete(cm.counts, e)
					}
				}
				if len(cm.counts) == 0 {
					empty = append(empty, idText(cm.chunk))
				} else {
					rewrite[cm.chunk] = w.s.mentionObject(cm)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := w.s.put(ctx, slices.Collect(maps.Values(rewrite))); err != nil {
		return err
	}
	slices.Sort(empty)
	for part := range slices.Chunk(slices.Compact(empty), pageSize) {
		where := and(textIs(propScope, scope),
			filters.Where().WithPath([]string{propChunkID}).WithOperator(filters.ContainsAny).WithValueText(part...))
		if err := w.s.deleteWhere(ctx, mentionClass, where); err != nil {
			return err
		}
	}
	return nil
}

// Finish writes the mentions left, marks every note's mentions stored,
// stores the setting key, says that no update is under way, and last
// serves the players' compendium again.
func (w *compendiumWriter) Finish(ctx context.Context, key, value string) error {
	if err := w.flush(ctx); err != nil {
		return err
	}
	states, err := w.s.factStates(ctx)
	if err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	var objs []*models.Object
	for k, st := range states {
		if !st.matched {
			st.matched = true
			objs = append(objs, w.s.stateObject(k, st))
		}
	}
	if err := w.s.put(ctx, objs); err != nil {
		return fmt.Errorf("storing the compendium: %w", err)
	}
	return w.s.endCompendium(ctx, true, map[string]string{key: value})
}
