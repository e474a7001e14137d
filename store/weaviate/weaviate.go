package weaviate

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"sync"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/auth"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/connection"

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
}

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
	// held holds the models whose vector collection and tenant are known
	// to exist (nothing drops them), so that a search does not ask.
	held *sync.Map
}

// tenantName is what Weaviate accepts as a tenant's name.
var tenantName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Open connects to the cluster at cfg.URL and creates the collections and
// the tenant when they are missing.
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
		held: &sync.Map{},
	}
	if err := s.ensureSchema(ctx); err != nil {
		return nil, fmt.Errorf("opening weaviate index at %q: %w", cfg.URL, err)
	}
	return s, nil
}

// Path says where the store lives: the cluster's address and the tenant.
func (s *Store) Path() string { return s.url + "#" + s.tenant }

// Tenant is the index name the store works in.
func (s *Store) Tenant() string { return s.tenant }

// Close releases the store; the cluster keeps everything.
func (s *Store) Close() error { return nil }

// A Store is a whole [store.Store].
var _ store.Store = (*Store)(nil)
