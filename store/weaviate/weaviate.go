package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sync"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/auth"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/connection"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/fault"

	"github.com/oraculo/oraculo/store"
)

// DefaultTenant is the tenant of the default index name.
const DefaultTenant = "oraculo"

// DefaultTimeout bounds every request to the cluster.
const DefaultTimeout = 30 * time.Second

// Config says which cluster and tenant a [Store] works in.
type Config struct {
	// URL is a node's REST address, as http://host:port.
	URL string
	// APIKey, when set, authenticates every request.
	APIKey string
	// Tenant is the index name: several indexes share a cluster, each in
	// its own tenant of every collection, none seeing the others.
	// DefaultTenant when empty.
	Tenant string
	// Timeout bounds each request; DefaultTimeout when zero.
	Timeout time.Duration
	// Replication is the replication factor of the collections Open
	// creates, how many nodes hold each tenant: 3 for a cluster of three
	// that keeps answering with one node down. 0 means 1, or the
	// cluster's default when it sets one, and takes existing collections
	// as they are; any other factor makes Open fail on an existing
	// collection that has another (see [Consistency]).
	Replication int
	// Existing opens only an index an ingest has begun in: Open creates
	// nothing and fails with [ErrNoIndex] when the tenant has none.
	Existing bool
}

// Errors of [Open] that callers tell apart; each comes wrapped with the
// cluster's address (never its API key).
var (
	// ErrUnreachable: no node answers at the address.
	ErrUnreachable = errors.New("the Weaviate cluster cannot be reached")
	// ErrUnauthorized: the cluster refuses the API key, or wants one.
	ErrUnauthorized = errors.New("the Weaviate cluster refused the API key")
	// ErrNoIndex: [Config.Existing] was set and no ingest has begun in the
	// tenant.
	ErrNoIndex = errors.New("no index in this tenant: nothing was ingested")
)

// Store is an index kept in a Weaviate cluster, in one tenant.
type Store struct {
	client *wv.Client
	// rest sends the requests the client has no builder for (see
	// batchDelete), to the same node.
	rest        *connection.Connection
	url         string
	tenant      string
	replication int
	// readLevel is the consistency level of queries on replicated
	// collections, [Consistency] but in tests.
	readLevel string
	factors   *factors
	version   string // the answering node's, read by Open
	warnings  []string
	// held holds the models whose vector collection and tenant are known
	// to exist (nothing drops them), so that a search does not ask.
	held *sync.Map
	// counts caches [Store.TermCounts] for one [Store.ChunksVersion].
	counts *termCounts
	// sums are the compendium's sums, summed anew at each update.
	sums *compendiumSums
}

// tenantName is what Weaviate accepts as a tenant's name.
var tenantName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Open connects to the cluster at cfg.URL and creates the collections and
// the tenant when they are missing (unless cfg.Existing).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("opening weaviate index: %q is not an http(s)://host:port address", cfg.URL)
	}
	tenant := cfg.Tenant
	if tenant == "" {
		tenant = DefaultTenant
	}
	if !tenantName.MatchString(tenant) {
		return nil, fmt.Errorf("opening weaviate index: index name %q: Weaviate tenants are 1 to 64 letters, digits, _ or -", tenant)
	}
	if cfg.Replication < 0 {
		return nil, fmt.Errorf("opening weaviate index: replication factor %d", cfg.Replication)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	wc := wv.Config{Scheme: u.Scheme, Host: u.Host, Timeout: timeout}
	headers := map[string]string{}
	if cfg.APIKey != "" {
		wc.AuthConfig = auth.ApiKey{Value: cfg.APIKey}
		headers["authorization"] = "Bearer " + cfg.APIKey
	}
	client, err := wv.NewClient(wc)
	if err != nil {
		return nil, fmt.Errorf("opening weaviate index at %q: %w", cfg.URL, err)
	}
	s := &Store{
		client: client, rest: connection.NewConnection(u.Scheme, u.Host, nil, timeout, headers),
		url: cfg.URL, tenant: tenant, replication: cfg.Replication, readLevel: Consistency, factors: &factors{},
		held: &sync.Map{}, counts: &termCounts{}, sums: &compendiumSums{},
	}
	meta, err := client.Misc().MetaGetter().Do(ctx)
	if err != nil {
		return nil, reachError(cfg.URL, err)
	}
	s.version = meta.Version
	if cfg.Existing {
		switch ok, err := s.ingested(ctx); {
		case err != nil:
			return nil, fmt.Errorf("opening weaviate index %q at %q: %w", tenant, cfg.URL, err)
		case !ok:
			return nil, fmt.Errorf("opening weaviate index %q at %q: %w", tenant, cfg.URL, ErrNoIndex)
		}
	}
	if err := s.ensureSchema(ctx); err != nil {
		return nil, fmt.Errorf("opening weaviate index at %q: %w", cfg.URL, err)
	}
	w, err := s.blockMaxWarning(ctx)
	if err != nil {
		return nil, fmt.Errorf("opening weaviate index at %q: %w", cfg.URL, err)
	}
	if w != "" {
		s.warnings = append(s.warnings, w)
	}
	return s, nil
}

// reachError says why the first request to the cluster at addr failed:
// no answer ([ErrUnreachable]), the API key refused ([ErrUnauthorized]),
// or another answer than the one asked for.
func reachError(addr string, err error) error {
	var ce *fault.WeaviateClientError
	if !errors.As(err, &ce) {
		return fmt.Errorf("%w at %s: %v", ErrUnreachable, addr, err)
	}
	switch {
	case !ce.IsUnexpectedStatusCode && ce.DerivedFromError != nil:
		return fmt.Errorf("%w at %s: %v", ErrUnreachable, addr, ce.DerivedFromError)
	case ce.StatusCode == 401 || ce.StatusCode == 403:
		return fmt.Errorf("%w at %s (HTTP %d)", ErrUnauthorized, addr, ce.StatusCode)
	}
	return fmt.Errorf("opening weaviate index at %q: %w", addr, err)
}

// ingested reports whether an ingest has begun in the tenant, which
// stores the index's settings first, without creating anything.
func (s *Store) ingested(ctx context.Context) (bool, error) {
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(settingClass).Do(ctx)
	if err != nil || !exists {
		return false, err
	}
	has, err := s.client.Schema().TenantsExists().WithClassName(settingClass).WithTenant(s.tenant).Do(ctx)
	if err != nil || !has {
		return false, err
	}
	lang, err := s.Meta(ctx, IngestedKey)
	return lang != "", err
}

// IngestedKey is the setting every ingest stores before anything else
// (the notes' language): a tenant without it holds no index.
const IngestedKey = "lang"

// Version is the Weaviate version of the node the store first reached.
func (s *Store) Version() string { return s.version }

// Nodes counts the cluster's nodes and those of them that are healthy.
func (s *Store) Nodes(ctx context.Context) (nodes, healthy int, err error) {
	resp, err := s.client.Cluster().NodesStatusGetter().Do(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("reading the status of the nodes at %s: %w", s.url, err)
	}
	for _, n := range resp.Nodes {
		nodes++
		if n.Status != nil && *n.Status == "HEALTHY" {
			healthy++
		}
	}
	return nodes, healthy, nil
}

// Path says where the store lives: the cluster's address and the tenant.
func (s *Store) Path() string { return s.url + "#" + s.tenant }

// Tenant is the index name the store works in.
func (s *Store) Tenant() string { return s.tenant }

// Close releases the store; the cluster keeps everything.
func (s *Store) Close() error { return nil }

// A Store is a whole [store.Store].
var _ store.Store = (*Store)(nil)
