package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/except"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/pathbuilder"
	"github.com/weaviate/weaviate/entities/models"
)

// Batch sizes and retries of writes.
const (
	// BatchObjects is how many objects one batch request carries.
	BatchObjects = 200
	// Attempts is how many times a write is tried before it fails.
	Attempts = 6
)

// firstBackoff is the pause after a failed attempt, doubling after each
// (0.2 s, 0.4 s... 3.2 s: about 6 s in all); a variable for tests.
var firstBackoff = 200 * time.Millisecond

// retry runs try until it succeeds, Attempts times at most, waiting twice
// as long after each failure; it stops early when ctx ends.
func retry(ctx context.Context, try func() error) error {
	wait := firstBackoff
	var err error
	for i := 0; i < Attempts; i++ {
		if err = try(); err == nil {
			return nil
		}
		if i == Attempts-1 {
			break
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
		wait *= 2
	}
	return err
}

// put writes objects (creating or replacing each by its id) in batches,
// trying again the objects the cluster refused.
func (s *Store) put(ctx context.Context, objs []*models.Object) error {
	for len(objs) > 0 {
		n := min(len(objs), BatchObjects)
		pending := objs[:n]
		objs = objs[n:]
		err := retry(ctx, func() error {
			resp, err := s.client.Batch().ObjectsBatcher().WithObjects(pending...).WithConsistencyLevel(Consistency).Do(ctx)
			if err != nil {
				return err
			}
			var failed []*models.Object
			var why []string
			byID := make(map[strfmt.UUID]*models.Object, len(pending))
			for _, o := range pending {
				byID[o.ID] = o
			}
			for _, r := range resp {
				if r.Result == nil || r.Result.Errors == nil || len(r.Result.Errors.Error) == 0 {
					continue
				}
				if o := byID[r.ID]; o != nil {
					failed = append(failed, o)
				}
				for _, e := range r.Result.Errors.Error {
					why = append(why, e.Message)
				}
			}
			if len(resp) != len(pending) && len(failed) == 0 {
				return fmt.Errorf("batch of %d objects answered for %d", len(pending), len(resp))
			}
			if len(failed) > 0 {
				pending = failed
				return fmt.Errorf("%d objects refused: %s", len(failed), strings.Join(why, "; "))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("writing objects: %w", err)
		}
	}
	return nil
}

// deleteWhere deletes the objects of class that where matches, as many
// requests as it takes (one deletes QUERY_MAXIMUM_RESULTS at most).
func (s *Store) deleteWhere(ctx context.Context, class string, where *filters.WhereBuilder) error {
	for {
		var matched, limit int64
		err := retry(ctx, func() error {
			resp, err := s.batchDelete(ctx, class, where)
			if err != nil {
				return err
			}
			if resp.Results == nil {
				return errors.New("no results in the answer")
			}
			if resp.Results.Failed > 0 {
				return fmt.Errorf("%d of %d deletions failed", resp.Results.Failed, resp.Results.Matches)
			}
			matched, limit = resp.Results.Matches, resp.Results.Limit
			return nil
		})
		if err != nil {
			return fmt.Errorf("deleting from %q: %w", class, err)
		}
		if limit <= 0 || matched < limit {
			return nil
		}
	}
}

// batchDelete sends one batch delete of the objects of class that where
// matches, stamped with the time of the request: a replica that missed
// it resolves the conflict by that time when it comes back (time-based
// resolution). The client's ObjectsBatchDeleter sends no time, and the
// tombstones of a REST batch delete without one have none, so the stale
// copy would win and the objects come back (Weaviate stamps single
// deletes and gRPC batch deletes itself).
func (s *Store) batchDelete(ctx context.Context, class string, where *filters.WhereBuilder) (*models.BatchDeleteResponse, error) {
	body := &models.BatchDelete{
		Output:                ptr("minimal"),
		DeletionTimeUnixMilli: ptr(time.Now().UnixMilli()),
		Match:                 &models.BatchDeleteMatch{Class: class, Where: where.Build()},
	}
	path := pathbuilder.BatchObjects(pathbuilder.Components{ConsistencyLevel: Consistency, Tenant: s.tenant})
	data, err := s.rest.RunREST(ctx, path, http.MethodDelete, body)
	if err := except.CheckResponseDataErrorAndStatusCode(data, err, http.StatusOK); err != nil {
		return nil, err
	}
	var resp models.BatchDeleteResponse
	if err := data.DecodeBodyIntoTarget(&resp); err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	return &resp, nil
}

// Filters on properties.
func textIs(prop, value string) *filters.WhereBuilder {
	return filters.Where().WithPath([]string{prop}).WithOperator(filters.Equal).WithValueText(value)
}

func and(ws ...*filters.WhereBuilder) *filters.WhereBuilder {
	var keep []*filters.WhereBuilder
	for _, w := range ws {
		if w != nil {
			keep = append(keep, w)
		}
	}
	switch len(keep) {
	case 0:
		return nil
	case 1:
		return keep[0]
	}
	return filters.Where().WithOperator(filters.And).WithOperands(keep)
}

func or(ws ...*filters.WhereBuilder) *filters.WhereBuilder {
	if len(ws) == 1 {
		return ws[0]
	}
	return filters.Where().WithOperator(filters.Or).WithOperands(ws)
}
