// Package storedconfig keeps a model's config in an index's settings:
// the fields that say which model (provider, model, URL, size), never
// its key, so that a later command that names no model uses the one the
// last ingest used.
package storedconfig

import (
	"context"
	"strconv"
)

// Settings are where an index keeps its settings (the store's Settings
// role).
type Settings interface {
	// Meta returns a stored setting, or "" when it is unset.
	Meta(ctx context.Context, key string) (string, error)
	// SetMeta stores a setting.
	SetMeta(ctx context.Context, key, value string) error
}

// Fields are the fields of a config that an index keeps, by meta key:
// each a *string or an *int.
type Fields map[string]any

// Resolve reads f from s when provider is "" (a config that names no
// model takes the one the index keeps), and leaves it as it is otherwise.
func Resolve(ctx context.Context, s Settings, provider string, f Fields) error {
	if provider != "" {
		return nil
	}
	return Read(ctx, s, f)
}

// Read sets each field to the value s keeps under its key: "" (0) when
// it is unset.
func Read(ctx context.Context, s Settings, f Fields) error {
	for key, dst := range f {
		v, err := s.Meta(ctx, key)
		if err != nil {
			return err
		}
		switch dst := dst.(type) {
		case *string:
			*dst = v
		case *int:
			*dst, _ = strconv.Atoi(v)
		}
	}
	return nil
}

// Write stores each field under its key.
func Write(ctx context.Context, s Settings, f Fields) error {
	for key, src := range f {
		var v string
		switch src := src.(type) {
		case *string:
			v = *src
		case *int:
			v = strconv.Itoa(*src)
		}
		if err := s.SetMeta(ctx, key, v); err != nil {
			return err
		}
	}
	return nil
}

// Map is Settings kept in memory, by key: for tests.
type Map map[string]string

// Meta returns the value under key, or "".
func (m Map) Meta(_ context.Context, key string) (string, error) { return m[key], nil }

// SetMeta sets the value under key.
func (m Map) SetMeta(_ context.Context, key, value string) error {
	m[key] = value
	return nil
}
