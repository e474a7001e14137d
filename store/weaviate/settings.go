package weaviate

import (
	"context"
	"fmt"

	"github.com/weaviate/weaviate/entities/models"
)

// Meta returns a stored setting, or "" when it is unset.
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	objs, err := s.run(ctx, s.client.GraphQL().Get().WithFields(fields([]string{propValue})...).
		WithWhere(textIs(propKey, key)).WithLimit(1), settingClass)
	if err != nil {
		return "", fmt.Errorf("reading setting %q: %w", key, err)
	}
	if len(objs) == 0 {
		return "", nil
	}
	return objs[0].text(propValue), nil
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
