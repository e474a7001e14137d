package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/oraculo/oraculo"
	"github.com/oraculo/oraculo/link"
)

// The backends an index can live in (--backend).
const (
	// backendSQLite is one SQLite file (--db): the default.
	backendSQLite = "sqlite"
	// backendWeaviate is a Weaviate cluster (--weaviate-url), one tenant
	// per index (--collection): nothing local is read or written.
	backendWeaviate = "weaviate"
)

// The environment variables that choose the backend; a flag beats them.
const (
	envBackend     = "ORACULO_BACKEND"
	envWeaviateURL = "ORACULO_WEAVIATE_URL"
	// envWeaviateKey is the cluster's API key: never a flag, so that it
	// is not seen in a process list or a shell's history, and never
	// printed.
	envWeaviateKey = "ORACULO_WEAVIATE_KEY"
)

// indexFlags are the flags of a command that reads or writes the index:
// where it lives. After open, cluster is the Weaviate store the engine
// runs on (nil for SQLite), for what else the command keeps there.
type indexFlags struct {
	fs         *flag.FlagSet
	db         *string
	backend    *string
	url        *string
	collection *string
	// replication is --weaviate-replication: the replication factor of
	// the collections a first ingest creates in the cluster.
	replication *int

	cluster *oraculo.Cluster
	// stderr receives the cluster's warnings (see [oraculo.Cluster]'s Warnings).
	stderr io.Writer
}

// newIndexFlags makes the flag set of a command that opens the index:
// the flags every command shares and those that say where the index is.
func newIndexFlags(name string, stderr io.Writer) (*flag.FlagSet, *indexFlags) {
	fs, db := newFlags(name, stderr)
	f := &indexFlags{fs: fs, db: db, stderr: stderr}
	f.backend = fs.String("backend", "", "where the index lives: sqlite (one file, --db) or weaviate (a cluster, --weaviate-url; --db is then unused) (default: $ORACULO_BACKEND, else sqlite)")
	f.url = fs.String("weaviate-url", "", "with --backend weaviate: a node's address, http://host:port (default: $ORACULO_WEAVIATE_URL); an API key comes from $ORACULO_WEAVIATE_KEY")
	f.collection = fs.String("collection", "", "with --backend weaviate: the index's name in the cluster (its Weaviate tenant), so that several indexes share one cluster (default "+oraculo.DefaultCollection+")")
	f.replication = fs.Int("weaviate-replication", 0, "with --backend weaviate: how many nodes hold each object, for the collections the first ingest into the cluster creates (3 on a cluster of three keeps answering with a node down); an existing collection with another factor is an error (default: the cluster's, 1)")
	return fs, f
}

// location is where a command's index is: a file, or a cluster and a
// collection in it.
type location struct {
	backend    string
	db         string // SQLite's file
	url        string // a Weaviate node's address
	apiKey     string
	collection string
	// replication is the factor of the collections Open creates (0: the
	// cluster's default; existing ones taken as they are).
	replication int
}

// cluster reports whether the index is in a Weaviate cluster.
func (l location) cluster() bool { return l.backend == backendWeaviate }

// collectionName is what Weaviate takes as a tenant's name.
var collectionName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// locate resolves where the index is: each flag beats its environment
// variable ($ORACULO_BACKEND, $ORACULO_WEAVIATE_URL; the key only from
// $ORACULO_WEAVIATE_KEY), and the backend is SQLite unless one says
// weaviate. A Weaviate flag given for SQLite is a mistake, not ignored;
// the Weaviate variables are read only for Weaviate. fromFile reports
// whether a flag's value came from the config file, which serves every
// backend: such a Weaviate flag is left out for SQLite. Its errors are
// usage errors in the interface language.
func locate(backendFlag, urlFlag, collectionFlag, db string, getenv func(string) string, fromFile func(string) bool) (location, error) {
	l := location{backend: backendSQLite, db: db}
	switch {
	case backendFlag != "":
		l.backend = strings.ToLower(strings.TrimSpace(backendFlag))
		if l.backend != backendSQLite && l.backend != backendWeaviate {
			return l, usageError{errors.New(msg("backend-unknown", "--backend", backendFlag))}
		}
	case getenv(envBackend) != "":
		l.backend = strings.ToLower(strings.TrimSpace(getenv(envBackend)))
		if l.backend != backendSQLite && l.backend != backendWeaviate {
			return l, usageError{errors.New(msg("backend-unknown", "$"+envBackend, getenv(envBackend)))}
		}
	}
	if !l.cluster() {
		for name, v := range map[string]string{"weaviate-url": urlFlag, "collection": collectionFlag} {
			if v != "" && !fromFile(name) {
				return l, usageError{errors.New(msg("backend-flag-weaviate", "--"+name))}
			}
		}
		return l, nil
	}
	l.db = ""
	l.url = strings.TrimSpace(urlFlag)
	if l.url == "" {
		l.url = strings.TrimSpace(getenv(envWeaviateURL))
	}
	if l.url == "" {
		return l, usageError{errors.New(msg("weaviate-needs-url"))}
	}
	if u, err := url.Parse(l.url); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		// A URL with user:password@ is refused (it would be printed
		// wherever the index's address is), and not printed here.
		shown := l.url
		if err == nil && u.User != nil {
			shown = u.Redacted()
		}
		return l, usageError{errors.New(msg("weaviate-bad-url", shown))}
	}
	l.apiKey = getenv(envWeaviateKey)
	l.collection = collectionFlag
	if l.collection == "" {
		l.collection = oraculo.DefaultCollection
	}
	if !collectionName.MatchString(l.collection) {
		return l, usageError{errors.New(msg("weaviate-bad-collection", l.collection))}
	}
	return l, nil
}

// location resolves the flags against the environment.
func (f *indexFlags) location() (location, error) {
	fromFile := func(name string) bool {
		hf := flagsOf(f.fs)
		return hf != nil && hf.given != nil && !hf.given[name]
	}
	l, err := locate(*f.backend, *f.url, *f.collection, *f.db, os.Getenv, fromFile)
	if err != nil {
		return l, err
	}
	switch r := *f.replication; {
	case r != 0 && !l.cluster() && !fromFile("weaviate-replication"):
		return l, usageError{errors.New(msg("backend-flag-weaviate", "--weaviate-replication"))}
	case r < 0:
		return l, usageError{errors.New(msg("weaviate-bad-replication", r))}
	case l.cluster():
		l.replication = r
	}
	return l, nil
}

// connect opens the cluster's store of a Weaviate index (once; the store
// is kept in f.cluster). existing is for the commands that read: nothing
// is created, and a collection no ingest began in is an error that says
// to run one.
func (f *indexFlags) connect(ctx context.Context, l location, existing bool) (*oraculo.Cluster, error) {
	if f.cluster != nil {
		return f.cluster, nil
	}
	ws, err := oraculo.OpenCluster(ctx, oraculo.ClusterConfig{URL: l.url, APIKey: l.apiKey, Tenant: l.collection, Existing: existing, Replication: l.replication})
	switch {
	case errors.Is(err, oraculo.ErrClusterUnreachable):
		return nil, errors.New(msg("weaviate-unreachable", l.url, causeOf(err)))
	case errors.Is(err, oraculo.ErrClusterUnauthorized) && l.apiKey == "":
		return nil, errors.New(msg("weaviate-needs-key", l.url))
	case errors.Is(err, oraculo.ErrClusterUnauthorized):
		return nil, errors.New(msg("weaviate-bad-key", l.url))
	case errors.Is(err, oraculo.ErrClusterNoIndex):
		return nil, notIndexed{msg("weaviate-no-index", l.collection, l.url)}
	case err != nil:
		return nil, err
	}
	f.cluster = ws
	if f.stderr != nil {
		for _, w := range ws.Warnings() {
			fmt.Fprintln(f.stderr, msg("warning", w))
		}
	}
	return ws, nil
}

// causeOf is what follows the last ": " of an error from the cluster
// (what the network said), or the whole text.
func causeOf(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// notIndexed is a translated error that says the index holds nothing yet
// ([oraculo.ErrNotIndexed]).
type notIndexed struct{ text string }

func (e notIndexed) Error() string { return e.text }
func (e notIndexed) Unwrap() error { return oraculo.ErrNotIndexed }

// open opens the engine on the index the flags name. existing is for the
// commands that read: an index that is not there is an error saying to
// run oraculo ingest, not a new empty one.
func (f *indexFlags) open(ctx context.Context, existing bool, opts ...oraculo.Option) (*oraculo.Engine, error) {
	l, err := f.location()
	if err != nil {
		return nil, err
	}
	if !l.cluster() {
		open := oraculo.Open
		if existing {
			open = oraculo.OpenExisting
		}
		eng, err := open(ctx, oraculo.DBPath(l.db), opts...)
		return eng, usageIfConfig(err)
	}
	ws, err := f.connect(ctx, l, existing)
	if err != nil {
		return nil, err
	}
	eng, err := oraculo.OpenStore(ctx, ws, opts...)
	return eng, usageIfConfig(err)
}

// linkKey returns the key that signs the links to the index's passages:
// for SQLite a file beside the index ([link.LoadKey]), for a cluster a
// setting in it, made once, so that every server of the index signs and
// accepts the same links ([link.StoredKey]).
func (f *indexFlags) linkKey(ctx context.Context) ([]byte, error) {
	l, err := f.location()
	if err != nil {
		return nil, err
	}
	if !l.cluster() {
		return link.LoadKey(l.db)
	}
	ws, err := f.connect(ctx, l, true)
	if err != nil {
		return nil, err
	}
	return link.StoredKey(ctx, ws)
}

// describe says where the index is, for doctor: the backend and the file,
// or the cluster's address and the collection (never the API key).
func (l location) describe() string {
	if l.cluster() {
		return msg("backend-weaviate", l.url, l.collection)
	}
	return msg("backend-sqlite", oraculo.DBPath(l.db))
}

func init() {
	// A config file may set them too (TestConfigKnownFlags checks it).
	for _, f := range []string{"backend", "weaviate-url", "collection", "weaviate-replication"} {
		knownFlags[f] = true
	}
	// The flags' Spanish lives here, with them (TestCommandHelp checks it).
	flagUsageES["backend"] = "dónde vive el índice: sqlite (un archivo, --db) o weaviate (un clúster, --weaviate-url; --db no se usa entonces) (por defecto: $ORACULO_BACKEND, si no sqlite)"
	flagUsageES["weaviate-url"] = "con --backend weaviate: la dirección de un nodo, http://host:puerto (por defecto: $ORACULO_WEAVIATE_URL); la clave de API, si hace falta, se lee de $ORACULO_WEAVIATE_KEY"
	flagUsageES["collection"] = "con --backend weaviate: el nombre del índice en el clúster (su tenant de Weaviate), para que varios índices compartan un clúster (por defecto " + oraculo.DefaultCollection + ")"
	flagUsageES["weaviate-replication"] = "con --backend weaviate: cuántos nodos guardan cada objeto, para las colecciones que crea la primera ingesta en el clúster (3 en un clúster de tres sigue respondiendo con un nodo caído); una colección que ya existe con otro factor es un error (por defecto: el del clúster, 1)"
	for id, texts := range map[string][2]string{
		"weaviate-bad-replication": {"--weaviate-replication %d: a replication factor is 1 or more", "--weaviate-replication %d: un factor de replicación es 1 o más"},
		"backend-unknown":          {"%s must be sqlite or weaviate, not %q", "%s debe ser sqlite o weaviate, no %q"},
		"backend-flag-weaviate":    {"%s is for an index in a Weaviate cluster: add --backend weaviate (or set $ORACULO_BACKEND=weaviate)", "%s es para un índice en un clúster de Weaviate: añade --backend weaviate (o fija $ORACULO_BACKEND=weaviate)"},
		"weaviate-needs-url":       {"the weaviate backend needs a node's address: --weaviate-url http://host:port or $ORACULO_WEAVIATE_URL", "el backend weaviate necesita la dirección de un nodo: --weaviate-url http://host:puerto o $ORACULO_WEAVIATE_URL"},
		"weaviate-bad-url":         {"%q is not a Weaviate node's address: want http://host:port or https://host:port (an API key goes in $ORACULO_WEAVIATE_KEY, not in the URL)", "%q no es la dirección de un nodo de Weaviate: se espera http://host:puerto o https://host:puerto (la clave de API va en $ORACULO_WEAVIATE_KEY, no en la URL)"},
		"weaviate-bad-collection":  {"--collection %q: a collection's name is 1 to 64 letters, digits, _ or - (it is a Weaviate tenant)", "--collection %q: el nombre de una colección tiene de 1 a 64 letras, cifras, _ o - (es un tenant de Weaviate)"},
		"weaviate-unreachable":     {"cannot reach the Weaviate cluster at %s (is it running? is --weaviate-url right?): %s", "no se puede contactar con el clúster de Weaviate en %s (¿está en marcha? ¿es correcta --weaviate-url?): %s"},
		"weaviate-needs-key":       {"the Weaviate cluster at %s asks for an API key: set $ORACULO_WEAVIATE_KEY", "el clúster de Weaviate en %s pide una clave de API: fija $ORACULO_WEAVIATE_KEY"},
		"weaviate-bad-key":         {"the Weaviate cluster at %s refused the API key in $ORACULO_WEAVIATE_KEY", "el clúster de Weaviate en %s rechazó la clave de API de $ORACULO_WEAVIATE_KEY"},
		"weaviate-no-index":        {"collection %q of the Weaviate cluster at %s holds no index yet: run `oraculo ingest` first (with the same --backend, --weaviate-url and --collection)", "la colección %q del clúster de Weaviate en %s aún no tiene índice: ejecuta antes `oraculo ingest` (con los mismos --backend, --weaviate-url y --collection)"},
		"backend-sqlite":           {"sqlite, index file %s", "sqlite, archivo del índice %s"},
		"backend-weaviate":         {"weaviate at %s, collection %q", "weaviate en %s, colección %q"},
	} {
		catalog[id] = texts
	}
}
