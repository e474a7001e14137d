package weaviate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/oraculo/oraculo/store"
)

// Long-term memory without transactions: how the one-active rule and
// ids that are never reused are kept, and what is guaranteed under
// writers in several processes, is docs/weaviate.md's section
// Memory.

// A Store keeps long-term memory.
var _ store.MemoryStore = (*Store)(nil)

// memoryProps are the properties an entry is read back from.
var memoryProps = []string{propMemID, propScope, propKey, propValue, propSource, propStatus, propSupersedes, propCreated, propAuthor}

// memoryOf reads an entry back; Active is the caller's to set.
func memoryOf(o object) store.Memory {
	return store.Memory{
		ID: o.text(propMemID), Scope: o.text(propScope), Key: o.text(propKey), Value: o.text(propValue),
		Source: o.text(propSource), Status: o.text(propStatus), Supersedes: o.text(propSupersedes),
		Created: o.text(propCreated), Author: o.text(propAuthor),
	}
}

// memorySeq is the number of a memory id, 0 for one that is not "m" and
// a number.
func memorySeq(id string) int64 {
	n, _ := store.MemorySeq(id)
	return n
}

// fetched is one object read by its id: its properties, and when it was
// last written by the cluster's clock.
type fetched struct {
	object
	updated time.Time
	found   bool
}

// same reports whether two reads of an object found it the same: both
// missing, or both written at the same time with the same id and token.
func (f fetched) same(g fetched) bool {
	return f.found == g.found && f.updated.Equal(g.updated) &&
		f.text(propMemID) == g.text(propMemID) && f.text(propClaim) == g.text(propClaim)
}

// fetch reads the object id of class, at the store's read level on a
// replicated collection.
func (s *Store) fetch(ctx context.Context, class string, id strfmt.UUID) (fetched, error) {
	level, err := s.queryLevel(ctx, class)
	if err != nil {
		return fetched{}, err
	}
	get := s.client.Data().ObjectsGetter().WithClassName(class).WithID(string(id)).WithTenant(s.tenant)
	if level != "" {
		get = get.WithConsistencyLevel(level)
	}
	objs, err := get.Do(ctx)
	switch {
	case notFound(err):
		return fetched{}, nil
	case err != nil:
		return fetched{}, err
	case len(objs) == 0 || objs[0] == nil:
		return fetched{}, nil
	}
	props, _ := objs[0].Properties.(map[string]any)
	return fetched{object: object{props: props, id: string(objs[0].ID)}, updated: time.UnixMilli(objs[0].LastUpdateTimeUnix), found: true}, nil
}

// notFound reports whether err is the cluster answering that there is no
// such object.
func notFound(err error) bool {
	var ce *fault.WeaviateClientError
	return errors.As(err, &ce) && ce.StatusCode == 404
}

// settle reads the object id of class again every settleTime until two
// reads in a row find it the same, and returns it: what every writer
// racing on it reads then.
func (s *Store) settle(ctx context.Context, class string, id strfmt.UUID, st fetched) (fetched, error) {
	for range 20 {
		select {
		case <-ctx.Done():
			return fetched{}, ctx.Err()
		case <-time.After(settleTime):
		}
		again, err := s.fetch(ctx, class, id)
		if err != nil {
			return fetched{}, err
		}
		if again.same(st) {
			return again, nil
		}
		st = again
	}
	return fetched{}, errors.New("it kept changing")
}

// createOnce creates the object id of class with props unless it exists
// (POST, refused when it does), and returns it once it has settled: the
// creator whose values it holds has won it.
func (s *Store) createOnce(ctx context.Context, class string, id strfmt.UUID, props map[string]any) (fetched, error) {
	err := retry(ctx, func() error {
		_, err := s.client.Data().Creator().WithClassName(class).WithID(string(id)).WithTenant(s.tenant).
			WithProperties(props).WithConsistencyLevel(Consistency).Do(ctx)
		if err != nil && !alreadyExists(err) {
			return err
		}
		return nil
	})
	if err != nil {
		return fetched{}, err
	}
	st, err := s.fetch(ctx, class, id)
	if err != nil {
		return fetched{}, err
	}
	return s.settle(ctx, class, id, st)
}

// patch updates some properties of one object, trying again on failure;
// missing says there is no such object (then nothing was written).
func (s *Store) patch(ctx context.Context, class string, id strfmt.UUID, props map[string]any) (missing bool, err error) {
	err = retry(ctx, func() error {
		err := s.client.Data().Updater().WithMerge().WithClassName(class).WithID(string(id)).WithTenant(s.tenant).
			WithProperties(props).WithConsistencyLevel(Consistency).Do(ctx)
		missing = notFound(err)
		if missing {
			return nil
		}
		return err
	})
	return missing, err
}

// remove deletes one object for good, trying again on failure; missing
// says there was no such object.
func (s *Store) remove(ctx context.Context, class string, id strfmt.UUID) (missing bool, err error) {
	err = retry(ctx, func() error {
		err := s.client.Data().Deleter().WithClassName(class).WithID(string(id)).WithTenant(s.tenant).
			WithConsistencyLevel(Consistency).Do(ctx)
		missing = notFound(err)
		if missing {
			return nil
		}
		return err
	})
	return missing, err
}

// token is a writer's mark on an id it takes.
func token() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newMemoryID takes the next memory id: the first after the counter's
// whose object does not exist, created and settled with this writer's
// token (another writer's token there: the next one). The counter is
// moved on afterwards.
func (s *Store) newMemoryID(ctx context.Context) (string, error) {
	c, err := s.fetch(ctx, memoryIDClass, memoryCounterUUID())
	if err != nil {
		return "", err
	}
	n := int(c.int(propSeq))
	mine := token()
	for range 10000 {
		n++
		id := "m" + strconv.Itoa(n)
		taken, err := s.fetch(ctx, memoryIDClass, memoryIDUUID(id))
		if err != nil {
			return "", err
		}
		if taken.found {
			continue
		}
		got, err := s.createOnce(ctx, memoryIDClass, memoryIDUUID(id), map[string]any{propMemID: id, propClaim: mine})
		if err != nil {
			return "", fmt.Errorf("taking id %s: %w", id, err)
		}
		if !got.found || got.text(propClaim) != mine {
			continue
		}
		// The counter is a hint: a racer's lower number written over
		// this one costs the next writer a few reads.
		if c, err := s.fetch(ctx, memoryIDClass, memoryCounterUUID()); err == nil && int(c.int(propSeq)) < n {
			err = s.put(ctx, []*models.Object{{Class: memoryIDClass, ID: memoryCounterUUID(), Tenant: s.tenant,
				Properties: map[string]any{propMemID: "counter", propSeq: n}}})
			if err != nil {
				return "", err
			}
		}
		return id, nil
	}
	return "", errors.New("no free id found")
}

// memoryObject is the object of an entry.
func (s *Store) memoryObject(m store.Memory) *models.Object {
	return &models.Object{Class: memoryClass, ID: memoryUUID(m.ID), Tenant: s.tenant, Properties: map[string]any{
		propMemID: m.ID, propScope: m.Scope, propKey: m.Key, propValue: m.Value, propSource: m.Source,
		propStatus: m.Status, propSupersedes: m.Supersedes, propCreated: m.Created, propAuthor: m.Author,
	}}
}

// NoteVersion returns the SHA-256 of the note stored at path, found false
// when there is none: one query on the notes' collection, by path.
func (s *Store) NoteVersion(ctx context.Context, path string) (string, bool, error) {
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields([]string{propSHA256})...).
		WithWhere(textIs(propPath, path)).WithLimit(1), documentClass)
	if err != nil {
		return "", false, fmt.Errorf("reading the version of %q: %w", path, err)
	}
	if len(objs) == 0 {
		return "", false, nil
	}
	return objs[0].text(propSHA256), true, nil
}

// checkMemorySource checks a source against the notes stored now (see
// [store.CheckMemorySource]).
func (s *Store) checkMemorySource(ctx context.Context, source string) error {
	return store.CheckMemorySource(source, func(path string) (string, bool, error) {
		return s.NoteVersion(ctx, path)
	})
}

// AddMemory stores a new active entry and returns it with its id and
// creation time. Its status is a hypothesis unless verified. A (scope,
// key) that already has an active entry is an error naming that entry:
// a new value for it supersedes the old one ([Store.SupersedeMemory]).
// Of writers adding the same (scope, key) at once, one succeeds and the
// others get that error (see the file's comment for what this rests on).
func (s *Store) AddMemory(ctx context.Context, m store.Memory, verified bool) (store.Memory, error) {
	if err := store.CheckMemory(m); err != nil {
		return store.Memory{}, err
	}
	slotID := memorySlotUUID(m.Scope, m.Key)
	slot, err := s.fetch(ctx, memorySlotClass, slotID)
	if err == nil && slot.found && time.Since(slot.updated) < 4*settleTime {
		slot, err = s.settle(ctx, memorySlotClass, slotID, slot)
	}
	if err != nil {
		return store.Memory{}, fmt.Errorf("adding memory %q: %w", m.Key, err)
	}
	if slot.found {
		return store.Memory{}, store.ActiveEntryError(m, slot.text(propMemID))
	}
	if err := s.checkMemorySource(ctx, m.Source); err != nil {
		return store.Memory{}, err
	}
	m.Supersedes = ""
	m.Status = store.MemoryHypothesis
	if verified {
		m.Status = store.MemoryVerified
	}
	what := fmt.Sprintf("adding memory %q in scope %q", m.Key, m.Scope)
	if m, err = s.writeMemory(ctx, m, what); err != nil {
		return store.Memory{}, err
	}
	// The slot: created by one writer only.
	got, err := s.createOnce(ctx, memorySlotClass, slotID, map[string]any{propScope: m.Scope, propKey: m.Key, propMemID: m.ID})
	if err == nil && got.found && got.text(propMemID) == m.ID {
		return m, nil
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", what, err)
	} else if got.found {
		err = store.ActiveEntryError(m, got.text(propMemID))
	} else {
		err = fmt.Errorf("%s: its active entry changed meanwhile; try again", what)
	}
	return store.Memory{}, s.unwrite(ctx, m.ID, err)
}

// writeMemory takes the next id for m and stores it, not yet active (no
// slot names it).
func (s *Store) writeMemory(ctx context.Context, m store.Memory, what string) (store.Memory, error) {
	id, err := s.newMemoryID(ctx)
	if err != nil {
		return store.Memory{}, fmt.Errorf("%s: %w", what, err)
	}
	m.ID = id
	m.Created = time.Now().UTC().Format(time.RFC3339)
	m.Active = true
	if err := s.put(ctx, []*models.Object{s.memoryObject(m)}); err != nil {
		return store.Memory{}, fmt.Errorf("%s: %w", what, err)
	}
	return m, nil
}

// unwrite deletes the entry id a writer stored but could not make active,
// and returns why (with why it could not be deleted).
func (s *Store) unwrite(ctx context.Context, id string, why error) error {
	if _, err := s.remove(context.WithoutCancel(ctx), memoryClass, memoryUUID(id)); err != nil {
		return errors.Join(why, fmt.Errorf("deleting memory %q again: %w", id, err))
	}
	return why
}

// Memory returns the entry with the given id, or an error wrapping
// [store.ErrNoMemory].
func (s *Store) Memory(ctx context.Context, id string) (store.Memory, error) {
	f, err := s.fetch(ctx, memoryClass, memoryUUID(id))
	if err != nil {
		return store.Memory{}, fmt.Errorf("reading memory %q: %w", id, err)
	}
	if !f.found {
		return store.Memory{}, fmt.Errorf("memory %q: %w", id, store.ErrNoMemory)
	}
	m := memoryOf(f.object)
	slot, err := s.fetch(ctx, memorySlotClass, memorySlotUUID(m.Scope, m.Key))
	if err != nil {
		return store.Memory{}, fmt.Errorf("reading memory %q: %w", id, err)
	}
	m.Active = slot.found && slot.text(propMemID) == m.ID
	return m, nil
}

// Memories returns the entries of scope (every scope when it is empty),
// only the active ones unless all, by scope, key and id number.
func (s *Store) Memories(ctx context.Context, scope string, all bool) ([]store.Memory, error) {
	var ms []store.Memory
	active := map[string]bool{}
	entry := func(o object) error {
		ms = append(ms, memoryOf(o))
		return nil
	}
	slot := func(o object) error {
		active[o.text(propMemID)] = true
		return nil
	}
	var err error
	if scope == "" {
		err = s.each(ctx, memoryClass, memoryProps, entry)
		if err == nil {
			err = s.each(ctx, memorySlotClass, []string{propMemID}, slot)
		}
	} else {
		err = s.offsetPages(ctx, memoryClass, textIs(propScope, scope), memoryProps, func(objs []object) error {
			for _, o := range objs {
				entry(o)
			}
			return nil
		})
		if err == nil {
			err = s.offsetPages(ctx, memorySlotClass, textIs(propScope, scope), []string{propMemID}, func(objs []object) error {
				for _, o := range objs {
					slot(o)
				}
				return nil
			})
		}
	}
	if err != nil {
		return nil, fmt.Errorf("listing memory: %w", err)
	}
	out := ms[:0]
	for _, m := range ms {
		m.Active = active[m.ID]
		if all || m.Active {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Scope != b.Scope {
			return a.Scope < b.Scope
		}
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		return memorySeq(a.ID) < memorySeq(b.ID)
	})
	return out, nil
}

// MemoryChain returns the entry with the given id and those it replaced,
// one after another through Supersedes, newest first; it stops at a link
// to an entry that is gone.
func (s *Store) MemoryChain(ctx context.Context, id string) ([]store.Memory, error) {
	return store.MemoryChain(ctx, id, s.Memory)
}

// VerifyMemory marks an entry verified; a source that is not empty (a
// note's version read again) replaces the entry's, checked as a new
// entry's is.
func (s *Store) VerifyMemory(ctx context.Context, id, source string) error {
	if source != "" {
		if err := s.checkMemorySource(ctx, source); err != nil {
			return err
		}
	}
	f, err := s.fetch(ctx, memoryClass, memoryUUID(id))
	if err != nil {
		return fmt.Errorf("verifying memory %q: %w", id, err)
	}
	if !f.found {
		return fmt.Errorf("verifying memory %q: %w", id, store.ErrNoMemory)
	}
	props := map[string]any{propStatus: store.MemoryVerified}
	if source != "" {
		props[propSource] = source
	}
	missing, err := s.patch(ctx, memoryClass, memoryUUID(id), props)
	if err != nil {
		return fmt.Errorf("verifying memory %q: %w", id, err)
	}
	if missing {
		return fmt.Errorf("verifying memory %q: %w", id, store.ErrNoMemory)
	}
	return nil
}

// SupersedeMemory replaces the active entry id with a new one holding
// value: the new entry is active, names id in Supersedes, and keeps its
// scope and key (m.Source, id's when empty, and m.Author; verified makes
// it verified); id becomes inactive. The new entry is stored first, then
// named in id's slot, read again just before: of writers superseding id
// at once one succeeds, the others delete the entry they stored and are
// told id is no longer active (see the file's comment).
func (s *Store) SupersedeMemory(ctx context.Context, id, value string, m store.Memory, verified bool) (store.Memory, error) {
	old, err := s.Memory(ctx, id)
	if err != nil {
		return store.Memory{}, fmt.Errorf("superseding: %w", err)
	}
	inactive := store.InactiveEntryError(id)
	if !old.Active {
		return store.Memory{}, inactive
	}
	next := store.Memory{Scope: old.Scope, Key: old.Key, Value: value, Source: m.Source, Author: m.Author,
		Status: store.MemoryHypothesis, Supersedes: id}
	if next.Source == "" {
		next.Source = old.Source
	}
	if verified {
		next.Status = store.MemoryVerified
	}
	if err := store.CheckMemory(next); err != nil {
		return store.Memory{}, err
	}
	if err := s.checkMemorySource(ctx, next.Source); err != nil {
		return store.Memory{}, err
	}
	what := fmt.Sprintf("superseding memory %q", id)
	if next, err = s.writeMemory(ctx, next, what); err != nil {
		return store.Memory{}, err
	}
	slotID := memorySlotUUID(old.Scope, old.Key)
	slot, err := s.fetch(ctx, memorySlotClass, slotID)
	if err != nil {
		return store.Memory{}, s.unwrite(ctx, next.ID, fmt.Errorf("%s: %w", what, err))
	}
	if !slot.found || slot.text(propMemID) != id {
		return store.Memory{}, s.unwrite(ctx, next.ID, inactive)
	}
	missing, err := s.patch(ctx, memorySlotClass, slotID, map[string]any{propMemID: next.ID})
	if err != nil {
		return store.Memory{}, s.unwrite(ctx, next.ID, fmt.Errorf("%s: %w", what, err))
	}
	if missing {
		return store.Memory{}, s.unwrite(ctx, next.ID, inactive)
	}
	if slot, err = s.fetch(ctx, memorySlotClass, slotID); err == nil {
		slot, err = s.settle(ctx, memorySlotClass, slotID, slot)
	}
	if err != nil {
		// Whether it won is unknown: the slot may name it. Leave it.
		return store.Memory{}, fmt.Errorf("%s: %w", what, err)
	}
	if !slot.found || slot.text(propMemID) != next.ID {
		return store.Memory{}, s.unwrite(ctx, next.ID, inactive)
	}
	return next, nil
}

// ForgetMemory deletes an entry for good, with every link to it: an
// entry that superseded it no longer names it. Forgetting the active
// entry of a (scope, key) frees its slot, leaving it with none active.
// The slot is freed first and the entry deleted last, so that a forget
// cut short is done by the next; what stays of the entry is its id's
// object (the id, never handed out again), none of its fields.
func (s *Store) ForgetMemory(ctx context.Context, id string) error {
	f, err := s.fetch(ctx, memoryClass, memoryUUID(id))
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if !f.found {
		return fmt.Errorf("forgetting memory %q: %w", id, store.ErrNoMemory)
	}
	// Only a slot that names it (a filtered delete: a supersede that has
	// just replaced it keeps its slot).
	if err := s.deleteWhere(ctx, memorySlotClass, textIs(propMemID, id)); err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	var linked []string
	err = s.offsetPages(ctx, memoryClass, textIs(propSupersedes, id), []string{propMemID}, func(objs []object) error {
		for _, o := range objs {
			linked = append(linked, o.text(propMemID))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	for _, l := range linked {
		if _, err := s.patch(ctx, memoryClass, memoryUUID(l), map[string]any{propSupersedes: ""}); err != nil {
			return fmt.Errorf("forgetting memory %q: unlinking %q: %w", id, l, err)
		}
	}
	missing, err := s.remove(ctx, memoryClass, memoryUUID(id))
	if err != nil {
		return fmt.Errorf("forgetting memory %q: %w", id, err)
	}
	if missing {
		return fmt.Errorf("forgetting memory %q: %w", id, store.ErrNoMemory)
	}
	return nil
}
