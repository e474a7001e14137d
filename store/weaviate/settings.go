package weaviate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"
)

// Meta returns a stored setting, or "" when it is unset. It reads one
// object by its id: the engine reads the "generation" setting before
// every search, to notice another process's ingest.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	st, err := s.readSetting(ctx, key)
	if err != nil {
		return "", fmt.Errorf("reading setting %q: %w", key, err)
	}
	return st.value, nil
}

// SetMeta stores a setting.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	err := s.put(ctx, []*models.Object{{Class: settingClass, ID: settingUUID(key), Tenant: s.tenant,
		Properties: map[string]any{propKey: key, propValue: value}}})
	if err != nil {
		return fmt.Errorf("writing setting %q: %w", key, err)
	}
	return nil
}

// settleTime is how long a setting [Store.MetaOnce] has just seen created
// must keep its value before it is taken as final; a variable for tests.
//
// Weaviate refuses to create an object whose id exists, but it checks and
// then writes in two steps: two processes creating the same setting at
// the same moment may both pass the check, and the later write wins. Both
// writes land within the time of one request, so reading the setting back
// until it has stayed the same for settleTime gives every racer the
// winner's value.
var settleTime = 300 * time.Millisecond

// MetaOnce stores value under key unless the key has a value already, and
// returns the value the key holds: of processes calling it at the same
// moment with different values (each serve process with a fresh link
// key), every one gets the same. A value already stored is returned at
// once; a key just created (by this call or a racing one) is read back
// until it has settled.
func (s *Store) MetaOnce(ctx context.Context, key, value string) (string, error) {
	if value == "" {
		return "", fmt.Errorf("creating setting %q: an empty value", key)
	}
	st, err := s.readSetting(ctx, key)
	if err != nil {
		return "", fmt.Errorf("creating setting %q: %w", key, err)
	}
	if st.found && time.Since(st.updated) > 4*settleTime {
		return st.value, nil
	}
	if !st.found {
		_, err := s.client.Data().Creator().WithClassName(settingClass).WithID(string(settingUUID(key))).
			WithTenant(s.tenant).WithProperties(map[string]any{propKey: key, propValue: value}).Do(ctx)
		if err != nil && !alreadyExists(err) {
			return "", fmt.Errorf("creating setting %q: %w", key, err)
		}
		if st, err = s.readSetting(ctx, key); err != nil {
			return "", fmt.Errorf("creating setting %q: %w", key, err)
		}
	}
	for range 20 {
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("creating setting %q: %w", key, ctx.Err())
		case <-time.After(settleTime):
		}
		again, err := s.readSetting(ctx, key)
		if err != nil {
			return "", fmt.Errorf("creating setting %q: %w", key, err)
		}
		if again == st && st.found {
			return st.value, nil
		}
		st = again
	}
	return "", fmt.Errorf("creating setting %q: its value kept changing", key)
}

// storedSetting is a setting read back: its value, and when it was last
// written by the cluster's clock.
type storedSetting struct {
	value   string
	updated time.Time
	found   bool
}

// readSetting reads the object of setting key by its id.
func (s *Store) readSetting(ctx context.Context, key string) (storedSetting, error) {
	objs, err := s.client.Data().ObjectsGetter().WithClassName(settingClass).WithID(string(settingUUID(key))).
		WithTenant(s.tenant).Do(ctx)
	switch {
	case notFound(err):
		return storedSetting{}, nil
	case err != nil:
		return storedSetting{}, err
	case len(objs) == 0 || objs[0] == nil:
		return storedSetting{}, nil
	}
	props, _ := objs[0].Properties.(map[string]any)
	v, _ := props[propValue].(string)
	return storedSetting{value: v, updated: time.UnixMilli(objs[0].LastUpdateTimeUnix), found: true}, nil
}

// alreadyExists reports whether err is Weaviate refusing to create an
// object whose id is taken.
func alreadyExists(err error) bool {
	var ce *fault.WeaviateClientError
	return errors.As(err, &ce) && ce.StatusCode == 422 && strings.Contains(ce.Msg, "already exists")
}

// chunksVersionKey is the setting [Store.ChunksVersion] reads.
const chunksVersionKey = "chunks_version"

// ChunksVersion returns a value that changes whenever chunks are written
// or removed: a fresh one is stored before a write of chunks begins and
// again once it is done. Without transactions, the first makes a write
// cut short change it too; the second, a reader that read it in the
// middle of a write see another value after it.
func (s *Store) ChunksVersion(ctx context.Context) (string, error) {
	return s.Meta(ctx, chunksVersionKey)
}

// changeChunksVersion stores a fresh value of [Store.ChunksVersion]: a
// random one, so that writers racing each other never store the same.
func (s *Store) changeChunksVersion(ctx context.Context) error {
	return s.SetMeta(ctx, chunksVersionKey, uuid.NewString())
}
