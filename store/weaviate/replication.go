package weaviate

import (
	"context"
	"fmt"
	"sync"

	"github.com/weaviate/weaviate/entities/models"
)

// Consistency is the level of every write the store sends and of every
// query on a replicated collection: QUORUM, a majority of a tenant's
// copies (2 of 3). A write returns once that many nodes hold it; a query
// is answered from the copy of the node the store talks to, and the
// objects it returns are compared with a quorum's, stale copies repaired
// for the next query. With factor 3 one node of three may be down and
// every read and write still succeeds. A collection of one copy takes no
// level on queries (Weaviate's GraphQL refuses the argument there).
const Consistency = "QUORUM"

// replicationConfig is how the collections Open creates are replicated:
// factor copies of every tenant (0: the cluster's default, 1 unless it
// sets REPLICATION_MINIMUM_FACTOR); asynchronous replication, which a
// collection of one copy does not run, so that a node that comes back
// copies what it missed from the others; and time-based resolution of
// deletes, the latest of a write and a delete winning, so that what was
// deleted while a node was down does not come back with it and an object
// written again after a delete is kept (Weaviate's default,
// NoAutomatedResolution, leaves both copies).
func replicationConfig(factor int) *models.ReplicationConfig {
	return &models.ReplicationConfig{
		Factor:           int64(max(factor, 0)),
		AsyncEnabled:     true,
		DeletionStrategy: models.ReplicationConfigDeletionStrategyTimeBasedResolution,
	}
}

// replicated returns c set to be created with the store's factor.
func (s *Store) replicated(c *models.Class) *models.Class {
	c.ReplicationConfig = replicationConfig(s.replication)
	return c
}

// checkReplication returns an error when the collection class exists
// with another factor than the store was asked for (nothing is checked
// when it was asked for none), or, replicated, without asynchronous
// replication or time-based resolution of deletes.
func (s *Store) checkReplication(ctx context.Context, class string) error {
	if s.replication <= 0 {
		return nil
	}
	has, err := s.replicationOf(ctx, class)
	if err != nil {
		return err
	}
	if int(has.Factor) != s.replication {
		return fmt.Errorf("collection %q has replication factor %d, not the %d asked: "+
			"open it with replication %d, or change the collection's factor", class, has.Factor, s.replication, has.Factor)
	}
	if s.replication > 1 && !has.AsyncEnabled {
		return fmt.Errorf("collection %q has replication factor %d without asynchronous replication: "+
			"a node that comes back would serve what it missed", class, has.Factor)
	}
	if s.replication > 1 && has.DeletionStrategy != models.ReplicationConfigDeletionStrategyTimeBasedResolution {
		return fmt.Errorf("collection %q resolves deletes by %q, not %q: "+
			"what is deleted while a node is down could come back with it", class, has.DeletionStrategy,
			models.ReplicationConfigDeletionStrategyTimeBasedResolution)
	}
	return nil
}

// factors remembers the replication factor of each collection a store
// has read, shared by the copies of a store.
type factors struct {
	mu sync.Mutex
	of map[string]int64
}

// replicationOf reads how the collection class is replicated (factor 1
// when it does not say) and remembers its factor.
func (s *Store) replicationOf(ctx context.Context, class string) (*models.ReplicationConfig, error) {
	c, err := s.client.Schema().ClassGetter().WithClassName(class).Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading collection %q: %w", class, err)
	}
	has := models.ReplicationConfig{Factor: 1}
	if c.ReplicationConfig != nil {
		has = *c.ReplicationConfig
	}
	has.Factor = max(has.Factor, 1)
	s.factors.mu.Lock()
	if s.factors.of == nil {
		s.factors.of = map[string]int64{}
	}
	s.factors.of[class] = has.Factor
	s.factors.mu.Unlock()
	return &has, nil
}

// queryLevel is the consistency level of a query on class: the store's
// read level on a replicated collection, none on one of a single copy
// (Weaviate's GraphQL takes the argument only where there are copies to
// compare).
func (s *Store) queryLevel(ctx context.Context, class string) (string, error) {
	s.factors.mu.Lock()
	f, ok := s.factors.of[class]
	s.factors.mu.Unlock()
	if !ok {
		has, err := s.replicationOf(ctx, class)
		if err != nil {
			return "", err
		}
		f = has.Factor
	}
	if f <= 1 {
		return "", nil
	}
	return s.readLevel, nil
}
