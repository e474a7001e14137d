package oraculo

import (
	"context"

	"github.com/oraculo/oraculo/store/weaviate"
)

// An index may live in a Weaviate cluster instead of a file: open the
// cluster with [OpenCluster], then the engine over it with [OpenStore].
// Programs built on the engine choose the backend here and import no
// store package.

// Cluster is an index open in a Weaviate cluster (package
// store/weaviate): a [store.Store] that several servers may share.
type Cluster = weaviate.Store

// ClusterConfig says where the index is in the cluster: a node's address,
// the API key, the collection (tenant), and for a first ingest the
// replication factor.
type ClusterConfig = weaviate.Config

// DefaultCollection is the collection (Weaviate tenant) an index takes in
// a cluster when none is named.
const DefaultCollection = weaviate.DefaultTenant

// Errors opening a cluster may return, for a program to explain.
var (
	// ErrClusterUnreachable: no node of the cluster answers.
	ErrClusterUnreachable = weaviate.ErrUnreachable
	// ErrClusterUnauthorized: the cluster refuses the API key (or asks
	// for one).
	ErrClusterUnauthorized = weaviate.ErrUnauthorized
	// ErrClusterNoIndex: [ClusterConfig.Existing] found no ingest in the
	// collection.
	ErrClusterNoIndex = weaviate.ErrNoIndex
)

// OpenCluster connects to the index cfg names in a Weaviate cluster
// (creating its collections unless cfg.Existing).
func OpenCluster(ctx context.Context, cfg ClusterConfig) (*Cluster, error) {
	return weaviate.Open(ctx, cfg)
}
